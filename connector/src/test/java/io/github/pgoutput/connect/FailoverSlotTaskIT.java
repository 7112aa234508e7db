package io.github.pgoutput.connect;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.pgoutput.connect.config.PgOutputSourceConnectorConfig;
import io.github.pgoutput.connect.config.ReplicationKeys;
import io.github.pgoutput.connect.metrics.StreamingMetricsMXBean;
import io.github.pgoutput.testing.PostgresDatabase;
import io.github.pgoutput.testing.PostgresTest;
import io.github.pgoutput.testing.kafka.ConnectWorkerCluster;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.management.JMX;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A connector with {@code slot.failover=true} and the default {@code snapshot.mode} on PostgreSQL 17: the slot the
 * snapshot creates (with an exported snapshot) is a failover slot, the rows arrive, and the streaming MBean shows the
 * failover figures of a server without standbys or {@code synchronized_standby_slots}.
 */
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class FailoverSlotTaskIT {

    private static final Duration WAIT = Duration.ofSeconds(120);

    @RegisterExtension
    static final ConnectWorkerCluster connect = ConnectWorkerCluster.shared();

    @PostgresTest(minVersion = 17, representative = 17)
    void theSnapshotCreatesAFailoverSlotAndTheMBeanShowsTheFailoverFigures(PostgresDatabase db) throws Exception {
        String name = "failover" + db.majorVersion();
        String prefix = "fo" + db.majorVersion();
        db.execute("CREATE TABLE items (id bigint PRIMARY KEY)", "INSERT INTO items VALUES (1), (2)");
        Map<String, String> config = MixedWorkloadIT.connectorConfig(db, prefix, "failover_slot");
        config.remove("snapshot.mode");
        config.put(ReplicationKeys.SLOT_FAILOVER_CONFIG, "true");
        connect.configureConnector(name, config);
        connect.awaitRunning(name, 1, WAIT);

        assertThat(connect.awaitRecords(prefix + ".public.items", 2, WAIT)).hasSize(2);
        assertThat(db.queryValue("SELECT failover FROM pg_replication_slots WHERE slot_name = 'failover_slot'")).isEqualTo("t");
        db.execute("INSERT INTO items VALUES (3)");
        assertThat(connect.awaitRecords(prefix + ".public.items", 3, WAIT)).hasSize(3);

        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        ObjectName mbean = new ObjectName("io.github.pgoutput:type=streaming,connector=\"" + name + "\",task=0");
        ConnectWorkerCluster.awaitCondition(WAIT, "streaming MBean registered", () -> server.isRegistered(mbean));
        StreamingMetricsMXBean metrics = JMX.newMXBeanProxy(server, mbean, StreamingMetricsMXBean.class);
        ConnectWorkerCluster.awaitCondition(WAIT, "failover figures known", () -> metrics.getPhysicalStandbys() >= 0);
        assertThat(metrics.getFailoverSlot()).isTrue();
        assertThat(metrics.getSynchronizedStandbySlots()).isEmpty();
        assertThat(metrics.getPhysicalStandbys()).isZero();

        connect.deleteConnector(name);
        ConnectWorkerCluster.awaitCondition(WAIT, "streaming MBean unregistered", () -> !server.isRegistered(mbean));
    }
}
