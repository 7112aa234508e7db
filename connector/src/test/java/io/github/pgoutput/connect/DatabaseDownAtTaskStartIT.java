package io.github.pgoutput.connect;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.pgoutput.testing.Nightly;
import io.github.pgoutput.testing.kafka.ConnectWorkerCluster;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.github.pgoutput.testing.PostgresCluster;
import io.github.pgoutput.testing.PostgresDatabase;
import org.apache.kafka.connect.runtime.rest.entities.ConnectorStateInfo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A task that starts while PostgreSQL is down (a worker restarted during a database restart) keeps running and
 * streams once the database is back. Connect fails a task whose {@code start()} throws, even a RetriableException,
 * and such a task stays FAILED until restarted by hand: the fault-injection soak (issue 7) found the task doing that
 * when its snapshot decision could not reach the database. The server is this test's own, since it is stopped.
 */
@Nightly
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class DatabaseDownAtTaskStartIT {

    private static final Duration WAIT = Duration.ofSeconds(90);

    @RegisterExtension
    static final ConnectWorkerCluster connect = ConnectWorkerCluster.shared();

    @Test
    void taskStartedWhileTheDatabaseIsDownStreamsOnceItIsBack() throws InterruptedException {
        try (PostgresCluster server = PostgresCluster.start(17, Map.of())) {
            server.createDatabase("down");
            PostgresDatabase db = new PostgresDatabase(server, "down");
            db.execute("CREATE TABLE t (id bigint PRIMARY KEY, name text)");
            // Registering validates the configuration against the live database, so it happens while it is up.
            connect.configureConnector("down", MixedWorkloadIT.connectorConfig(db, "down", "down_slot"));
            connect.awaitRunning("down", 1, WAIT);
            ConnectWorkerCluster.awaitCondition(WAIT, "slot active", () ->
                    !db.query("SELECT 1 FROM pg_replication_slots WHERE slot_name = 'down_slot' AND active").isEmpty());
            connect.stopConnector("down");
            ConnectWorkerCluster.awaitCondition(WAIT, "slot released", () ->
                    db.query("SELECT 1 FROM pg_replication_slots WHERE slot_name = 'down_slot' AND active").isEmpty());
            server.stop("fast");

            connect.resumeConnector("down");
            ConnectWorkerCluster.awaitCondition(WAIT, "the task started again", () -> tasks("down") == 1);
            // With the bug the task is FAILED within a second of its start; give it several reconnect attempts.
            Thread.sleep(10_000);
            assertThat(connect.status("down").tasks()).as("task states while the database is down")
                    .allSatisfy(task -> assertThat(task.state()).as(task.trace()).isEqualTo("RUNNING"));

            server.startAgain();
            ConnectWorkerCluster.awaitCondition(WAIT, "slot active", () ->
                    !db.query("SELECT 1 FROM pg_replication_slots WHERE slot_name = 'down_slot' AND active").isEmpty());
            db.execute("INSERT INTO t VALUES (1, 'after the database came back')");
            assertThat(connect.awaitRecords("down.public.t", 1, WAIT)).singleElement()
                    .satisfies(r -> assertThat(ConnectWorkerCluster.valueText(r)).contains("after the database came back"));
            connect.deleteConnector("down");
        }
    }

    private static int tasks(String connector) {
        try {
            ConnectorStateInfo status = connect.status(connector);
            return status == null ? 0 : status.tasks().size();
        } catch (RuntimeException notYet) {
            return 0;
        }
    }
}
