package io.github.pgoutput.connect;

import static io.github.pgoutput.testing.kafka.ConnectWorkerCluster.headerTexts;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.pgoutput.connect.config.PgOutputSourceConnectorConfig;
import io.github.pgoutput.connect.config.ReplicationKeys;
import io.github.pgoutput.connect.record.LifecycleHeaders;
import io.github.pgoutput.testing.Nightly;
import io.github.pgoutput.testing.PostgresCluster;
import io.github.pgoutput.testing.PostgresDatabase;
import io.github.pgoutput.testing.PostgresExtension;
import io.github.pgoutput.testing.kafka.ConnectWorkerCluster;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * PostgreSQL's {@code two_phase_at} on a synced failover slot, on the last PostgreSQL 17+ version of
 * {@code -Dpg.versions}. A transaction is PREPARED while the slot is not two-phase ({@code prepared.transaction.mode=fail}),
 * then the connector is switched to {@code stage}, which turns two_phase on for the slot from a later LSN (its
 * {@code two_phase_at}). At COMMIT PREPARED a server sends such a transaction whole (Begin Prepare, changes, Prepare,
 * Commit Prepared) because its prepare lies before {@code two_phase_at} (docs/pgoutput-protocol.md §6.5). Here the
 * COMMIT PREPARED runs on the promoted standby, whose copy of the slot decides: if it did not get the primary's
 * {@code two_phase_at}, it takes the prepare for one already sent and sends only Commit Prepared, and the
 * transaction's changes never reach Kafka: so it goes on PostgreSQL 17 (17.6, no two_phase_at in the synced slot),
 * while 18 copies two_phase_at and sends the transaction whole. Prints the slot on both servers and what arrived.
 */
@Timeout(value = 6, unit = TimeUnit.MINUTES)
@Nightly
class TwoPhaseAtFailoverIT {

    private static final Duration WAIT = Duration.ofSeconds(120);
    private static final String SLOT = "tpa_slot";
    private static final long PREPARED_ID = 500_001L;

    @RegisterExtension
    static final ConnectWorkerCluster connect = ConnectWorkerCluster.shared();

    @Test
    void aTransactionPreparedBeforeTwoPhaseWasOnArrivesWholeAtItsCommitPreparedOnAPromoted18StandbyAndIsLostOn17() throws Exception {
        int version = PostgresExtension.selectedVersions().stream().filter(v -> v >= 17).reduce((a, b) -> b)
                .orElseThrow(() -> new IllegalStateException("TwoPhaseAtFailoverIT needs PostgreSQL 17+ in -Dpg.versions"));
        try (PostgresCluster primary = PostgresCluster.start(version, Map.of());
             PostgresCluster standby = primary.startStandby("standby_1", Map.of())) {
            primary.execute("postgres", "CREATE TABLE items (id bigint PRIMARY KEY)",
                    "ALTER SYSTEM SET synchronized_standby_slots = 'standby_1'", "SELECT pg_reload_conf()");
            String name = "tpa-" + version;
            String prefix = "tpa" + version;
            String items = prefix + ".public.items";
            Map<String, String> config = MixedWorkloadIT.connectorConfig(new PostgresDatabase(primary, "postgres"), prefix, SLOT);
            config.put("database.hostname", primary.host() + ":" + primary.port() + "," + standby.host() + ":" + standby.port());
            config.put(ReplicationKeys.SLOT_FAILOVER_CONFIG, "true");
            config.put(ReplicationKeys.PREPARED_TRANSACTION_MODE_CONFIG, "fail");
            connect.configureConnector(name, config);
            connect.awaitRunning(name, 1, WAIT);
            PrimaryFailoverIT.awaitSlotActive(primary, SLOT);
            AtomicLong nextId = new AtomicLong(1);
            PrimaryFailoverIT.insert(primary, nextId, 20);
            connect.awaitRecords(items, 20, WAIT);
            PrimaryFailoverIT.awaitSlotSynced(primary, standby, SLOT, nextId);

            primary.execute("postgres", "BEGIN; INSERT INTO items VALUES (" + PREPARED_ID + "); PREPARE TRANSACTION 'before-two-phase'");
            PrimaryFailoverIT.insert(primary, nextId, 5);
            long beforeSwitch = nextId.get() - 1;
            ConnectWorkerCluster.awaitCondition(WAIT, "row " + beforeSwitch + " in Kafka", () ->
                    PrimaryFailoverIT.ids(connect.readAll(items, Duration.ofSeconds(10))).contains(beforeSwitch));

            connect.stopConnector(name);
            ConnectWorkerCluster.awaitCondition(WAIT, "slot released", () -> "f".equals(primary.queryValue("postgres",
                    "SELECT active FROM pg_replication_slots WHERE slot_name = '" + SLOT + "'")));
            config.put(ReplicationKeys.PREPARED_TRANSACTION_MODE_CONFIG, "stage");
            config.put("provide.transaction.metadata", "true");
            connect.configureConnector(name, config);
            connect.resumeConnector(name);
            connect.awaitRunning(name, 1, WAIT);
            ConnectWorkerCluster.awaitCondition(WAIT, "the slot switched to two-phase", () -> "t".equals(primary.queryValue("postgres",
                    "SELECT two_phase AND active FROM pg_replication_slots WHERE slot_name = '" + SLOT + "'")));
            PrimaryFailoverIT.insert(primary, nextId, 5);
            long afterSwitch = nextId.get() - 1;
            ConnectWorkerCluster.awaitCondition(WAIT, "row " + afterSwitch + " in Kafka", () ->
                    PrimaryFailoverIT.ids(connect.readAll(items, Duration.ofSeconds(10))).contains(afterSwitch));
            ConnectWorkerCluster.awaitCondition(WAIT, "the standby's copy of the slot is two-phase and caught up", () -> {
                primary.execute("postgres", "SELECT pg_log_standby_snapshot()");
                PrimaryFailoverIT.insert(primary, nextId, 1);
                return "t".equals(standby.queryValue("postgres", "SELECT s.two_phase AND s.confirmed_flush_lsn >= '"
                        + primary.queryValue("postgres", "SELECT confirmed_flush_lsn FROM pg_replication_slots WHERE slot_name = '" + SLOT + "'")
                        + "'::pg_lsn FROM pg_replication_slots s WHERE s.slot_name = '" + SLOT + "' AND s.synced"));
            });
            String onPrimary = slot(primary, version);
            String onStandby = slot(standby, version);

            primary.stop("immediate");
            standby.promote();
            standby.execute("postgres", "COMMIT PREPARED 'before-two-phase'");
            long marker = 900_000L;
            standby.execute("postgres", "INSERT INTO items VALUES (" + marker + ")");
            ConnectWorkerCluster.awaitCondition(WAIT, "the marker row after the COMMIT PREPARED in Kafka", () ->
                    PrimaryFailoverIT.ids(connect.readAll(items, Duration.ofSeconds(10))).contains(marker));
            List<ConsumerRecord<byte[], byte[]>> prepared = connect.readAll(items, Duration.ofSeconds(10)).stream()
                    .filter(r -> PrimaryFailoverIT.ids(List.of(r)).get(0) == PREPARED_ID).toList();
            boolean committedOutcome = connect.readAllIfExists(prefix + ".transaction", Duration.ofSeconds(10)).stream()
                    .filter(r -> r.key() != null && TopicReplica.json(r.key()).path("id").asText().equals("before-two-phase"))
                    .anyMatch(r -> TopicReplica.json(r.value()).get("outcome").asText().equals("COMMITTED"));
            System.out.printf("TwoPhaseAtFailoverIT PostgreSQL %d: slot %s on the primary: %s; on the standby before the promotion: %s;"
                            + " after COMMIT PREPARED on the promoted standby: %d record(s) of the prepared row, COMMITTED outcome %s%n",
                    version, SLOT, onPrimary, onStandby, prepared.size(), committedOutcome ? "yes" : "no");
            assertThat(committedOutcome).as("its COMMITTED outcome").isTrue();
            if (version >= 18) {
                assertThat(prepared).as("the changes of the transaction prepared before two_phase_at, sent at its COMMIT PREPARED")
                        .isNotEmpty().allSatisfy(r -> assertThat(headerTexts(r)).containsEntry(LifecycleHeaders.OUTCOME, "PREPARED")
                                .containsEntry(LifecycleHeaders.GID, "before-two-phase"));
            } else {
                // PostgreSQL 17 (seen on 17.6) does not copy two_phase_at to the synced slot, so the promoted standby
                // takes the prepare for one already sent: only Commit Prepared comes, the changes are lost. Pinned here
                // so that a 17 minor that fixes it fails this line, and the README's High availability section is updated.
                assertThat(prepared).as("PostgreSQL 17: the changes of a transaction prepared before two_phase_at are lost"
                        + " after a failover (if a fixed minor sends them, update this test and the README)").isEmpty();
            }
            connect.deleteConnector(name);
        }
    }

    private static String slot(PostgresCluster server, int version) {
        return server.queryValue("postgres", "SELECT 'two_phase=' || two_phase" + (version >= 18 ? " || ' two_phase_at=' || coalesce(two_phase_at::text, 'null')" : "")
                + " || ' synced=' || synced || ' confirmed_flush_lsn=' || confirmed_flush_lsn || ' restart_lsn=' || restart_lsn"
                + " FROM pg_replication_slots WHERE slot_name = '" + SLOT + "'");
    }
}
