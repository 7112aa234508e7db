package io.github.pgoutput.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.github.pgoutput.testing.LoopbackPorts;
import io.github.pgoutput.testing.kafka.ChildProcesses;
import io.github.pgoutput.testing.kafka.ConnectRest;
import io.github.pgoutput.testing.kafka.KafkaProcesses;
import io.github.pgoutput.localrun.LocalPostgres;
import io.github.pgoutput.testing.PostgresInstallation;

/**
 * {@code bench/side-by-side.sh}: PostgreSQL 17, one KRaft broker and, per leg, a fresh distributed Connect worker
 * (separate JVMs, started by local-run's {@link KafkaProcesses}) with our plugin and Debezium's on one plugin.path.
 * Per workload and heap, each run has one leg per connector (order alternating between runs) on a fresh slot and
 * fresh topics, then the limits. Every measurement is appended as one JSON line to the results file.
 *
 * <pre>
 * SideBySide --results FILE [--workloads W5,W1] [--runs 3] [--heaps 2g,256m] [--rows W5=1000000]
 *            [--contenders ours,dbz,ours-eos-poll,ours-eos-connector] [--no-limits] [--jfr DIR] [--exactly-once]
 * </pre>
 */
public final class SideBySide {

    /** PostgreSQL settings: logical decoding at its default work memory (64MB, what W4 names), WAL without fsync. */
    private static final Map<String, String> PG_SETTINGS = LocalPostgres.settings("wal_level", "logical",
            "max_replication_slots", "20", "max_wal_senders", "20", "logical_decoding_work_mem", "64MB", "fsync", "off",
            "max_wal_size", "8GB", "shared_buffers", "512MB", "autovacuum", "off");
    private static final ObjectMapper JSON = new ObjectMapper();
    /**
     * W7: the signal comes this long after the concurrent changes started, and they run until the topic holds snapshot
     * reads of this share of the rows (at most for the given time), so that they run during the contender's snapshot.
     */
    private static final long W7_SIGNAL_AFTER_MS = 2_000;
    private static final double W7_CHANGES_UNTIL_READ = 0.95;
    private static final long W7_CHANGES_MAX_SECONDS = 900;
    /** {@code getconf CLK_TCK} on Linux (x86-64 and arm64 kernels alike): the unit of /proc/pid/stat's times. */
    private static final int CLOCK_TICKS_PER_SECOND = 100;

    private final Options options;
    private final Path root;
    private final Path workDir;
    private final ChildProcesses children;
    private final String kafkaClassPath;
    private final Path clientBin = Path.of(System.getenv().getOrDefault("PG_CLIENT_BIN", "/usr/lib/postgresql/15/bin"));
    private LocalPostgres pg;
    private String bootstrap;
    private KafkaProbe kafka;
    private Limits limits;
    /** With {@code --converter avro}; null otherwise. */
    private AvroRegistry registry;

    private SideBySide(Options options, Path root, Path workDir, ChildProcesses children, String kafkaClassPath) {
        this.options = options;
        this.root = root;
        this.workDir = workDir;
        this.children = children;
        this.kafkaClassPath = kafkaClassPath;
    }

    public static void main(String[] args) throws Exception {
        Options options = Options.parse(args);
        Path root = Path.of(System.getProperty("pgoutput.root")).toAbsolutePath();
        String kafkaClassPath = Files.readString(Path.of(System.getProperty("pgoutput.kafka.classpath.file"))).strip();
        Path workDir = Files.createTempDirectory("side-by-side-");
        ChildProcesses children = new ChildProcesses();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            children.stopAll();
            if (System.getenv("SIDE_BY_SIDE_KEEP") == null) {
                delete(workDir);
            }
        }, "side-by-side-stop"));
        try {
            new SideBySide(options, root, workDir, children, kafkaClassPath).run();
        } catch (Exception | Error e) {
            e.printStackTrace();
            System.err.println("side-by-side failed: " + e.getMessage() + " (work folder " + workDir
                    + "; set SIDE_BY_SIDE_KEEP=1 to keep it)");
            System.exit(1);
        }
        System.exit(0);
    }

    private void run() throws Exception {
        PostgresInstallation pg17 = PostgresInstallation.of(17);
        log("postgres 17 from " + pg17.binDirectory() + ", work folder " + workDir);
        pg = LocalPostgres.start(pg17, PG_SETTINGS, "bench", workDir, children);
        try (Connection connection = pg.connect(); Statement statement = connection.createStatement()) {
            statement.execute(Workload.TABLE_DDL);
            statement.execute("CREATE PUBLICATION " + Workload.PUBLICATION + " FOR TABLE public.bench");
            record(Map.of("kind", "server", "version", Limits.single(statement, "SELECT version()")));
        }
        int kafkaPort = LoopbackPorts.take();
        KafkaProcesses.startBroker(kafkaClassPath, kafkaPort, LoopbackPorts.take(), Map.of(), workDir, children);
        bootstrap = "127.0.0.1:" + kafkaPort;
        log("kafka broker at " + bootstrap);
        kafka = new KafkaProbe(bootstrap);
        if (options.avro()) {
            registry = AvroRegistry.start(root, workDir, children, LoopbackPorts.take());
            log("schema registry started; every connector writes Avro");
        }
        limits = new Limits(pg, clientBin, bootstrap);
        for (Workload workload : options.workloads()) {
            int rows = options.rows().getOrDefault(workload, workload.defaultRows);
            log(workload + ": preparing the table (" + rows + " rows)");
            workload.prepareTable(pg, rows);
            if (workload.readsTable()) {
                // The first leg would otherwise read the freshly written table from disk and the others from the page
                // cache: one COPY first, so every leg starts from the same cache.
                log(workload + ": reading the table once to warm the page cache (" + String.format("%.1f", limits.copySeconds()) + " s)");
            }
            for (String heap : options.heaps()) {
                for (int run = 1; run <= options.runs(); run++) {
                    List<Contender> order = new ArrayList<>(options.contenders());
                    if (run % 2 == 0) {
                        java.util.Collections.reverse(order);
                    }
                    int ourRecordBytes = 0;
                    for (Contender contender : order) {
                        int bytes = leg(contender, workload, rows, heap, run);
                        if (contender == Contender.OURS) {
                            ourRecordBytes = bytes;
                        }
                    }
                    if (options.limits()) {
                        limits(workload, rows, heap, run, ourRecordBytes);
                    }
                }
            }
        }
        kafka.close();
    }

    /**
     * The ceiling's plugin.path: a copy of our plugin folder (the record builder it uses) with its own jar added, so
     * that no class of ours is on the worker's plugin.path twice. Made once per run of the benchmark.
     */
    private Path ceilingPluginPath() throws IOException {
        Path path = workDir.resolve("ceiling-plugin");
        Path folder = path.resolve("connect-ceiling");
        if (Files.isDirectory(folder)) {
            return path;
        }
        Files.createDirectories(folder);
        try (Stream<Path> ours = Files.list(root.resolve("packaging/target/plugin/kafka-connect-pgoutput"));
             Stream<Path> ceiling = Files.list(root.resolve("bench/connect-ceiling/target"))) {
            for (Path jar : Stream.concat(ours, ceiling.filter(p -> p.getFileName().toString().endsWith(".jar"))).toList()) {
                Files.copy(jar, folder.resolve(jar.getFileName()));
            }
        }
        return path;
    }

    /** One connector, one run: returns the average record size in its topic. */
    private int leg(Contender contender, Workload workload, int rows, String heap, int run) throws Exception {
        String name = (contender.prefix + "_" + workload + "_" + heap + "_r" + run).toLowerCase();
        String topic = name + ".public.bench";
        Path legDir = Files.createDirectories(workDir.resolve(name));
        workload.resetBetweenLegs(pg, rows);
        List<String> jvm = new ArrayList<>();
        if (options.fixedHeap()) {
            jvm.add("-Xms" + heap);
        }
        if (options.jfrDir() != null) {
            Files.createDirectories(options.jfrDir());
            jvm.add("-XX:StartFlightRecording=settings=profile,dumponexit=true,filename="
                    + options.jfrDir().resolve(name + ".jfr").toAbsolutePath());
        }
        ChildProcesses workerProcesses = new ChildProcesses();
        children.onStop(workerProcesses::stopAll);
        int restPort = LoopbackPorts.take();
        String pluginPath = contender.isCeiling() ? ceilingPluginPath().toString()
                : root.resolve("packaging/target/plugin") + "," + root.resolve("bench/debezium-plugin/target/plugin");
        if (registry != null) {
            pluginPath += "," + AvroRegistry.pluginPath(root);
        }
        log(name + ": starting a worker (-Xmx" + heap + ")");
        Process worker = KafkaProcesses.startWorker(kafkaClassPath, bootstrap,
                new KafkaProcesses.WorkerSettings(restPort, pluginPath, heap, jvm, workerProperties(contender)), legDir,
                workerProcesses);
        ConnectRest rest = new ConnectRest("http://127.0.0.1:" + restPort);
        ObjectNode config = contender.config(pg, workload, rows, name, legDir.resolve("spill"), bootstrap);
        if (!contender.isCeiling()) {
            options.connectorOverrides().forEach(config::put);
        }
        if (registry != null) {
            registry.connectorConverters().forEach(config::put);
        }
        long expected = contender.expectedRecords(workload, rows);
        long start;
        double cpuAtStart;
        long lastCommit = 0;
        W7Load load = null;
        try (Connection connection = pg.connect(); Statement statement = connection.createStatement()) {
            if (contender.isCeiling()) {
                // Its task builds its records and then waits for this moment, so that its start is not measured.
                long startAtMillis = System.currentTimeMillis() + 10_000;
                config.put("ceiling.start.at.ms", String.valueOf(startAtMillis));
                rest.register(name, config);
                if (workload == Workload.W7) {
                    // The connectors' load in W7 (the changes, and the consumer rebuilding the table) runs here too,
                    // so that the ceiling is what the worker allows on the machine as loaded as theirs.
                    Thread.sleep(Math.max(0, startAtMillis - W7_SIGNAL_AFTER_MS - System.currentTimeMillis()));
                    load = startW7Load(topic, rows);
                }
                Thread.sleep(Math.max(0, startAtMillis - System.currentTimeMillis()));
                start = System.nanoTime();
                cpuAtStart = cpuSeconds(worker.pid());
            } else if (workload.snapshot()) {
                start = System.nanoTime();
                cpuAtStart = cpuSeconds(worker.pid());
                rest.register(name, config);
            } else if (workload.signalled()) {
                kafka.createTopic(Contender.signalTopic(name));
                rest.register(name, config);
                Slots.awaitActive(statement, name, 120);
                Thread.sleep(10_000); // the worker has finished its start (plugin scanning) by then
                if (workload == Workload.W7) {
                    load = startW7Load(topic, rows);
                    Thread.sleep(W7_SIGNAL_AFTER_MS); // the signal arrives while changes stream
                }
                start = System.nanoTime();
                cpuAtStart = cpuSeconds(worker.pid());
                kafka.send(Contender.signalTopic(name), name, "{\"type\": \"execute-snapshot\", \"data\": {\"data-collections\":"
                        + " [\"public.bench\"], \"type\": \"incremental\"}}");
            } else {
                rest.register(name, config);
                Slots.awaitActive(statement, name, 120);
                Thread.sleep(1000);
                start = System.nanoTime();
                cpuAtStart = cpuSeconds(worker.pid());
                lastCommit = workload.run(pg, rows, clientBin, legDir);
            }
            KafkaProbe.Arrival arrival;
            TableRebuild.Outcome rebuilt = null;
            if (load != null && !contender.isCeiling()) {
                log(name + ": changes run until " + topic + " holds reads of " + W7_CHANGES_UNTIL_READ
                        + " of the rows, then the topic must rebuild the table");
                try {
                    load.rebuild().awaitReads((long) (W7_CHANGES_UNTIL_READ * rows), 120, () -> rest.requireNotFailed(name));
                    lastCommit = load.changes().stop();
                    load.rebuild().expect(pg);
                    rebuilt = load.rebuild().awaitEqual(5, 120, () -> rest.requireNotFailed(name));
                } catch (IllegalStateException e) {
                    load.changes().stop();
                    // Recorded, not thrown: a contender that does not rebuild the table is a result of W7.
                    failedLeg(name, contender, workload, heap, run, load.changes(), e.getMessage());
                    endLeg(name, rest, workerProcesses, statement);
                    return 0;
                }
                arrival = new KafkaProbe.Arrival(rebuilt.firstReadNanos(), rebuilt.equalNanos());
            } else {
                log(name + ": waiting for " + expected + " records in " + topic);
                // Under exactly-once every Kafka transaction leaves a commit marker that takes an offset, so the end
                // offset is no record count there: with --exactly-once every leg (the at-least-once one too, for equal
                // measurement) counts what a read_committed consumer receives.
                arrival = options.exactlyOnce()
                        ? kafka.awaitCommittedRecords(topic, expected, 300, () -> rest.requireNotFailed(name))
                        : kafka.awaitRecords(topic, expected, 300, () -> rest.requireNotFailed(name));
                if (load != null) {
                    lastCommit = load.changes().stop();
                }
            }
            long end = arrival.last();
            long peakRssKib = vmHwmKib(worker.pid());
            double workerCpu = cpuSeconds(worker.pid()) - cpuAtStart;
            int recordBytes = kafka.averageRecordBytes(topic, 2000);
            endLeg(name, rest, workerProcesses, statement);
            double seconds = (end - start) / 1e9;
            Map<String, Object> result = legResult("leg", contender, workload, heap, run);
            result.put("converter", registry != null ? "avro" : contender.direct() ? "direct" : "json");
            result.put("counted_by", rebuilt != null ? "table_rebuilt" : options.exactlyOnce() ? "read_committed_consumer"
                    : "end_offset");
            result.put("records", rebuilt != null ? rebuilt.reads() : expected);
            result.put("events", rows);
            result.put("seconds", seconds);
            result.put("events_per_s", rows / seconds);
            result.put("commit_to_last_s", workload.readsTable() ? null : (end - lastCommit) / 1e9);
            result.put("workload_s", workload.readsTable() ? null : (lastCommit - start) / 1e9);
            // From the first record seen to the last: the rate at which the worker carried the records once there was
            // something to send (the ceiling's whole leg; after a whole-transaction workload's commit, ours).
            result.put("first_record_s", (arrival.first() - start) / 1e9);
            // W7's connectors: the snapshot's reads from the first to the last (not the moment the table was rebuilt).
            result.put("emission_events_per_s", rebuilt != null
                    ? rebuilt.reads() / Math.max(1e-3, (rebuilt.lastReadNanos() - rebuilt.firstReadNanos()) / 1e9)
                    : rows / Math.max(1e-3, (arrival.last() - arrival.first()) / 1e9));
            if (load != null) {
                result.put("changes", load.changes().changes());
            }
            if (rebuilt != null) {
                // W7: the topic rebuilt the table; its snapshot reads (fewer than the rows: a row that changed while
                // its chunk was read comes as the change) and the changes it carried.
                result.put("rebuilt", true);
                result.put("snapshot_reads", rebuilt.reads());
                result.put("change_records", rebuilt.changes());
                result.put("changes_after_signal_s", (lastCommit - start) / 1e9);
            }
            // The worker's CPU time (all its threads, the garbage collector's too) from the leg's start to its last
            // record, per event: what one event costs the worker, whatever the machine's other load.
            result.put("worker_cpu_s", workerCpu);
            result.put("worker_cpu_us_per_event", workerCpu * 1e6 / rows);
            result.put("peak_rss_kib", peakRssKib);
            result.put("record_bytes", recordBytes);
            record(result);
            log(name + ": " + String.format("%.1f s, %.0f events/s (first record after %.1f s, then %.0f events/s), worker CPU"
                    + " %.1f µs per event, peak RSS %d MiB", seconds, rows / seconds, (arrival.first() - start) / 1e9,
                    result.get("emission_events_per_s"), workerCpu * 1e6 / rows, peakRssKib / 1024));
            return recordBytes;
        } finally {
            if (load != null) {
                load.close();
            }
            workerProcesses.stopAll();
        }
    }

    /** W7's load on a leg: the changes, and the consumer rebuilding the table from the leg's topic. */
    private record W7Load(TableRebuild rebuild, ConcurrentChanges changes) implements AutoCloseable {
        @Override
        public void close() throws InterruptedException {
            changes.close();
            rebuild.close();
        }
    }

    /** Creates the leg's table topic, starts reading it from its beginning, then starts the changes. */
    private W7Load startW7Load(String topic, int rows) throws Exception {
        kafka.createTopic(topic);
        return new W7Load(TableRebuild.start(bootstrap, topic, rows), ConcurrentChanges.start(pg, rows, W7_CHANGES_MAX_SECONDS));
    }

    /** Removes what a leg left: its connector, its worker, its slot and its topics. */
    private void endLeg(String name, ConnectRest rest, ChildProcesses workerProcesses, Statement statement)
            throws Exception {
        rest.deleteConnector(name);
        workerProcesses.stopAll();
        Slots.drop(statement, name);
        kafka.deleteTopics(name);
    }

    /** A W7 leg whose topic did not rebuild the table: what differed, instead of its rate. */
    private void failedLeg(String name, Contender contender, Workload workload, String heap, int run,
                           ConcurrentChanges changes, String reason) throws IOException {
        Map<String, Object> result = legResult("leg_failed", contender, workload, heap, run);
        result.put("changes", changes.changes());
        result.put("reason", reason);
        record(result);
        log(name + ": FAILED: " + reason);
    }

    /** The first fields of a leg's result line: what it is, and which leg. */
    private static Map<String, Object> legResult(String kind, Contender contender, Workload workload, String heap, int run) {
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("kind", kind);
        result.put("workload", workload.toString());
        result.put("heap", heap);
        result.put("run", run);
        result.put("contender", contender.prefix);
        return result;
    }

    /** The worker properties of a leg beyond local-run's defaults: exactly-once support, and {@code --worker}. */
    private Map<String, String> workerProperties(Contender contender) {
        Map<String, String> properties = new LinkedHashMap<>(options.workerOverrides());
        if (contender.exactlyOnce()) {
            properties.put("exactly.once.source.support", "enabled");
        }
        return properties;
    }

    private void limits(Workload workload, int rows, String heap, int run, int recordBytes) throws Exception {
        String name = (workload + "_" + heap + "_r" + run).toLowerCase();
        Path dir = Files.createDirectories(workDir.resolve("limits_" + name));
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("kind", "limit");
        result.put("workload", workload.toString());
        result.put("heap", heap);
        result.put("run", run);
        result.put("events", rows);
        if (workload.readsTable()) {
            double copy = limits.copySeconds();
            result.put("copy_s", copy);
            result.put("copy_events_per_s", rows / copy);
        } else {
            workload.resetBetweenLegs(pg, rows);
            double emit = limits.recvlogicalSeconds(workload, rows, "limit_" + name, dir);
            result.put("recvlogical_s", emit);
            result.put("recvlogical_events_per_s", rows / emit);
        }
        if (recordBytes > 0) {
            long records = Math.min(rows, 1_000_000);
            String topic = "perf_" + name;
            double rate = limits.producerRecordsPerSecond(topic, records, recordBytes, dir);
            kafka.deleteTopics(topic);
            result.put("producer_records", records);
            result.put("producer_record_bytes", recordBytes);
            result.put("producer_records_per_s", rate);
        }
        record(result);
        log("limits " + name + ": " + result);
    }

    private void record(Map<String, Object> result) throws IOException {
        try (Writer out = Files.newBufferedWriter(options.results(), StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                StandardOpenOption.APPEND)) {
            out.write(JSON.writeValueAsString(result) + "\n");
        }
    }

    /** User and system CPU time a process has used so far, seconds ({@code utime + stime} of /proc/pid/stat). */
    static double cpuSeconds(long pid) throws IOException {
        String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
        // The command name, field 2, is in parentheses and may hold spaces: count fields after its closing one.
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        long ticks = Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
        return ticks / (double) CLOCK_TICKS_PER_SECOND;
    }

    /** Peak resident set size of a process ({@code VmHWM} in /proc/pid/status), KiB. */
    static long vmHwmKib(long pid) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
            if (line.startsWith("VmHWM:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", ""));
            }
        }
        throw new IllegalStateException("no VmHWM in /proc/" + pid + "/status");
    }


    private static void log(String line) {
        System.out.println(java.time.LocalTime.now().withNano(0) + " " + line);
        System.out.flush();
    }

    private static void delete(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        } catch (IOException | UncheckedIOException e) {
            System.err.println("could not delete " + dir + ": " + e);
        }
    }
}
