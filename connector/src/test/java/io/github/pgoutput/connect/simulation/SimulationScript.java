package io.github.pgoutput.connect.simulation;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Everything one run does, drawn from one seed: the initial configuration, the WAL history and the faults. The
 * Connect runtime's own choices (acknowledgement order, what an unacknowledged record becomes at a crash) come
 * from the seed too, as the run goes. What a failing seed prints, and what the shrinker makes smaller. Immutable.
 */
record SimulationScript(long seed, SimulationConfig config, SimulationHistory history, List<Fault> faults,
                        boolean acknowledgesAtCommit) {

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
        SPILL_IO_ERROR
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
            };
            return change == null ? where : where + ", with the configuration change " + change;
        }
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
        return new SimulationScript(seed, config, history, faults, false);
    }

    /**
     * The same script under Connect's exactly-once task: {@code commitRecord} (and a record's offset) only once the
     * Kafka transaction holding it is committed, transactions being the task's own (one per delivery).
     */
    SimulationScript acknowledgingAtCommit() {
        return new SimulationScript(seed, config, history, faults, true);
    }

    SimulationScript withFaults(List<Fault> fewer) {
        return new SimulationScript(seed, config, history, List.copyOf(fewer), acknowledgesAtCommit);
    }

    SimulationScript withHistory(SimulationHistory smaller) {
        return new SimulationScript(seed, config, smaller, faults, acknowledgesAtCommit);
    }

    String describe() {
        StringBuilder out = new StringBuilder();
        out.append("  seed ").append(seed).append(" (replay: -Dsimulation.seed=").append(seed).append(")\n");
        out.append("  configuration: ").append(config.describe())
                .append(acknowledgesAtCommit ? " (exactly-once: acknowledged at transaction commit)" : "").append('\n');
        out.append("  WAL history (").append(history.presentIds().size()).append(" items):\n").append(history.describe());
        out.append("  faults (").append(faults.size()).append("):\n");
        for (Fault fault : faults) {
            out.append("    ").append(fault.describe()).append('\n');
        }
        return out.toString();
    }
}
