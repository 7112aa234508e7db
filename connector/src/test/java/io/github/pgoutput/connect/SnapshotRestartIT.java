package io.github.pgoutput.connect;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.pgoutput.connect.config.PgOutputSourceConnectorConfig;
import io.github.pgoutput.connect.config.SnapshotKeys;
import io.github.pgoutput.connect.metrics.SnapshotMetrics;
import io.github.pgoutput.connect.offsets.SourceOffsets;
import io.github.pgoutput.snapshot.ResumableProgress;
import io.github.pgoutput.testing.Nightly;
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
 * Issue 5, integration test 2: the connector is stopped over REST while its snapshot runs and a workload changes the
 * table; after it is resumed it takes the snapshot again (new slot, new exported snapshot) and the table rebuilt
 * from the topic equals the database. Rows emitted before the stop come again (at-least-once). With
 * {@code snapshot.resumable=true} (issue 18) the same stop is continued instead: after the last row whose offset was
 * stored, without truncate records, and the rows before it are not read again.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class SnapshotRestartIT {

    private static final Logger log = LoggerFactory.getLogger(SnapshotRestartIT.class);
    private static final Duration WAIT = Duration.ofSeconds(180);
    private static final int ROWS = 300_000;
    // About 1,000 snapshot records a second: the snapshot (300,000 rows) cannot finish before the test has seen its
    // in-progress offset and stopped the connector, however fast the machine is.
    private static final long HELD_PRODUCE_RATE = 200_000;

    @RegisterExtension
    // Offsets are committed every half second (the shared cluster's setting), so the stop finds the "snapshot in
    // progress" offset stored.
    static final ConnectWorkerCluster connect = ConnectWorkerCluster.shared();

    @PostgresTest(representative = 17)
    void snapshotInterruptedByAStopIsTakenAgainAndTheTopicRebuildsTheTable(PostgresDatabase db) {
        // In the full matrix (.ci/nightly) one worker cluster serves every version: names per version.
        String name = "rs" + db.majorVersion();
        db.execute("CREATE TABLE big (id bigint PRIMARY KEY, v int NOT NULL)",
                "INSERT INTO big SELECT g, g % 1000 FROM generate_series(1, " + ROWS + ") g", "ANALYZE big");
        Map<String, String> config = MixedWorkloadIT.connectorConfig(db, name, "rs_slot");
        config.remove("snapshot.mode"); // the default, initial
        ObjectName mbean = SnapshotMetrics.objectName(name, 0);
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        String taskProducer = "connector-producer-" + name + "-0";
        connect.limitProduceRate(taskProducer, HELD_PRODUCE_RATE);
        ChangeWorkload workload = new ChangeWorkload(db, List.of(new ChangeWorkload.Table("big", ROWS, ROWS + 1)), List.of());
        connect.configureConnector(name, config);
        ConnectWorkerCluster.awaitCondition(WAIT, "the in-progress offset stored", () ->
                connect.sourceOffsets(name).values().stream().anyMatch(o -> o != null
                        && SourceOffsets.SNAPSHOT_IN_PROGRESS.equals(o.get(SourceOffsets.OFFSET_SNAPSHOT))));
        assertThat((boolean) SnapshotThenStreamIT.attribute(server, mbean, "Completed")).as("snapshot still running").isFalse();
        connect.stopConnector(name);
        ConnectWorkerCluster.awaitCondition(WAIT, "task stopped (MBean unregistered)", () -> !server.isRegistered(mbean));
        connect.limitProduceRate(taskProducer, null);
        log.info("Stopped mid-snapshot; stored offsets {}", connect.sourceOffsets(name));
        connect.resumeConnector(name);
        ConnectWorkerCluster.awaitCondition(WAIT, "second snapshot completed", () ->
                server.isRegistered(mbean) && (boolean) SnapshotThenStreamIT.attribute(server, mbean, "Completed"));
        workload.stop();
        try (IntTableReplica replica = new IntTableReplica(connect, name + ".public.big", ROWS + 100_000)) {
            ConnectWorkerCluster.awaitCondition(WAIT, "table rebuilt from its topic", () -> {
                replica.catchUp(Duration.ofSeconds(2));
                String difference = replica.difference(db, "big");
                if (difference != null) {
                    log.info("not yet: {}", difference);
                }
                return difference == null;
            });
            log.info("Rebuilt: {} records ({} r, {} c, {} u, {} d), workload {} transactions", replica.records(), replica.ops("r"),
                    replica.ops("c"), replica.ops("u"), replica.ops("d"), workload.transactions());
            assertThat(replica.markers("first")).as("two snapshots began").isEqualTo(2);
            assertThat(replica.markers("last")).as("one snapshot finished").isEqualTo(1);
            assertThat(replica.ops("r")).as("rows of the interrupted snapshot come again").isGreaterThan(ROWS);
        }
        connect.deleteConnector(name);
    }

    /**
     * With {@code snapshot.resumable=true} and {@code snapshot.max.threads=2} the table (fillfactor 50, about 3,000
     * blocks) is read in two key ranges at once. The stop finds each range part-read; the continuation reads each range
     * after the last key stored for it, and a row the stored position counts as read is not read again.
     */
    @PostgresTest(representative = 17)
    @Nightly
    void withSnapshotResumableASnapshotReadInKeyRangesAtOnceContinuesEachRangeAfterItsLastStoredRow(PostgresDatabase db) {
        String name = "rsr" + db.majorVersion();
        db.execute("CREATE TABLE big (id bigint PRIMARY KEY, v int NOT NULL) WITH (fillfactor = 50)",
                "INSERT INTO big SELECT g, g % 1000 FROM generate_series(1, " + ROWS + ") g", "ANALYZE big");
        Map<String, String> config = MixedWorkloadIT.connectorConfig(db, name, "rsr_slot");
        config.remove("snapshot.mode"); // the default, initial
        config.put(SnapshotKeys.SNAPSHOT_RESUMABLE_CONFIG, "true");
        config.put(SnapshotKeys.SNAPSHOT_MAX_THREADS_CONFIG, "2");
        ObjectName mbean = SnapshotMetrics.objectName(name, 0);
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        String taskProducer = "connector-producer-" + name + "-0";
        connect.limitProduceRate(taskProducer, HELD_PRODUCE_RATE);
        // Every 1,000th row is left alone by the workload: wherever the ranges were split and stopped, some lie in the
        // part of each range read before the stop.
        long[] untouched = java.util.stream.LongStream.rangeClosed(1, ROWS / 1000).map(i -> i * 1000 - 1).toArray();
        ChangeWorkload workload = new ChangeWorkload(db, List.of(new ChangeWorkload.Table("big", ROWS, ROWS + 1)),
                java.util.Arrays.stream(untouched).boxed().toList());
        connect.configureConnector(name, config);
        ConnectWorkerCluster.awaitCondition(WAIT, "an in-progress offset stored with each of two ranges 2,000 rows in", () -> {
            ResumableProgress.Position at = storedPosition(name);
            return at != null && at.rest().size() == 2 && !at.rest().get(0).after().isEmpty() && !at.rest().get(1).after().isEmpty()
                    && Long.parseLong(at.rest().get(0).after().get(0)) > 2000
                    && Long.parseLong(at.rest().get(1).after().get(0)) > Long.parseLong(at.rest().get(0).upTo().get(0)) + 2000;
        });
        connect.stopConnector(name);
        ConnectWorkerCluster.awaitCondition(WAIT, "task stopped (MBean unregistered)", () -> !server.isRegistered(mbean));
        connect.limitProduceRate(taskProducer, null);
        ResumableProgress.Position stored = storedPosition(name);
        log.info("Stopped mid-snapshot; stored position {}", ResumableProgress.encode(stored));
        List<Long> readBeforeStop = java.util.Arrays.stream(untouched).filter(id -> !inRest(stored, id)).boxed().toList();
        List<Long> readAfterStop = java.util.Arrays.stream(untouched).filter(id -> inRest(stored, id)).boxed().toList();
        long splitAt = Long.parseLong(stored.rest().get(0).upTo().get(0));
        assertThat(readBeforeStop).as("rows of both ranges read before the stop").anyMatch(id -> id < splitAt).anyMatch(id -> id > splitAt);
        assertThat(readAfterStop).as("rows of both ranges still to read").anyMatch(id -> id < splitAt).anyMatch(id -> id > splitAt);
        connect.resumeConnector(name);
        ConnectWorkerCluster.awaitCondition(WAIT, "the continued snapshot completed", () ->
                server.isRegistered(mbean) && (boolean) SnapshotThenStreamIT.attribute(server, mbean, "Completed"));
        workload.stop();
        try (IntTableReplica replica = new IntTableReplica(connect, name + ".public.big", ROWS + 100_000, untouched)) {
            ConnectWorkerCluster.awaitCondition(WAIT, "table rebuilt from its topic", () -> {
                replica.catchUp(Duration.ofSeconds(2));
                String difference = replica.difference(db, "big");
                if (difference != null) {
                    log.info("not yet: {}", difference);
                }
                return difference == null;
            });
            log.info("Rebuilt: {} records ({} r, {} c, {} u, {} d, {} t), workload {} transactions", replica.records(), replica.ops("r"),
                    replica.ops("c"), replica.ops("u"), replica.ops("d"), replica.ops("t"), workload.transactions());
            assertThat(replica.markers("first")).as("one snapshot began; its continuation marks no first row").isEqualTo(1);
            assertThat(replica.markers("last")).as("one snapshot finished").isEqualTo(1);
            assertThat(replica.ops("t")).as("no truncate: the rows before the stop stay valid").isZero();
            for (long id : readBeforeStop) {
                assertThat(replica.history(id)).as("row %d, read before the stop (stored position %s), is not read again", id,
                        ResumableProgress.encode(stored)).containsExactly("r:" + id % 1000);
            }
            for (long id : readAfterStop) {
                assertThat(replica.history(id)).as("row %d, still to read at the stop, is read", id).isNotEmpty()
                        .allMatch(("r:" + id % 1000)::equals);
            }
        }
        connect.deleteConnector(name);
        assertThat(db.query("SELECT 1 FROM pg_replication_slots WHERE slot_name LIKE 'rsr_slot_%'")).as("the resumption's temporary"
                + " slot is gone").isEmpty();
    }

    /** The position in the stored in-progress offset, or null before one is stored. */
    private static ResumableProgress.Position storedPosition(String name) {
        return connect.sourceOffsets(name).values().stream().filter(o -> o != null && o.get(SourceOffsets.OFFSET_SNAPSHOT_AT) != null)
                .map(o -> ResumableProgress.decodePosition(String.valueOf(o.get(SourceOffsets.OFFSET_SNAPSHOT_AT))))
                .findFirst().orElse(null);
    }

    /** Whether the bigint key {@code id} is still to read at {@code position}. */
    private static boolean inRest(ResumableProgress.Position position, long id) {
        return position.rest().stream().anyMatch(r -> (r.after().isEmpty() || id > Long.parseLong(r.after().get(0)))
                && (r.upTo().isEmpty() || id <= Long.parseLong(r.upTo().get(0))));
    }
}
