package io.github.pgoutput.connect.simulation;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.github.pgoutput.connect.simulation.SimulationHistory.ChangeStep;
import io.github.pgoutput.connect.simulation.SimulationHistory.EndKind;
import io.github.pgoutput.connect.simulation.SimulationHistory.EndStep;
import io.github.pgoutput.connect.simulation.SimulationHistory.Item;
import io.github.pgoutput.connect.simulation.SimulationHistory.Step;
import io.github.pgoutput.connect.simulation.SimulationHistory.Table;

/**
 * Makes a drawn history one PostgreSQL could write: a row written by a transaction stays locked until that
 * transaction ends (COMMIT, ABORT, COMMIT PREPARED or ROLLBACK PREPARED; a prepared transaction keeps its locks), so
 * no other transaction writes it meanwhile. A write to a row another open transaction holds is moved to the next free
 * row of the table (the same one for every later write of that transaction to the row it meant).
 *
 * <p>Why only the runs with incremental snapshots need it: the plain runs check what the stream delivers, which
 * follows commit order whatever the rows; the snapshot runs also check what the tables hold, and two open
 * transactions writing one row (possible in the drawn history, impossible in PostgreSQL) would make the final row
 * depend on more than commit order, for instance on a replay of the one that committed first. Stateless.
 */
final class RowLocks {

    /** Rows a table may hold: the drawn ids and the rows before the history stay below this. */
    private static final int ROWS = 64;

    private record TableRow(Table table, int row) {
    }

    private RowLocks() {
    }

    static SimulationHistory respected(SimulationHistory history) {
        Map<TableRow, Integer> holders = new HashMap<>();
        Map<Integer, Map<TableRow, Integer>> moved = new HashMap<>();
        Map<Integer, List<Step>> steps = new HashMap<>();
        Map<Integer, Integer> next = new HashMap<>();
        for (int id : history.order()) {
            Item item = history.items().get(id);
            int index = next.merge(id, 1, Integer::sum) - 1;
            List<Step> own = steps.computeIfAbsent(id, k -> new ArrayList<>(item.steps()));
            Step step = item.steps().get(index);
            if (step instanceof ChangeStep change && !change.op().isMessage() && SimulatedDatabase.TABLES.contains(change.table())) {
                int row = moved.computeIfAbsent(id, k -> new HashMap<>()).computeIfAbsent(new TableRow(change.table(), change.row()),
                        wanted -> free(holders, wanted, id));
                holders.put(new TableRow(change.table(), row), id);
                own.set(index, new ChangeStep(change.table(), change.op(), row, change.sub(), change.endsBlock()));
            } else if (step instanceof EndStep end && end.kind() != EndKind.PREPARE) {
                holders.values().removeIf(holder -> holder == id);
            }
        }
        List<Item> items = new ArrayList<>(history.items());
        steps.forEach((id, own) -> {
            Item item = items.get(id);
            items.set(id, new Item(item.id(), item.ending(), item.large(), item.origin(), List.copyOf(own)));
        });
        return new SimulationHistory(items, history.order());
    }

    /** {@code wanted}'s row if no other transaction holds it, else the next one free, for transaction {@code id}. */
    private static int free(Map<TableRow, Integer> holders, TableRow wanted, int id) {
        for (int i = 0; i < ROWS; i++) {
            int row = (wanted.row() + i) % ROWS;
            Integer holder = holders.get(new TableRow(wanted.table(), row));
            if (holder == null || holder == id) {
                return row;
            }
        }
        throw new IllegalStateException("every row of " + wanted.table() + " is held by an open transaction");
    }
}
