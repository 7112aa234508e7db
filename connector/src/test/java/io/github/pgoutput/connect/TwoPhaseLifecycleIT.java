package io.github.pgoutput.connect;

import io.github.pgoutput.testing.kafka.ConnectWorkerCluster;
import io.github.pgoutput.connect.record.LifecycleHeaders;

import static io.github.pgoutput.testing.kafka.ConnectWorkerCluster.headerTexts;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.pgoutput.pgoutput.Lsn;
import io.github.pgoutput.testing.PostgresDatabase;
import io.github.pgoutput.testing.PostgresTest;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Issue 4, integration test 4: two-phase transactions through a real Connect worker. In {@code stage} mode a
 * prepared transaction's changes arrive as PREPARED with its GID, and COMMIT PREPARED / ROLLBACK PREPARED arrive later
 * as one lifecycle record on the transaction topic keyed by the GID. In {@code fail} mode a prepared transaction
 * arrives as an ordinary commit at COMMIT PREPARED, and a rolled-back one never arrives.
 */
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class TwoPhaseLifecycleIT {

    private static final Duration WAIT = Duration.ofSeconds(90);

    @RegisterExtension
    static final ConnectWorkerCluster connect = ConnectWorkerCluster.shared();

    @PostgresTest(representative = 16)
    void stageModeDeliversPreparedChangesThenTheirOutcomeKeyedByGid(PostgresDatabase db) {
        // One worker cluster serves every PostgreSQL version: connector and topics are named per version.
        String name = "stage" + db.majorVersion();
        db.execute("CREATE TABLE t (id bigint PRIMARY KEY, name text)");
        Map<String, String> config = MixedWorkloadIT.connectorConfig(db, name, "stage_slot");
        config.put("prepared.transaction.mode", "stage");
        config.put("provide.transaction.metadata", "true");
        connect.configureConnector(name, config);
        connect.awaitRunning(name, 1, WAIT);
        awaitSlotActive(db, "stage_slot");
        assertThat(db.queryValue("SELECT two_phase FROM pg_replication_slots WHERE slot_name = 'stage_slot'"))
                .as("stage mode decodes at PREPARE").isEqualTo("t");

        db.execute("BEGIN; INSERT INTO t VALUES (1, 'one'), (2, 'two'); PREPARE TRANSACTION 'gid-commit'",
                "BEGIN; INSERT INTO t VALUES (3, 'three'); PREPARE TRANSACTION 'gid-rollback'");
        List<ConsumerRecord<byte[], byte[]>> prepared = connect.awaitRecords(name + ".public.t", 3, WAIT);
        assertThat(prepared).hasSize(3).allSatisfy(r -> {
            Map<String, String> headers = headerTexts(r);
            assertThat(headers).containsEntry(LifecycleHeaders.OUTCOME, "PREPARED")
                    .containsEntry(LifecycleHeaders.TWO_PHASE, "true").containsKeys(LifecycleHeaders.XID, LifecycleHeaders.GID);
        });
        assertThat(prepared).map(r -> headerTexts(r).get(LifecycleHeaders.GID))
                .containsExactly("gid-commit", "gid-commit", "gid-rollback");
        assertThat(lifecycleRecord(name, "gid-commit")).as("outcome before COMMIT PREPARED").isEmpty();

        db.execute("COMMIT PREPARED 'gid-commit'", "ROLLBACK PREPARED 'gid-rollback'");
        ConnectWorkerCluster.awaitCondition(WAIT, "lifecycle records of both GIDs", () ->
                lifecycleRecord(name, "gid-commit").isPresent() && lifecycleRecord(name, "gid-rollback").isPresent());
        assertOutcome(lifecycleRecord(name, "gid-commit").orElseThrow(), "COMMITTED", prepared.get(0));
        assertOutcome(lifecycleRecord(name, "gid-rollback").orElseThrow(), "ROLLED_BACK", prepared.get(2));
        assertThat(connect.readAll(name + ".public.t", Duration.ofSeconds(20))).as("nothing re-sent on the table topic")
                .hasSize(3);
        // Keyed by GID, a transaction's records share a partition: its PREPARED BEGIN/END come before its outcome.
        List<ConsumerRecord<byte[], byte[]>> transactions = connect.readAll(name + ".transaction", Duration.ofSeconds(20));
        assertThat(statusesKeyed(transactions, "gid-commit")).containsExactly("BEGIN/PREPARED", "END/PREPARED",
                "COMMITTED/COMMITTED");
        assertThat(statusesKeyed(transactions, "gid-rollback")).containsExactly("BEGIN/PREPARED", "END/PREPARED",
                "ROLLED_BACK/ROLLED_BACK");
        // The PREPARED deliveries' BEGIN and END carry the end LSN their change records carry in pg.commit_lsn.
        for (ConsumerRecord<byte[], byte[]> change : prepared) {
            String end = headerTexts(change).get(LifecycleHeaders.COMMIT_LSN);
            assertThat(transactions).filteredOn(r -> TopicReplica.json(r.value()).get("outcome").asText().equals("PREPARED"))
                    .filteredOn(r -> TopicReplica.json(r.value()).get("gid").asText().equals(headerTexts(change).get(LifecycleHeaders.GID)))
                    .hasSize(2).allSatisfy(r -> assertThat(TopicReplica.json(r.value()).get("end_lsn").asText()).isEqualTo(end));
        }
        release(db, name, "stage_slot");
    }

    @PostgresTest(representative = 16)
    void failModeDeliversPreparedTransactionsAsOrdinaryCommitsAtCommitPrepared(PostgresDatabase db) {
        String name = "plain" + db.majorVersion();
        db.execute("CREATE TABLE t (id bigint PRIMARY KEY, name text)");
        Map<String, String> config = MixedWorkloadIT.connectorConfig(db, name, "plain_slot");
        config.put("prepared.transaction.mode", "fail");
        config.put("provide.transaction.metadata", "true"); // off by default; checked below
        connect.configureConnector(name, config);
        connect.awaitRunning(name, 1, WAIT);
        awaitSlotActive(db, "plain_slot");
        assertThat(db.queryValue("SELECT two_phase FROM pg_replication_slots WHERE slot_name = 'plain_slot'"))
                .as("fail mode does not ask for two-phase decoding").isEqualTo("f");

        db.execute("BEGIN; INSERT INTO t VALUES (1, 'prepared-then-committed'); PREPARE TRANSACTION 'f-commit'",
                "BEGIN; INSERT INTO t VALUES (2, 'ROLLED-BACK'); PREPARE TRANSACTION 'f-rollback'",
                "INSERT INTO t VALUES (100, 'marker-after-prepare')");
        List<ConsumerRecord<byte[], byte[]>> beforeCommit = connect.awaitRecords(name + ".public.t", 1, WAIT);
        assertThat(beforeCommit).as("only the marker before COMMIT PREPARED").singleElement()
                .satisfies(r -> assertThat(ConnectWorkerCluster.valueText(r)).contains("marker-after-prepare"));

        db.execute("ROLLBACK PREPARED 'f-rollback'", "COMMIT PREPARED 'f-commit'",
                "INSERT INTO t VALUES (101, 'marker-after-commit')");
        List<ConsumerRecord<byte[], byte[]>> records = connect.awaitRecords(name + ".public.t", 3, WAIT);
        assertThat(records).map(ConnectWorkerCluster::valueText).hasSize(3)
                .noneSatisfy(v -> assertThat(v).contains("ROLLED-BACK"));
        ConsumerRecord<byte[], byte[]> committed = records.get(1);
        assertThat(ConnectWorkerCluster.valueText(committed)).contains("prepared-then-committed");
        assertThat(headerTexts(committed)).containsEntry(LifecycleHeaders.OUTCOME, "COMMITTED")
                .containsEntry(LifecycleHeaders.TWO_PHASE, "false").doesNotContainKey(LifecycleHeaders.GID);
        assertThat(connect.readAll(name + ".transaction", Duration.ofSeconds(20)))
                .map(r -> TopicReplica.json(r.value()))
                .noneSatisfy(v -> assertThat(v.get("two_phase").asBoolean()).isTrue())
                .noneSatisfy(v -> assertThat(v.get("outcome").asText()).isEqualTo("ROLLED_BACK"));
        release(db, name, "plain_slot");
    }

    /** The one record on the transaction topic whose key is {@code gid}, if it is there yet. */
    private static Optional<ConsumerRecord<byte[], byte[]>> lifecycleRecord(String prefix, String gid) {
        return connect.readAllIfExists(prefix + ".transaction", Duration.ofSeconds(20)).stream()
                .filter(r -> r.key() != null && TopicReplica.json(r.key()).path("id").asText().equals(gid))
                .filter(r -> !TopicReplica.json(r.value()).get("outcome").asText().equals("PREPARED"))
                .reduce((first, second) -> {
                    throw new AssertionError("two lifecycle records keyed " + gid + ": " + first + ", " + second);
                });
    }

    /** status/outcome of the transaction-topic records keyed {@code gid}, in partition order. */
    private static List<String> statusesKeyed(List<ConsumerRecord<byte[], byte[]>> transactions, String gid) {
        return transactions.stream()
                .filter(r -> r.key() != null && TopicReplica.json(r.key()).path("id").asText().equals(gid))
                .sorted(java.util.Comparator.comparingInt(ConsumerRecord<byte[], byte[]>::partition)
                        .thenComparingLong(ConsumerRecord::offset))
                .map(r -> TopicReplica.json(r.value()))
                .map(v -> v.get("status").asText() + "/" + v.get("outcome").asText())
                .toList();
    }

    private static void assertOutcome(ConsumerRecord<byte[], byte[]> lifecycle, String outcome,
            ConsumerRecord<byte[], byte[]> preparedChange) {
        JsonNode value = TopicReplica.json(lifecycle.value());
        Map<String, String> prepared = headerTexts(preparedChange);
        Map<String, String> headers = headerTexts(lifecycle);
        assertThat(value.get("status").asText()).isEqualTo(outcome);
        assertThat(value.get("outcome").asText()).isEqualTo(outcome);
        assertThat(value.get("two_phase").asBoolean()).isTrue();
        assertThat(value.get("gid").asText()).isEqualTo(prepared.get(LifecycleHeaders.GID));
        assertThat(Long.toString(value.get("xid").asLong())).isEqualTo(prepared.get(LifecycleHeaders.XID));
        assertThat(headers).containsEntry(LifecycleHeaders.OUTCOME, outcome)
                .containsEntry(LifecycleHeaders.TWO_PHASE, "true")
                .containsEntry(LifecycleHeaders.GID, prepared.get(LifecycleHeaders.GID))
                .containsEntry(LifecycleHeaders.XID, prepared.get(LifecycleHeaders.XID));
        Lsn preparedEnd = Lsn.parse(prepared.get(LifecycleHeaders.COMMIT_LSN));
        assertThat(Lsn.parse(headers.get(LifecycleHeaders.COMMIT_LSN)))
                .as("the outcome comes after its PREPARED changes in the WAL").isGreaterThan(preparedEnd);
        assertThat(value.get("end_lsn").asText()).isEqualTo(headers.get(LifecycleHeaders.COMMIT_LSN));
        if (outcome.equals("ROLLED_BACK")) {
            // ROLLBACK PREPARED names the PREPARE it undoes by that record's end (prepare_end_lsn): the server's own
            // statement of the end LSN the PREPARED records carried in pg.commit_lsn.
            assertThat(value.get("tx_lsn").asText()).isEqualTo(preparedEnd.toString());
        } else {
            assertThat(Lsn.parse(value.get("tx_lsn").asText())).as("COMMIT PREPARED starts after the PREPARE ended")
                    .isGreaterThanOrEqualTo(preparedEnd);
        }
    }

    private static void awaitSlotActive(PostgresDatabase db, String slot) {
        ConnectWorkerCluster.awaitCondition(WAIT, "slot " + slot + " active", () ->
                !db.query("SELECT 1 FROM pg_replication_slots WHERE slot_name = '" + slot + "' AND active").isEmpty());
    }

    private static void release(PostgresDatabase db, String connector, String slot) {
        connect.deleteConnector(connector);
        ConnectWorkerCluster.awaitCondition(WAIT, "slot released", () ->
                db.query("SELECT 1 FROM pg_replication_slots WHERE slot_name = '" + slot + "' AND active").isEmpty());
    }
}
