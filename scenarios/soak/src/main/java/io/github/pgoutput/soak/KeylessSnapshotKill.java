package io.github.pgoutput.soak;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.pgoutput.testing.kafka.ConnectRest;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;

/**
 * kill -9 of a real Connect worker in the middle of an exactly-once snapshot of tables without a key (issue 36), on
 * the {@link WorkerKillScenario}'s PostgreSQL, broker and worker. Two tables: {@code kl_full} (REPLICA IDENTITY FULL, no
 * key, every value two or three times: identical rows) and {@code kl_plain} (REPLICA IDENTITY DEFAULT without a key,
 * some rows twice), both read in the order of their rows' hashes. The worker is killed once a third of
 * {@code kl_full}'s rows are in its topic's log; while it is down, one of two identical rows is deleted, rows are
 * updated (their new hashes fall on either side of the stored position) and copies and new rows are inserted; then
 * the worker starts again. A {@code read_committed} consumer rebuilds each table from its topic as a multiset
 * ({@link RowMultisetWatcher}), and the run counts, per table, the rows the database holds, the rows missing from the
 * topic and the rows it holds too often.
 */
final class KeylessSnapshotKill {

    /**
     * One table's figures.
     *
     * @param rows       rows in the database at the end, copies counted
     * @param records    records in the topic (snapshot rows and changes)
     * @param reads      snapshot records ({@code op = r}) among them
     * @param missing    rows the database holds more often than the topic
     * @param duplicates rows the topic holds more often than the database
     */
    record TableCount(String table, long rows, long records, long reads, long missing, long duplicates) {
        String line() {
            return table + ": rows=" + rows + " records=" + records + " reads=" + reads + " missing=" + missing
                    + " duplicates=" + duplicates;
        }
    }

    /**
     * One run's figures; times in milliseconds from the kill.
     *
     * @param inLogAtKill    records of {@code kl_full}'s topic in its log, committed or not, at the kill
     * @param visibleAtKill  records of it a read_committed consumer had at the kill
     * @param resumedInside  the worker's log says the restarted task resumed the snapshot inside {@code kl_full}
     * @param recoveryMillis until both topics held their tables exactly (-1: not within the timeout)
     */
    record Result(DeliveryGuarantee guarantee, List<TableCount> tables, long inLogAtKill, long visibleAtKill, boolean resumedInside,
                  long taskRunningMillis, long recoveryMillis, String taskState) {

        boolean exact() {
            return tables.stream().allMatch(t -> t.missing() == 0 && t.duplicates() == 0);
        }

        String line() {
            StringBuilder line = new StringBuilder("keyless-snapshot-kill result mode=").append(guarantee.id)
                    .append(" in_log_at_kill=").append(inLogAtKill).append(" visible_at_kill=").append(visibleAtKill)
                    .append(" resumed_inside=").append(resumedInside).append(" task_running_ms=").append(taskRunningMillis)
                    .append(" recovery_ms=").append(recoveryMillis).append(" task=").append(taskState);
            tables.forEach(t -> line.append("\n  ").append(t.line()));
            return line.toString();
        }
    }

    private final WorkerKillScenario scenario;
    private final Consumer<String> log;

    KeylessSnapshotKill(WorkerKillScenario scenario, Consumer<String> log) {
        this.scenario = scenario;
        this.log = log;
    }

    /**
     * One run: {@code rows} rows in {@code kl_full} ({@code rows / 5} in {@code kl_plain}), the kill, the changes while the
     * worker is down, the restart; returns once both topics hold their tables exactly and have been quiet for 3 s, or
     * after the scenario's timeout.
     */
    Result run(DeliveryGuarantee guarantee, int rows, Map<String, String> connectorOverrides) throws Exception {
        scenario.keepFiles(true);
        Result result = runOnce(guarantee, rows, connectorOverrides);
        scenario.keepFiles(!result.exact());
        return result;
    }

    private Result runOnce(DeliveryGuarantee guarantee, int rows, Map<String, String> connectorOverrides) throws Exception {
        int index = scenario.nextRun();
        String name = "keyless-" + guarantee.id + "-" + index;
        String full = "kl_full_" + guarantee.id + "_" + index;
        String plain = "kl_plain_" + guarantee.id + "_" + index;
        String publication = "kl_pub_" + guarantee.id + "_" + index;
        String slot = "kl_" + guarantee.id + "_" + index;
        List<String> tables = List.of(full, plain);
        Map<String, String> topics = new TreeMap<>();
        tables.forEach(t -> topics.put(t, name + ".public." + t));
        int values = rows * 2 / 5;
        int plainRows = Math.max(10, rows / 5);
        scenario.ensureWorker(guarantee);
        // Half-full blocks: 100,000 rows take about 3,500 blocks, read in two hash ranges at once (16 MB or more).
        scenario.execute("CREATE TABLE " + full + " (v int, payload text) WITH (fillfactor = 50)",
                "ALTER TABLE " + full + " REPLICA IDENTITY FULL",
                "INSERT INTO " + full + " SELECT g % " + values + ", repeat('x', 100) || (g % " + values + ")"
                        + " FROM generate_series(1, " + rows + ") g",
                "CREATE TABLE " + plain + " (n int, label text)",
                "INSERT INTO " + plain + " SELECT g % " + (plainRows * 9 / 10) + ", 'p' || (g % " + (plainRows * 9 / 10) + ")"
                        + " FROM generate_series(1, " + plainRows + ") g",
                "CREATE PUBLICATION " + publication + " FOR TABLE " + full + ", " + plain);
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, scenario.bootstrap()))) {
            admin.createTopics(topics.values().stream().map(t -> new NewTopic(t, 1, (short) 1)).toList()).all().get(30, TimeUnit.SECONDS);
        }
        Map<String, String> overrides = new TreeMap<>(Map.of("snapshot.mode", "initial", "max.batch.size", "100",
                "snapshot.max.threads", "2", "producer.override.transaction.timeout.ms", "30000"));
        overrides.putAll(connectorOverrides);
        ObjectNode config = scenario.connectorConfig(guarantee, name, slot, publication, rows, overrides);
        Result result;
        try (RowMultisetWatcher watcher = new RowMultisetWatcher(scenario.bootstrap(), List.copyOf(topics.values()));
             KafkaConsumer<byte[], byte[]> uncommitted = scenario.uncommittedReader()) {
            watcher.start();
            new ConnectRest(scenario.rest()).register(name, config);
            String fullTopic = topics.get(full);
            long third = rows / 3;
            scenario.await("a third of " + full + "'s rows in " + fullTopic + "'s log", () -> endOffset(uncommitted, fullTopic) >= third);
            long inLog = endOffset(uncommitted, fullTopic);
            long visible = watcher.records(fullTopic);
            long killNanos = System.nanoTime();
            scenario.killWorker();
            log.accept(name + ": worker killed with " + inLog + " records of " + full + " in the log, " + visible
                    + " visible to read_committed");
            scenario.execute(
                    // One copy of identical rows, rows updated (their new hashes anywhere), copies and new rows.
                    "DELETE FROM " + full + " WHERE ctid IN (SELECT min(ctid) FROM " + full + " WHERE v % 997 = 1 GROUP BY v)",
                    "UPDATE " + full + " SET payload = payload || ' changed' WHERE ctid IN (SELECT min(ctid) FROM " + full
                            + " WHERE v % 997 = 2 GROUP BY v)",
                    "INSERT INTO " + full + " SELECT * FROM " + full + " WHERE v % 997 = 3",
                    "INSERT INTO " + full + " SELECT -g, 'new ' || g FROM generate_series(1, 100) g",
                    "INSERT INTO " + plain + " SELECT g % 50, 'p' || (g % 50) FROM generate_series(1, 100) g");
            scenario.startWorker(guarantee);
            scenario.await("task of " + name + " RUNNING again", () -> "RUNNING".equals(scenario.taskState(name)));
            long taskRunning = System.nanoTime();
            Map<String, Map<String, Long>> database = new HashMap<>();
            for (String table : tables) {
                database.put(table, multiset(table));
            }
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(10);
            long complete = 0;
            while (System.nanoTime() < deadline && !"FAILED".equals(scenario.taskState(name))) {
                watcher.check();
                if (tables.stream().allMatch(t -> watcher.rows(topics.get(t)).equals(database.get(t)))) {
                    complete = System.nanoTime();
                    break;
                }
                Thread.sleep(200);
            }
            awaitQuiet(watcher, topics.get(plain), fullTopic);
            List<TableCount> counts = tables.stream().map(t -> count(t, database.get(t), watcher, topics.get(t))).toList();
            String workerLog = Files.readString(scenario.workDir().resolve("worker.log"), StandardCharsets.ISO_8859_1);
            boolean resumedInside = workerLog.lines().anyMatch(l -> l.contains("Resuming the snapshot of slot " + slot)
                    && l.contains("in table public." + full));
            result = new Result(guarantee, counts, inLog, visible, resumedInside, WorkerKillScenario.millis(taskRunning, killNanos),
                    complete == 0 ? -1 : WorkerKillScenario.millis(complete, killNanos), scenario.taskStateAndTrace(name));
        }
        new ConnectRest(scenario.rest()).deleteConnector(name);
        scenario.await("slot " + slot + " released", () -> !scenario.slotActive(slot));
        scenario.execute("SELECT pg_drop_replication_slot('" + slot + "')", "DROP PUBLICATION " + publication,
                "DROP TABLE " + full, "DROP TABLE " + plain);
        return result;
    }

    private static TableCount count(String table, Map<String, Long> database, RowMultisetWatcher watcher, String topic) {
        Map<String, Long> inTopic = watcher.rows(topic);
        long missing = 0;
        long duplicates = 0;
        for (Map.Entry<String, Long> row : database.entrySet()) {
            long there = inTopic.getOrDefault(row.getKey(), 0L);
            missing += Math.max(0, row.getValue() - there);
            duplicates += Math.max(0, there - row.getValue());
        }
        for (Map.Entry<String, Long> row : inTopic.entrySet()) {
            if (!database.containsKey(row.getKey())) {
                duplicates += Math.max(0, row.getValue());
            }
        }
        return new TableCount(table, database.values().stream().mapToLong(Long::longValue).sum(), watcher.records(topic),
                watcher.reads(topic), missing, duplicates);
    }

    /** The rows of {@code table} as JSON, each with how often the table holds it. */
    private Map<String, Long> multiset(String table) throws SQLException {
        Map<String, Long> rows = new HashMap<>();
        try (Connection sql = scenario.connect(); Statement st = sql.createStatement();
             ResultSet rs = st.executeQuery("SELECT row_to_json(t)::text FROM " + table + " t")) {
            while (rs.next()) {
                rows.merge(RowMultisetWatcher.rowJson(rs.getString(1)), 1L, Long::sum);
            }
        }
        return rows;
    }

    /** Waits until the topics' record counts have not changed for 3 s (late duplicates would still arrive). */
    private static void awaitQuiet(RowMultisetWatcher watcher, String... topics) throws InterruptedException {
        long last = -1;
        long since = System.nanoTime();
        while (System.nanoTime() - since < 3_000_000_000L) {
            long now = 0;
            for (String topic : topics) {
                now += watcher.records(topic);
            }
            if (now != last) {
                last = now;
                since = System.nanoTime();
            }
            Thread.sleep(200);
        }
    }

    private static long endOffset(KafkaConsumer<?, ?> consumer, String topic) {
        return consumer.endOffsets(List.of(new TopicPartition(topic, 0)), java.time.Duration.ofSeconds(30)).values().iterator().next();
    }
}
