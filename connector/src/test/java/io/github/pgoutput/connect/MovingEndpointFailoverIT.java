package io.github.pgoutput.connect;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.pgoutput.connect.config.PgOutputSourceConnectorConfig;
import io.github.pgoutput.connect.config.ReplicationKeys;
import io.github.pgoutput.testing.Nightly;
import io.github.pgoutput.testing.PostgresCluster;
import io.github.pgoutput.testing.PostgresDatabase;
import io.github.pgoutput.testing.PostgresExtension;
import io.github.pgoutput.testing.TcpForwarder;
import io.github.pgoutput.testing.kafka.ConnectWorkerCluster;
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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A failover behind an endpoint that moves (a VIP or DNS name), on the last PostgreSQL 17+ version of
 * {@code -Dpg.versions}: {@code database.hostname} names one address, a {@link TcpForwarder} in front of the primary.
 * After the immediate stop of the primary nothing listens at the address for a while (refused connections, 08001),
 * then it points at the standby before its promotion (refused as a standby: its synced slot is not usable yet, 55000,
 * or read-only, 25006), then the standby is promoted. The task rides out both windows within its bounds
 * ({@code errors.max.retries}, {@code slot.max.retries}) and streams on from the promoted standby with every row of the
 * new primary in Kafka and no phantom. Apart from that, an address where nothing listens for good fails the task after
 * {@code errors.max.retries} retries with a message that names the key.
 */
@Timeout(value = 6, unit = TimeUnit.MINUTES)
@Nightly
class MovingEndpointFailoverIT {

    private static final Duration WAIT = Duration.ofSeconds(120);
    private static final long AFTER_PROMOTION = 1_000_000L;

    @RegisterExtension
    static final ConnectWorkerCluster connect = ConnectWorkerCluster.shared();

    private static int version() {
        return PostgresExtension.selectedVersions().stream().filter(v -> v >= 17).reduce((a, b) -> b)
                .orElseThrow(() -> new IllegalStateException("MovingEndpointFailoverIT needs PostgreSQL 17+ in -Dpg.versions"));
    }

    @Test
    void theTaskFollowsAnAddressThatMovesToThePromotedStandbyThroughRefusedAndStandbyWindows() throws Exception {
        int version = version();
        try (PostgresCluster primary = PostgresCluster.start(version, Map.of());
             PostgresCluster standby = primary.startStandby("standby_1", Map.of());
             TcpForwarder endpoint = TcpForwarder.to(primary)) {
            primary.execute("postgres", "CREATE TABLE items (id bigint PRIMARY KEY)",
                    "ALTER SYSTEM SET synchronized_standby_slots = 'standby_1'", "SELECT pg_reload_conf()");
            String name = "vip-" + version;
            String prefix = "vip" + version;
            String topic = prefix + ".public.items";
            Map<String, String> config = MixedWorkloadIT.connectorConfig(new PostgresDatabase(primary, "postgres"), prefix, "vip_slot");
            config.put("database.hostname", endpoint.host());
            config.put("database.port", Integer.toString(endpoint.port()));
            config.put(ReplicationKeys.SLOT_FAILOVER_CONFIG, "true");
            config.put(ReplicationKeys.SLOT_MAX_RETRIES_CONFIG, "30");
            config.put(ReplicationKeys.SLOT_RETRY_DELAY_MS_CONFIG, "1000");
            connect.configureConnector(name, config);
            connect.awaitRunning(name, 1, WAIT);
            PrimaryFailoverIT.awaitSlotActive(primary, "vip_slot");

            AtomicLong nextId = new AtomicLong(1);
            PrimaryFailoverIT.insert(primary, nextId, 20);
            connect.awaitRecords(topic, 20, WAIT);
            PrimaryFailoverIT.awaitSlotSynced(primary, standby, "vip_slot", nextId);

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
            }, "vip-writer");
            writer.start();
            Thread.sleep(1_000);
            primary.stop("immediate");
            writing.set(false);
            writer.join(10_000);

            // The address is being moved: nothing listens there.
            endpoint.refuse();
            Thread.sleep(3_000);
            // It points at the standby before the promotion has begun.
            endpoint.pointAt(standby);
            // The refusal is logged a moment after the connection that draws it is accepted, so wait for the log
            // line itself: reading the log right after the second accept raced the server writing it.
            ConnectWorkerCluster.awaitCondition(WAIT, "the standby refused the task as a standby (its log names the refusal)",
                    () -> endpoint.acceptedSincePointed() >= 2 && refusedAsStandby(standby.logTail(400)));
            assertThat(connect.status(name).tasks()).as("still within slot.max.retries")
                    .allSatisfy(t -> assertThat(t.state()).isEqualTo("RUNNING"));

            standby.promote();
            long promoted = System.nanoTime();
            AtomicLong after = new AtomicLong(AFTER_PROMOTION);
            PrimaryFailoverIT.insert(standby, after, 50);
            long firstNew = -1;
            long deadline = promoted + WAIT.toNanos();
            while (firstNew < 0 && System.nanoTime() < deadline) {
                if (PrimaryFailoverIT.ids(connect.readAllIfExists(topic, Duration.ofSeconds(10))).stream().anyMatch(id -> id >= AFTER_PROMOTION)) {
                    firstNew = System.nanoTime();
                } else {
                    Thread.sleep(50);
                }
            }
            assertThat(firstNew).as("a record of a row inserted after the promotion, within " + WAIT).isPositive();
            long millis = TimeUnit.NANOSECONDS.toMillis(firstNew - promoted);

            Set<Long> onNewPrimary = Arrays.stream(standby.queryValue("postgres", "SELECT string_agg(id::text, ',') FROM items")
                    .split(",")).map(Long::valueOf).collect(Collectors.toCollection(TreeSet::new));
            Set<Long> inKafka = new TreeSet<>();
            ConnectWorkerCluster.awaitCondition(WAIT, "every row of the new primary (" + onNewPrimary.size() + ") in Kafka", () -> {
                inKafka.clear();
                inKafka.addAll(PrimaryFailoverIT.ids(connect.readAll(topic, Duration.ofSeconds(10))));
                return inKafka.containsAll(onNewPrimary);
            });
            Set<Long> phantoms = new TreeSet<>(inKafka);
            phantoms.removeAll(onNewPrimary);
            System.out.printf("MovingEndpointFailoverIT PostgreSQL %d: first new record %d ms after the promotion ended;"
                            + " %d rows on the new primary, %d in Kafka, %d phantom%n",
                    version, millis, onNewPrimary.size(), inKafka.size(), phantoms.size());
            assertThat(phantoms).as("records of rows the new primary does not have").isEmpty();
            assertThat(connect.status(name).tasks()).allSatisfy(t -> assertThat(t.state()).isEqualTo("RUNNING"));
            connect.deleteConnector(name);
        }
    }

    private static boolean refusedAsStandby(String serverLog) {
        return serverLog.contains("being synchronized from the primary") || serverLog.contains("read-only transaction")
                || serverLog.contains("recovery is in progress");
    }

    @Test
    void anAddressWhereNothingListensFailsTheTaskAfterErrorsMaxRetriesNamingTheKey() throws Exception {
        int version = version();
        try (PostgresCluster server = PostgresCluster.start(version, Map.of());
             TcpForwarder endpoint = TcpForwarder.to(server)) {
            server.execute("postgres", "CREATE TABLE items (id bigint PRIMARY KEY)");
            String name = "gone-" + version;
            Map<String, String> config = MixedWorkloadIT.connectorConfig(new PostgresDatabase(server, "postgres"), "gone" + version, "gone_slot");
            config.put("database.hostname", endpoint.host());
            config.put("database.port", Integer.toString(endpoint.port()));
            config.put(ReplicationKeys.ERRORS_MAX_RETRIES_CONFIG, "3");
            connect.configureConnector(name, config);
            connect.awaitRunning(name, 1, WAIT);
            PrimaryFailoverIT.awaitSlotActive(server, "gone_slot");
            server.execute("postgres", "INSERT INTO items VALUES (1)");
            connect.awaitRecords("gone" + version + ".public.items", 1, WAIT);

            endpoint.refuse();
            long refused = System.nanoTime();
            ConnectWorkerCluster.awaitCondition(WAIT, "the task FAILED", () ->
                    connect.status(name).tasks().stream().anyMatch(t -> t.state().equals("FAILED")));
            long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - refused);
            String trace = connect.status(name).tasks().get(0).trace();
            System.out.printf("MovingEndpointFailoverIT PostgreSQL %d: FAILED %d ms after the address stopped listening%n", version, millis);
            assertThat(trace).contains("no replication session after 3 retries 1000 ms apart (errors.max.retries")
                    .contains("08001");
            assertThat(millis).as("three retries 1 s apart, not an endless loop").isBetween(2_500L, 60_000L);
            connect.deleteConnector(name);
        }
    }
}
