package io.github.pgoutput.connect.simulation;

import io.github.pgoutput.connect.offsets.SourceOffsets;
import io.github.pgoutput.connect.record.LifecycleHeaders;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.stream.Stream;

import io.github.pgoutput.connect.simulation.SimulationScript.Fault;
import io.github.pgoutput.connect.simulation.SimulationScript.FaultKind;

/**
 * Runs one {@link SimulationScript}: the simulated server, the real task inside the simulated Connect runtime, the
 * faults at their steps; then, faults over, lets the workload quiesce, takes a last clean flush and asks the oracle.
 * Deterministic: the same script gives the same run.
 */
final class SimulationRun {

    /** What a run found. */
    record Result(SimulationScript script, List<String> violations, SimulationStats stats) {
        boolean failed() {
            return !violations.isEmpty();
        }

        /**
         * The kind of the first violation (the word before its colon, with the permanent error's gist), and which
         * configuration changes the script makes: seeds are grouped, and shrunk, by kind.
         */
        String kind() {
            if (violations.isEmpty()) {
                return "";
            }
            String first = violations.get(0);
            String kind = first.split(":", 2)[0];
            if (kind.equals("TASK_FAILED")) {
                kind += first.contains("no Relation message") ? "(relation unknown)"
                        : first.contains("must not lie before") ? "(tx_lsn before lsn)" : "(other)";
            }
            boolean stage = script.faults().stream().anyMatch(f -> f.change() == SimulationConfig.Change.STAGE)
                    && script.config().allows(SimulationConfig.Change.STAGE);
            boolean change = script.faults().stream().anyMatch(f -> f.change() != null && f.change() != SimulationConfig.Change.STAGE);
            return kind + (stage ? " with stage switch" : change ? " with config change" : " under faults only");
        }
    }

    private static final int QUIESCE_STEPS = 4_000;

    private SimulationRun() {
    }

    static Result run(SimulationScript script) {
        Path spill;
        try {
            spill = Files.createTempDirectory("pgoutput-sim-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        try {
            return run(script, spill);
        } finally {
            delete(spill);
        }
    }

    private static Result run(SimulationScript script, Path spillDirectory) {
        SimulationStats stats = new SimulationStats();
        List<String> violations = new ArrayList<>();
        SimulatedWal wal = script.history().layout();
        SplittableRandom random = new SplittableRandom(script.seed() ^ 0x5DEECE66DL);
        Set<Long> lossAtRead = new HashSet<>();
        Set<Long> spillFailAt = new HashSet<>();
        Set<Long> flushFailAt = new HashSet<>();
        Set<Long> commitFailAt = new HashSet<>();
        Set<Long> commitInDoubtAt = new HashSet<>();
        Set<Long> chunkFailAt = new HashSet<>();
        Map<Long, Fault> restarts = new HashMap<>();
        Map<Long, Fault> workerFaults = new HashMap<>();
        boolean exactlyOnce = script.exactlyOnce() != null;
        for (Fault fault : script.faults()) {
            switch (fault.kind()) {
                case CONNECTION_LOSS -> lossAtRead.add(fault.at());
                case SPILL_IO_ERROR -> spillFailAt.add(fault.at());
                // Under exactly-once the offsets are written inside the transactions: the commit fails instead.
                case FLUSH_FAILURE -> (exactlyOnce ? commitFailAt : flushFailAt).add(fault.at());
                case COMMIT_FAILURE -> commitFailAt.add(fault.at());
                case COMMIT_IN_DOUBT -> commitInDoubtAt.add(fault.at());
                case TASK_KILL, TASK_RESTART -> restarts.putIfAbsent(fault.at(), fault);
                case KILL_BEFORE_COMMIT, KILL_AFTER_COMMIT, PRODUCER_FENCED -> workerFaults.putIfAbsent(fault.at(), fault);
                case CHUNK_READ_FAILURE -> chunkFailAt.add(fault.at());
            }
        }
        SimulatedClock clock = new SimulatedClock();
        SimulatedKafka kafka = new SimulatedKafka(random.split());
        SimulationOracle oracle = new SimulationOracle(wal, script.config().messages());
        SimulatedPostgres[] server = new SimulatedPostgres[1];
        server[0] = new SimulatedPostgres(wal, clock, random.nextLong(), lossAtRead, spillFailAt, spillDirectory, lsn -> {
            String problem = oracle.checkConfirmed(lsn, server[0].twoPhaseAt(), kafka);
            if (problem != null && violations.stream().noneMatch(v -> v.startsWith("CONFIRMED_PAST_UNACKNOWLEDGED"))) {
                violations.add("CONFIRMED_PAST_UNACKNOWLEDGED: " + problem);
            }
        }, stats);
        SimulatedDatabase database = script.snapshots() == null ? null : new SimulatedDatabase(wal, script.snapshots().initialRows());
        if (database != null) {
            server[0].withTables(database, chunkFailAt);
        }
        // The offset topic: what a new task reads through its OffsetStorageReader.
        Map<Map<String, ?>, Map<String, Object>> offsets = new HashMap<>();
        ExactlyOnceOracle exactlyOnceOracle = new ExactlyOnceOracle();
        SimulatedConnect connect = new SimulatedConnect(server[0], kafka, random.split(), stats, spillDirectory, offsets,
                exactlyOnce ? exactlyOnceWorker(script.exactlyOnce(), kafka, offsets, stats, commitFailAt, commitInDoubtAt) : null,
                script.extraProps());
        SimulationConfig config = script.config();
        boolean metadataAlways = config.metadata();
        boolean stageUsed = config.stage();
        connect.start(config);
        long flushes = 0;
        long nextFlush = 3 + random.nextInt(12);
        long lastFault = script.faults().stream().mapToLong(Fault::at).max().orElse(0);
        long mainSteps = Math.max(lastFault, wal.records().size()) * 3L + 50;
        for (long step = 1; step <= mainSteps && connect.failure() == null; step++) {
            Fault restart = restarts.get(step);
            if (restart != null) {
                if (SimulatedConnect.TRACE) {
                    System.out.println("TRACE fault " + restart.describe());
                }
                stats.fault(restart.kind().name());
                if (restart.kind() == FaultKind.TASK_KILL) {
                    connect.kill();
                } else {
                    connect.stopCleanly();
                }
                if (restart.change() != null && config.allows(restart.change())) {
                    config = config.with(restart.change());
                    stats.fault("CONFIG_CHANGE_" + restart.change());
                    // The delivery the offset stands inside is numbered anew: it comes again whole, by design.
                    offsets.values().stream().map(SourceOffsets::decode).filter(SourceOffsets.Position::isInsideDelivery)
                            .map(SourceOffsets.Position::txEndLsn).filter(java.util.Objects::nonNull).forEach(exactlyOnceOracle::emittedAgain);
                }
                metadataAlways &= config.metadata();
                stageUsed |= config.stage();
                connect.start(config);
            }
            Fault workerFault = workerFaults.get(step);
            if (workerFault != null) {
                switch (workerFault.kind()) {
                    case KILL_BEFORE_COMMIT -> connect.dieAtNextCommit(ExactlyOnceWorker.Death.BEFORE_COMMIT);
                    case KILL_AFTER_COMMIT -> connect.dieAtNextCommit(ExactlyOnceWorker.Death.AFTER_COMMIT);
                    default -> connect.fence();
                }
            }
            connect.poll();
            clock.advance(1 + random.nextInt(50));
            connect.acknowledgeSome(1 + random.nextInt(4));
            if (step == nextFlush) {
                flushes++;
                boolean fails = flushFailAt.contains(flushes);
                if (fails) {
                    stats.fault("FLUSH_FAILURE");
                }
                connect.flush(fails);
                nextFlush = step + 2 + random.nextInt(15);
            }
        }
        // Quiesce: no more faults; every acknowledgement arrives, until the server has sent everything and the task idles.
        lossAtRead.clear();
        spillFailAt.clear();
        commitFailAt.clear();
        commitInDoubtAt.clear();
        chunkFailAt.clear();
        boolean quiet = false;
        int idlePolls = 0;
        for (int step = 0; step < QUIESCE_STEPS && connect.failure() == null; step++) {
            // Only a poll that found nothing in flight counts as idle: one that returns nothing while max.queue.size is
            // full says nothing about what the task still has to emit.
            boolean nothingInFlight = connect.inFlight() == 0;
            connect.poll();
            idlePolls = nothingInFlight && connect.emptyPolls() > 0 ? idlePolls + 1 : 0;
            connect.acknowledgeAll();
            if (step % 10 == 9) {
                connect.flush(false);
            }
            if (server[0].drained() && connect.inFlight() == 0 && idlePolls >= 3) {
                quiet = true;
                break;
            }
        }
        connect.flush(false);
        if (connect.failure() != null && connect.failure().startsWith("TRANSACTION_CONTRACT:")) {
            violations.add(connect.failure());
        } else if (connect.failure() != null) {
            violations.add("TASK_FAILED: " + connect.failure());
        } else if (!quiet) {
            violations.add("NOT_QUIESCED: the task did not catch up within " + QUIESCE_STEPS + " polls after the faults");
        }
        if (connect.failure() == null) {
            violations.addAll(oracle.check(kafka, server[0].twoPhaseAt(), stageUsed && metadataAlways));
            if (exactlyOnce) {
                violations.addAll(exactlyOnceOracle.check(kafka, wal, server[0].twoPhaseAt()));
            }
        }
        if (database != null) {
            boolean t2Throughout = script.config().includeT2()
                    && script.faults().stream().noneMatch(f -> f.change() == SimulationConfig.Change.INCLUDE_T2);
            TableOracle tables = new TableOracle(wal, database, t2Throughout);
            if (connect.failure() == null) {
                violations.addAll(tables.check(kafka, exactlyOnce));
            }
            stats.add("signals committed", tables.signals().size());
            stats.add("snapshot records read_committed", tables.snapshotRecords(kafka).values().stream().mapToLong(Long::longValue).sum());
        }
        if (Boolean.getBoolean("simulation.dump")) {
            kafka.logs().forEach((topic, records) -> records.forEach(r -> System.out.println(topic + " lsn=" + SimulatedKafka.header(r, LifecycleHeaders.LSN)
                    + " outcome=" + SimulatedKafka.header(r, LifecycleHeaders.OUTCOME) + " gid=" + SimulatedKafka.header(r, LifecycleHeaders.GID)
                    + " order=" + SimulatedKafka.header(r, LifecycleHeaders.TX_ORDER) + " offset=" + r.sourceOffset())));
        }
        stats.add("transactions", script.history().items().stream().filter(i -> i != null && i.isTransaction()).count());
        stats.add("sessions", server[0].sessions());
        stats.add("kafka transactions committed", kafka.transactionsCommitted());
        stats.add("kafka transactions aborted", kafka.transactionsAborted());
        stats.add("records invisible to read_committed", kafka.invisibleRecords());
        return new Result(script, violations, stats);
    }

    private static ExactlyOnceWorker exactlyOnceWorker(SimulationScript.ExactlyOnce settings, SimulatedKafka kafka,
                                                       Map<Map<String, ?>, Map<String, Object>> offsets, SimulationStats stats,
                                                       Set<Long> commitFailAt, Set<Long> commitInDoubtAt) {
        SimulatedTransactions context = settings.connectorBoundary() ? new SimulatedTransactions(settings.batchDeliveries()) : null;
        return new ExactlyOnceWorker(kafka, offsets, context, stats, commitFailAt, commitInDoubtAt);
    }

    private static void delete(Path directory) {
        try (Stream<Path> paths = Files.walk(directory)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException e) {
            // a temp directory left behind
        }
    }

}
