package io.github.pgoutput.bench;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * Command line of {@link SideBySide}.
 *
 * @param results    JSON-lines file every measurement is appended to
 * @param workloads  in the order given
 * @param runs       runs per workload and heap; legs alternate their order between runs
 * @param heaps      worker heaps ({@code -Xmx}), e.g. 2g, 256m
 * @param rows       row counts overriding the sizes
 * @param contenders which connectors run (both by default); none with {@code --limits-only}, which measures only
 *                   PostgreSQL's own rate per workload, heap and run (that limit measured again without the legs)
 * @param limits     whether the limits are measured after each run
 * @param jfrDir     when set, every worker runs with Flight Recorder and dumps its recording here
 * @param fixedHeap  {@code --fixed-heap}: every worker starts with {@code -Xms} equal to its {@code -Xmx}
 * @param connectorOverrides {@code --connector KEY=VALUE}, repeatable: set in the config of every connector contender
 *                   (not the ceiling), e.g. {@code producer.override.buffer.memory=8388608}
 * @param workerOverrides {@code --worker KEY=VALUE}, repeatable: set in the properties of every worker, the ceiling's
 *                   too, e.g. {@code producer.batch.size=262144} (a setting of the deployment, the same for all)
 * @param avro       {@code --converter avro}: every connector's key and value go through Apicurio's Avro converter and a
 *                   registry ({@link AvroRegistry}) instead of the worker's JSON converter; the direct contenders,
 *                   which need ByteArrayConverter, do not run
 * @param exactlyOnce {@code --exactly-once}: only ours at-least-once against its two exactly-once variants, on
 *                   W1–W3 at 2g without the limits unless given otherwise; records are counted by a read_committed
 *                   consumer in every leg (end offsets count the transaction markers too)
 */
record Options(Path results, List<Workload> workloads, int runs, List<String> heaps, Map<Workload, Integer> rows,
               List<Contender> contenders, boolean limits, Path jfrDir, boolean exactlyOnce, boolean fixedHeap,
               Map<String, String> connectorOverrides, Map<String, String> workerOverrides, boolean avro) {

    static Options parse(String[] args) {
        Path results = null;
        List<Workload> workloads = List.of(Workload.values());
        int runs = 3;
        List<String> heaps = List.of("2g", "256m");
        Map<Workload, Integer> rows = new EnumMap<>(Workload.class);
        List<Contender> contenders = List.of(Contender.OURS, Contender.DEBEZIUM, Contender.CEILING);
        boolean limits = true;
        Path jfrDir = null;
        boolean exactlyOnce = false;
        boolean fixedHeap = false;
        Map<String, String> connectorOverrides = new java.util.LinkedHashMap<>();
        Map<String, String> workerOverrides = new java.util.LinkedHashMap<>();
        boolean avro = false;
        boolean limitsOnly = false;
        boolean workloadsGiven = false;
        boolean heapsGiven = false;
        boolean contendersGiven = false;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--results" -> results = Path.of(args[++i]);
                case "--workloads" -> {
                    workloads = split(args[++i]).stream().map(w -> Workload.valueOf(w.toUpperCase())).toList();
                    workloadsGiven = true;
                }
                case "--runs" -> runs = Integer.parseInt(args[++i]);
                case "--heaps" -> {
                    heaps = split(args[++i]).stream().map(String::toLowerCase).toList();
                    heapsGiven = true;
                }
                case "--rows" -> {
                    String[] kv = args[++i].split("=", 2);
                    rows.put(Workload.valueOf(kv[0].toUpperCase()), Integer.parseInt(kv[1]));
                }
                case "--contenders" -> {
                    contenders = split(args[++i]).stream().map(Contender::parse).toList();
                    contendersGiven = true;
                }
                case "--exactly-once" -> exactlyOnce = true;
                case "--no-limits" -> limits = false;
                case "--fixed-heap" -> fixedHeap = true;
                case "--jfr" -> jfrDir = Path.of(args[++i]);
                case "--connector" -> {
                    String[] kv = args[++i].split("=", 2);
                    if (kv.length != 2) {
                        throw new IllegalArgumentException("--connector takes KEY=VALUE, not '" + args[i] + "'");
                    }
                    connectorOverrides.put(kv[0], kv[1]);
                }
                case "--converter" -> {
                    String converter = args[++i];
                    if (!converter.equals("json") && !converter.equals("avro")) {
                        throw new IllegalArgumentException("--converter takes json or avro, not '" + converter + "'");
                    }
                    avro = converter.equals("avro");
                }
                case "--worker" -> {
                    String[] kv = args[++i].split("=", 2);
                    if (kv.length != 2) {
                        throw new IllegalArgumentException("--worker takes KEY=VALUE, not '" + args[i] + "'");
                    }
                    workerOverrides.put(kv[0], kv[1]);
                }
                case "--limits-only" -> limitsOnly = true;
                default -> throw new IllegalArgumentException("unknown argument '" + args[i] + "'");
            }
        }
        if (results == null) {
            throw new IllegalArgumentException("--results FILE is required");
        }
        if (exactlyOnce) {
            workloads = workloadsGiven ? workloads : List.of(Workload.W1, Workload.W2, Workload.W3);
            heaps = heapsGiven ? heaps : List.of("2g");
            contenders = contendersGiven ? contenders
                    : List.of(Contender.OURS, Contender.OURS_EOS_POLL, Contender.OURS_EOS_CONNECTOR);
            limits = false;
        }
        if (limitsOnly) {
            if (exactlyOnce || avro || contendersGiven || !limits) {
                throw new IllegalArgumentException("--limits-only measures PostgreSQL's own rate alone: not with"
                        + " --exactly-once, --converter avro, --contenders or --no-limits");
            }
            contenders = List.of();
        }
        if (avro && contenders.stream().anyMatch(Contender::direct)) {
            throw new IllegalArgumentException("--converter avro does not go with the direct contenders (ours-direct,"
                    + " ceiling-direct): direct.encoding writes JSON bytes through ByteArrayConverter");
        }
        return new Options(results, workloads, runs, heaps, rows, contenders, limits, jfrDir, exactlyOnce, fixedHeap,
                Map.copyOf(connectorOverrides), Map.copyOf(workerOverrides), avro);
    }

    private static List<String> split(String list) {
        List<String> items = new ArrayList<>();
        for (String item : list.split(",")) {
            if (!item.isBlank()) {
                items.add(item.strip());
            }
        }
        return items;
    }
}
