package io.github.pgoutput.soak;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Command line of {@link WorkerKillScenario} ({@code scenarios/worker-kill.sh}): {@code --runs} runs of each mode in
 * {@code --modes}, interleaved (alo, eosp, eosc, alo, ...) so a slower spell of the shared machine does not land on
 * one mode only. Prints one {@code worker-kill result} line per run and a summary per mode. Exit code 0 when every
 * run of an exactly-once mode had each row exactly once and every at-least-once run lost nothing, 1 otherwise, 2 on
 * bad arguments.
 *
 * <p>Options: {@code --rows N} (1000000), {@code --modes alo,eosp,eosc}, {@code --runs N} (3), {@code --heap 3g},
 * {@code --timeout 600s}, {@code --no-kill} (measure the uninterrupted delivery instead), {@code --snapshot} (the rows
 * are in the table before the connector starts and come with its snapshot, {@code snapshot.mode=initial}, so the kill
 * lands in the snapshot), {@code --incremental} (the same rows, read by an incremental snapshot that a signal-table
 * row starts while the connector streams), {@code --keyless} (the kill inside an exactly-once snapshot of two tables
 * without a key, {@link KeylessSnapshotKill}, modes eosp and eosc; {@code --rows} rows in the first), and repeatable
 * {@code --worker key=value} and {@code --connector key=value} overrides.
 */
public final class WorkerKillRun {

    private WorkerKillRun() {
    }

    public static void main(String[] args) throws Exception {
        int rows = 1_000_000;
        int runs = 3;
        String heap = "3g";
        boolean kill = true;
        boolean keyless = false;
        WorkerKillScenario.RowSource source = WorkerKillScenario.RowSource.STREAMED_TRANSACTION;
        Duration timeout = Duration.ofSeconds(600);
        List<DeliveryGuarantee> modes = List.of(DeliveryGuarantee.values());
        Map<String, String> worker = new LinkedHashMap<>();
        Map<String, String> connector = new LinkedHashMap<>();
        try {
            for (int i = 0; i < args.length; i++) {
                String arg = args[i];
                switch (arg) {
                    case "--rows" -> rows = Integer.parseInt(args[++i]);
                    case "--runs" -> runs = Integer.parseInt(args[++i]);
                    case "--heap" -> heap = args[++i];
                    case "--timeout" -> timeout = Duration.ofSeconds(Long.parseLong(args[++i].replaceAll("s$", "")));
                    case "--no-kill" -> kill = false;
                    case "--snapshot" -> source = WorkerKillScenario.RowSource.INITIAL_SNAPSHOT;
                    case "--incremental" -> source = WorkerKillScenario.RowSource.INCREMENTAL_SNAPSHOT;
                    case "--keyless" -> keyless = true;
                    case "--modes" -> modes = List.of(args[++i].split(",")).stream().map(DeliveryGuarantee::of).toList();
                    case "--worker" -> put(worker, args[++i]);
                    case "--connector" -> put(connector, args[++i]);
                    default -> throw new IllegalArgumentException("unknown option " + arg);
                }
            }
        } catch (RuntimeException e) {
            System.err.println("worker-kill: " + e.getMessage() + " (options: --rows N --runs N --modes alo,eosp,eosc"
                    + " --heap 3g --timeout 600s --no-kill --snapshot --incremental --keyless --worker k=v --connector k=v)");
            System.exit(2);
            return;
        }
        Path root = Path.of(System.getProperty("pgoutput.root", ".")).toAbsolutePath().normalize();
        Consumer<String> log = line -> System.out.println(Instant.now() + " " + line);
        boolean passed = true;
        Map<DeliveryGuarantee, List<WorkerKillScenario.Result>> results = new LinkedHashMap<>();
        try (WorkerKillScenario scenario = new WorkerKillScenario(root,
                new WorkerKillScenario.Settings(heap, worker, connector, timeout), log)) {
            Runtime.getRuntime().addShutdownHook(new Thread(scenario::close, "worker-kill-stop"));
            log.accept("worker-kill: run folder " + scenario.workDir() + "; rows " + rows + ", modes " + modes
                    + ", runs " + runs + ", worker overrides " + worker + ", connector overrides " + connector);
            scenario.start();
            if (keyless) {
                KeylessSnapshotKill keylessKill = new KeylessSnapshotKill(scenario, log);
                for (int run = 0; run < runs; run++) {
                    for (DeliveryGuarantee mode : modes) {
                        if (mode.exactlyOnce()) {
                            KeylessSnapshotKill.Result result = keylessKill.run(mode, rows, connector);
                            log.accept(result.line());
                            passed &= result.exact();
                        }
                    }
                }
                System.exit(passed ? 0 : 1);
            }
            for (int run = 0; run < runs; run++) {
                for (DeliveryGuarantee mode : modes) {
                    WorkerKillScenario.Result result = scenario.run(mode, rows, kill, Map.of(), source);
                    log.accept(result.line());
                    results.computeIfAbsent(mode, m -> new ArrayList<>()).add(result);
                    passed &= mode.exactlyOnce() ? result.exact() : result.lost() == 0;
                }
            }
        } catch (Exception | Error e) {
            System.err.println("worker-kill failed: " + e);
            e.printStackTrace();
            System.exit(1);
        }
        results.forEach((mode, list) -> System.out.println("worker-kill summary mode=" + mode.id + " runs=" + list.size()
                + " recovery_ms=" + list.stream().map(r -> Long.toString(r.recoveryMillis())).toList()
                + " task_running_ms=" + list.stream().map(r -> Long.toString(r.taskRunningMillis())).toList()
                + " first_record_ms=" + list.stream().map(r -> Long.toString(r.firstRecordMillis())).toList()
                + " delivery_ms=" + list.stream().map(r -> Long.toString(r.deliveryMillis())).toList()
                + " lost=" + list.stream().mapToLong(WorkerKillScenario.Result::lost).sum()
                + " duplicates=" + list.stream().mapToLong(WorkerKillScenario.Result::duplicates).sum()));
        System.exit(passed ? 0 : 1);
    }

    private static void put(Map<String, String> into, String keyValue) {
        int eq = keyValue.indexOf('=');
        if (eq < 1) {
            throw new IllegalArgumentException("expected key=value, not '" + keyValue + "'");
        }
        into.put(keyValue.substring(0, eq), keyValue.substring(eq + 1));
    }
}
