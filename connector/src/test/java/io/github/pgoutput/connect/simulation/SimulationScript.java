package io.github.pgoutput.connect.simulation;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import io.github.pgoutput.connect.simulation.SimulationHistory.Table;

/**
 * Everything one run does, drawn from one seed: the initial configuration, the WAL history and the faults; and, for
 * the runs that have them, Connect's exactly-once task and incremental snapshots. The Connect runtime's own choices
 * (acknowledgement order, what an unacknowledged record becomes at a crash) come from the seed too, as the run goes.
 * What a failing seed prints, and what the shrinker makes smaller. Immutable.
 *
 * <p>Why the exactly-once and snapshot dimensions are drawn from random streams of their own ({@link #derived}):
 * {@link #draw} must go on drawing for every seed the script it drew before they existed, so that the regression seeds
 * of {@code TaskSimulationTest} still name the scripts that found their loss paths. A seed's exactly-once or snapshot
 * run is its plain script with the new dimensions added.
 *
 * @param exactlyOnce Connect's exactly-once source task, or null for a worker without exactly-once support
 * @param snapshots   the run's incremental snapshots, or null when it takes none
 */
record SimulationScript(long seed, SimulationConfig config, SimulationHistory history, List<Fault> faults,
                        ExactlyOnce exactlyOnce, Snapshots snapshots) {

    enum FaultKind {
        /** The scripted stream throws ReplicationConnectionLostException at read call number {@code at}. */
        CONNECTION_LOSS,
        /** The task is killed at runtime step {@code at} (stop() not called) and a fresh one starts. */
        TASK_KILL,
        /** The task is stopped and restarted at runtime step {@code at}, after a last flush. */
        TASK_RESTART,
        /** The offset flush number {@code at} fails: nothing is written, commit() is not called. */
        FLUSH_FAILURE,
        /** Spill operation number {@code at} fails with an I/O error. */
        SPILL_IO_ERROR,
        /**
         * Exactly-once: Kafka transaction commit number {@code at} fails (the offsets write or the producer's commit):
         * the transaction aborts, the task fails, Connect stops it and it is started again. A {@link #FLUSH_FAILURE} of
         * the plain script means the same under exactly-once, where no offset flush is separate from the transactions.
         */
        COMMIT_FAILURE,
        /** Exactly-once: commit number {@code at} reaches the broker but fails at the worker (records and offsets visible). */
        COMMIT_IN_DOUBT,
        /** Exactly-once: the worker dies at the first commit from step {@code at} on, before the broker commits it. */
        KILL_BEFORE_COMMIT,
        /** Exactly-once: the worker dies at the first commit from step {@code at} on, right after the broker committed it. */
        KILL_AFTER_COMMIT,
        /** Exactly-once: at step {@code at} a newer generation of the task fences the producer. */
        PRODUCER_FENCED,
        /** Chunk operation number {@code at} (a chunk read, a listing of the captured tables) loses its connection. */
        CHUNK_READ_FAILURE
    }

    /** One fault; a kill or restart may bring a configuration change ({@code change} null: none). */
    record Fault(FaultKind kind, long at, SimulationConfig.Change change) {
        String describe() {
            String where = switch (kind) {
                case CONNECTION_LOSS -> "read #" + at + ": connection lost";
                case TASK_KILL -> "step " + at + ": task killed (stop() not called), a new task starts from the committed offsets";
                case TASK_RESTART -> "step " + at + ": task stopped cleanly and restarted";
                case FLUSH_FAILURE -> "offset flush #" + at + " fails";
                case SPILL_IO_ERROR -> "spill operation #" + at + ": I/O error";
                case COMMIT_FAILURE -> "Kafka transaction commit #" + at + " fails: the transaction aborts, the task fails and is started again";
                case COMMIT_IN_DOUBT -> "Kafka transaction commit #" + at + " is committed by the broker but fails at the worker;"
                        + " the task fails and is started again";
                case KILL_BEFORE_COMMIT -> "step " + at + ": the worker dies at its next commit, before the broker commits";
                case KILL_AFTER_COMMIT -> "step " + at + ": the worker dies at its next commit, right after the broker committed";
                case PRODUCER_FENCED -> "step " + at + ": a newer generation of the task fences the producer";
                case CHUNK_READ_FAILURE -> "chunk operation #" + at + ": the connection of the chunk reads is lost";
            };
            return change == null ? where : where + ", with the configuration change " + change;
        }
    }

    /**
     * Connect's exactly-once source task ({@code exactly.once.source.support=enabled}, {@code
     * exactly.once.support=required}).
     *
     * @param connectorBoundary {@code transaction.boundary=connector}; else {@code poll}
     * @param batchDeliveries   {@code transaction.batch.max.deliveries} (connector boundaries; 1 otherwise)
     */
    record ExactlyOnce(boolean connectorBoundary, int batchDeliveries) {

        /** Draws the boundaries, and adds the faults of exactly-once to {@code faults} ({@code records}: the history's size). */
        static ExactlyOnce draw(SplittableRandom random, int records, List<Fault> faults) {
            boolean connector = random.nextBoolean();
            int batch = connector && random.nextInt(3) == 0 ? 2 + random.nextInt(3) : 1;
            int count = random.nextInt(4);
            for (int i = 0; i < count; i++) {
                int kind = random.nextInt(100);
                FaultKind fault = kind < 25 ? FaultKind.COMMIT_FAILURE : kind < 45 ? FaultKind.COMMIT_IN_DOUBT
                        : kind < 65 ? FaultKind.KILL_BEFORE_COMMIT : kind < 85 ? FaultKind.KILL_AFTER_COMMIT : FaultKind.PRODUCER_FENCED;
                boolean byCommit = fault == FaultKind.COMMIT_FAILURE || fault == FaultKind.COMMIT_IN_DOUBT;
                faults.add(new Fault(fault, 1 + random.nextInt(byCommit ? records / 2 + 5 : records * 2 + 10), null));
            }
            return new ExactlyOnce(connector, batch);
        }

        Map<String, String> props() {
            Map<String, String> props = new HashMap<>();
            props.put("exactly.once.support", "required");
            props.put("transaction.boundary", connectorBoundary ? "connector" : "poll");
            props.put("transaction.batch.max.deliveries", Integer.toString(batchDeliveries));
            return props;
        }

        String describe() {
            return "exactly-once task, transaction.boundary=" + (connectorBoundary ? "connector transaction.batch.max.deliveries="
                    + batchDeliveries : "poll");
        }
    }

    /**
     * Incremental snapshots: the signal table and, with messages enabled, signal messages are configured; the signals
     * are in the history; the tables hold rows before the history begins.
     *
     * @param chunkSize   {@code incremental.snapshot.chunk.size}
     * @param initialRows per table, the ids of its rows before the history
     */
    record Snapshots(int chunkSize, Map<Table, List<Integer>> initialRows) {

        static Snapshots draw(SplittableRandom random) {
            Map<Table, List<Integer>> rows = new EnumMap<>(Table.class);
            for (Table table : SimulatedDatabase.TABLES) {
                List<Integer> ids = new ArrayList<>();
                int density = random.nextInt(100);
                for (int id = 0; id < 60; id++) {
                    if (random.nextInt(100) < density) {
                        ids.add(id);
                    }
                }
                rows.put(table, List.copyOf(ids));
            }
            return new Snapshots(1 + random.nextInt(random.nextBoolean() ? 4 : 16), Map.copyOf(rows));
        }

        Map<String, String> props(boolean messages) {
            Map<String, String> props = new HashMap<>();
            props.put("signal.enabled.channels", messages ? "source,message" : "source");
            props.put("signal.data.collection", SimulatedSignal.TABLE);
            props.put("signal.message.prefix", SimulatedSignal.MESSAGE_PREFIX);
            props.put("incremental.snapshot.chunk.size", Integer.toString(chunkSize));
            return props;
        }

        String describe() {
            StringBuilder out = new StringBuilder("incremental snapshots, incremental.snapshot.chunk.size=" + chunkSize + "; rows before the history:");
            for (Table table : SimulatedDatabase.TABLES) {
                out.append(' ').append(table.sqlName()).append('=').append(initialRows.getOrDefault(table, List.of()).size());
            }
            return out.toString();
        }
    }

    /**
     * The plain script of {@code seed} with incremental snapshots: rows before the history, signals in it, its writes
     * moved where row locks demand ({@link RowLocks}), chunk reads that fail; half of the seeds under Connect's
     * exactly-once task.
     */
    static SimulationScript drawWithSnapshots(long seed) {
        SimulationScript plain = draw(seed);
        SplittableRandom random = derived(seed, 0x5A9L);
        Snapshots snapshots = Snapshots.draw(random);
        SimulationHistory history = RowLocks.respected(SignalWorkload.withSignals(random, plain.history(), plain.config().messages()));
        List<Fault> faults = new ArrayList<>(plain.faults());
        int chunkFaults = random.nextInt(3);
        for (int i = 0; i < chunkFaults; i++) {
            faults.add(new Fault(FaultKind.CHUNK_READ_FAILURE, 1 + random.nextInt(40), null));
        }
        ExactlyOnce exactlyOnce = random.nextBoolean() ? ExactlyOnce.draw(random, history.order().size(), faults) : null;
        return new SimulationScript(seed, plain.config(), history, List.copyOf(faults), exactlyOnce, snapshots);
    }

    /** A random stream of its own for dimension {@code salt} of {@code seed}, independent of {@link #draw}'s. */
    static SplittableRandom derived(long seed, long salt) {
        return new SplittableRandom(seed * 0x9E3779B97F4A7C15L ^ salt);
    }

    /** The plain script of {@code seed} under Connect's exactly-once task, with its boundaries and faults. */
    static SimulationScript drawExactlyOnce(long seed) {
        SimulationScript plain = draw(seed);
        List<Fault> faults = new ArrayList<>(plain.faults());
        ExactlyOnce exactlyOnce = ExactlyOnce.draw(derived(seed, 0xE05L), plain.history().order().size(), faults);
        return new SimulationScript(seed, plain.config(), plain.history(), List.copyOf(faults), exactlyOnce, null);
    }

    static SimulationScript draw(long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        SimulationConfig config = SimulationConfig.draw(random);
        boolean switches = config.protocol() >= 3 && !config.stage();
        SimulationHistory history = SimulationWorkload.generate(random, config.messages(), !switches);
        int records = history.order().size();
        List<Fault> faults = new ArrayList<>();
        int count = random.nextInt(14);
        for (int i = 0; i < count; i++) {
            int kind = random.nextInt(100);
            if (kind < 45) {
                faults.add(new Fault(FaultKind.CONNECTION_LOSS, 1 + random.nextInt(records * 4 + 10), null));
            } else if (kind < 65) {
                // A run that may switch to stage mode does so at its first restart half of the time (docs/pgoutput-protocol.md §6.5's
                // prepared-before-two_phase_at case needs a prepared transaction open across the switch).
                SimulationConfig.Change change = switches && faults.stream().noneMatch(f -> f.change() == SimulationConfig.Change.STAGE)
                        && random.nextBoolean() ? SimulationConfig.Change.STAGE
                        : random.nextBoolean() ? null : SimulationConfig.Change.values()[random.nextInt(SimulationConfig.Change.values().length)];
                faults.add(new Fault(random.nextBoolean() ? FaultKind.TASK_KILL : FaultKind.TASK_RESTART, 1 + random.nextInt(records * 2 + 10), change));
            } else if (kind < 85) {
                faults.add(new Fault(FaultKind.FLUSH_FAILURE, 1 + random.nextInt(records / 2 + 5), null));
            } else {
                faults.add(new Fault(FaultKind.SPILL_IO_ERROR, 1 + random.nextInt(records * 2 + 5), null));
            }
        }
        return new SimulationScript(seed, config, history, faults, null, null);
    }

    SimulationScript withFaults(List<Fault> fewer) {
        return new SimulationScript(seed, config, history, List.copyOf(fewer), exactlyOnce, snapshots);
    }

    SimulationScript withHistory(SimulationHistory smaller) {
        return new SimulationScript(seed, config, smaller, faults, exactlyOnce, snapshots);
    }

    /** The connector properties the run adds to its configuration's. */
    Map<String, String> extraProps() {
        Map<String, String> props = new HashMap<>();
        if (exactlyOnce != null) {
            props.putAll(exactlyOnce.props());
        }
        if (snapshots != null) {
            props.putAll(snapshots.props(config.messages()));
        }
        return props;
    }

    String describe() {
        StringBuilder out = new StringBuilder();
        out.append("  seed ").append(seed).append(" (replay: -Dsimulation.seed=").append(seed).append(")\n");
        out.append("  configuration: ").append(config.describe()).append('\n');
        if (exactlyOnce != null) {
            out.append("  ").append(exactlyOnce.describe()).append('\n');
        }
        if (snapshots != null) {
            out.append("  ").append(snapshots.describe()).append('\n');
        }
        out.append("  WAL history (").append(history.presentIds().size()).append(" items):\n").append(history.describe());
        out.append("  faults (").append(faults.size()).append("):\n");
        for (Fault fault : faults) {
            out.append("    ").append(fault.describe()).append('\n');
        }
        return out.toString();
    }
}
