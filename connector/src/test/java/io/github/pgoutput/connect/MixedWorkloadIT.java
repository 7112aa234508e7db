package io.github.pgoutput.connect;

import io.github.pgoutput.testing.kafka.ConnectWorkerCluster;
import io.github.pgoutput.connect.record.LifecycleHeaders;

import static io.github.pgoutput.testing.kafka.ConnectWorkerCluster.headerTexts;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.pgoutput.pgoutput.Lsn;
import io.github.pgoutput.testing.PostgresDatabase;
import io.github.pgoutput.testing.PostgresTest;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Issue 4, integration test 1: a mixed workload (small and large streamed transactions, rolled-back savepoints,
 * aborted transactions, key-changing updates, deletes, truncate, ALTER TABLE mid-stream) goes through a real Connect
 * worker; a consumer rebuilds every table from the topics and gets exactly the database; no change of an aborted
 * transaction or rolled-back savepoint appears; each transaction's records are contiguous and in commit order.
 */
@Timeout(value = 6, unit = TimeUnit.MINUTES)
class MixedWorkloadIT {

    private static final Logger log = LoggerFactory.getLogger(MixedWorkloadIT.class);
    private static final Duration WAIT = Duration.ofSeconds(120);
    private static final List<String> ITEM_COLUMNS = List.of("id", "name", "qty", "note");
    private static final List<String> NOTE_COLUMNS = List.of("id", "body");

    @RegisterExtension
    static final ConnectWorkerCluster connect = ConnectWorkerCluster.shared();

    static Map<String, String> connectorConfig(PostgresDatabase db, String prefix, String slot) {
        Map<String, String> config = new HashMap<>();
        config.put("connector.class", PgOutputSourceConnector.class.getName());
        config.put("tasks.max", "1");
        config.put("database.hostname", db.host());
        config.put("database.port", Integer.toString(db.port()));
        config.put("database.user", db.user());
        config.put("database.dbname", db.name());
        config.put("slot.name", slot);
        config.put("publication.name", slot + "_pub");
        config.put("publication.autocreate.mode", "all_tables");
        config.put("topic.prefix", prefix);
        config.put("key.converter", "org.apache.kafka.connect.json.JsonConverter");
        config.put("key.converter.schemas.enable", "false");
        config.put("value.converter", "org.apache.kafka.connect.json.JsonConverter");
        config.put("value.converter.schemas.enable", "false");
        config.put("topic.creation.default.replication.factor", "1");
        config.put("topic.creation.default.partitions", "1");
        // The streaming ITs check streamed records only; the snapshot ITs remove this key (default: initial).
        config.put("snapshot.mode", "no_data");
        return config;
    }

    @PostgresTest(representative = 18, logicalDecodingWorkMem = "64kB")
    void consumerRebuildsEveryTableAndSeesNoAbortedChange(PostgresDatabase db) {
        // One worker cluster serves every PostgreSQL version: connector and topics are named per version.
        String name = "mixed-" + db.majorVersion();
        String prefix = "mix" + db.majorVersion();
        db.execute("CREATE TABLE items (id bigint PRIMARY KEY, name text NOT NULL, qty int)",
                "CREATE TABLE notes (id bigint PRIMARY KEY, body text)");
        Map<String, String> config = connectorConfig(db, prefix, "mixed_slot");
        config.put("provide.transaction.metadata", "true"); // off by default, as in Debezium; checked below
        config.put("skipped.operations", "none"); // truncates are skipped by default, as in Debezium; checked below
        connect.configureConnector(name, config);
        connect.awaitRunning(name, 1, WAIT);
        ConnectWorkerCluster.awaitCondition(WAIT, "slot created", () ->
                !db.query("SELECT 1 FROM pg_replication_slots WHERE slot_name = 'mixed_slot' AND active").isEmpty());
        assertStreamingNegotiatedFor(db);

        long started = System.nanoTime();
        // Small transactions.
        for (int i = 1; i <= 20; i++) {
            db.execute("INSERT INTO items VALUES (" + i + ", 'small-" + i + "', " + i + ")");
        }
        // A large transaction (streamed with 64kB), with a rolled-back savepoint that was itself streamed.
        db.execute("""
                DO $$ BEGIN
                  INSERT INTO items SELECT g, 'large-' || g || repeat('x', 100), g FROM generate_series(1000, 4999) g;
                  BEGIN
                    INSERT INTO items SELECT g, 'ABORTED-sub-' || repeat('y', 100), g FROM generate_series(100000, 101999) g;
                    RAISE EXCEPTION 'roll back to the savepoint';
                  EXCEPTION WHEN raise_exception THEN NULL;
                  END;
                  INSERT INTO notes SELECT g, 'note-' || g FROM generate_series(1, 500) g;
                END $$""");
        // A large aborted transaction (streamed, then Stream Abort) and a small aborted one.
        abortedTransaction(db, "INSERT INTO items SELECT g, 'ABORTED-large' || repeat('z', 100), g FROM generate_series(200000, 203999) g");
        abortedTransaction(db, "INSERT INTO items VALUES (300000, 'ABORTED-small', 1)");
        // A small transaction with a rolled-back savepoint.
        try (var conn = db.connect(); var st = conn.createStatement()) {
            conn.setAutoCommit(false);
            st.execute("INSERT INTO items VALUES (21, 'kept-before-savepoint', 21)");
            st.execute("SAVEPOINT s1");
            st.execute("INSERT INTO items VALUES (310000, 'ABORTED-savepoint', 1)");
            st.execute("UPDATE items SET name = 'ABORTED-update' WHERE id = 1");
            st.execute("ROLLBACK TO SAVEPOINT s1");
            st.execute("INSERT INTO items VALUES (22, 'kept-after-savepoint', 22)");
            conn.commit();
        } catch (java.sql.SQLException e) {
            throw new AssertionError(e);
        }
        // Updates that change the key, updates in place, deletes.
        db.execute("UPDATE items SET id = id + 500000 WHERE id <= 5",
                "UPDATE items SET qty = qty * 10 WHERE id BETWEEN 6 AND 10",
                "DELETE FROM items WHERE id BETWEEN 11 AND 15",
                "DELETE FROM items WHERE id BETWEEN 1000 AND 1999");
        // ALTER TABLE mid-stream, then changes that use the new column.
        db.execute("ALTER TABLE items ADD COLUMN note text",
                "UPDATE items SET note = 'altered' WHERE id BETWEEN 16 AND 20",
                "INSERT INTO items VALUES (23, 'after-alter', 23, 'new')");
        // Truncate, then new rows.
        db.execute("TRUNCATE notes", "INSERT INTO notes VALUES (1, 'after-truncate'), (2, NULL)");
        // One more large transaction on both tables after the schema change.
        db.execute("""
                BEGIN;
                UPDATE items SET note = 'bulk' WHERE id BETWEEN 2000 AND 3999;
                INSERT INTO notes SELECT g, repeat('n', 200) FROM generate_series(10, 1009) g;
                COMMIT""");

        Map<Long, Map<String, String>> expectedItems = TopicReplica.fromDatabase(
                db.query("SELECT id::text, name, qty::text, note FROM items ORDER BY id"), ITEM_COLUMNS);
        Map<Long, Map<String, String>> expectedNotes = TopicReplica.fromDatabase(
                db.query("SELECT id::text, body FROM notes ORDER BY id"), NOTE_COLUMNS);

        List<ConsumerRecord<byte[], byte[]>> items = new ArrayList<>();
        List<ConsumerRecord<byte[], byte[]>> notes = new ArrayList<>();
        ConnectWorkerCluster.awaitCondition(WAIT, "both tables rebuilt from their topics", () -> {
            items.clear();
            notes.clear();
            items.addAll(connect.readAllIfExists(prefix + ".public.items", Duration.ofSeconds(20)));
            notes.addAll(connect.readAllIfExists(prefix + ".public.notes", Duration.ofSeconds(20)));
            return TopicReplica.rebuild(items, ITEM_COLUMNS).equals(expectedItems)
                    && TopicReplica.rebuild(notes, NOTE_COLUMNS).equals(expectedNotes);
        });
        double seconds = (System.nanoTime() - started) / 1e9;
        List<ConsumerRecord<byte[], byte[]>> transactions = connect.readAll(prefix + ".transaction", Duration.ofSeconds(20));
        log.info("IT1: {} item records, {} note records, {} transaction records arrived {} s after the workload started"
                        + " ({} records/s end to end, workload included)", items.size(), notes.size(), transactions.size(),
                String.format("%.1f", seconds), String.format("%.0f", (items.size() + notes.size()) / seconds));

        assertThat(TopicReplica.rebuild(items, ITEM_COLUMNS)).isEqualTo(expectedItems);
        assertThat(TopicReplica.rebuild(notes, NOTE_COLUMNS)).isEqualTo(expectedNotes);
        List<ConsumerRecord<byte[], byte[]>> all = new ArrayList<>(items);
        all.addAll(notes);
        assertThat(all).noneSatisfy(r -> assertThat(r.value() == null ? "" : new String(r.value())).contains("ABORTED"));
        assertThat(all).allSatisfy(r -> assertThat(headerTexts(r)).containsKeys(LifecycleHeaders.XID, LifecycleHeaders.LSN,
                LifecycleHeaders.COMMIT_LSN, LifecycleHeaders.OUTCOME, LifecycleHeaders.TWO_PHASE, LifecycleHeaders.TX_ORDER));
        assertThat(all).allSatisfy(r -> assertThat(headerTexts(r)).containsKeys("__debezium.context.connectorLogicalName",
                "__debezium.context.connectorName", "__debezium.context.taskId", "__debezium.context.runId"));
        assertThat(all).extracting(r -> headerTexts(r).get("__debezium.context.runId")).as("one run id per task run")
                .containsOnly(headerTexts(all.get(0)).get("__debezium.context.runId"));
        assertThat(items).as("key-changing updates name the other key, as Debezium")
                .anySatisfy(r -> assertThat(headerTexts(r)).containsKey("__debezium.oldkey"))
                .anySatisfy(r -> assertThat(headerTexts(r)).containsKey("__debezium.newkey"));
        assertContiguousInCommitOrder(items);
        assertContiguousInCommitOrder(notes);
        assertTransactionsCompleteAndUnique(all, transactions);
        assertThat(notes).anySatisfy(r -> assertThat(r.value() != null && TopicReplica.json(r.value()).get("op").asText().equals("t")).isTrue());
        assertThat(db.queryValue("SELECT stream_txns > 0 FROM pg_stat_replication_slots WHERE slot_name = 'mixed_slot'"))
                .as("large transactions were streamed").isEqualTo("t");
        connect.deleteConnector(name);
        ConnectWorkerCluster.awaitCondition(WAIT, "slot released", () ->
                db.query("SELECT 1 FROM pg_replication_slots WHERE slot_name = 'mixed_slot' AND active").isEmpty());
    }

    /**
     * protocol.version=auto asks for the highest protocol the server speaks, 3 on PostgreSQL 15 and 4 from 16 on, and
     * streaming=auto for streaming (not its parallel variant, which PostgreSQL 15 lacks). The walsender shows the
     * START_REPLICATION command it runs.
     */
    private static void assertStreamingNegotiatedFor(PostgresDatabase db) {
        String sql = "SELECT query FROM pg_stat_activity WHERE backend_type = 'walsender' AND query LIKE 'START_REPLICATION%mixed_slot%'";
        // The slot is active already while the walsender creates it; START_REPLICATION follows.
        ConnectWorkerCluster.awaitCondition(WAIT, "walsender streaming", () -> !db.query(sql).isEmpty());
        assertThat(db.queryValue(sql)).contains("\"proto_version\" '" + (db.majorVersion() == 15 ? 3 : 4) + "'")
                .contains("\"streaming\" 'true'");
    }

    private static void abortedTransaction(PostgresDatabase db, String statement) {
        try (var conn = db.connect(); var st = conn.createStatement()) {
            conn.setAutoCommit(false);
            st.execute(statement);
            // Force the WAL out so the walsender decodes (and streams) it before the abort.
            st.execute("SELECT pg_switch_wal() IS NOT NULL");
            conn.rollback();
        } catch (java.sql.SQLException e) {
            throw new AssertionError(e);
        }
    }

    /** Within a topic: commit LSNs never go back, and the records of one transaction are not interleaved with others. */
    private static void assertContiguousInCommitOrder(List<ConsumerRecord<byte[], byte[]>> records) {
        Lsn previous = Lsn.INVALID;
        List<String> finished = new ArrayList<>();
        String current = null;
        for (ConsumerRecord<byte[], byte[]> record : records) {
            Map<String, String> headers = headerTexts(record);
            Lsn commit = Lsn.parse(headers.get(LifecycleHeaders.COMMIT_LSN));
            assertThat(commit).as("commit order at offset %d", record.offset()).isGreaterThanOrEqualTo(previous);
            previous = commit;
            String tx = headers.get(LifecycleHeaders.COMMIT_LSN);
            if (!tx.equals(current)) {
                assertThat(finished).as("transaction %s resumes after another at offset %d", tx, record.offset()).doesNotContain(tx);
                if (current != null) {
                    finished.add(current);
                }
                current = tx;
            }
        }
    }

    /**
     * Every transaction's records (table topics and its BEGIN/END) are numbered 1..N by pg.tx_order without gap or
     * duplicate, and END's event_count matches its table records.
     */
    private static void assertTransactionsCompleteAndUnique(List<ConsumerRecord<byte[], byte[]>> changes,
                                                           List<ConsumerRecord<byte[], byte[]>> transactions) {
        Map<String, List<Long>> orders = new LinkedHashMap<>();
        Map<String, Long> changeCounts = new HashMap<>();
        for (ConsumerRecord<byte[], byte[]> record : changes) {
            Map<String, String> headers = headerTexts(record);
            orders.computeIfAbsent(headers.get(LifecycleHeaders.COMMIT_LSN), k -> new ArrayList<>())
                    .add(Long.parseLong(headers.get(LifecycleHeaders.TX_ORDER)));
            if (record.value() != null) {
                changeCounts.merge(headers.get(LifecycleHeaders.COMMIT_LSN), 1L, Long::sum);
            }
        }
        Map<String, Long> endCounts = new HashMap<>();
        Lsn previousEnd = Lsn.INVALID;
        for (ConsumerRecord<byte[], byte[]> record : transactions) {
            Map<String, String> headers = headerTexts(record);
            orders.computeIfAbsent(headers.get(LifecycleHeaders.COMMIT_LSN), k -> new ArrayList<>())
                    .add(Long.parseLong(headers.get(LifecycleHeaders.TX_ORDER)));
            JsonNode value = TopicReplica.json(record.value());
            // pg.commit_lsn is the delivery's end: after the start of its commit record, and a delivery's commit
            // record starts at or after the end of the one before (commit order).
            Lsn start = Lsn.parse(value.get("tx_lsn").asText());
            Lsn end = Lsn.parse(value.get("end_lsn").asText());
            assertThat(end.toString()).isEqualTo(headers.get(LifecycleHeaders.COMMIT_LSN));
            assertThat(end).as("end of transaction %s", value.get("id").asText()).isGreaterThan(start);
            if (value.get("status").asText().equals("BEGIN")) {
                assertThat(start).as("start of transaction %s", value.get("id").asText()).isGreaterThanOrEqualTo(previousEnd);
            } else {
                previousEnd = end;
                endCounts.put(end.toString(), value.get("event_count").asLong());
            }
        }
        orders.forEach((tx, seen) -> {
            List<Long> sorted = seen.stream().sorted().toList();
            assertThat(sorted).as("tx_order of transaction %s", tx)
                    .isEqualTo(java.util.stream.LongStream.rangeClosed(1, sorted.size()).boxed().toList());
        });
        assertThat(endCounts).isEqualTo(changeCounts);
    }
}
