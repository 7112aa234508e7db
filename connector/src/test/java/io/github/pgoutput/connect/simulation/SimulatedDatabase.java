package io.github.pgoutput.connect.simulation;

import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import io.github.pgoutput.connect.simulation.SimulatedWal.Record;
import io.github.pgoutput.connect.simulation.SimulationHistory.AlterStep;
import io.github.pgoutput.connect.simulation.SimulationHistory.ChangeStep;
import io.github.pgoutput.connect.simulation.SimulationHistory.EndKind;
import io.github.pgoutput.connect.simulation.SimulationHistory.Item;
import io.github.pgoutput.connect.simulation.SimulationHistory.Op;
import io.github.pgoutput.connect.simulation.SimulationHistory.Table;
import io.github.pgoutput.pgoutput.Lsn;
import io.github.pgoutput.pgoutput.RelationColumn;
import io.github.pgoutput.snapshot.TransactionSnapshot;

/**
 * The tables an incremental snapshot may read (t0, t1, t2) as the WAL history writes them: their rows before the
 * history (rows the stream never shows), and every version of every row after, each with the commit that made it
 * visible and the commit that replaced it. From that, what a snapshot taken after the first {@code p} WAL records sees
 * (rows, columns, which transactions), and the final tables.
 *
 * <p>A row is its column values by name, NULL columns left out, keyed by {@code id}. Transactions apply in commit
 * order (COMMIT, or COMMIT PREPARED), each at the record that commits it, their surviving changes in WAL order: an
 * INSERT or UPDATE sets the row its tuple holds, a DELETE removes it. The drawn history does not track which rows
 * exist (an UPDATE may name a row no one inserted), so the changes are applied as a consumer applies their records,
 * as upserts and deletes; the runs that read this hold row locks ({@link RowLocks}), so the order of commits decides
 * a row's last version, as it decides the stream's order. Immutable.
 */
final class SimulatedDatabase {

    /**
     * One version of one row: its columns ({@code null}: the row deleted), the index of the record that made it
     * visible (-1 for the rows before the history) and the end LSN of the commit that replaced it (null while current).
     */
    record Version(Map<String, String> columns, int visibleFrom, Lsn replacedAt, Item replacedBy) {
    }

    /** The tables a signal may snapshot. */
    static final List<Table> TABLES = List.of(Table.T0, Table.T1, Table.T2);

    /** A transaction of the history with the indexes of its first and last records. */
    private record Transaction(Item item, int first, int last) {
    }

    private final Map<Table, Map<Integer, List<Version>>> versions = new EnumMap<>(Table.class);
    /** Per committing transaction, the index of the record that commits it, in commit order. */
    private final TreeMap<Integer, Item> commits = new TreeMap<>();
    private final Map<Integer, Integer> commitIndex = new HashMap<>();
    private final List<Transaction> transactions = new ArrayList<>();
    private final Map<Table, List<Integer>> alters = new EnumMap<>(Table.class);

    SimulatedDatabase(SimulatedWal wal, Map<Table, List<Integer>> initialRows) {
        Map<Integer, int[]> spans = new TreeMap<>();
        for (Table table : TABLES) {
            Map<Integer, List<Version>> rows = new TreeMap<>();
            for (int id : initialRows.getOrDefault(table, List.of())) {
                rows.computeIfAbsent(id, k -> new ArrayList<>()).add(new Version(initialRow(id), -1, null, null));
            }
            versions.put(table, rows);
            alters.put(table, new ArrayList<>());
        }
        for (Record record : wal.records()) {
            Item item = record.item();
            if (item.isTransaction()) {
                spans.computeIfAbsent(item.id(), id -> new int[] {record.index(), record.index()})[1] = record.index();
                if (record.step() instanceof SimulationHistory.EndStep end
                        && (end.kind() == EndKind.COMMIT || end.kind() == EndKind.COMMIT_PREPARED)) {
                    commits.put(record.index(), item);
                    commitIndex.put(item.id(), record.index());
                }
            }
            if (record.step() instanceof AlterStep alter && alters.containsKey(alter.table())) {
                alters.get(alter.table()).add(record.index());
            }
        }
        spans.forEach((id, span) -> transactions.add(new Transaction(wal.records().get(span[0]).item(), span[0], span[1])));
        commits.forEach((index, item) -> apply(wal, item, index, wal.records().get(index).end()));
    }

    private void apply(SimulatedWal wal, Item item, int index, Lsn commitEnd) {
        for (Record change : wal.survivingChanges(item)) {
            ChangeStep step = (ChangeStep) change.step();
            if (step.op().isMessage() || !versions.containsKey(step.table())) {
                continue;
            }
            List<Version> history = versions.get(step.table()).computeIfAbsent(step.row(), k -> new ArrayList<>());
            Map<String, String> columns = step.op() == Op.DELETE ? null
                    : columns(SimulatedRows.values(step, change, item), step.table(), change.version());
            if (!history.isEmpty()) {
                Version last = history.remove(history.size() - 1);
                if (last.visibleFrom() != index) {
                    // An earlier write of the same transaction was never visible: only its last one counts.
                    history.add(new Version(last.columns(), last.visibleFrom(), commitEnd, item));
                }
            }
            history.add(new Version(columns, index, null, null));
        }
    }

    /** A row before the history. */
    private static Map<String, String> initialRow(int id) {
        Map<String, String> row = new HashMap<>();
        row.put("id", Integer.toString(id));
        row.put("tx", "0");
        row.put("note", "initial " + id);
        return row;
    }

    private static Map<String, String> columns(List<String> values, Table table, int version) {
        Map<String, String> row = new HashMap<>();
        List<RelationColumn> names = SimulatedRows.columns(table, version);
        for (int i = 0; i < values.size(); i++) {
            row.put(names.get(i).name(), values.get(i));
        }
        return row;
    }

    /** The schema version (ALTERs so far) of {@code table} after the first {@code p} records. */
    int version(Table table, int p) {
        return (int) alters.get(table).stream().filter(index -> index < p).count();
    }

    /** The transaction whose commit is the last of the first {@code p} records, or null. */
    Item lastCommitBefore(int p) {
        Map.Entry<Integer, Item> last = commits.lowerEntry(p);
        return last == null ? null : last.getValue();
    }

    /**
     * The rows of {@code table} a snapshot taken after the first {@code p} records sees, by id, when the commit of
     * {@code lagging} (the last commit before it, or null) is not seen yet.
     */
    TreeMap<Integer, Map<String, String>> rows(Table table, int p, Item lagging) {
        int unseen = lagging == null ? Integer.MIN_VALUE : commitIndex.get(lagging.id());
        TreeMap<Integer, Map<String, String>> rows = new TreeMap<>();
        versions.get(table).forEach((id, history) -> {
            Map<String, String> seen = null;
            boolean any = false;
            for (Version version : history) {
                if (version.visibleFrom() < p && version.visibleFrom() != unseen) {
                    seen = version.columns();
                    any = true;
                }
            }
            if (any && seen != null) {
                rows.put(id, seen);
            }
        });
        return rows;
    }

    /** The tables at the end of the history. */
    TreeMap<Integer, Map<String, String>> finalRows(Table table) {
        return rows(table, Integer.MAX_VALUE, null);
    }

    /** Every version row {@code id} of {@code table} had, in order. */
    List<Version> versions(Table table, int id) {
        return Collections.unmodifiableList(versions.get(table).getOrDefault(id, List.of()));
    }

    /** Whether row {@code id} of {@code table} existed before the history and was never changed by it. */
    boolean untouched(Table table, int id) {
        List<Version> history = versions(table, id);
        return history.size() == 1 && history.get(0).visibleFrom() < 0;
    }

    /**
     * Which transactions a snapshot taken after the first {@code p} records sees, as {@code pg_current_snapshot()}
     * says: xmax one past the newest transaction started; in progress every transaction below it not ended (running,
     * prepared and not yet decided, or holding an xid below xmax and not started yet), and {@code lagging}.
     */
    TransactionSnapshot visibility(int p, Item lagging) {
        long xmax = 700;
        for (Transaction transaction : transactions) {
            if (transaction.first() < p) {
                xmax = Math.max(xmax, transaction.item().xid() + 1);
            }
        }
        Set<Long> inProgress = new HashSet<>();
        for (Transaction transaction : transactions) {
            long xid = transaction.item().xid();
            if (xid < xmax && (transaction.last() >= p || transaction.item() == lagging)) {
                inProgress.add(xid);
            }
        }
        long xmin = inProgress.stream().mapToLong(Long::longValue).min().orElse(xmax);
        return new TransactionSnapshot(xmin, xmax, inProgress);
    }
}
