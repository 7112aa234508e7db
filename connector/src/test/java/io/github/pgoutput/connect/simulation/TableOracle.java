package io.github.pgoutput.connect.simulation;

import io.github.pgoutput.connect.record.LifecycleHeaders;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.IntPredicate;

import io.github.pgoutput.connect.simulation.SimulatedWal.Record;
import io.github.pgoutput.connect.simulation.SimulationHistory.ChangeStep;
import io.github.pgoutput.connect.simulation.SimulationHistory.EndKind;
import io.github.pgoutput.connect.simulation.SimulationHistory.Ending;
import io.github.pgoutput.connect.simulation.SimulationHistory.Item;
import io.github.pgoutput.connect.simulation.SimulationHistory.SignalMessageStep;
import io.github.pgoutput.connect.simulation.SimulationHistory.Table;
import io.github.pgoutput.pgoutput.Lsn;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.source.SourceRecord;

/**
 * What must hold of the table topics of a run with incremental snapshots, derived from the history, its signals and
 * the {@link SimulatedDatabase} alone, for every table each configuration of the run captures, of what a
 * {@code read_committed} consumer reads:
 * <ul>
 *   <li>the topic, applied in order (c, u and r set a row, d removes it, tombstones do nothing, replays applied
 *       again), rebuilds the table as the database holds it at the end: every row with its columns, and no other.
 *       Records with {@code pg.outcome=PREPARED} are applied as docs/delivery-guarantees.md asks of a consumer in stage
 *       mode: kept aside, applied where the COMMITTED outcome comes (before the first change of a later delivery, and
 *       before a chunk placed at or after it), dropped at ROLLED_BACK. (Applying replays again is right because the
 *       history respects row locks, {@link RowLocks}: a replay repeats a stretch of the stream in order, every later
 *       change of each row with it. Dropping them, as a consumer that wants each record once may, would not be: after
 *       a switch to stage a transaction prepared before it comes again as PREPARED, with other deliveries, already
 *       applied, after it.) A row
 *       that existed before the history and that no change touched is demanded only when the signals guarantee a
 *       snapshot read it: a committed execute-snapshot naming the table after its last committed stop-snapshot, the
 *       rows its filter selects, and no pause left without a later resume;</li>
 *   <li>every snapshot record ({@code op=r}) holds a version of its row the database held, one no transaction
 *       delivered before the chunk ({@code pg.lsn}: where the stream stood) had replaced: a chunk never brings back
 *       what a change emitted before it replaced or deleted;</li>
 *   <li>snapshot records only of tables a committed execute-snapshot asked for (a signal rolled back, in a
 *       rolled-back savepoint, or one the connector must leave aside starts nothing); under exactly-once, no row in
 *       more snapshot records than committed execute-snapshot signals name its table (each may read it once; a row is
 *       never read twice for one signal, since the offset of each row says the snapshot stands after it).</li>
 * </ul>
 * Snapshot rows and streamed changes of one key may both be in the topic, in either order, under every mode: that is
 * Debezium's incremental snapshot, and why the checks are on what the records rebuild, not on their count per key.
 */
final class TableOracle {

    private final SimulatedWal wal;
    private final SimulatedDatabase database;
    private final List<Table> checked = new ArrayList<>();
    private final Map<String, Item> byGid = new HashMap<>();
    /** The committed signals in the order the stream applies them. */
    private final List<SimulatedSignal> signals = new ArrayList<>();

    /** @param t2Throughout whether t2 is captured by every configuration of the run */
    TableOracle(SimulatedWal wal, SimulatedDatabase database, boolean t2Throughout) {
        this.wal = wal;
        this.database = database;
        checked.add(Table.T0);
        checked.add(Table.T1);
        if (t2Throughout) {
            checked.add(Table.T2);
        }
        TreeMap<Long, SimulatedSignal> byCommit = new TreeMap<>();
        for (Record record : wal.records()) {
            Item item = record.item();
            if (item.isTransaction()) {
                byGid.put(item.gid(), item);
            }
            if (record.step() instanceof SignalMessageStep message) {
                byCommit.put(record.index() * 1000L, SimulatedSignal.of(message.signal()));
            } else if (record.step() instanceof ChangeStep change && change.table() == Table.SIG && item.ending() == Ending.COMMIT
                    && !wal.abortedSubs(item).contains(change.sub())) {
                // Applied when the transaction is delivered, in the order of its changes.
                byCommit.put(wal.endRecord(item, EndKind.COMMIT).index() * 1000L + record.stepIndex(), SimulatedSignal.of(change.row()));
            }
        }
        signals.addAll(byCommit.values());
    }

    /** The committed signals of the run, in the order they apply. */
    List<SimulatedSignal> signals() {
        return signals;
    }

    List<String> check(SimulatedKafka kafka, boolean exactlyOnce) {
        List<String> violations = new ArrayList<>();
        Map<String, List<SourceRecord>> logs = kafka.logs();
        for (Table table : checked) {
            List<SourceRecord> log = logs.getOrDefault(SimulationOracle.topicOf(table), List.of());
            checkSnapshotRecords(table, log, exactlyOnce, violations);
            checkRebuilt(table, log, violations);
            if (!violations.isEmpty()) {
                break;
            }
        }
        return violations;
    }

    /** The rows of {@code table} a complete snapshot is guaranteed to have read; null when none is. */
    private IntPredicate guaranteed(Table table) {
        int lastStop = -1;
        int lastPause = -1;
        int lastResume = -1;
        for (int i = 0; i < signals.size(); i++) {
            SimulatedSignal signal = signals.get(i);
            lastStop = signal.stops.contains(table) ? i : lastStop;
            lastPause = signal == SimulatedSignal.PAUSE ? i : lastPause;
            lastResume = signal == SimulatedSignal.RESUME ? i : lastResume;
        }
        if (lastPause > lastResume) {
            return null; // perhaps paused for good, depending on whether a snapshot was under way at the pause
        }
        // The first execute after the last stop queues the table (a table queued already is not queued twice).
        for (int i = lastStop + 1; i < signals.size(); i++) {
            if (signals.get(i).executes.contains(table)) {
                return signals.get(i).rows();
            }
        }
        return null;
    }

    private void checkRebuilt(Table table, List<SourceRecord> log, List<String> violations) {
        TreeMap<Integer, Map<String, String>> rebuilt = new TreeMap<>();
        // PREPARED records kept aside, by the end LSN of the COMMIT PREPARED that publishes them.
        TreeMap<Lsn, List<SourceRecord>> staged = new TreeMap<>();
        for (SourceRecord record : log) {
            if (record.value() == null) {
                continue; // a tombstone: the delete before it removed the row
            }
            boolean snapshot = SimulatedTransactions.isSnapshot(record);
            Lsn at = Lsn.parse(SimulatedKafka.header(record, snapshot ? LifecycleHeaders.LSN : LifecycleHeaders.COMMIT_LSN));
            // The outcomes emitted before this record: before a later delivery, before a chunk placed at or after them.
            SortedMap<Lsn, List<SourceRecord>> due = snapshot ? staged.headMap(at, true) : staged.headMap(at);
            due.values().forEach(records -> records.forEach(r -> apply(r, rebuilt)));
            due.clear();
            if ("PREPARED".equals(SimulatedKafka.header(record, LifecycleHeaders.OUTCOME))) {
                Item item = byGid.get(SimulatedKafka.header(record, LifecycleHeaders.GID));
                if (item != null && item.ending() == Ending.PREPARE_COMMIT) {
                    staged.computeIfAbsent(wal.endRecord(item, EndKind.COMMIT_PREPARED).end(), k -> new ArrayList<>()).add(record);
                }
                continue; // rolled back: dropped at ROLLED_BACK
            }
            apply(record, rebuilt);
        }
        staged.values().forEach(records -> records.forEach(r -> apply(r, rebuilt)));
        TreeMap<Integer, Map<String, String>> expected = database.finalRows(table);
        IntPredicate guaranteed = guaranteed(table);
        TreeSet<Integer> ids = new TreeSet<>(expected.keySet());
        ids.addAll(rebuilt.keySet());
        for (int id : ids) {
            Map<String, String> want = expected.get(id);
            Map<String, String> got = rebuilt.get(id);
            if (got == null && want != null && database.untouched(table, id) && (guaranteed == null || !guaranteed.test(id))) {
                continue; // a row no change touched, and no snapshot guaranteed to read it
            }
            if (want == null || !want.equals(got)) {
                String kind = want == null ? "TABLE_GHOST_ROW" : got == null ? "TABLE_MISSING_ROW" : "TABLE_WRONG_ROW";
                violations.add(kind + ": " + SimulationOracle.topicOf(table) + " applied in order gives row " + id + " = " + got
                        + ", the table holds " + want + (database.untouched(table, id) ? " (a row from before the history, untouched)" : ""));
                return;
            }
        }
    }

    /** A record applied to the rebuilt table: d removes the row, c, u and r set it. */
    private static void apply(SourceRecord record, Map<Integer, Map<String, String>> rebuilt) {
        Struct value = (Struct) record.value();
        int id = ((Number) ((Struct) record.key()).get("id")).intValue();
        if ("d".equals(value.getString("op"))) {
            rebuilt.remove(id);
        } else {
            rebuilt.put(id, columns(value.getStruct("after")));
        }
    }

    private void checkSnapshotRecords(Table table, List<SourceRecord> log, boolean exactlyOnce, List<String> violations) {
        long executes = signals.stream().filter(s -> s.executes.contains(table)).count();
        Map<Integer, Integer> perRow = new HashMap<>();
        for (SourceRecord record : log) {
            if (!SimulatedTransactions.isSnapshot(record)) {
                continue;
            }
            int id = ((Number) ((Struct) record.key()).get("id")).intValue();
            if (executes == 0) {
                violations.add("SNAPSHOT_UNASKED: " + SimulationOracle.topicOf(table) + " has a snapshot record of row " + id
                        + " but no committed execute-snapshot signal names " + table.sqlName());
                return;
            }
            String problem = stale(table, id, columns(((Struct) record.value()).getStruct("after")),
                    Lsn.parse(SimulatedKafka.header(record, LifecycleHeaders.LSN)));
            if (problem != null) {
                violations.add(problem);
                return;
            }
            int seen = perRow.merge(id, 1, Integer::sum);
            if (exactlyOnce && seen > executes) {
                violations.add("SNAPSHOT_DUPLICATE: under exactly-once row " + id + " of " + table.sqlName() + " is in " + seen
                        + " snapshot records, and " + executes + " committed execute-snapshot signal(s) name the table");
                return;
            }
        }
    }

    /** Why the snapshot record of row {@code id} holding {@code read}, placed at {@code placedAt}, is wrong, or null. */
    private String stale(Table table, int id, Map<String, String> read, Lsn placedAt) {
        SimulatedDatabase.Version replaced = null;
        for (SimulatedDatabase.Version version : database.versions(table, id)) {
            if (read.equals(version.columns())) {
                if (version.replacedAt() == null || version.replacedAt().isAfter(placedAt)) {
                    return null;
                }
                replaced = version;
            }
        }
        if (replaced == null) {
            return "SNAPSHOT_GHOST_ROW: a snapshot record of " + table.sqlName() + " row " + id + " = " + read
                    + " holds no version the table ever had";
        }
        return "SNAPSHOT_STALE_ROW: a snapshot record of " + table.sqlName() + " row " + id + " = " + read + " placed at " + placedAt
                + ", but tx " + replaced.replacedBy().id() + " had replaced that version at " + replaced.replacedAt() + ", before it";
    }

    /** A row as a record's {@code after} holds it: column name to text, NULL columns left out. */
    private static Map<String, String> columns(Struct after) {
        Map<String, String> columns = new HashMap<>();
        for (Field field : after.schema().fields()) {
            Object value = after.get(field);
            if (value != null) {
                columns.put(field.name(), value.toString());
            }
        }
        return columns;
    }

    /** Per checked table, how many snapshot records a read_committed consumer reads. */
    Map<Table, Long> snapshotRecords(SimulatedKafka kafka) {
        Map<Table, Long> counts = new EnumMap<>(Table.class);
        Map<String, List<SourceRecord>> logs = kafka.logs();
        for (Table table : checked) {
            counts.put(table, logs.getOrDefault(SimulationOracle.topicOf(table), List.of()).stream().filter(SimulatedTransactions::isSnapshot).count());
        }
        return counts;
    }
}
