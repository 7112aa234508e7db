package io.github.pgoutput.connect;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.pgoutput.testing.kafka.ConnectWorkerCluster;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.github.pgoutput.testing.PostgresDatabase;
import io.github.pgoutput.testing.PostgresTest;
import org.apache.kafka.connect.runtime.rest.entities.ConnectorStateInfo;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Issue 5, integration test 3: the slot is dropped behind the connector's back while it is stopped and rows change
 * meanwhile. With {@code snapshot.mode=when_needed} the connector takes a fresh consistent snapshot and no change is
 * lost; with {@code initial} the task fails with a message that names {@code snapshot.mode=when_needed}.
 */
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class WhenNeededIT {

    private static final Duration WAIT = Duration.ofSeconds(90);

    @RegisterExtension
    static final ConnectWorkerCluster connect = ConnectWorkerCluster.shared();

    @PostgresTest(representative = 18)
    void whenNeededSnapshotsAgainAfterTheSlotWasDroppedAndInitialFailsNamingWhenNeeded(PostgresDatabase db) {
        // In the full matrix (.ci/nightly) one worker cluster serves every version: names per version.
        String name = "wn" + db.majorVersion();
        db.execute("CREATE TABLE t (id bigint PRIMARY KEY, v int NOT NULL)", "INSERT INTO t SELECT g, g FROM generate_series(1, 1000) g");
        Map<String, String> config = MixedWorkloadIT.connectorConfig(db, name, "wn_slot");
        config.put("snapshot.mode", "when_needed");
        connect.configureConnector(name, config);
        try (IntTableReplica replica = new IntTableReplica(connect, name + ".public.t", 10_000)) {
            awaitRebuilt(replica, db);
            db.execute("INSERT INTO t VALUES (1001, 1)", "UPDATE t SET v = -1 WHERE id = 1", "DELETE FROM t WHERE id = 2");
            awaitRebuilt(replica, db);
            assertThat(replica.markers("first")).isEqualTo(1);

            stopAndDropSlot(db, name);
            // A DELETE in the gap, while no slot records changes: the snapshot taken again begins with a truncate record
            // (the connector has a stored offset), so the row is gone from the table rebuilt from the topic too.
            db.execute("INSERT INTO t VALUES (1002, 2)", "UPDATE t SET v = -3 WHERE id = 3", "DELETE FROM t WHERE id = 4");
            connect.resumeConnector(name);
            awaitRebuilt(replica, db);
            assertThat(replica.markers("first")).as("a second, fresh snapshot").isEqualTo(2);
            assertThat(replica.markers("last")).isEqualTo(2);
            db.execute("INSERT INTO t VALUES (1003, 3)", "DELETE FROM t WHERE id = 5");
            awaitRebuilt(replica, db);
        }

        stopAndDropSlot(db, name);
        config.put("snapshot.mode", "initial");
        connect.configureConnector(name, config);
        connect.resumeConnector(name);
        String[] trace = new String[1];
        ConnectWorkerCluster.awaitCondition(WAIT, "task failed with a trace", () -> {
            ConnectorStateInfo status = connect.status(name);
            if (status == null || status.tasks().isEmpty()) {
                return false;
            }
            ConnectorStateInfo.TaskState task = status.tasks().get(0);
            trace[0] = task.trace();
            return "FAILED".equals(task.state());
        });
        assertThat(trace[0]).contains("replication slot 'wn_slot' does not exist").contains("snapshot.mode=when_needed");
        connect.deleteConnector(name);
    }

    private static void stopAndDropSlot(PostgresDatabase db, String name) {
        connect.stopConnector(name);
        ConnectWorkerCluster.awaitCondition(WAIT, "slot released", () ->
                db.query("SELECT 1 FROM pg_replication_slots WHERE slot_name = 'wn_slot' AND active").isEmpty());
        db.execute("SELECT pg_drop_replication_slot('wn_slot')");
    }

    private static void awaitRebuilt(IntTableReplica replica, PostgresDatabase db) {
        ConnectWorkerCluster.awaitCondition(WAIT, "table rebuilt from its topic", () -> {
            replica.catchUp(Duration.ofMillis(500));
            return replica.difference(db, "t") == null;
        });
    }
}
