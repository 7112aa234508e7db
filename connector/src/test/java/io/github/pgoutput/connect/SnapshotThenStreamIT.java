package io.github.pgoutput.connect;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.pgoutput.connect.config.PgOutputSourceConnectorConfig;
import io.github.pgoutput.connect.config.SnapshotKeys;
import io.github.pgoutput.connect.metrics.SnapshotMetrics;
import io.github.pgoutput.testing.PostgresDatabase;
import io.github.pgoutput.testing.PostgresTest;
import io.github.pgoutput.testing.kafka.ConnectWorkerCluster;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Issue 5, integration tests 1 and 4: three tables, one of 600,000 rows (2 million in the nightly tier), are
 * snapshotted by a real Connect worker while a workload inserts, updates and deletes rows in all of them; the tables
 * rebuilt from the topics equal the database afterwards, a row changed during the snapshot shows its snapshot image
 * (op r) and then its change (op u), the whole snapshot carries one {@code first} and one {@code last} marker, and
 * the snapshot MBean reports progress over the platform MBeanServer while the snapshot runs. With
 * {@code snapshot.max.threads=3} the big table (26 MB at 600,000 rows, above the 16 MB from which a table is split)
 * is read in three block ranges at once (the small tables after them), and still each table has one first and one
 * last row.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class SnapshotThenStreamIT {

    private static final Logger log = LoggerFactory.getLogger(SnapshotThenStreamIT.class);
    private static final Duration WAIT = Duration.ofSeconds(180);
    /** Rows of the big table: {@code -Dsnapshot.stream.rows}, 2,000,000 in {@code .ci/nightly}. */
    private static final int BIG_ROWS = Integer.getInteger("snapshot.stream.rows", 600_000);
    /** Changed by the test itself once the snapshot is running: its snapshot image is the value before. */
    private static final long CHANGED_DURING_SNAPSHOT = BIG_ROWS * 19L / 20;

    @RegisterExtension
    static final ConnectWorkerCluster connect = ConnectWorkerCluster.shared();

    @PostgresTest(representative = 15)
    void snapshotThenStreamRebuildsEveryTableWhileAWorkloadRuns(PostgresDatabase db) throws Exception {
        // In the full matrix (.ci/nightly) one worker cluster serves every version: names per version.
        String name = "snap" + db.majorVersion();
        db.execute("CREATE TABLE big (id bigint PRIMARY KEY, v int NOT NULL)",
                "CREATE TABLE small_a (id bigint PRIMARY KEY, v int NOT NULL)",
                "CREATE TABLE small_b (id bigint PRIMARY KEY, v int NOT NULL)",
                "INSERT INTO big SELECT g, g % 1000 FROM generate_series(1, " + BIG_ROWS + ") g",
                "INSERT INTO small_a SELECT g, g FROM generate_series(1, 1000) g",
                "INSERT INTO small_b SELECT g, g FROM generate_series(1, 1000) g",
                "ANALYZE big", "ANALYZE small_a", "ANALYZE small_b");
        Map<String, String> config = MixedWorkloadIT.connectorConfig(db, name, "snap_slot");
        config.remove("snapshot.mode"); // the default, initial
        config.put(SnapshotKeys.SNAPSHOT_MAX_THREADS_CONFIG, "3");
        ObjectName mbean = SnapshotMetrics.objectName(name, 0);
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();

        ChangeWorkload workload = new ChangeWorkload(db, List.of(new ChangeWorkload.Table("big", BIG_ROWS, BIG_ROWS + 1),
                new ChangeWorkload.Table("small_a", 1000, 1001), new ChangeWorkload.Table("small_b", 1000, 1001)),
                List.of(CHANGED_DURING_SNAPSHOT));
        long started = System.nanoTime();
        connect.configureConnector(name, config);
        ConnectWorkerCluster.awaitCondition(WAIT, "snapshot rows counted by the MBean", () ->
                server.isRegistered(mbean) && (long) attribute(server, mbean, "RowsDone") > 0);
        db.execute("UPDATE big SET v = -7 WHERE id = " + CHANGED_DURING_SNAPSHOT);
        long rowsDone = (long) attribute(server, mbean, "RowsDone");
        assertThat((boolean) attribute(server, mbean, "Running")).isTrue();
        assertThat((long) attribute(server, mbean, "RowsEstimated")).isBetween((long) BIG_ROWS, BIG_ROWS + 10_000L);
        assertThat((int) attribute(server, mbean, "TablesTotal")).isEqualTo(3);
        assertThat((double) attribute(server, mbean, "PercentDone")).isBetween(0.0, 100.0);
        log.info("MBean while the snapshot runs: {} rows done, {} %, {} rows/s, ETA {} s", rowsDone, attribute(server, mbean, "PercentDone"),
                attribute(server, mbean, "RowsPerSecond"), attribute(server, mbean, "EtaSeconds"));

        ConnectWorkerCluster.awaitCondition(WAIT, "snapshot completed", () -> (boolean) attribute(server, mbean, "Completed"));
        double snapshotSeconds = (System.nanoTime() - started) / 1e9;
        log.info("Snapshot of {} rows completed {} s after the connector was configured ({} rows/s by the MBean)",
                attribute(server, mbean, "RowsDone"), String.format("%.1f", snapshotSeconds), attribute(server, mbean, "RowsPerSecond"));
        Thread.sleep(2_000);
        workload.stop();
        log.info("Workload: {} transactions", workload.transactions());
        // The workload's last transactions are streamed; the MBean stays registered with its final figures.
        assertThat((int) attribute(server, mbean, "TablesDone")).isEqualTo(3);

        try (IntTableReplica big = new IntTableReplica(connect, name + ".public.big", BIG_ROWS + 200_000, CHANGED_DURING_SNAPSHOT);
             IntTableReplica smallA = new IntTableReplica(connect, name + ".public.small_a", 200_000);
             IntTableReplica smallB = new IntTableReplica(connect, name + ".public.small_b", 200_000)) {
            ConnectWorkerCluster.awaitCondition(WAIT, "every table rebuilt from its topic", () -> {
                big.catchUp(Duration.ofSeconds(2));
                smallA.catchUp(Duration.ofSeconds(1));
                smallB.catchUp(Duration.ofSeconds(1));
                String difference = big.difference(db, "big");
                difference = difference != null ? difference : smallA.difference(db, "small_a");
                difference = difference != null ? difference : smallB.difference(db, "small_b");
                if (difference != null) {
                    log.info("not yet: {}", difference);
                }
                return difference == null;
            });
            log.info("Rebuilt {} s after the connector was configured: big {} records ({} r, {} c, {} u, {} d)",
                    String.format("%.1f", (System.nanoTime() - started) / 1e9), big.records(), big.ops("r"), big.ops("c"), big.ops("u"),
                    big.ops("d"));
            assertThat(big.history(CHANGED_DURING_SNAPSHOT)).as("snapshot image, then the change made during the snapshot")
                    .containsExactly("r:" + CHANGED_DURING_SNAPSHOT % 1000, "u:-7");
            assertThat(big.ops("t") + smallA.ops("t") + smallB.ops("t")).as("a snapshot writes no truncate records, as Debezium")
                    .isZero();
            long snapshotRecords = big.ops("r") + smallA.ops("r") + smallB.ops("r");
            assertThat(big.markers("first") + smallA.markers("first") + smallB.markers("first")).isEqualTo(1);
            assertThat(big.markers("last") + smallA.markers("last") + smallB.markers("last")).isEqualTo(1);
            assertThat(big.markers("first_in_data_collection") + smallA.markers("first_in_data_collection")
                    + smallB.markers("first_in_data_collection")).as("the other two tables' first rows").isEqualTo(2);
            assertThat(big.markers("last_in_data_collection") + smallA.markers("last_in_data_collection")
                    + smallB.markers("last_in_data_collection")).as("the other two tables' last rows").isEqualTo(2);
            assertThat(big.snapshotHeaders() + smallA.snapshotHeaders() + smallB.snapshotHeaders()).isEqualTo(snapshotRecords);
            assertThat(big.ops("u") + smallA.ops("u") + smallB.ops("u")).as("streamed updates").isPositive();
            assertThat(big.ops("d") + smallA.ops("d") + smallB.ops("d")).as("streamed deletes").isPositive();
        }
        connect.deleteConnector(name);
        ConnectWorkerCluster.awaitCondition(WAIT, "MBean unregistered on stop", () -> !server.isRegistered(mbean));
        ConnectWorkerCluster.awaitCondition(WAIT, "slot released", () ->
                db.query("SELECT 1 FROM pg_replication_slots WHERE slot_name = 'snap_slot' AND active").isEmpty());
    }

    static Object attribute(MBeanServer server, ObjectName name, String attribute) {
        try {
            return server.getAttribute(name, attribute);
        } catch (javax.management.JMException e) {
            throw new AssertionError("reading " + attribute + " of " + name, e);
        }
    }
}
