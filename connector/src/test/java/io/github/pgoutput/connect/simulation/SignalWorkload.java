package io.github.pgoutput.connect.simulation;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

import io.github.pgoutput.connect.simulation.SimulationHistory.ChangeStep;
import io.github.pgoutput.connect.simulation.SimulationHistory.EndKind;
import io.github.pgoutput.connect.simulation.SimulationHistory.EndStep;
import io.github.pgoutput.connect.simulation.SimulationHistory.Ending;
import io.github.pgoutput.connect.simulation.SimulationHistory.Item;
import io.github.pgoutput.connect.simulation.SimulationHistory.Op;
import io.github.pgoutput.connect.simulation.SimulationHistory.SignalMessageStep;
import io.github.pgoutput.connect.simulation.SimulationHistory.Step;
import io.github.pgoutput.connect.simulation.SimulationHistory.SubAbortStep;
import io.github.pgoutput.connect.simulation.SimulationHistory.Table;

/**
 * Adds the signals of a run with incremental snapshots to its drawn history, each as an item of its own placed whole
 * between two records of the history (so it interleaves with the other sessions' changes to the same rows), in the
 * order drawn. A signal is a row of the signal table or, when messages are enabled, a transactional or
 * non-transactional logical decoding message with the signal prefix. A signal transaction may also change rows of t0
 * or t1 around its signal, be large enough to be streamed, roll back, or roll its signal back to a savepoint (such a
 * signal must do nothing).
 *
 * <p>The first signal asks for a snapshot; a stop is mostly followed by a new execute of what it stopped, and a pause
 * always by a resume, so that most runs end with their snapshots complete, which is when the oracle can demand that
 * the topic rebuilds the whole table. Signals are never put into prepared transactions: a signal row is applied when
 * its transaction is delivered committed, which a transaction prepared under {@code prepared.transaction.mode=stage}
 * never is (its rows come as PREPARED, and only its outcome at COMMIT PREPARED).
 */
final class SignalWorkload {

    private static final SimulatedSignal[] FIRST = {
        SimulatedSignal.EXECUTE_T0, SimulatedSignal.EXECUTE_T1, SimulatedSignal.EXECUTE_T0_T1, SimulatedSignal.EXECUTE_ALL,
        SimulatedSignal.EXECUTE_T2, SimulatedSignal.EXECUTE_T0_FILTERED,
    };
    private static final SimulatedSignal[] IGNORED = {
        SimulatedSignal.LOG, SimulatedSignal.EXECUTE_UNKNOWN_TABLE, SimulatedSignal.EXECUTE_NOT_CAPTURED, SimulatedSignal.EXECUTE_BLOCKING,
        SimulatedSignal.NOT_JSON, SimulatedSignal.UNKNOWN_TYPE,
    };

    private SignalWorkload() {
    }

    /** {@code history} with signal items drawn from {@code random} appended and placed in its order. */
    static SimulationHistory withSignals(SplittableRandom random, SimulationHistory history, boolean messages) {
        List<SimulatedSignal> signals = drawSignals(random);
        List<Item> items = new ArrayList<>(history.items());
        List<Integer> order = new ArrayList<>(history.order());
        int[] places = new int[signals.size()];
        for (int i = 0; i < places.length; i++) {
            places[i] = random.nextInt(order.size() + 1);
        }
        Arrays.sort(places); // the signals keep the order they were drawn in
        int shift = 0;
        for (int i = 0; i < signals.size(); i++) {
            Item item = item(random, items.size(), signals.get(i), messages);
            items.add(item);
            int at = places[i] + shift;
            for (int r = 0; r < item.steps().size(); r++) {
                order.add(at + r, item.id());
            }
            shift += item.steps().size();
        }
        return new SimulationHistory(items, order);
    }

    private static List<SimulatedSignal> drawSignals(SplittableRandom random) {
        List<SimulatedSignal> signals = new ArrayList<>();
        signals.add(FIRST[random.nextInt(FIRST.length)]);
        int more = random.nextInt(5);
        for (int i = 0; i < more; i++) {
            int roll = random.nextInt(100);
            if (roll < 30) {
                signals.add(FIRST[random.nextInt(FIRST.length)]);
            } else if (roll < 50) {
                SimulatedSignal stop = random.nextBoolean() ? SimulatedSignal.STOP_ALL
                        : random.nextBoolean() ? SimulatedSignal.STOP_T0 : SimulatedSignal.STOP_T1;
                signals.add(stop);
                if (random.nextInt(100) < 70) {
                    signals.add(stop == SimulatedSignal.STOP_T0 ? SimulatedSignal.EXECUTE_T0
                            : stop == SimulatedSignal.STOP_T1 ? SimulatedSignal.EXECUTE_T1 : SimulatedSignal.EXECUTE_ALL);
                }
            } else if (roll < 70) {
                signals.add(SimulatedSignal.PAUSE);
                signals.add(SimulatedSignal.RESUME);
            } else {
                signals.add(IGNORED[random.nextInt(IGNORED.length)]);
            }
        }
        return signals;
    }

    /** The item that sends {@code signal}. */
    private static Item item(SplittableRandom random, int id, SimulatedSignal signal, boolean messages) {
        int channel = messages ? random.nextInt(3) : 0;
        if (channel == 2) {
            return new Item(id, null, false, false, List.of(new SignalMessageStep(signal.ordinal())));
        }
        Op op = channel == 1 ? Op.SIGNAL : Op.INSERT;
        // A resume that did not happen would leave the snapshot paused for good, and nothing to check.
        boolean rolledBack = signal != SimulatedSignal.RESUME && random.nextInt(100) < 10;
        boolean toSavepoint = signal != SimulatedSignal.RESUME && !rolledBack && random.nextInt(100) < 8;
        boolean large = random.nextInt(100) < 15;
        int before = large ? 3 + random.nextInt(4) : random.nextInt(100) < 40 ? 1 : 0;
        int after = large ? 2 + random.nextInt(3) : random.nextInt(100) < 20 ? 1 : 0;
        List<Step> steps = new ArrayList<>();
        int untilBlock = 2;
        for (int i = 0; i < before + after + 1; i++) {
            boolean endsBlock = large && --untilBlock == 0;
            if (endsBlock) {
                untilBlock = 2 + random.nextInt(2);
            }
            if (i == before) {
                steps.add(new ChangeStep(Table.SIG, op, signal.ordinal(), toSavepoint ? 1 : 0, endsBlock));
                if (toSavepoint) {
                    steps.add(new SubAbortStep(1));
                }
            } else {
                steps.add(new ChangeStep(random.nextBoolean() ? Table.T0 : Table.T1, Op.values()[random.nextInt(3)], random.nextInt(60), 0,
                        endsBlock));
            }
        }
        steps.add(new EndStep(rolledBack ? EndKind.ABORT : EndKind.COMMIT));
        return new Item(id, rolledBack ? Ending.ABORT : Ending.COMMIT, large, false, steps);
    }
}
