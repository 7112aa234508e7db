package io.github.pgoutput.connect;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.pgoutput.connect.config.PgOutputSourceConnectorConfig;
import io.github.pgoutput.connect.config.ReplicationKeys;
import io.github.pgoutput.testing.PostgresCluster;
import io.github.pgoutput.testing.PostgresDatabase;
import io.github.pgoutput.testing.PostgresExtension;
import io.github.pgoutput.testing.kafka.ConnectWorkerCluster;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A primary failover under a continuous workload, on a PostgreSQL 17+ primary and a physical standby of its own: the
 * connector has {@code slot.failover=true}, both servers in {@code database.hostname}, and the primary lists the
 * standby's physical slot in {@code synchronized_standby_slots}. The primary is stopped with {@code pg_ctl stop -m
 * immediate} while rows are being inserted, the standby promoted, and more rows inserted there: the task continues by
 * itself, every row the new primary has reaches Kafka, and Kafka holds no row the new primary does not have.
 * Prints the time from the end of the promotion to the first record of a row inserted after it.
 */
@Timeout(value = 6, unit = TimeUnit.MINUTES)
class PrimaryFailoverIT {

    private static final Duration WAIT = Duration.ofSeconds(120);
    private static final Pattern ID = Pattern.compile("\"id\":(\\d+)");
    private static final long AFTER_PROMOTION = 1_000_000L;

    @RegisterExtension
    static final ConnectWorkerCluster connect = ConnectWorkerCluster.shared();

    @Test
    void theTaskFollowsThePromotedStandbyWithNothingLostAndNoPhantomRow() throws Exception {
        int version = PostgresExtension.selectedVersions().stream().filter(v -> v >= 17).reduce((a, b) -> b)
                .orElseThrow(() -> new IllegalStateException("PrimaryFailoverIT needs PostgreSQL 17+ in -Dpg.versions"));
        try (PostgresCluster primary = PostgresCluster.start(version, Map.of());
             PostgresCluster standby = primary.startStandby("standby_1", Map.of())) {
            primary.execute("postgres", "CREATE TABLE items (id bigint PRIMARY KEY)",
                    "ALTER SYSTEM SET synchronized_standby_slots = 'standby_1'", "SELECT pg_reload_conf()");
            String name = "failover-" + version;
            String prefix = "pf" + version;
            String topic = prefix + ".public.items";
            Map<String, String> config = MixedWorkloadIT.connectorConfig(new PostgresDatabase(primary, "postgres"), prefix, "fo_slot");
            config.put("database.hostname", primary.host() + ":" + primary.port() + "," + standby.host() + ":" + standby.port());
            config.put(ReplicationKeys.SLOT_FAILOVER_CONFIG, "true");
            connect.configureConnector(name, config);
            connect.awaitRunning(name, 1, WAIT);
            awaitSlotActive(primary, "fo_slot");

            AtomicLong nextId = new AtomicLong(1);
            insert(primary, nextId, 20);
            connect.awaitRecords(topic, 20, WAIT);
            awaitSlotSynced(primary, standby, "fo_slot", nextId);

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
            }, "failover-writer");
            writer.start();
            Thread.sleep(1_000);
            long stopping = System.nanoTime();
            primary.stop("immediate");
            writing.set(false);
            writer.join(10_000);

            long stopped = System.nanoTime();
            standby.promote();
            long promoted = System.nanoTime();
            AtomicLong after = new AtomicLong(AFTER_PROMOTION);
            insert(standby, after, 50);
            long firstNew = -1;
            long deadline = promoted + WAIT.toNanos();
            while (firstNew < 0 && System.nanoTime() < deadline) {
                if (ids(connect.readAllIfExists(topic, Duration.ofSeconds(10))).stream().anyMatch(id -> id >= AFTER_PROMOTION)) {
                    firstNew = System.nanoTime();
                } else {
                    Thread.sleep(50);
                }
            }
            assertThat(firstNew).as("a record of a row inserted after the promotion, within " + WAIT).isPositive();
            long millis = TimeUnit.NANOSECONDS.toMillis(firstNew - promoted);
            System.out.printf("PrimaryFailoverIT PostgreSQL %d: first new record %d ms after the promotion ended"
                            + " (stop -m immediate took %d ms, promotion %d ms)%n", version, millis,
                    TimeUnit.NANOSECONDS.toMillis(stopped - stopping), TimeUnit.NANOSECONDS.toMillis(promoted - stopped));
            // The goal is under 5 s; the bound leaves room for a loaded machine and still fails when the dead
            // primary is noticed only at the next periodic status update (10 s apart by default; 18 s were measured).
            assertThat(millis).as("ms from the promotion to the first new record").isLessThan(10_000);

            Set<Long> onNewPrimary = java.util.Arrays.stream(standby.queryValue("postgres", "SELECT string_agg(id::text, ',') FROM items")
                    .split(",")).map(Long::valueOf).collect(Collectors.toCollection(TreeSet::new));
            Set<Long> inKafka = new TreeSet<>();
            ConnectWorkerCluster.awaitCondition(WAIT, "every row of the new primary (" + onNewPrimary.size() + ") in Kafka", () -> {
                inKafka.clear();
                inKafka.addAll(ids(connect.readAll(topic, Duration.ofSeconds(10))));
                return inKafka.containsAll(onNewPrimary);
            });
            Set<Long> phantoms = new TreeSet<>(inKafka);
            phantoms.removeAll(onNewPrimary);
            System.out.printf("PrimaryFailoverIT PostgreSQL %d: %d rows on the new primary (%d written before the crash), %d in Kafka, %d phantom%n",
                    version, onNewPrimary.size(), nextId.get() - 1, inKafka.size(), phantoms.size());
            assertThat(phantoms).as("records of rows the new primary does not have").isEmpty();
            assertThat(connect.status(name).tasks()).allSatisfy(t -> assertThat(t.state()).isEqualTo("RUNNING"));
            connect.deleteConnector(name);
        }
    }

    /**
     * Waits until the task streams from {@code slot}: with snapshot.mode=no_data a row inserted before the task has
     * created its slot is never captured, and RUNNING comes before that.
     */
    static void awaitSlotActive(PostgresCluster primary, String slot) {
        ConnectWorkerCluster.awaitCondition(WAIT, "slot " + slot + " active", () -> "t".equals(primary.queryValue("postgres",
                "SELECT coalesce(bool_or(active), false) FROM pg_replication_slots WHERE slot_name = '" + slot + "'")));
    }

    static void awaitSlotSynced(PostgresCluster primary, PostgresCluster standby, String slot, AtomicLong nextId) {
        // The synced copy becomes usable once the slot's catalog xmin has moved past the standby's horizon; that moves
        // when decoding passes a running-transactions record, which the bgwriter logs only every 15 s: log one now.
        ConnectWorkerCluster.awaitCondition(WAIT, "the standby has synced " + slot, () -> {
            primary.execute("postgres", "SELECT pg_log_standby_snapshot()");
            insert(primary, nextId, 1);
            return "t".equals(standby.queryValue("postgres", "SELECT EXISTS (SELECT 1 FROM pg_replication_slots WHERE slot_name = '"
                    + slot + "' AND synced AND NOT temporary)"));
        });
    }

    static void insert(PostgresCluster server, AtomicLong nextId, int rows) {
        for (int i = 0; i < rows; i++) {
            server.execute("postgres", "INSERT INTO items VALUES (" + nextId.getAndIncrement() + ")");
        }
    }

    static List<Long> ids(List<ConsumerRecord<byte[], byte[]>> records) {
        return records.stream().filter(r -> r.key() != null).map(r -> {
            Matcher m = ID.matcher(new String(r.key(), StandardCharsets.UTF_8));
            if (!m.find()) {
                throw new AssertionError("no id in the key " + new String(r.key(), StandardCharsets.UTF_8));
            }
            return Long.valueOf(m.group(1));
        }).toList();
    }
}
