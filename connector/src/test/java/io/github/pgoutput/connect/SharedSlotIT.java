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
 * A second connector given the slot.name of a stopped one must not take the slot over. Connector A streams, is
 * stopped over REST, and rows change while it is stopped; connector B is registered with the same slot.name and the
 * default {@code snapshot.mode=initial}. B has no stored offset and cannot show the slot is its own, so its task fails
 * with a message naming the slot and the choices, and the slot stays where A left it: once B is deleted and A
 * resumed, A's topic receives every change written meanwhile.
 */
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class SharedSlotIT {

    private static final Duration WAIT = Duration.ofSeconds(90);
    private static final String SLOT = "shared_slot";

    @RegisterExtension
    static final ConnectWorkerCluster connect = ConnectWorkerCluster.shared();

    @PostgresTest(representative = 15)
    void secondConnectorOnAnExistingSlotFailsAndLeavesTheSlotToItsConsumer(PostgresDatabase db) {
        // In the full matrix (.ci/nightly) one worker cluster serves every version: names per version.
        String nameA = "a" + db.majorVersion();
        String nameB = "b" + db.majorVersion();
        db.execute("CREATE TABLE t (id bigint PRIMARY KEY, v int NOT NULL)", "INSERT INTO t SELECT g, g FROM generate_series(1, 100) g");
        Map<String, String> a = MixedWorkloadIT.connectorConfig(db, nameA, SLOT);
        a.remove("snapshot.mode"); // the default, initial
        connect.configureConnector(nameA, a);
        try (IntTableReplica replica = new IntTableReplica(connect, nameA + ".public.t", 10_000, 4)) {
            awaitRebuilt(replica, db);
            db.execute("INSERT INTO t VALUES (101, 1)", "UPDATE t SET v = -1 WHERE id = 1");
            awaitRebuilt(replica, db);

            connect.stopConnector(nameA);
            ConnectWorkerCluster.awaitCondition(WAIT, "slot released by A", () ->
                    db.query("SELECT 1 FROM pg_replication_slots WHERE slot_name = '" + SLOT + "' AND active").isEmpty());
            String confirmedByA = db.queryValue("SELECT confirmed_flush_lsn::text FROM pg_replication_slots WHERE slot_name = '" + SLOT + "'");
            db.execute("INSERT INTO t VALUES (102, 2)", "UPDATE t SET v = -3 WHERE id = 3", "DELETE FROM t WHERE id = 4");

            Map<String, String> b = MixedWorkloadIT.connectorConfig(db, nameB, SLOT);
            b.remove("snapshot.mode");
            connect.configureConnector(nameB, b);
            String trace = awaitFailedTask(nameB);
            assertThat(trace).contains("replication slot '" + SLOT + "' already exists")
                    .contains("there is no stored offset")
                    .contains("SELECT pg_drop_replication_slot('" + SLOT + "')")
                    .contains("snapshot.mode=no_data");
            assertThat(db.queryValue("SELECT confirmed_flush_lsn::text FROM pg_replication_slots WHERE slot_name = '" + SLOT + "'"))
                    .as("the slot still exists, where A left it").isEqualTo(confirmedByA);
            assertThat(connect.readAllIfExists(nameB + ".public.t", Duration.ofSeconds(1))).as("B emitted nothing").isEmpty();
            connect.deleteConnector(nameB);

            db.execute("INSERT INTO t VALUES (103, 3)", "DELETE FROM t WHERE id = 5");
            connect.resumeConnector(nameA);
            awaitRebuilt(replica, db);
            assertThat(replica.markers("first")).as("A took no second snapshot").isEqualTo(1);
            assertThat(replica.history(4)).as("the delete written while A was stopped and B registered reached A")
                    .anySatisfy(change -> assertThat(change).startsWith("d"));
        }
        connect.deleteConnector(nameA);
    }

    private static String awaitFailedTask(String connector) {
        String[] trace = new String[1];
        ConnectWorkerCluster.awaitCondition(WAIT, "task of " + connector + " failed with a trace", () -> {
            ConnectorStateInfo status;
            try {
                status = connect.status(connector);
            } catch (RuntimeException notThereYet) {
                return false;
            }
            if (status == null || status.tasks().isEmpty()) {
                return false;
            }
            ConnectorStateInfo.TaskState task = status.tasks().get(0);
            trace[0] = task.trace();
            return "FAILED".equals(task.state());
        });
        return trace[0];
    }

    private static void awaitRebuilt(IntTableReplica replica, PostgresDatabase db) {
        ConnectWorkerCluster.awaitCondition(WAIT, "table rebuilt from its topic", () -> {
            replica.catchUp(Duration.ofMillis(500));
            return replica.difference(db, "t") == null;
        });
    }
}
