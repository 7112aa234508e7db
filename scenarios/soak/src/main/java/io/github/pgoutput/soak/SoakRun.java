package io.github.pgoutput.soak;

import java.io.PrintStream;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.function.Consumer;

/**
 * The fault-injection soak (issue 7): starts PostgreSQL 17, a broker and a Connect worker with the connector in
 * {@code stage} mode, runs the {@link Workload} while the {@link FaultInjector} injects faults for {@code --duration},
 * lets the connector catch up, reconciles the topics with the database and prints a {@link SoakReport}. Exit code 0
 * when it passed, 1 when a must-be-zero figure is not 0 (or the connector did not catch up), 2 on bad arguments.
 * Everything it started is stopped at the end, on failure, and on Ctrl-C (shutdown hook). The run's folder (logs of
 * broker and worker, spill directory) is deleted when the soak passed and kept, with its path printed, when not.
 */
public final class SoakRun {

    private SoakRun() {
    }

    public static void main(String[] args) throws Exception {
        Path root = Path.of(System.getProperty("pgoutput.root", ".")).toAbsolutePath().normalize();
        SoakOptions options;
        try {
            options = SoakOptions.parse(args, root, new SecureRandom().nextLong());
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.exit(2);
            return;
        }
        String command = "scenarios/soak.sh " + String.join(" ", args);
        try {
            SoakReport report = run(options, command, System.out);
            System.exit(report.passed() ? 0 : 1);
        } catch (Exception | Error e) {
            System.err.println("soak failed: " + e);
            e.printStackTrace();
            System.exit(1);
        }
    }

    /** Runs the whole soak; the report is printed to {@code out} and returned. */
    public static SoakReport run(SoakOptions options, String command, PrintStream out) throws Exception {
        long started = System.nanoTime();
        Consumer<String> log = line -> {
            synchronized (out) {
                out.println(Instant.now() + " " + line);
                out.flush();
            }
        };
        log.accept("soak: seed " + options.seed() + ", duration " + SoakReport.format(options.duration())
                + ", fault interval " + options.faultMin().toMillis() + ".." + options.faultMax().toMillis() + " ms");
        SoakServices services = new SoakServices(options.projectRoot());
        SpillBlocker spill = new SpillBlocker(services.spillDirectory());
        Thread stopOnExit = new Thread(() -> {
            spill.release();
            services.stop(false);
        }, "soak-stop");
        Runtime.getRuntime().addShutdownHook(stopOnExit);
        boolean passed = false;
        try {
            log.accept("soak: run folder " + services.workDir() + " (broker.log, worker.log, spill/)");
            services.start(new Schema());
            spill.verify();
            log.accept("soak: PostgreSQL 17, broker and worker up, connector RUNNING; spill fault by "
                    + spill.method());
            FaultInjector faults = new FaultInjector(services, spill, options.seed(), options.faultMin(),
                    options.faultMax(), log);
            Workload workload = new Workload(services, options.seed(), log);
            long faultStart = System.nanoTime();
            workload.start();
            try {
                faults.run(faultStart + options.duration().toNanos());
            } catch (Exception | Error e) {
                spill.release();
                try {
                    workload.stop();
                } catch (Exception | Error alsoFailed) {
                    e.addSuppressed(alsoFailed);
                }
                throw e;
            }
            spill.release();
            workload.stop();
            Duration faultPhase = Duration.ofNanos(System.nanoTime() - faultStart);
            log.accept("soak: faults stopped after " + faults.total() + "; workload stopped; catching up");
            Reconciler reconciler = new Reconciler(services, log);
            long catchUpStart = System.nanoTime();
            boolean caughtUp = reconciler.catchUp(workload.nextTransactionId(), faults, options.catchUpTimeout());
            Duration catchUp = Duration.ofNanos(System.nanoTime() - catchUpStart);
            Reconciler.Figures figures = reconciler.reconcile(workload.preparedGids(), workload.outcomeBounds());
            Reconciliation detail = figures.detail();
            SoakReport report = new SoakReport(options.seed(), command, faultPhase, catchUp,
                    Duration.ofNanos(System.nanoTime() - started), figures.committed(), figures.lost(),
                    detail.leaked(), figures.incomplete(), detail.preparedChecked(), detail.endedBeforeSnapshot(),
                    detail.snapshotsSeen(), detail.duplicates(),
                    detail.records(), caughtUp, faults.injected(), faults.unplanned(), services.workerLogCounts(),
                    spill.method(),
                    workload.summary(), detail.examples());
            out.print(report.text());
            out.flush();
            passed = report.passed();
            if (!passed) {
                log.accept("soak: keeping the run folder " + services.workDir() + " for a look");
            }
            return report;
        } finally {
            spill.release();
            services.stop(passed);
            try {
                Runtime.getRuntime().removeShutdownHook(stopOnExit);
            } catch (IllegalStateException shuttingDown) {
                // the hook is running already
            }
        }
    }
}
