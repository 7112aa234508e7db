package io.github.pgoutput.connect;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.pgoutput.connect.config.PgOutputSourceConnectorConfig;
import io.github.pgoutput.connect.config.SnapshotKeys;
import io.github.pgoutput.connect.offsets.SourceOffsets;
import io.github.pgoutput.snapshot.ResumableProgress;
import io.github.pgoutput.testing.PostgresDatabase;
import io.github.pgoutput.testing.PostgresTest;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.source.SourceRecord;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A resumable snapshot of an at-least-once connector ({@code snapshot.resumable=true}) stopped and continued. Connect
 * stores offsets only now and then, so the records a task handed to Kafka after the last stored offset are in the
 * topic although the continuation reads their rows again, in a new exported snapshot, as they are by then. A row among
 * them that was deleted while the connector was stopped is not read again: only streaming, replaying the changes
 * since the first snapshot, can remove it from the topic. The task runs as Connect drives it ({@link LiveTask}); the
 * offset stored at the stop is set back to an earlier one, as after a stop between two offset flushes.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class ResumableSnapshotLiveTest {

    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final long ROWS = 3_000;
    private static final long SENTINEL = 1_000_000;

    @TempDir
    Path spill;

    @PostgresTest(representative = 18)
    void aRowInKafkaPastTheStoredOffsetAndDeletedWhileStoppedIsDeletedFromTheTopicAfterTheContinuation(PostgresDatabase db)
            throws Exception {
        db.execute("CREATE TABLE big (id bigint PRIMARY KEY, v int NOT NULL)",
                "INSERT INTO big SELECT g, g % 1000 FROM generate_series(1, " + ROWS + ") g");
        String name = "resumable-" + db.majorVersion();
        Map<String, String> config = new HashMap<>(MixedWorkloadIT.connectorConfig(db, name, "resumable_slot"));
        config.remove("snapshot.mode"); // the default, initial
        config.put(SnapshotKeys.SNAPSHOT_RESUMABLE_CONFIG, "true");
        config.put("max.batch.size", "100");
        config.put("spill.directory", spill.toString());
        LiveTask.Offsets offsets = new LiveTask.Offsets();
        List<SourceRecord> topic = new ArrayList<>();

        Map<String, Object> storedAtTheStop;
        try (LiveTask task = new LiveTask(name + "-a", config, offsets)) {
            task.pollUntil(r -> snapshotOf(r, 500), WAIT);
            storedAtTheStop = offsets.stored;
            task.pollUntil(r -> snapshotOf(r, 1_500), WAIT);
            topic.addAll(task.records());
        }
        offsets.stored = storedAtTheStop;
        assertThat(lastIdIn(storedAtTheStop)).as("the stored offset lies before the rows changed below").isLessThan(1_000);
        db.execute("DELETE FROM big WHERE id = 1200", // in Kafka past the stored offset, deleted: not read again
                "UPDATE big SET v = -1 WHERE id = 1300", // in Kafka past the stored offset, read again as it is now
                "DELETE FROM big WHERE id = 1400", "INSERT INTO big VALUES (1400, -2)", // deleted and inserted again
                "DELETE FROM big WHERE id = 100", // read before the stored offset
                "DELETE FROM big WHERE id = 2500"); // never handed out before the stop
        try (LiveTask task = new LiveTask(name + "-b", config, offsets)) {
            task.pollUntil(r -> "last".equals(snapshotMarker(r)), WAIT);
            db.execute("INSERT INTO big VALUES (" + SENTINEL + ", 0)");
            task.pollUntil(r -> change(r, "c", SENTINEL), WAIT);
            topic.addAll(task.records());
        }

        assertThat(differences(rebuilt(topic), table(db))).as("rows where the table rebuilt from the topic differs").isEmpty();
    }

    /** Each id whose row differs: "topic: value or none, database: value or none". */
    private static Map<Long, String> differences(Map<Long, Integer> topic, Map<Long, Integer> database) {
        Map<Long, String> differences = new TreeMap<>();
        Set<Long> ids = new TreeSet<>(topic.keySet());
        ids.addAll(database.keySet());
        for (long id : ids) {
            if (!Objects.equals(topic.get(id), database.get(id))) {
                differences.put(id, "topic: " + (topic.containsKey(id) ? topic.get(id) : "none") + ", database: "
                        + (database.containsKey(id) ? database.get(id) : "none"));
            }
        }
        return differences;
    }

    private static boolean isChange(SourceRecord record) {
        return record.value() instanceof Struct value && value.schema().field("op") != null;
    }

    private static boolean snapshotOf(SourceRecord record, long id) {
        return change(record, "r", id);
    }

    private static boolean change(SourceRecord record, String op, long id) {
        return isChange(record) && op.equals(((Struct) record.value()).getString("op"))
                && ((Struct) record.value()).getStruct("after").getInt64("id") == id;
    }

    private static String snapshotMarker(SourceRecord record) {
        return isChange(record) ? ((Struct) record.value()).getStruct("source").getString("snapshot") : null;
    }

    /** The key after which the stored position of the resumable snapshot continues (its one key range). */
    private static long lastIdIn(Map<String, Object> offset) {
        ResumableProgress.Position position = ResumableProgress.decodePosition(String.valueOf(offset.get(SourceOffsets.OFFSET_SNAPSHOT_AT)));
        assertThat(position.rest()).hasSize(1);
        return Long.parseLong(position.rest().get(0).after().get(0));
    }

    private static Map<Long, Integer> rebuilt(List<SourceRecord> records) {
        Map<Long, Integer> rows = new TreeMap<>();
        for (SourceRecord record : records) {
            if (!isChange(record)) {
                continue;
            }
            Struct value = (Struct) record.value();
            if ("d".equals(value.getString("op"))) {
                rows.remove(value.getStruct("before").getInt64("id"));
            } else {
                rows.put(value.getStruct("after").getInt64("id"), value.getStruct("after").getInt32("v"));
            }
        }
        return rows;
    }

    private static Map<Long, Integer> table(PostgresDatabase db) throws Exception {
        Map<Long, Integer> rows = new TreeMap<>();
        try (var connection = db.connect(); var result = connection.createStatement().executeQuery("SELECT id, v FROM big")) {
            while (result.next()) {
                rows.put(result.getLong(1), result.getInt(2));
            }
        }
        return rows;
    }
}
