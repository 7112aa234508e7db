package io.github.pgoutput.connect;

import io.github.pgoutput.testing.Nightly;
import io.github.pgoutput.testing.kafka.ConnectWorkerCluster;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.github.pgoutput.testing.PostgresDatabase;
import io.github.pgoutput.testing.PostgresTest;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Issue 36: {@code snapshot.mode=always}, Debezium's snapshot at every start. The first start takes the initial
 * snapshot; a later one, with a stored offset, streams on from it and reads every captured table again meanwhile as
 * an incremental snapshot, while the tables keep changing: the changes made while the connector was stopped and those
 * made during the snapshot all arrive, in order, and each table rebuilt from its topic equals the database.
 */
@Nightly
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class SnapshotModeAlwaysIT {

    private static final Duration WAIT = Duration.ofSeconds(180);

    @RegisterExtension
    static final ConnectWorkerCluster connect = ConnectWorkerCluster.shared();

    private static void awaitEqual(PostgresDatabase db, IntTableReplica replica, String table) {
        ConnectWorkerCluster.awaitCondition(WAIT, table + " rebuilt from its topic", () -> {
            replica.catchUp(Duration.ofSeconds(1));
            return replica.difference(db, table) == null;
        });
    }

    @PostgresTest(representative = 17)
    void aRestartStreamsOnAndReadsEveryCapturedTableAgainWhileItChanges(PostgresDatabase db) throws Exception {
        String name = "always-" + db.majorVersion();
        String prefix = "always" + db.majorVersion();
        db.execute("CREATE TABLE ta (id bigint PRIMARY KEY, v int NOT NULL)", "CREATE TABLE tb (id bigint PRIMARY KEY, v int NOT NULL)",
                "INSERT INTO ta SELECT g, g FROM generate_series(1, 2000) g", "INSERT INTO tb SELECT g, g FROM generate_series(1, 500) g");
        Map<String, String> config = MixedWorkloadIT.connectorConfig(db, prefix, "always_slot");
        config.put("snapshot.mode", "always");
        config.put("incremental.snapshot.chunk.size", "100");
        connect.configureConnector(name, config);
        try (IntTableReplica a = new IntTableReplica(connect, prefix + ".public.ta", 3000);
             IntTableReplica b = new IntTableReplica(connect, prefix + ".public.tb", 1000)) {
            awaitEqual(db, a, "ta");
            awaitEqual(db, b, "tb");
            assertThat(a.ops("r")).as("the first start's snapshot").isEqualTo(2000);
            assertThat(a.markers("incremental")).isZero();
            db.execute("UPDATE ta SET v = -1 WHERE id <= 10");
            awaitEqual(db, a, "ta");
            Thread.sleep(12_000); // past an offset commit of the test worker: the restart resumes from a stored offset

            connect.stopConnector(name);
            db.execute("INSERT INTO ta SELECT g, g FROM generate_series(2001, 2100) g", "DELETE FROM tb WHERE id <= 10",
                    "UPDATE ta SET v = -2 WHERE id BETWEEN 11 AND 60");
            connect.resumeConnector(name);
            for (int round = 0; round < 20; round++) {
                // Changes while the incremental snapshot reads the tables: rows it has read and rows it has not.
                db.execute("UPDATE ta SET v = v + 1000 WHERE id % 97 = " + round, "UPDATE tb SET v = v + 1000 WHERE id % 31 = " + round);
                Thread.sleep(100);
            }

            awaitEqual(db, a, "ta");
            awaitEqual(db, b, "tb");
            ConnectWorkerCluster.awaitCondition(WAIT, "every row of both tables read again", () -> {
                a.catchUp(Duration.ofSeconds(1));
                b.catchUp(Duration.ofSeconds(1));
                return a.markers("incremental") == 2100 && b.markers("incremental") == 490;
            });
            assertThat(a.ops("r")).as("the first snapshot, then the incremental one").isEqualTo(2000 + 2100);
            assertThat(a.difference(db, "ta")).isNull();
            assertThat(b.difference(db, "tb")).isNull();
        }
        connect.deleteConnector(name);
    }
}
