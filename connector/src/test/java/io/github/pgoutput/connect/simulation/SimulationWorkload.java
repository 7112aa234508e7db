package io.github.pgoutput.connect.simulation;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import io.github.pgoutput.connect.simulation.SimulationHistory.AlterStep;
import io.github.pgoutput.connect.simulation.SimulationHistory.ChangeStep;
import io.github.pgoutput.connect.simulation.SimulationHistory.EndKind;
import io.github.pgoutput.connect.simulation.SimulationHistory.EndStep;
import io.github.pgoutput.connect.simulation.SimulationHistory.Ending;
import io.github.pgoutput.connect.simulation.SimulationHistory.Item;
import io.github.pgoutput.connect.simulation.SimulationHistory.MessageStep;
import io.github.pgoutput.connect.simulation.SimulationHistory.Op;
import io.github.pgoutput.connect.simulation.SimulationHistory.Step;
import io.github.pgoutput.connect.simulation.SimulationHistory.SubAbortStep;
import io.github.pgoutput.connect.simulation.SimulationHistory.Table;

/**
 * Draws a seeded WAL history: ordinary, aborted and prepared transactions (some large enough to be streamed, some
 * with savepoints rolled back), transactions that touch only tables outside table.include.list or outside the
 * publication, logical messages, ALTER TABLEs; interleaved as concurrent sessions would write them.
 */
final class SimulationWorkload {

    private SimulationWorkload() {
    }

    /**
     * @param largePrepared whether prepared transactions may be large (streamed); false when the run switches
     *                      prepared.transaction.mode, whose streamed-and-prepared-before-two_phase_at case the
     *                      simulated server does not model
     */
    static SimulationHistory generate(SplittableRandom random, boolean messages, boolean largePrepared) {
        int count = 4 + random.nextInt(20);
        List<Item> items = new ArrayList<>();
        for (int id = 0; id < count; id++) {
            items.add(item(random, id, messages, largePrepared));
        }
        return new SimulationHistory(items, interleave(random, items));
    }

    private static Item item(SplittableRandom random, int id, boolean messages, boolean largePrepared) {
        int roll = random.nextInt(100);
        if (roll < 4) {
            return new Item(id, null, false, false, List.of(new AlterStep(random.nextBoolean() ? Table.T0 : Table.T1)));
        }
        if (roll < 10 && messages) {
            return new Item(id, null, false, false, List.of(new MessageStep()));
        }
        Ending ending;
        int kind = random.nextInt(100);
        if (kind < 58) {
            ending = Ending.COMMIT;
        } else if (kind < 70) {
            ending = Ending.ABORT;
        } else if (kind < 86) {
            ending = Ending.PREPARE_COMMIT;
        } else {
            ending = Ending.PREPARE_ROLLBACK;
        }
        boolean prepared = ending == Ending.PREPARE_COMMIT || ending == Ending.PREPARE_ROLLBACK;
        boolean large = random.nextInt(100) < 25 && (!prepared || largePrepared);
        int tableChoice = random.nextInt(100);
        // A transaction on excluded tables only: PostgreSQL sends it, the connector emits no change record for it.
        Table only = tableChoice < 10 ? Table.X0 : tableChoice < 14 ? Table.U0 : null;
        List<Step> steps = new ArrayList<>();
        int changes = large ? 5 + random.nextInt(10) : 1 + random.nextInt(4);
        int savepointAt = random.nextInt(100) < 30 ? random.nextInt(changes) : -1;
        int untilBlock = 2 + random.nextInt(3);
        int sub = 0;
        int subs = 0;
        for (int i = 0; i < changes; i++) {
            if (i == savepointAt) {
                sub = ++subs;
            }
            Table table = only != null ? only : pickTable(random);
            Op op = messages && random.nextInt(100) < 8 ? Op.MESSAGE : Op.values()[random.nextInt(3)];
            boolean endsBlock = large && --untilBlock == 0;
            if (endsBlock) {
                untilBlock = 2 + random.nextInt(3);
            }
            steps.add(new ChangeStep(table, op, random.nextInt(50), sub, endsBlock));
            boolean closeSavepoint = sub != 0 && (i == changes - 1 || random.nextInt(3) == 0);
            if (closeSavepoint) {
                if (random.nextInt(100) < 65) {
                    steps.add(new SubAbortStep(sub)); // else RELEASE SAVEPOINT: the changes stay, with the sub xid
                }
                sub = 0;
                if (i < changes - 1 && random.nextInt(3) == 0) {
                    savepointAt = i + 1 + random.nextInt(changes - i - 1);
                }
            }
        }
        switch (ending) {
            case COMMIT -> steps.add(new EndStep(EndKind.COMMIT));
            case ABORT -> steps.add(new EndStep(EndKind.ABORT));
            case PREPARE_COMMIT -> {
                steps.add(new EndStep(EndKind.PREPARE));
                steps.add(new EndStep(EndKind.COMMIT_PREPARED));
            }
            case PREPARE_ROLLBACK -> {
                steps.add(new EndStep(EndKind.PREPARE));
                steps.add(new EndStep(EndKind.ROLLBACK_PREPARED));
            }
        }
        return new Item(id, ending, large, random.nextInt(100) < 10, steps);
    }

    private static Table pickTable(SplittableRandom random) {
        int roll = random.nextInt(100);
        if (roll < 38) {
            return Table.T0;
        }
        if (roll < 70) {
            return Table.T1;
        }
        if (roll < 85) {
            return Table.T2;
        }
        return roll < 95 ? Table.X0 : Table.U0;
    }

    /**
     * Up to three items in progress at once, each writing its next record in turn, in a random order. A prepared
     * transaction waiting for its COMMIT PREPARED or ROLLBACK PREPARED does not count: prepared transactions are
     * often decided much later, by another session, and the window between PREPARE and the decision is where the
     * hard cases live (a restart, or a switch to two-phase decoding, in between).
     */
    private static List<Integer> interleave(SplittableRandom random, List<Item> items) {
        List<Integer> order = new ArrayList<>();
        List<int[]> active = new ArrayList<>(); // {id, records left}
        int nextItem = 0;
        while (nextItem < items.size() || !active.isEmpty()) {
            // ALTER TABLE waits for the locks of every open transaction (prepared ones included), and blocks new
            // writers of the table: it never interleaves with a transaction that writes the table, so it starts alone.
            boolean alter = nextItem < items.size() && items.get(nextItem).steps().get(0) instanceof AlterStep;
            boolean alterRunning = active.stream().anyMatch(a -> items.get(a[0]).steps().get(0) instanceof AlterStep);
            long writing = active.stream().filter(a -> !awaitsDecision(items.get(a[0]), a[1])).count();
            boolean start = nextItem < items.size() && !alterRunning
                    && (active.isEmpty() || !alter && writing < 3 && random.nextInt(3) == 0);
            if (start) {
                active.add(new int[] {nextItem, items.get(nextItem).steps().size()});
                nextItem++;
                continue;
            }
            int[] pick = active.get(random.nextInt(active.size()));
            boolean othersCanGo = writing > 0 || nextItem < items.size() && !alter;
            if (awaitsDecision(items.get(pick[0]), pick[1]) && othersCanGo && random.nextInt(6) != 0) {
                if (writing == 0) {
                    // only waiting prepared transactions: let the next item start instead
                    active.add(new int[] {nextItem, items.get(nextItem).steps().size()});
                    nextItem++;
                }
                continue;
            }
            order.add(pick[0]);
            if (--pick[1] == 0) {
                active.remove(pick);
            }
        }
        return order;
    }

    /** True when {@code item}'s next record is the COMMIT PREPARED or ROLLBACK PREPARED of a prepared transaction. */
    private static boolean awaitsDecision(Item item, int recordsLeft) {
        return recordsLeft == 1 && (item.ending() == Ending.PREPARE_COMMIT || item.ending() == Ending.PREPARE_ROLLBACK);
    }
}
