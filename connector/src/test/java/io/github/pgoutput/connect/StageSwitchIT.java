package io.github.pgoutput.connect;

import io.github.pgoutput.testing.kafka.ConnectWorkerCluster;
import io.github.pgoutput.connect.record.LifecycleHeaders;

import static io.github.pgoutput.testing.kafka.ConnectWorkerCluster.headerTexts;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.github.pgoutput.pgoutput.Lsn;
import io.github.pgoutput.testing.PostgresDatabase;
import io.github.pgoutput.testing.PostgresTest;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Loss path 2 on real servers: {@code prepared.transaction.mode} switched from fail to stage on a slot that streamed
 * past a transaction prepared before the switch. PostgreSQL sends that transaction at its COMMIT PREPARED as
 * Begin Prepare, changes, Prepare with the original, older prepare LSN, then Commit Prepared (docs/pgoutput-protocol.md §6.5). Its changes
 * are new data, not a replay of something already in Kafka, and must arrive as PREPARED before the COMMITTED outcome.
 */
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class StageSwitchIT {

    private static final Duration WAIT = Duration.ofSeconds(90);

    @RegisterExtension
    static final ConnectWorkerCluster connect = ConnectWorkerCluster.shared();

    @PostgresTest(representative = 17)
    void aTransactionPreparedBeforeTheSwitchToStageArrivesWholeAtItsCommitPrepared(PostgresDatabase db) {
        String name = "switch" + db.majorVersion();
        String slot = "switch_slot";
        db.execute("CREATE TABLE t (id bigint PRIMARY KEY, name text)");
        Map<String, String> config = MixedWorkloadIT.connectorConfig(db, name, slot);
        config.put("prepared.transaction.mode", "fail");
        connect.configureConnector(name, config);
        connect.awaitRunning(name, 1, WAIT);
        awaitSlotActive(db, slot);

        db.execute("BEGIN; INSERT INTO t VALUES (1, 'prepared-before-switch'); PREPARE TRANSACTION 'before-switch'",
                "INSERT INTO t VALUES (100, 'marker-after-prepare')");
        try {
            switchToStageAndCommitPrepared(db, name, slot, config);
        } finally {
            // A prepared transaction left behind keeps the test database from being dropped.
            if (!db.query("SELECT 1 FROM pg_prepared_xacts WHERE gid = 'before-switch'").isEmpty()) {
                db.execute("ROLLBACK PREPARED 'before-switch'");
            }
        }
        connect.deleteConnector(name);
        ConnectWorkerCluster.awaitCondition(WAIT, "slot released", () ->
                db.query("SELECT 1 FROM pg_replication_slots WHERE slot_name = '" + slot + "' AND active").isEmpty());
    }

    private void switchToStageAndCommitPrepared(PostgresDatabase db, String name, String slot, Map<String, String> config) {
        List<ConsumerRecord<byte[], byte[]>> first = connect.awaitRecords(name + ".public.t", 1, WAIT);
        Lsn markerEnd = Lsn.parse(headerTexts(first.get(0)).get(LifecycleHeaders.COMMIT_LSN));
        // The stored offset (and the slot) are past the PREPARE before the switch: that is what made the old code skip.
        ConnectWorkerCluster.awaitCondition(WAIT, "slot confirmed past the marker", () -> !Lsn.parse(
                db.queryValue("SELECT confirmed_flush_lsn::text FROM pg_replication_slots WHERE slot_name = '" + slot + "'"))
                .isBefore(markerEnd));

        // Stopped, reconfigured, resumed: a deliberate switch, with the slot free while the mode changes.
        connect.stopConnector(name);
        ConnectWorkerCluster.awaitCondition(WAIT, "slot released", () ->
                db.query("SELECT 1 FROM pg_replication_slots WHERE slot_name = '" + slot + "' AND active").isEmpty());
        config.put("prepared.transaction.mode", "stage");
        config.put("provide.transaction.metadata", "true");
        connect.configureConnector(name, config);
        connect.resumeConnector(name);
        connect.awaitRunning(name, 1, WAIT);
        ConnectWorkerCluster.awaitCondition(WAIT, "slot switched to two-phase", () ->
                "t".equals(db.queryValue("SELECT two_phase FROM pg_replication_slots WHERE slot_name = '" + slot + "' AND active")));

        db.execute("COMMIT PREPARED 'before-switch'", "INSERT INTO t VALUES (101, 'marker-after-commit')");
        List<ConsumerRecord<byte[], byte[]>> records = connect.awaitRecords(name + ".public.t", 3, WAIT);
        assertThat(records).map(ConnectWorkerCluster::valueText).hasSize(3);
        ConsumerRecord<byte[], byte[]> prepared = records.get(1);
        assertThat(ConnectWorkerCluster.valueText(prepared)).contains("prepared-before-switch");
        assertThat(headerTexts(prepared)).containsEntry(LifecycleHeaders.OUTCOME, "PREPARED")
                .containsEntry(LifecycleHeaders.GID, "before-switch");
        assertThat(ConnectWorkerCluster.valueText(records.get(2))).contains("marker-after-commit");
        ConnectWorkerCluster.awaitCondition(WAIT, "the COMMITTED outcome of 'before-switch'", () ->
                connect.readAllIfExists(name + ".transaction", Duration.ofSeconds(5)).stream()
                        .filter(r -> r.key() != null && TopicReplica.json(r.key()).path("id").asText().equals("before-switch"))
                        .anyMatch(r -> TopicReplica.json(r.value()).get("outcome").asText().equals("COMMITTED")));
    }

    private static void awaitSlotActive(PostgresDatabase db, String slot) {
        ConnectWorkerCluster.awaitCondition(WAIT, "slot " + slot + " active", () ->
                !db.query("SELECT 1 FROM pg_replication_slots WHERE slot_name = '" + slot + "' AND active").isEmpty());
    }
}
