package io.github.pgoutput.connect.simulation;

import io.github.pgoutput.connect.record.LifecycleHeaders;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.github.pgoutput.connect.simulation.SimulatedWal.Record;
import io.github.pgoutput.connect.simulation.SimulationHistory.ChangeStep;
import io.github.pgoutput.connect.simulation.SimulationHistory.EndKind;
import io.github.pgoutput.connect.simulation.SimulationHistory.Ending;
import io.github.pgoutput.connect.simulation.SimulationHistory.Item;
import io.github.pgoutput.connect.simulation.SimulationHistory.MessageStep;
import io.github.pgoutput.pgoutput.Lsn;
import org.apache.kafka.connect.source.SourceRecord;

/**
 * What must hold after a run, derived from the WAL history alone (never from what the task did), of what a
 * {@code read_committed} consumer reads ({@link SimulatedKafka#logs()}: without exactly-once, every record written):
 * <ul>
 *   <li>every committed change of a table every configuration captures (and every logical message, when enabled)
 *       is in Kafka, and per topic in the order PostgreSQL sends them: the expected sequence is a subsequence of the
 *       topic (duplicates and replays allowed);</li>
 *   <li>no change of an aborted transaction or rolled-back savepoint is in Kafka; a rolled-back prepared
 *       transaction's changes only with {@code pg.outcome=PREPARED};</li>
 *   <li>every GID seen as PREPARED has its outcome on the transaction topic, and the right one;</li>
 *   <li>at every declareDurable, everything PostgreSQL would not send again from that LSN is acknowledged (under
 *       exactly-once: in a committed transaction).</li>
 * </ul>
 * Records are matched to the history by topic and {@code pg.lsn} (a change's WAL record; unique per topic); snapshot
 * records, whose {@code pg.lsn} is where the stream stood, are {@link TableOracle}'s.
 */
final class SimulationOracle {

    /** One expected record: its topic and pg.lsn, and where PostgreSQL sends it (the record that completes its delivery). */
    private record Expected(String topic, String lsn, Lsn sentAt, int walIndex, String what) {
    }

    private final SimulatedWal wal;
    private final boolean messages;

    SimulationOracle(SimulatedWal wal, boolean messages) {
        this.wal = wal;
        this.messages = messages;
    }

    static String topicOf(SimulationHistory.Table table) {
        return "sim.public." + table.sqlName();
    }

    /** Where PostgreSQL sends the changes of {@code item} (docs/pgoutput-protocol.md §6.1, 6.5), given the slot's two_phase_at. */
    private Record sentAt(Item item, Lsn twoPhaseAt) {
        if (item.ending() == Ending.COMMIT) {
            return wal.endRecord(item, EndKind.COMMIT);
        }
        Record prepare = wal.endRecord(item, EndKind.PREPARE);
        boolean atPrepare = twoPhaseAt != null && !prepare.start().isBefore(twoPhaseAt);
        return atPrepare ? prepare : wal.endRecord(item, EndKind.COMMIT_PREPARED);
    }

    private List<Expected> expected(Lsn twoPhaseAt) {
        List<Expected> all = new ArrayList<>();
        for (Record record : wal.records()) {
            Item item = record.item();
            if ((record.step() instanceof MessageStep || record.step() instanceof SimulationHistory.SignalMessageStep) && messages) {
                all.add(new Expected("sim.message", record.wireLsn().toString(), record.start(), record.index(), record.describe()));
            }
        }
        for (Record record : wal.records()) {
            Item item = record.item();
            if (!(record.step() instanceof ChangeStep) || !item.isTransaction() || !SimulatedWal.commits(item)) {
                continue;
            }
            if (!wal.survivingChanges(item).contains(record)) {
                continue;
            }
            ChangeStep change = (ChangeStep) record.step();
            String topic = change.op().isMessage() ? (messages ? "sim.message" : null) : change.table().checked ? topicOf(change.table()) : null;
            if (topic != null) {
                all.add(new Expected(topic, record.wireLsn().toString(), sentAt(item, twoPhaseAt).start(), record.index(), record.describe()));
            }
        }
        all.sort(Comparator.comparing(Expected::sentAt).thenComparingInt(Expected::walIndex));
        return all;
    }

    /** The violation of the durability rule at a declareDurable of {@code confirmed}, or null. */
    String checkConfirmed(Lsn confirmed, Lsn twoPhaseAt, SimulatedKafka kafka) {
        Map<String, Set<String>> inKafka = lsnsByTopic(kafka);
        for (Expected expected : expected(twoPhaseAt)) {
            if (expected.sentAt().isBefore(confirmed) && !inKafka.getOrDefault(expected.topic(), Set.of()).contains(expected.lsn())) {
                return "confirmed " + confirmed + " passes a record a read_committed consumer cannot read: " + expected.what() + " (topic "
                        + expected.topic() + ", sent at " + expected.sentAt() + ")";
            }
        }
        return null;
    }

    private static Map<String, Set<String>> lsnsByTopic(SimulatedKafka kafka) {
        Map<String, Set<String>> byTopic = new HashMap<>();
        kafka.logs().forEach((topic, records) -> {
            Set<String> lsns = byTopic.computeIfAbsent(topic, t -> new HashSet<>());
            for (SourceRecord record : records) {
                String lsn = SimulatedKafka.header(record, LifecycleHeaders.LSN);
                if (lsn != null && !SimulatedTransactions.isSnapshot(record)) {
                    lsns.add(lsn);
                }
            }
        });
        return byTopic;
    }

    /** The violations of the end state; empty when the run is correct. */
    List<String> check(SimulatedKafka kafka, Lsn twoPhaseAt, boolean lifecycleChecked) {
        List<String> violations = new ArrayList<>();
        checkComplete(kafka, twoPhaseAt, violations);
        checkNothingAborted(kafka, violations);
        if (lifecycleChecked) {
            checkLifecycles(kafka, violations);
        }
        return violations;
    }

    private void checkComplete(SimulatedKafka kafka, Lsn twoPhaseAt, List<String> violations) {
        Map<String, List<Expected>> byTopic = new HashMap<>();
        for (Expected expected : expected(twoPhaseAt)) {
            byTopic.computeIfAbsent(expected.topic(), t -> new ArrayList<>()).add(expected);
        }
        byTopic.forEach((topic, wanted) -> {
            List<SourceRecord> log = kafka.logs().getOrDefault(topic, List.of());
            int next = 0;
            for (SourceRecord record : log) {
                if (next < wanted.size() && !SimulatedTransactions.isSnapshot(record)
                        && wanted.get(next).lsn().equals(SimulatedKafka.header(record, LifecycleHeaders.LSN))) {
                    next++;
                }
            }
            if (next < wanted.size()) {
                Expected missing = wanted.get(next);
                Set<String> present = lsnsByTopic(kafka).getOrDefault(topic, Set.of());
                violations.add((present.contains(missing.lsn()) ? "LOST_ORDER" : "LOST") + ": committed change "
                        + (present.contains(missing.lsn()) ? "out of commit order on " : "missing from ") + topic + ": " + missing.what());
            }
        });
    }

    private void checkNothingAborted(SimulatedKafka kafka, List<String> violations) {
        Map<String, Record> aborted = new HashMap<>();
        for (Record record : wal.records()) {
            Item item = record.item();
            if (!(record.step() instanceof ChangeStep change) || !item.isTransaction()) {
                continue;
            }
            boolean rolledBackSub = wal.abortedSubs(item).contains(change.sub());
            if (rolledBackSub || !SimulatedWal.commits(item)) {
                String topic = change.op().isMessage() ? "sim.message" : topicOf(change.table());
                aborted.put(topic + " " + record.wireLsn(), record);
            }
        }
        kafka.logs().forEach((topic, records) -> {
            for (SourceRecord record : records) {
                Record change = SimulatedTransactions.isSnapshot(record) ? null
                        : aborted.get(topic + " " + SimulatedKafka.header(record, LifecycleHeaders.LSN));
                if (change == null) {
                    continue;
                }
                boolean preparedOnly = change.item().ending() == Ending.PREPARE_ROLLBACK
                        && !wal.abortedSubs(change.item()).contains(((ChangeStep) change.step()).sub());
                String outcome = SimulatedKafka.header(record, LifecycleHeaders.OUTCOME);
                if (!preparedOnly || !"PREPARED".equals(outcome)) {
                    violations.add("ABORTED_VISIBLE: " + change.describe() + " is in " + topic + " with pg.outcome=" + outcome);
                    return;
                }
            }
        });
    }

    private void checkLifecycles(SimulatedKafka kafka, List<String> violations) {
        Map<String, Item> byGid = new HashMap<>();
        for (Record record : wal.records()) {
            if (record.item().isTransaction()) {
                byGid.put(record.item().gid(), record.item());
            }
        }
        Set<String> prepared = new HashSet<>();
        Map<String, Set<String>> outcomes = new HashMap<>();
        kafka.logs().forEach((topic, records) -> {
            for (SourceRecord record : records) {
                String gid = SimulatedKafka.header(record, LifecycleHeaders.GID);
                String outcome = SimulatedKafka.header(record, LifecycleHeaders.OUTCOME);
                if (gid == null) {
                    continue;
                }
                if ("PREPARED".equals(outcome)) {
                    prepared.add(gid);
                } else if (topic.equals("sim.transaction")) {
                    outcomes.computeIfAbsent(gid, g -> new HashSet<>()).add(outcome);
                }
            }
        });
        for (String gid : prepared) {
            Item item = byGid.get(gid);
            String wanted = item.ending() == Ending.PREPARE_COMMIT ? "COMMITTED" : "ROLLED_BACK";
            Set<String> seen = outcomes.getOrDefault(gid, Set.of());
            if (!seen.contains(wanted)) {
                violations.add("LIFECYCLE: '" + gid + "' (tx " + item.id() + ") was PREPARED but its outcome " + wanted
                        + " is not on the transaction topic (seen: " + seen + ")");
            }
        }
        outcomes.forEach((gid, seen) -> {
            Item item = byGid.get(gid);
            String wrong = item.ending() == Ending.PREPARE_COMMIT ? "ROLLED_BACK" : "COMMITTED";
            if (seen.contains(wrong)) {
                violations.add("LIFECYCLE: '" + gid + "' (tx " + item.id() + ") has the outcome " + wrong + " on the transaction topic");
            }
        });
    }
}
