package io.github.pgoutput.connect;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.pgoutput.connect.config.PgOutputSourceConnectorConfig;
import io.github.pgoutput.connect.config.ReplicationKeys;
import io.github.pgoutput.testing.Nightly;
import io.github.pgoutput.testing.PostgresCluster;
import io.github.pgoutput.testing.PostgresDatabase;
import io.github.pgoutput.testing.PostgresExtension;
import io.github.pgoutput.testing.kafka.ConnectWorkerCluster;
import java.lang.management.ManagementFactory;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * What goes wrong in a failover without {@code synchronized_standby_slots}, on the last PostgreSQL 17+ version of
 * {@code -Dpg.versions}: the same failover slot, standby and host list as {@link PrimaryFailoverIT}, but the primary's
 * {@code synchronized_standby_slots} is empty, and the standby stops receiving WAL (its {@code primary_conninfo} is
 * emptied, as a network partition between the two servers would do) while rows go on being inserted on the primary.
 * The logical slot does not wait for the standby, so Kafka receives rows the standby never had; after the immediate
 * stop and the promotion they are phantoms, and the task's position is ahead of the new primary's WAL, so rows the new
 * primary writes below that position never reach Kafka. The test counts both and shows the streaming MBean's figures
 * that flag the setup (the task logs the warning naming the setting at each session start).
 */
@Timeout(value = 6, unit = TimeUnit.MINUTES)
@Nightly
class UnsyncedStandbyFailoverIT {

    private static final Duration WAIT = Duration.ofSeconds(120);
    private static final long AFTER_PROMOTION = 1_000_000L;

    @RegisterExtension
    static final ConnectWorkerCluster connect = ConnectWorkerCluster.shared();

    @Test
    void withoutSynchronizedStandbySlotsKafkaHoldsRowsTheNewPrimaryNeverHad() throws Exception {
        int version = PostgresExtension.selectedVersions().stream().filter(v -> v >= 17).reduce((a, b) -> b)
                .orElseThrow(() -> new IllegalStateException("UnsyncedStandbyFailoverIT needs PostgreSQL 17+ in -Dpg.versions"));
        try (PostgresCluster primary = PostgresCluster.start(version, Map.of());
             PostgresCluster standby = primary.startStandby("standby_1", Map.of())) {
            primary.execute("postgres", "CREATE TABLE items (id bigint PRIMARY KEY)");
            assertThat(primary.queryValue("postgres", "SHOW synchronized_standby_slots")).isEmpty();
            String name = "unsynced-" + version;
            String prefix = "us" + version;
            String topic = prefix + ".public.items";
            Map<String, String> config = MixedWorkloadIT.connectorConfig(new PostgresDatabase(primary, "postgres"), prefix, "us_slot");
            config.put("database.hostname", primary.host() + ":" + primary.port() + "," + standby.host() + ":" + standby.port());
            config.put(ReplicationKeys.SLOT_FAILOVER_CONFIG, "true");
            connect.configureConnector(name, config);
            connect.awaitRunning(name, 1, WAIT);
            PrimaryFailoverIT.awaitSlotActive(primary, "us_slot");

            AtomicLong nextId = new AtomicLong(1);
            PrimaryFailoverIT.insert(primary, nextId, 20);
            connect.awaitRecords(topic, 20, WAIT);
            PrimaryFailoverIT.awaitSlotSynced(primary, standby, "us_slot", nextId);
            MBeanServer jmx = ManagementFactory.getPlatformMBeanServer();
            ObjectName mbean = new ObjectName("io.github.pgoutput:type=streaming,connector=\"" + name + "\",task=0");
            assertThat(jmx.getAttribute(mbean, "FailoverSlot")).isEqualTo(true);
            assertThat(jmx.getAttribute(mbean, "SynchronizedStandbySlots")).as("the MBean shows the setting unset").isEqualTo("");
            assertThat(jmx.getAttribute(mbean, "PhysicalStandbys")).isEqualTo(1);

            AtomicBoolean writing = new AtomicBoolean(true);
            Thread writer = new Thread(() -> {
                try (Connection sql = primary.connect("postgres");
                     PreparedStatement insert = sql.prepareStatement("INSERT INTO items VALUES (?)")) {
                    while (writing.get()) {
                        insert.setLong(1, nextId.getAndIncrement());
                        insert.executeUpdate();
                    }
                } catch (SQLException e) {
                    // the primary went away mid-insert: that row is committed or not, the new primary says which
                }
            }, "unsynced-writer");
            writer.start();
            Thread.sleep(1_000);
            // The standby stops receiving: its walreceiver exits when primary_conninfo is emptied (reloadable, 13+).
            standby.execute("postgres", "ALTER SYSTEM SET primary_conninfo = ''", "SELECT pg_reload_conf()");
            ConnectWorkerCluster.awaitCondition(WAIT, "the standby's walreceiver has stopped", () ->
                    "0".equals(standby.queryValue("postgres", "SELECT count(*) FROM pg_stat_wal_receiver")));
            Thread.sleep(1_000);
            long written = nextId.get() - 1;
            // Wait until Kafka has what the primary committed up to now, as a connector that is keeping up would.
            ConnectWorkerCluster.awaitCondition(WAIT, "rows up to " + (written - 1) + " in Kafka", () ->
                    PrimaryFailoverIT.ids(connect.readAll(topic, Duration.ofSeconds(10))).contains(written - 1));
            primary.stop("immediate");
            writing.set(false);
            writer.join(10_000);
            standby.promote();

            // The new primary's WAL goes on from where the standby stopped receiving, below the task's position: the
            // server skips what commits below the position the task asks to start from. 500 rows, then a jump to the
            // next WAL segment, so that the marker lands past the task's position.
            AtomicLong after = new AtomicLong(AFTER_PROMOTION);
            try (Connection sql = standby.connect("postgres");
                 PreparedStatement insert = sql.prepareStatement("INSERT INTO items VALUES (?)")) {
                for (int i = 0; i < 500; i++) {
                    insert.setLong(1, after.getAndIncrement());
                    insert.executeUpdate();
                }
            }
            standby.execute("postgres", "SELECT pg_switch_wal()");
            long marker = after.get();
            PrimaryFailoverIT.insert(standby, after, 1);
            ConnectWorkerCluster.awaitCondition(WAIT, "the last row of the new primary in Kafka", () ->
                    PrimaryFailoverIT.ids(connect.readAll(topic, Duration.ofSeconds(10))).contains(marker));

            Set<Long> onNewPrimary = Arrays.stream(standby.queryValue("postgres", "SELECT string_agg(id::text, ',') FROM items")
                    .split(",")).map(Long::valueOf).collect(Collectors.toCollection(TreeSet::new));
            Set<Long> inKafka = new TreeSet<>(PrimaryFailoverIT.ids(connect.readAll(topic, Duration.ofSeconds(10))));
            Set<Long> phantoms = new TreeSet<>(inKafka);
            phantoms.removeAll(onNewPrimary);
            Set<Long> missing = new TreeSet<>(onNewPrimary);
            missing.removeAll(inKafka);
            System.out.printf("UnsyncedStandbyFailoverIT PostgreSQL %d: %d rows written on the old primary, %d on the new primary"
                            + " (%d after the promotion), %d in Kafka: %d phantom (in Kafka, not on the new primary), %d of the new"
                            + " primary's rows missing from Kafka%n", version, nextId.get() - 1, onNewPrimary.size(),
                    after.get() - AFTER_PROMOTION, inKafka.size(), phantoms.size(), missing.size());
            assertThat(phantoms).as("rows the standby never received, in Kafka all the same").isNotEmpty();
            connect.deleteConnector(name);
        }
    }
}
