package io.github.pgoutput.connect;

import io.github.pgoutput.testing.kafka.ConnectWorkerCluster;
import io.github.pgoutput.connect.metrics.StreamingMetricsMXBean;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import javax.management.JMX;
import javax.management.MBeanServer;
import javax.management.ObjectName;

import io.github.pgoutput.pgoutput.Lsn;
import io.github.pgoutput.testing.PostgresDatabase;
import io.github.pgoutput.testing.PostgresTest;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Issue 6, Metrics: the task's streaming MBean, read over the platform MBean server (the embedded worker runs in this
 * JVM) during a workload, agrees with the database and the topics: deliveries counted equal transactions committed,
 * LSNs move and match the slot, a large streamed transaction shows up as open and spilled until it commits, and the
 * MBean is gone once the connector is deleted.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class StreamingMetricsIT {

    private static final Duration WAIT = Duration.ofSeconds(120);
    private static final int SMALL_TRANSACTIONS = 30;
    private static final int MAX_QUEUE_SIZE = 4096;

    @RegisterExtension
    static final ConnectWorkerCluster connect = ConnectWorkerCluster.shared();

    @PostgresTest(representative = 17, logicalDecodingWorkMem = "64kB")
    void metricsFollowTheWorkload(PostgresDatabase db) throws Exception {
        // In the full matrix (.ci/nightly) one worker cluster serves every version: names per version.
        String prefix = "met" + db.majorVersion();
        String name = "metrics" + db.majorVersion();
        db.execute("CREATE TABLE items (id bigint PRIMARY KEY, name text NOT NULL)");
        Map<String, String> config = MixedWorkloadIT.connectorConfig(db, prefix, "metrics_slot");
        config.put("max.queue.size", Integer.toString(MAX_QUEUE_SIZE));
        // A small memory buffer, so the streamed transaction below reaches the spill store before it commits.
        config.put("spill.memory.buffer.bytes", "65536");
        connect.configureConnector(name, config);
        connect.awaitRunning(name, 1, WAIT);

        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        ObjectName mbean = new ObjectName("io.github.pgoutput:type=streaming,connector=\"" + name + "\",task=0");
        ConnectWorkerCluster.awaitCondition(WAIT, "streaming MBean registered", () -> server.isRegistered(mbean));
        StreamingMetricsMXBean metrics = JMX.newMXBeanProxy(server, mbean, StreamingMetricsMXBean.class);
        ConnectWorkerCluster.awaitCondition(WAIT, "first keepalive received", () -> !metrics.getServerWalEndLsn().isEmpty());
        assertThat(metrics.getCommittedDeliveries()).isZero();
        assertThat(metrics.getMillisBehindSource()).isEqualTo(-1);
        Lsn receivedAtStart = Lsn.parse(metrics.getReceivedLsn());
        metrics.getRecordsPerSecond();

        for (int i = 1; i <= SMALL_TRANSACTIONS; i++) {
            db.execute("INSERT INTO items VALUES (" + i + ", 'small-" + i + "')");
        }
        Lsn afterSmall = Lsn.parse(db.queryValue("SELECT pg_current_wal_insert_lsn()"));
        ConnectWorkerCluster.awaitCondition(WAIT, "30 deliveries counted", () -> metrics.getCommittedDeliveries() == SMALL_TRANSACTIONS);
        assertThat(connect.awaitRecords(prefix + ".public.items", SMALL_TRANSACTIONS, WAIT)).hasSize(SMALL_TRANSACTIONS);
        assertThat(metrics.getRecordsEmitted()).isGreaterThanOrEqualTo(SMALL_TRANSACTIONS);
        assertThat(metrics.getMillisBehindSource()).isBetween(0L, WAIT.toMillis());
        Thread.sleep(1_100);
        assertThat(metrics.getRecordsPerSecond()).isPositive();
        ConnectWorkerCluster.awaitCondition(WAIT, "received LSN past the last small commit",
                () -> !Lsn.parse(metrics.getReceivedLsn()).isBefore(afterSmall));
        assertThat(Lsn.parse(metrics.getReceivedLsn())).isGreaterThan(receivedAtStart);
        ConnectWorkerCluster.awaitCondition(WAIT, "flushed LSN past the last small commit and equal to the slot's",
                () -> !Lsn.parse(metrics.getFlushedLsn()).isBefore(afterSmall) && metrics.getFlushedLsn().equals(
                        db.queryValue("SELECT confirmed_flush_lsn FROM pg_replication_slots WHERE slot_name = 'metrics_slot'")));
        ConnectWorkerCluster.awaitCondition(WAIT, "retained WAL known", () -> metrics.getRetainedWalBytes() >= 0);
        ConnectWorkerCluster.awaitCondition(WAIT, "queue empty again", () -> metrics.getQueueRemainingCapacity() == MAX_QUEUE_SIZE);

        try (Connection large = db.connect(); Statement statement = large.createStatement()) {
            large.setAutoCommit(false);
            statement.execute("INSERT INTO items SELECT g, 'large-' || g || repeat('x', 200) FROM generate_series(1000, 20999) g");
            // The 20,000 rows (about 4 MB) arrive in several stream blocks; wait until more than one
            // logical_decoding_work_mem (64 kB) of them is in the spill rather than sampling after the first block.
            ConnectWorkerCluster.awaitCondition(WAIT, "the streamed transaction open and more than 64 kB spilled",
                    () -> metrics.getOpenStreamedTransactions() == 1 && metrics.getSpillBytes() > 64 * 1024);
            assertThat(metrics.getCommittedDeliveries()).isEqualTo(SMALL_TRANSACTIONS);
            large.commit();
        }
        ConnectWorkerCluster.awaitCondition(WAIT, "the large transaction delivered",
                () -> metrics.getCommittedDeliveries() == SMALL_TRANSACTIONS + 1);
        ConnectWorkerCluster.awaitCondition(WAIT, "spill released", () -> metrics.getOpenStreamedTransactions() == 0
                && metrics.getSpillBytes() == 0);
        assertThat(connect.awaitRecords(prefix + ".public.items", SMALL_TRANSACTIONS + 20_000, WAIT)).hasSize(SMALL_TRANSACTIONS + 20_000);
        assertThat(metrics.getRecordsEmitted()).isGreaterThanOrEqualTo(SMALL_TRANSACTIONS + 20_000);
        assertThat(metrics.getPreparedDeliveries()).isZero();
        assertThat(metrics.getRolledBackDeliveries()).isZero();
        // The server's WAL end is learnt from keepalives only, which the server sends when it waits for WAL: on a busy
        // machine the first one after the large transaction can come a while after its last record.
        ConnectWorkerCluster.awaitCondition(WAIT, "server WAL end past the last small commit",
                () -> !Lsn.parse(metrics.getServerWalEndLsn()).isBefore(afterSmall));

        connect.deleteConnector(name);
        ConnectWorkerCluster.awaitCondition(WAIT, "streaming MBean unregistered", () -> !server.isRegistered(mbean));
    }
}
