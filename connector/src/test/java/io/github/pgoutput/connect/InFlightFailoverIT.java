package io.github.pgoutput.connect;

import static io.github.pgoutput.testing.kafka.ConnectWorkerCluster.headerTexts;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.pgoutput.connect.config.PgOutputSourceConnectorConfig;
import io.github.pgoutput.connect.config.ReplicationKeys;
import io.github.pgoutput.connect.config.SpillKeys;
import io.github.pgoutput.connect.record.LifecycleHeaders;
import io.github.pgoutput.testing.Nightly;
import io.github.pgoutput.testing.PostgresCluster;
import io.github.pgoutput.testing.PostgresDatabase;
import io.github.pgoutput.testing.PostgresExtension;
import io.github.pgoutput.testing.kafka.ConnectWorkerCluster;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A primary failover with transactions in flight, on the last PostgreSQL 17+ version of {@code -Dpg.versions}: a
 * failover slot, {@code synchronized_standby_slots} naming the standby, {@code prepared.transaction.mode=stage} over
 * protocol 3 with {@code streaming=on}. At the {@code pg_ctl stop -m immediate} of the primary a large transaction is
 * open, already streamed to the connector and spilled to its disk, two transactions are PREPARED, and single-row
 * inserts run continuously. After the promotion one prepared transaction is committed and the other rolled back on the
 * new primary. The task continues by itself; the aborted stream leaves no spill file and no record; every row of the
 * new primary is in Kafka and no row the new primary lacks, but for the rolled-back prepared one, whose lifecycle ends
 * in ROLLED_BACK; both lifecycles complete with their xid and GID. Prints the time from the end of the promotion to
 * the first record of a row inserted after it, and the slot's {@code two_phase} (and on 18 {@code two_phase_at}) on
 * both servers.
 */
@Timeout(value = 6, unit = TimeUnit.MINUTES)
@Nightly
class InFlightFailoverIT {

    private static final Duration WAIT = Duration.ofSeconds(120);
    /** Ids of rows inserted after the promotion start here, above the continuous workload's and the prepared ones. */
    private static final long AFTER_PROMOTION = 1_000_000L;
    private static final long PREPARED_COMMIT_ID = 500_001L;
    private static final long PREPARED_ROLLBACK_ID = 500_003L;
    private static final int BIG_ROWS = 30_000;
    private static final String SLOT = "inflight_slot";

    @RegisterExtension
    static final ConnectWorkerCluster connect = ConnectWorkerCluster.shared();

    @Test
    void streamedAndPreparedTransactionsInFlightAtTheCrashEndCleanlyOnThePromotedStandby() throws Exception {
        int version = PostgresExtension.selectedVersions().stream().filter(v -> v >= 17).reduce((a, b) -> b)
                .orElseThrow(() -> new IllegalStateException("InFlightFailoverIT needs PostgreSQL 17+ in -Dpg.versions"));
        Path spill = Files.createTempDirectory("kcpg-inflight-spill-");
        try (PostgresCluster primary = PostgresCluster.start(version, Map.of("logical_decoding_work_mem", "'64kB'"));
             PostgresCluster standby = primary.startStandby("standby_1", Map.of())) {
            primary.execute("postgres", "CREATE TABLE items (id bigint PRIMARY KEY)", "CREATE TABLE big (id bigint, pad text)",
                    "ALTER SYSTEM SET synchronized_standby_slots = 'standby_1'", "SELECT pg_reload_conf()");
            String name = "inflight-" + version;
            String prefix = "if" + version;
            String items = prefix + ".public.items";
            Map<String, String> config = MixedWorkloadIT.connectorConfig(new PostgresDatabase(primary, "postgres"), prefix, SLOT);
            config.put("database.hostname", primary.host() + ":" + primary.port() + "," + standby.host() + ":" + standby.port());
            config.put(ReplicationKeys.SLOT_FAILOVER_CONFIG, "true");
            config.put(ReplicationKeys.PROTOCOL_VERSION_CONFIG, "3");
            config.put(ReplicationKeys.STREAMING_CONFIG, "on");
            config.put(ReplicationKeys.PREPARED_TRANSACTION_MODE_CONFIG, "stage");
            config.put("provide.transaction.metadata", "true");
            config.put(SpillKeys.SPILL_DIRECTORY_CONFIG, spill.toString());
            // Streamed changes beyond this go to the spill files, so the open transaction is on disk at the crash.
            config.put(SpillKeys.SPILL_MEMORY_BUFFER_BYTES_CONFIG, "65536");
            connect.configureConnector(name, config);
            connect.awaitRunning(name, 1, WAIT);
            PrimaryFailoverIT.awaitSlotActive(primary, SLOT);

            AtomicLong nextId = new AtomicLong(1);
            PrimaryFailoverIT.insert(primary, nextId, 20);
            connect.awaitRecords(items, 20, WAIT);
            // Synced before the prepares: an open prepared transaction holds the slot's restart_lsn and catalog_xmin
            // back, and a standby does not make its first copy of a slot in that state persistent (it stayed temporary).
            PrimaryFailoverIT.awaitSlotSynced(primary, standby, SLOT, nextId);
            primary.execute("postgres",
                    "BEGIN; INSERT INTO items VALUES (" + PREPARED_COMMIT_ID + "), (" + (PREPARED_COMMIT_ID + 1) + "); PREPARE TRANSACTION 'fo-commit'",
                    "BEGIN; INSERT INTO items VALUES (" + PREPARED_ROLLBACK_ID + "); PREPARE TRANSACTION 'fo-rollback'");
            ConnectWorkerCluster.awaitCondition(WAIT, "the PREPARED records of both prepared transactions", () ->
                    PrimaryFailoverIT.ids(connect.readAllIfExists(items, Duration.ofSeconds(10)))
                            .containsAll(List.of(PREPARED_COMMIT_ID, PREPARED_COMMIT_ID + 1, PREPARED_ROLLBACK_ID)));
            String slotOnPrimary = twoPhase(primary, version);

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
            }, "inflight-writer");
            writer.start();

            // The large transaction stays open: PostgreSQL streams it past 64kB, the connector spills it past 64 KiB.
            Connection big = primary.connect("postgres");
            big.setAutoCommit(false);
            long bigXid;
            try (Statement st = big.createStatement()) {
                var rs = st.executeQuery("SELECT txid_current()");
                rs.next();
                bigXid = rs.getLong(1);
                st.executeUpdate("INSERT INTO big SELECT g, repeat('x', 200) FROM generate_series(1, " + BIG_ROWS + ") g");
            }
            String bigFile = SLOT + ".txn-" + bigXid + ".spill";
            ConnectWorkerCluster.awaitCondition(WAIT, "the open transaction " + bigXid + " streamed and spilled to " + bigFile,
                    () -> spillFiles(spill).contains(bigFile));
            String streamed = primary.queryValue("postgres",
                    "SELECT stream_txns || ' streamed, ' || spill_txns || ' spilled by the server' FROM pg_stat_replication_slots WHERE slot_name = '" + SLOT + "'");
            // A spill file of a transaction no session will stream again: only a spill cleared when the new session
            // opens removes it (the aborted stream's own file may be written again when the transaction is re-streamed).
            String canary = SLOT + ".txn-4000000000.spill";
            Files.write(spill.resolve(canary), new byte[] {1, 2, 3});
            Thread.sleep(500);
            long stopping = System.nanoTime();
            primary.stop("immediate");
            writing.set(false);
            writer.join(10_000);
            try {
                big.close();
            } catch (SQLException e) {
                // the server is gone
            }

            long stopped = System.nanoTime();
            standby.promote();
            long promoted = System.nanoTime();
            AtomicLong after = new AtomicLong(AFTER_PROMOTION);
            PrimaryFailoverIT.insert(standby, after, 50);
            long firstNew = -1;
            long deadline = promoted + WAIT.toNanos();
            while (firstNew < 0 && System.nanoTime() < deadline) {
                if (PrimaryFailoverIT.ids(connect.readAllIfExists(items, Duration.ofSeconds(10))).stream().anyMatch(id -> id >= AFTER_PROMOTION)) {
                    firstNew = System.nanoTime();
                } else {
                    Thread.sleep(50);
                }
            }
            assertThat(firstNew).as("a record of a row inserted after the promotion, within " + WAIT).isPositive();
            Set<String> filesAtFirstNew = spillFiles(spill);
            System.out.printf("InFlightFailoverIT PostgreSQL %d: spill files at the first new record: %s%n", version, filesAtFirstNew);
            assertThat(filesAtFirstNew).as("the session on the promoted standby began with a cleared spill").doesNotContain(canary);
            long millis = TimeUnit.NANOSECONDS.toMillis(firstNew - promoted);
            System.out.printf("InFlightFailoverIT PostgreSQL %d: first new record %d ms after the promotion ended"
                            + " (stop -m immediate took %d ms, promotion %d ms; open transaction %d: %s)%n", version, millis,
                    TimeUnit.NANOSECONDS.toMillis(stopped - stopping), TimeUnit.NANOSECONDS.toMillis(promoted - stopped),
                    bigXid, streamed);
            assertThat(millis).as("ms from the promotion to the first new record").isLessThan(10_000);
            String slotOnPromoted = twoPhase(standby, version);
            System.out.printf("InFlightFailoverIT PostgreSQL %d: slot %s on the primary before the crash: %s; on the promoted standby: %s%n",
                    version, SLOT, slotOnPrimary, slotOnPromoted);

            standby.execute("postgres", "COMMIT PREPARED 'fo-commit'", "ROLLBACK PREPARED 'fo-rollback'");
            // The crashed transaction has no abort record: decoding drops it at the next running-transactions record.
            standby.execute("postgres", "SELECT pg_log_standby_snapshot()");
            PrimaryFailoverIT.insert(standby, after, 1);
            String transactions = prefix + ".transaction";
            ConnectWorkerCluster.awaitCondition(WAIT, "the outcomes of fo-commit and fo-rollback", () ->
                    outcome(connect.readAllIfExists(transactions, Duration.ofSeconds(10)), "fo-commit") != null
                            && outcome(connect.readAllIfExists(transactions, Duration.ofSeconds(10)), "fo-rollback") != null);
            List<ConsumerRecord<byte[], byte[]>> lifecycle = connect.readAll(transactions, Duration.ofSeconds(10));
            List<ConsumerRecord<byte[], byte[]>> itemRecords = connect.readAll(items, Duration.ofSeconds(10));
            assertLifecycle(itemRecords, lifecycle, "fo-commit", "COMMITTED", PREPARED_COMMIT_ID);
            assertLifecycle(itemRecords, lifecycle, "fo-rollback", "ROLLED_BACK", PREPARED_ROLLBACK_ID);

            Set<Long> onNewPrimary = Arrays.stream(standby.queryValue("postgres", "SELECT string_agg(id::text, ',') FROM items")
                    .split(",")).map(Long::valueOf).collect(Collectors.toCollection(TreeSet::new));
            assertThat(onNewPrimary).contains(PREPARED_COMMIT_ID, PREPARED_COMMIT_ID + 1).doesNotContain(PREPARED_ROLLBACK_ID);
            Set<Long> inKafka = new TreeSet<>();
            ConnectWorkerCluster.awaitCondition(WAIT, "every row of the new primary (" + onNewPrimary.size() + ") in Kafka", () -> {
                inKafka.clear();
                inKafka.addAll(PrimaryFailoverIT.ids(connect.readAll(items, Duration.ofSeconds(10))));
                return inKafka.containsAll(onNewPrimary);
            });
            Set<Long> phantoms = new TreeSet<>(inKafka);
            phantoms.removeAll(onNewPrimary);
            System.out.printf("InFlightFailoverIT PostgreSQL %d: %d rows on the new primary, %d in Kafka, %d phantom besides the"
                    + " rolled-back prepared row%n", version, onNewPrimary.size(), inKafka.size(), phantoms.size() - (phantoms.contains(PREPARED_ROLLBACK_ID) ? 1 : 0));
            assertThat(phantoms).as("rows in Kafka the new primary lacks: only the PREPARED one that was rolled back")
                    .containsExactly(PREPARED_ROLLBACK_ID);
            assertThat(connect.readAllIfExists(prefix + ".public.big", Duration.ofSeconds(5)))
                    .as("no record of the transaction that was open at the crash").isEmpty();
            ConnectWorkerCluster.awaitCondition(WAIT, "no spill file left in " + spill, () -> spillFiles(spill).isEmpty());
            assertThat(connect.status(name).tasks()).allSatisfy(t -> assertThat(t.state()).isEqualTo("RUNNING"));
            connect.deleteConnector(name);
        } finally {
            try (Stream<Path> files = Files.walk(spill)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    /** The slot's two_phase flag (and two_phase_at where the server has the column) as pg_replication_slots shows it. */
    private static String twoPhase(PostgresCluster server, int version) {
        return server.queryValue("postgres", "SELECT 'two_phase=' || two_phase" + (version >= 18 ? " || ' two_phase_at=' || coalesce(two_phase_at::text, 'null')" : "")
                + " || ' failover=' || failover || ' synced=' || synced || ' confirmed_flush_lsn=' || confirmed_flush_lsn"
                + " FROM pg_replication_slots WHERE slot_name = '" + SLOT + "'");
    }

    private static Set<String> spillFiles(Path directory) {
        try (Stream<Path> files = Files.list(directory)) {
            return files.map(p -> p.getFileName().toString()).filter(f -> f.startsWith(SLOT + ".")).collect(Collectors.toSet());
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The outcome record (not PREPARED) on the transaction topic keyed {@code gid}, or null. */
    private static ConsumerRecord<byte[], byte[]> outcome(List<ConsumerRecord<byte[], byte[]>> transactions, String gid) {
        return transactions.stream()
                .filter(r -> r.key() != null && TopicReplica.json(r.key()).path("id").asText().equals(gid))
                .filter(r -> !TopicReplica.json(r.value()).get("outcome").asText().equals("PREPARED"))
                .findFirst().orElse(null);
    }

    /**
     * The PREPARED change of row {@code id} carries {@code gid} and an xid; the transaction topic holds BEGIN and END
     * PREPARED for it, then its outcome with the same xid and GID, in both its value and its headers.
     */
    private static void assertLifecycle(List<ConsumerRecord<byte[], byte[]>> itemRecords, List<ConsumerRecord<byte[], byte[]>> transactions,
            String gid, String outcome, long id) {
        List<Map<String, String>> prepared = itemRecords.stream()
                .filter(r -> PrimaryFailoverIT.ids(List.of(r)).get(0) == id).map(ConnectWorkerCluster::headerTexts).toList();
        assertThat(prepared).as("PREPARED records of row " + id).isNotEmpty().allSatisfy(h -> assertThat(h)
                .containsEntry(LifecycleHeaders.OUTCOME, "PREPARED").containsEntry(LifecycleHeaders.GID, gid)
                .containsKey(LifecycleHeaders.XID));
        String xid = prepared.get(0).get(LifecycleHeaders.XID);
        List<String> statuses = transactions.stream()
                .filter(r -> r.key() != null && TopicReplica.json(r.key()).path("id").asText().equals(gid))
                .map(r -> TopicReplica.json(r.value()).get("status").asText() + "/" + TopicReplica.json(r.value()).get("outcome").asText())
                .distinct().toList();
        assertThat(statuses).as("lifecycle of " + gid).containsExactly("BEGIN/PREPARED", "END/PREPARED", outcome + "/" + outcome);
        ConsumerRecord<byte[], byte[]> end = outcome(transactions, gid);
        assertThat(Long.toString(TopicReplica.json(end.value()).get("xid").asLong())).isEqualTo(xid);
        assertThat(TopicReplica.json(end.value()).get("gid").asText()).isEqualTo(gid);
        assertThat(headerTexts(end)).containsEntry(LifecycleHeaders.OUTCOME, outcome).containsEntry(LifecycleHeaders.GID, gid)
                .containsEntry(LifecycleHeaders.XID, xid).containsEntry(LifecycleHeaders.TWO_PHASE, "true");
    }
}
