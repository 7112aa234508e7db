package io.github.pgoutput.connect.simulation;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.github.pgoutput.connect.simulation.SimulationHistory.AlterStep;
import io.github.pgoutput.connect.simulation.SimulationHistory.ChangeStep;
import io.github.pgoutput.connect.simulation.SimulationHistory.EndKind;
import io.github.pgoutput.connect.simulation.SimulationHistory.EndStep;
import io.github.pgoutput.connect.simulation.SimulationHistory.Item;
import io.github.pgoutput.connect.simulation.SimulationHistory.MessageStep;
import io.github.pgoutput.connect.simulation.SimulationHistory.Op;
import io.github.pgoutput.connect.simulation.SimulationHistory.SignalMessageStep;
import io.github.pgoutput.connect.simulation.SimulationHistory.Step;
import io.github.pgoutput.connect.simulation.SimulationHistory.SubAbortStep;
import io.github.pgoutput.pgoutput.Lsn;

/**
 * The laid-out WAL of a run: records with start and end LSNs, and the facts the simulated server and the oracle
 * derive from it (which changes a transaction committed, where its commit or prepare record lies). Immutable.
 */
final class SimulatedWal {

    /**
     * One WAL record.
     *
     * @param version for a change: the table's schema version (number of ALTERs before it)
     */
    record Record(int index, Item item, int stepIndex, Step step, Lsn start, Lsn end, int version) {

        /**
         * The LSN the task reports as the record's {@code pg.lsn}: the frame header of a change (its record's start,
         * docs/pgoutput-protocol.md §2.2), or the lsn field of a logical message (the end of its record).
         */
        Lsn wireLsn() {
            return step instanceof MessageStep || step instanceof SignalMessageStep || (step instanceof ChangeStep c && c.op().isMessage())
                    ? end : start;
        }

        String describe() {
            String what;
            if (step instanceof ChangeStep c) {
                what = "tx " + item.id() + (c.sub() == 0 ? "" : " sub " + item.subXid(c.sub())) + ": "
                        + (c.op() == Op.MESSAGE ? "transactional message"
                        : c.op() == Op.SIGNAL ? "transactional signal message " + SimulatedSignal.of(c.row())
                        : c.table() == SimulationHistory.Table.SIG ? "INSERT sig, signal " + SimulatedSignal.of(c.row())
                        : c.op() + " " + c.table().sqlName() + " row " + c.row() + (version > 0 ? " (schema v" + version + ")" : ""))
                        + (c.endsBlock() ? "  [stream block ends]" : "");
            } else if (step instanceof SubAbortStep s) {
                what = "tx " + item.id() + ": ROLLBACK TO SAVEPOINT (sub " + item.subXid(s.sub()) + ")";
            } else if (step instanceof EndStep e) {
                what = "tx " + item.id() + ": " + e.kind() + (e.kind() == EndKind.PREPARE || e.kind() == EndKind.COMMIT_PREPARED
                        || e.kind() == EndKind.ROLLBACK_PREPARED ? " '" + item.gid() + "'" : "");
            } else if (step instanceof MessageStep) {
                what = "non-transactional message";
            } else if (step instanceof SignalMessageStep signal) {
                what = "non-transactional signal message " + SimulatedSignal.of(signal.signal());
            } else {
                what = "ALTER TABLE " + ((AlterStep) step).table().sqlName() + " ADD COLUMN";
            }
            String flags = item.isTransaction() && stepIndex == 0
                    ? " (xid " + item.xid() + (item.large() ? ", large" : "") + (item.origin() ? ", origin" : "") + ")" : "";
            return start + "-" + end + "  " + what + flags;
        }
    }

    private final List<Record> records;
    private final Map<Integer, List<Record>> byItem = new HashMap<>();

    SimulatedWal(List<Record> records) {
        this.records = List.copyOf(records);
        for (Record record : records) {
            byItem.computeIfAbsent(record.item().id(), k -> new ArrayList<>()).add(record);
        }
    }

    List<Record> records() {
        return records;
    }

    Lsn end() {
        return records.isEmpty() ? Lsn.of(0x100_0000L) : records.get(records.size() - 1).end();
    }

    List<Record> recordsOf(Item item) {
        return byItem.getOrDefault(item.id(), List.of());
    }

    /** The record of {@code item} that ends it with {@code kind}, or null. */
    Record endRecord(Item item, EndKind kind) {
        for (Record record : recordsOf(item)) {
            if (record.step() instanceof EndStep e && e.kind() == kind) {
                return record;
            }
        }
        return null;
    }

    /** The subtransactions of {@code item} rolled back to a savepoint. */
    Set<Integer> abortedSubs(Item item) {
        Set<Integer> subs = new HashSet<>();
        for (Record record : recordsOf(item)) {
            if (record.step() instanceof SubAbortStep s) {
                subs.add(s.sub());
            }
        }
        return subs;
    }

    /** The change records of {@code item} that survive its savepoint rollbacks, in WAL order. */
    List<Record> survivingChanges(Item item) {
        Set<Integer> aborted = abortedSubs(item);
        List<Record> kept = new ArrayList<>();
        for (Record record : recordsOf(item)) {
            if (record.step() instanceof ChangeStep c && !aborted.contains(c.sub())) {
                kept.add(record);
            }
        }
        return kept;
    }

    /** Whether the transaction's changes count as committed in the end. */
    static boolean commits(Item item) {
        return item.ending() == SimulationHistory.Ending.COMMIT || item.ending() == SimulationHistory.Ending.PREPARE_COMMIT;
    }
}
