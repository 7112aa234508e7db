package io.github.pgoutput.connect;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.pgoutput.testing.Nightly;
import io.github.pgoutput.testing.kafka.ConnectWorkerCluster;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.pgoutput.connect.offsets.SourceOffsets;
import io.github.pgoutput.testing.PostgresDatabase;
import io.github.pgoutput.testing.PostgresTest;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.connect.util.clusters.WorkerHandle;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An exactly-once snapshot ({@code exactly.once.support=required}, {@code snapshot.mode=initial}) interrupted in the
 * middle of its second table, while the database keeps changing, is resumed after the last row in Kafka: a
 * read_committed consumer sees every row read once, the changes made while it was interrupted once each (in the row
 * as read when the row was read after the resumption, as a change record when it was read before), and rebuilds every
 * table exactly. Keys: a bigint, a text key holding the characters the stored position must escape, and a composite
 * key. Twice interrupted by a stop over REST (connector boundaries), once by the loss of the worker (poll boundaries).
 * Tables without a key, read in the order of their rows' hashes, are resumed after the loss of the worker too, every
 * row as often as the table holds it.
 */
@Timeout(value = 8, unit = TimeUnit.MINUTES)
class ExactlyOnceSnapshotIT {

    private static final Logger log = LoggerFactory.getLogger(ExactlyOnceSnapshotIT.class);
    private static final Duration WAIT = Duration.ofSeconds(180);
    private static final int ROWS = 3_000;
    /** A few hundred snapshot records a second: the snapshot of 9,000 rows is still running when the test interrupts it. */
    private static final long HELD_PRODUCE_RATE = 150_000;
    private static final List<String> TABLES = List.of("a", "b", "c");

    @RegisterExtension
    static final ConnectWorkerCluster connect = ConnectWorkerCluster.withWorkers(2).exactlyOnceSource();

    @PostgresTest(representative = 17)
    @Nightly
    void aSnapshotStoppedTwiceIsResumedTwiceAndEveryRowAndChangeArrivesOnceWithConnectorBoundaries(PostgresDatabase db) {
        String name = "eoss" + db.majorVersion();
        setUp(db, name, "connector");
        interruptIn(1, name, false, () -> {
            stopAndAwaitRelease(db, name);
            changeWhileInterrupted(db);
            connect.resumeConnector(name);
        });
        // The second stop comes inside c: b's rows after the first stop were read as of the first resumption, so a
        // change to them now is a change record; c's rows not read yet will hold theirs.
        interruptIn(2, name, true, () -> {
            stopAndAwaitRelease(db, name);
            db.execute("UPDATE b SET name = 'changed again' WHERE k = (SELECT max(k) FROM b)",
                    "UPDATE c SET name = 'changed again' WHERE x = " + (ROWS - 1));
            connect.resumeConnector(name);
        });
        Map<String, List<Event>> events = awaitEverythingAndCheck(db, name);

        // Row a/1 was read before the first stop: its update comes as a change after its read.
        assertThat(ops(events, "a", "{\"id\":1}")).containsExactly("r", "u");
        assertThat(ops(events, "a", "{\"id\":" + (ROWS + 1) + "}")).as("inserted after a was read").containsExactly("c");
        // The last key of b was read after the first resumption, from a snapshot taken after its first change: its
        // row as read holds that change, no change record repeats it; its second change is a change record.
        assertThat(ops(events, "b", lastKeyOfB())).containsExactly("r", "u");
        assertThat(events.get("b").stream().filter(e -> e.key().equals(lastKeyOfB()) && "r".equals(e.op())).findFirst().orElseThrow()
                .after().get("name").asText()).isEqualTo("changed while interrupted");
        assertThat(ops(events, "c", "{\"x\":" + ROWS + ",\"y\":\"y" + ROWS + "\"}")).as("deleted before it was read").isEmpty();
        assertThat(ops(events, "c", "{\"x\":" + (ROWS + 1) + ",\"y\":\"new\"}")).as("inserted before it was read").containsExactly("r");
        assertThat(ops(events, "c", "{\"x\":" + (ROWS - 1) + ",\"y\":\"y" + (ROWS - 1) + "\"}")).as("changed before the second resumption")
                .containsExactly("r");

        // A restart while the stored offset still carries the resumptions skips the same changes again: nothing repeats.
        connect.restartTask(name, 0);
        connect.awaitRunning(name, 1, WAIT);
        db.execute("UPDATE b SET name = 'after the restart' WHERE k = (SELECT max(k) FROM b)");
        ConnectWorkerCluster.awaitCondition(WAIT, "the change after the restart", () ->
                read(name + ".public.b").stream().anyMatch(e -> e.after() != null && "after the restart".equals(e.after().get("name").asText())));
        Map<String, List<Event>> after = awaitEverythingAndCheck(db, name);
        assertThat(ops(after, "b", lastKeyOfB())).containsExactly("r", "u", "u");
        assertThat(after.get("a")).hasSameSizeAs(events.get("a"));
        assertThat(after.get("c")).hasSameSizeAs(events.get("c"));
        connect.deleteConnector(name);
    }

    @PostgresTest(representative = 17)
    @Nightly
    void anInitialOnlySnapshotStoppedInItsSecondTableIsResumedWithoutItsTemporarySlotAndEveryRowArrivesOnce(PostgresDatabase db) {
        String name = "eoso" + db.majorVersion();
        setUp(db, name, "connector", "initial_only");
        interruptIn(1, name, true, () -> {
            stopAndAwaitRelease(db, name);
            // Its temporary slot went with the task; nothing streams afterwards, so no change needs the slot.
            assertThat(db.query("SELECT 1 FROM pg_replication_slots WHERE slot_name = '" + name + "_slot'")).isEmpty();
            db.execute("UPDATE b SET name = 'changed while interrupted' WHERE k = (SELECT max(k) FROM b)");
            connect.resumeConnector(name);
        });
        Map<String, List<Event>> events = awaitEverythingAndCheck(db, name);
        assertThat(ops(events, "b", lastKeyOfB())).containsExactly("r");
        assertThat(db.query("SELECT 1 FROM pg_replication_slots WHERE slot_name LIKE '" + name + "%'")).as("no slot left behind").isEmpty();
        connect.deleteConnector(name);
    }

    /**
     * Tables without a key: {@code dupes} (REPLICA IDENTITY FULL, every value two or three times) and {@code log}
     * (REPLICA IDENTITY DEFAULT without a key), read in the order of their rows' hashes. The worker is lost while the
     * stored offset is inside {@code dupes}; meanwhile one of two identical rows is deleted, rows are updated and copies
     * inserted. Rebuilt from its topic as a multiset (a record of a table without a key has no key to upsert by), each
     * table holds every row as often as the database does.
     */
    @PostgresTest(representative = 17)
    void tablesWithoutAKeyAreResumedAfterTheLossOfTheWorkerAndEveryRowArrivesAsOftenAsTheTableHoldsIt(PostgresDatabase db) {
        connect.restoreWorkers();
        String name = "eosk" + db.majorVersion();
        db.execute("CREATE TABLE dupes (v int, note text)", "ALTER TABLE dupes REPLICA IDENTITY FULL",
                "INSERT INTO dupes SELECT g % 1200, 'note ' || (g % 1200) FROM generate_series(1, 3000) g",
                "CREATE TABLE log (n int, label text)",
                "INSERT INTO log SELECT g % 1400, 'l' || (g % 1400) FROM generate_series(1, 1500) g");
        Map<String, String> config = MixedWorkloadIT.connectorConfig(db, name, name + "_slot");
        config.put("snapshot.mode", "initial");
        config.put("exactly.once.support", "required");
        config.put("transaction.boundary", "poll");
        config.put("max.batch.size", "50");
        connect.limitProduceRate("connector-producer-" + name + "-0", HELD_PRODUCE_RATE);
        connect.configureConnector(name, config);
        interruptIn(0, name, true, () -> {
            String worker = connect.status(name).tasks().get(0).workerId();
            WorkerHandle running = connect.workers().stream().filter(w -> worker.endsWith(":" + w.url().getPort())).findFirst().orElseThrow();
            connect.stopWorker(running);
            db.execute("DELETE FROM dupes WHERE ctid IN (SELECT min(ctid) FROM dupes WHERE v IN (3, 600, 1199) GROUP BY v)",
                    "UPDATE dupes SET note = note || ' changed' WHERE v IN (5, 700, 1100)",
                    "INSERT INTO dupes SELECT * FROM dupes WHERE v IN (7, 800)",
                    "INSERT INTO log VALUES (1, 'l1'), (2000, 'new')");
        });
        List<String> tables = List.of("dupes", "log");
        Map<String, Map<String, Long>> topics = new HashMap<>();
        ConnectWorkerCluster.awaitCondition(WAIT, "every table without a key rebuilt from its topic, copies counted", () -> {
            for (String table : tables) {
                topics.put(table, multiset(connect.readAllIfExists(name + ".public." + table, Duration.ofSeconds(10))));
            }
            return tables.stream().allMatch(t -> topics.get(t).equals(multiset(db, t)));
        });
        assertThat(topics.get("dupes")).as("one of two identical rows deleted, three copies doubled")
                .containsEntry(rowJson("{\"v\":1199,\"note\":\"note 1199\"}"), 1L)
                .containsEntry(rowJson("{\"v\":7,\"note\":\"note 7\"}"), 6L)
                .containsEntry(rowJson("{\"v\":5,\"note\":\"note 5 changed\"}"), 3L)
                .doesNotContainKey(rowJson("{\"v\":5,\"note\":\"note 5\"}"));
        // Every snapshot record acknowledged (Connect acknowledges equal records once: identical rows' records must
        // differ), so the slot is confirmed past a change streamed after the snapshot.
        db.execute("INSERT INTO log VALUES (3000, 'after the snapshot')");
        String changed = db.queryValue("SELECT pg_current_wal_lsn()");
        ConnectWorkerCluster.awaitCondition(WAIT, "slot confirmed past the change after the snapshot", () ->
                "t".equals(db.queryValue("SELECT confirmed_flush_lsn >= '" + changed + "' FROM pg_replication_slots WHERE slot_name = '"
                        + name + "_slot'")));
        log.info("{}: offsets {}", name, connect.sourceOffsets(name));
        connect.deleteConnector(name);
    }

    @PostgresTest(representative = 17)
    void aSnapshotWhoseWorkerIsLostInItsSecondTableIsResumedOnAnotherAndEveryRowArrivesOnceWithPollBoundaries(PostgresDatabase db) {
        connect.restoreWorkers();
        String name = "eosw" + db.majorVersion();
        setUp(db, name, "poll");
        interruptIn(1, name, true, () -> {
            String worker = connect.status(name).tasks().get(0).workerId();
            WorkerHandle running = connect.workers().stream().filter(w -> worker.endsWith(":" + w.url().getPort())).findFirst().orElseThrow();
            connect.stopWorker(running);
            changeWhileInterrupted(db);
        });
        awaitEverythingAndCheck(db, name);
        connect.deleteConnector(name);
    }

    private static void setUp(PostgresDatabase db, String name, String boundary) {
        setUp(db, name, boundary, "initial");
    }

    private static void setUp(PostgresDatabase db, String name, String boundary, String snapshotMode) {
        db.execute("CREATE TABLE a (id bigint PRIMARY KEY, name text)",
                "CREATE TABLE b (k text PRIMARY KEY, name text)",
                "CREATE TABLE c (x int, y text, name text, PRIMARY KEY (x, y))",
                "INSERT INTO a SELECT g, 'a' || g FROM generate_series(1, " + ROWS + ") g",
                // Separators and escapes of the stored position, quotes of the SQL literal, a backslash, case, accents.
                "INSERT INTO b SELECT 'K:' || lpad(g::text, 5, '0') || ',%@|''\\é' || CASE WHEN g % 2 = 0 THEN 'a' ELSE 'B' END, 'b' || g"
                        + " FROM generate_series(1, " + ROWS + ") g",
                "INSERT INTO c SELECT g, 'y' || g, 'c' || g FROM generate_series(1, " + ROWS + ") g");
        Map<String, String> config = MixedWorkloadIT.connectorConfig(db, name, name + "_slot");
        config.put("snapshot.mode", snapshotMode);
        config.put("exactly.once.support", "required");
        config.put("transaction.boundary", boundary);
        config.put("max.batch.size", "50");
        Map<String, String> validated = new HashMap<>(config);
        validated.put("name", name);
        assertThat(connect.validationErrors("PgOutputSourceConnector", validated)).as("an exactly-once snapshot is accepted").isEmpty();
        connect.limitProduceRate("connector-producer-" + name + "-0", HELD_PRODUCE_RATE);
        connect.configureConnector(name, config);
    }

    /**
     * Waits until the stored offset is inside the table of index {@code table}, interrupts the task with
     * {@code interrupt}, and with {@code lastInterruption} lifts the cap on the produce rate.
     */
    private static void interruptIn(int table, String name, boolean lastInterruption, Runnable interrupt) {
        ConnectWorkerCluster.awaitCondition(WAIT, "the snapshot offset stored inside table " + table, () ->
                connect.sourceOffsets(name).values().stream().anyMatch(o -> o != null
                        && String.valueOf(o.get(SourceOffsets.OFFSET_SNAPSHOT_AT)).matches(table + "[:#].*")));
        log.info("Interrupting at offsets {}", connect.sourceOffsets(name));
        interrupt.run();
        if (lastInterruption) {
            connect.limitProduceRate("connector-producer-" + name + "-0", null);
        }
    }

    private static void stopAndAwaitRelease(PostgresDatabase db, String name) {
        connect.stopConnector(name);
        ConnectWorkerCluster.awaitCondition(WAIT, "slot released", () ->
                db.query("SELECT 1 FROM pg_replication_slots WHERE slot_name = '" + name + "_slot' AND active").isEmpty());
    }

    /** Changes to rows read before the interruption (a) and to rows not read yet (the end of b and c). */
    private static void changeWhileInterrupted(PostgresDatabase db) {
        db.execute("UPDATE a SET name = 'changed while interrupted' WHERE id = 1",
                "INSERT INTO a VALUES (" + (ROWS + 1) + ", 'new')",
                "UPDATE b SET name = 'changed while interrupted' WHERE k = (SELECT max(k) FROM b)",
                "DELETE FROM c WHERE x = " + ROWS,
                "INSERT INTO c VALUES (" + (ROWS + 1) + ", 'new', 'new')");
    }

    private static String lastKeyOfB() {
        return "{\"k\":\"K:" + String.format("%05d", ROWS) + ",%@|'\\\\é" + (ROWS % 2 == 0 ? "a" : "B") + "\"}";
    }

    /** One table-topic record: its key as JSON text, op, after (null for a delete or a tombstone). */
    private record Event(String key, String op, JsonNode after, String snapshot) {
    }

    private static Map<String, List<Event>> awaitEverythingAndCheck(PostgresDatabase db, String name) {
        Map<String, List<Event>> events = new HashMap<>();
        ConnectWorkerCluster.awaitCondition(WAIT, "every table rebuilt from its topic", () -> {
            events.clear();
            for (String table : TABLES) {
                events.put(table, read(name + ".public." + table));
            }
            return TABLES.stream().allMatch(t -> rebuild(events.get(t)).equals(database(db, t)));
        });
        for (String table : TABLES) {
            List<Event> list = events.get(table);
            Map<String, Long> reads = new TreeMap<>();
            list.stream().filter(e -> "r".equals(e.op())).forEach(e -> reads.merge(e.key(), 1L, Long::sum));
            assertThat(reads.values()).as("table %s: no row read twice", table).allMatch(n -> n == 1);
            assertThat(reads).as("table %s: every row read", table).hasSizeGreaterThanOrEqualTo(ROWS - 1);
        }
        List<String> markers = TABLES.stream().flatMap(t -> events.get(t).stream()).map(Event::snapshot).filter(m -> m != null).toList();
        assertThat(markers.stream().filter("first"::equals).count()).as("one snapshot began").isEqualTo(1);
        assertThat(markers.stream().filter("last"::equals).count()).as("one snapshot ended").isEqualTo(1);
        log.info("{}: {} records in a, {} in b, {} in c; offsets {}", name, events.get("a").size(), events.get("b").size(),
                events.get("c").size(), connect.sourceOffsets(name));
        return events;
    }

    private static List<String> ops(Map<String, List<Event>> events, String table, String key) {
        return events.get(table).stream().filter(e -> e.key().equals(key) && e.op() != null).map(Event::op).toList();
    }

    private static List<Event> read(String topic) {
        List<Event> list = new ArrayList<>();
        for (ConsumerRecord<byte[], byte[]> r : connect.readAllIfExists(topic, Duration.ofSeconds(10))) {
            String key = TopicReplica.json(r.key()).toString();
            if (r.value() == null) {
                list.add(new Event(key, null, null, null));
                continue;
            }
            JsonNode value = TopicReplica.json(r.value());
            JsonNode source = value.get("source");
            String marker = "r".equals(value.get("op").asText()) ? source.get("snapshot").asText() : null;
            list.add(new Event(key, value.get("op").asText(), value.get("after"), marker));
        }
        return list;
    }

    /**
     * A topic of a table without a key as the rows it holds, counted: a read or an insert adds its row, a delete removes
     * one copy of its old row, an update both.
     */
    private static Map<String, Long> multiset(List<ConsumerRecord<byte[], byte[]>> records) {
        Map<String, Long> rows = new TreeMap<>();
        for (ConsumerRecord<byte[], byte[]> r : records) {
            if (r.value() == null) {
                continue;
            }
            JsonNode value = TopicReplica.json(r.value());
            JsonNode before = value.get("before");
            JsonNode after = value.get("after");
            if (before != null && !before.isNull()) {
                rows.merge(before.toString(), -1L, Long::sum);
            }
            if (after != null && !after.isNull()) {
                rows.merge(after.toString(), 1L, Long::sum);
            }
        }
        rows.values().removeIf(n -> n == 0);
        return rows;
    }

    private static String rowJson(String json) {
        return TopicReplica.json(json.getBytes(StandardCharsets.UTF_8)).toString();
    }

    private static Map<String, Long> multiset(PostgresDatabase db, String table) {
        Map<String, Long> rows = new TreeMap<>();
        for (List<String> row : db.query("SELECT row_to_json(t)::text FROM " + table + " t")) {
            rows.merge(TopicReplica.json(row.get(0).getBytes(StandardCharsets.UTF_8)).toString(), 1L, Long::sum);
        }
        return rows;
    }

    /** Key JSON -> row JSON, applying records in order. */
    private static Map<String, String> rebuild(List<Event> events) {
        Map<String, String> rows = new TreeMap<>();
        for (Event e : events) {
            if (e.after() == null) {
                rows.remove(e.key());
            } else {
                rows.put(e.key(), e.after().toString());
            }
        }
        return rows;
    }

    private static Map<String, String> database(PostgresDatabase db, String table) {
        String key = switch (table) {
            case "a" -> "json_build_object('id', id)";
            case "b" -> "json_build_object('k', k)";
            default -> "json_build_object('x', x, 'y', y)";
        };
        Map<String, String> rows = new TreeMap<>();
        for (List<String> row : db.query("SELECT " + key + "::text, row_to_json(t)::text FROM " + table + " t")) {
            rows.put(TopicReplica.json(row.get(0).getBytes(StandardCharsets.UTF_8)).toString(),
                    TopicReplica.json(row.get(1).getBytes(StandardCharsets.UTF_8)).toString());
        }
        return rows;
    }
}
