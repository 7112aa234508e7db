package io.github.pgoutput.connect.simulation;

import io.github.pgoutput.connect.record.LifecycleHeaders;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import io.github.pgoutput.connect.simulation.SimulatedWal.Record;
import io.github.pgoutput.connect.simulation.SimulationHistory.EndKind;
import io.github.pgoutput.pgoutput.Lsn;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.source.SourceRecord;

/**
 * What exactly-once adds to {@link SimulationOracle} (every committed change in Kafka, in commit order, nothing
 * aborted, all read by a {@code read_committed} consumer): that consumer sees no record of a delivery twice. A record
 * is known by its topic, its delivery ({@code pg.commit_lsn} and {@code pg.outcome}), its {@code pg.lsn} and what it
 * is (a change's op, a transaction record's status, a tombstone). Heartbeats are left out (each is new), and snapshot
 * rows are {@link TableOracle}'s.
 *
 * <p>The two documented exceptions (docs/reliability.md, "What a duplicate looks like"): a delivery the committed
 * offset stood inside when a restart changed a setting that numbers its records comes again from its first record
 * ({@link #emittedAgain}); and the PREPARED delivery of a transaction prepared before the slot's two_phase_at, which
 * is sent again, with its older prepare LSNs, until its outcome is delivered. Neither can happen under connector
 * boundaries for the first (an offset never stands inside a delivery there), but the second can.
 */
final class ExactlyOnceOracle {

    /** The {@code pg.commit_lsn} of the deliveries emitted again by design. */
    private final Set<String> emittedAgain = new HashSet<>();

    /** A restart changed a numbering setting while the committed offset was inside the delivery ending at {@code txEndLsn}. */
    void emittedAgain(Lsn txEndLsn) {
        emittedAgain.add(txEndLsn.toString());
    }

    List<String> check(SimulatedKafka kafka, SimulatedWal wal, Lsn twoPhaseAt) {
        Set<String> preparedEarlier = new HashSet<>();
        if (twoPhaseAt != null) {
            for (Record record : wal.records()) {
                if (record.step() instanceof SimulationHistory.EndStep end && end.kind() == EndKind.PREPARE
                        && record.start().isBefore(twoPhaseAt)) {
                    preparedEarlier.add(record.end().toString());
                }
            }
        }
        List<String> violations = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        kafka.logs().forEach((topic, records) -> {
            for (SourceRecord record : records) {
                String commitLsn = SimulatedKafka.header(record, LifecycleHeaders.COMMIT_LSN);
                if (commitLsn == null || SimulatedTransactions.isSnapshot(record) || emittedAgain.contains(commitLsn)) {
                    continue;
                }
                String outcome = SimulatedKafka.header(record, LifecycleHeaders.OUTCOME);
                if ("PREPARED".equals(outcome) && preparedEarlier.contains(commitLsn)) {
                    continue;
                }
                String identity = topic + " " + commitLsn + " " + outcome + " " + SimulatedKafka.header(record, LifecycleHeaders.LSN)
                        + " " + what(record);
                if (!seen.add(identity)) {
                    violations.add("DUPLICATE: under exactly-once a read_committed consumer sees twice: "
                            + SimulatedTransactions.describe(record));
                    return;
                }
            }
        });
        return violations;
    }

    private static String what(SourceRecord record) {
        if (!(record.value() instanceof Struct value)) {
            return record.value() == null ? "tombstone" : "value";
        }
        if (value.schema().field("op") != null) {
            return "op " + value.get("op");
        }
        if (value.schema().field("status") != null) {
            return "status " + value.get("status");
        }
        return "value";
    }
}
