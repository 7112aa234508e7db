package io.github.pgoutput.connect;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.pgoutput.testing.kafka.ConnectWorkerCluster;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.github.pgoutput.pgoutput.Lsn;
import io.github.pgoutput.replication.ReplicationSession;
import io.github.pgoutput.replication.ReplicationSettings;
import io.github.pgoutput.testing.PostgresDatabase;
import io.github.pgoutput.testing.PostgresTest;
import org.apache.kafka.connect.runtime.rest.entities.ConnectorStateInfo;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A task whose slot another consumer holds retries {@code slot.max.retries} times, {@code slot.retry.delay.ms}
 * apart, and then FAILS with the holder named in its REST status (it used to stay RUNNING for ever). The other
 * consumer is a replication connection the test opens on the slot while the connector is stopped (a stopped connector
 * is resumed without validation, which would refuse the busy slot up front).
 */
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class BusySlotIT {

    private static final Duration WAIT = Duration.ofSeconds(90);

    @RegisterExtension
    static final ConnectWorkerCluster connect = ConnectWorkerCluster.shared();

    @PostgresTest(minVersion = 17, maxVersion = 17)
    void aTaskWhoseSlotAnotherConsumerHoldsFailsAfterItsRetriesWithTheHolderInItsStatus(PostgresDatabase db) {
        String name = "busy" + db.majorVersion();
        String slot = "busy_slot";
        db.execute("CREATE TABLE t (id bigint PRIMARY KEY)");
        Map<String, String> config = MixedWorkloadIT.connectorConfig(db, name, slot);
        config.put("slot.max.retries", "2");
        config.put("slot.retry.delay.ms", "500");
        connect.configureConnector(name, config);
        connect.awaitRunning(name, 1, WAIT);
        ConnectWorkerCluster.awaitCondition(WAIT, "slot " + slot + " active", () ->
                !db.query("SELECT 1 FROM pg_replication_slots WHERE slot_name = '" + slot + "' AND active").isEmpty());
        connect.stopConnector(name);
        ConnectWorkerCluster.awaitCondition(WAIT, "slot released by the stopped task", () ->
                db.query("SELECT 1 FROM pg_replication_slots WHERE slot_name = '" + slot + "' AND active").isEmpty());

        ReplicationSettings other = ReplicationSettings.builder(db.host(), db.port(), db.name(), db.user(), slot, slot + "_pub")
                .applicationName("another-consumer").build();
        try (ReplicationSession holder = ReplicationSession.open(other, Lsn.INVALID)) {
            connect.resumeConnector(name);

            ConnectorStateInfo failed = connect.awaitStatus(name, "task FAILED", status -> status.tasks().size() == 1
                    && "FAILED".equals(status.tasks().get(0).state()), WAIT);

            assertThat(failed.tasks().get(0).trace())
                    .contains("Slot '" + slot + "' is still held by another walsender after 2 retries 500 ms apart")
                    .contains("application_name 'another-consumer'")
                    .contains("slot.max.retries");
            assertThat(holder.startLsn().isValid()).as("the other consumer kept its slot").isTrue();
        } finally {
            connect.deleteConnector(name);
        }
    }
}
