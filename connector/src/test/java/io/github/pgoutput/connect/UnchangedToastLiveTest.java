package io.github.pgoutput.connect;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.pgoutput.connect.config.CrossKeyRules;
import io.github.pgoutput.connect.config.PgOutputSourceConnectorConfig;
import io.github.pgoutput.connect.config.RecordKeys;
import io.github.pgoutput.connect.config.ReplicationKeys;
import io.github.pgoutput.connect.config.ToastKeys;
import io.github.pgoutput.connect.record.LifecycleHeaders;
import io.github.pgoutput.testing.PostgresDatabase;
import io.github.pgoutput.testing.PostgresTest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.header.Header;
import org.apache.kafka.connect.source.SourceRecord;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * unchanged.toast.resolution against a real server: an UPDATE that leaves a TOASTed column unchanged (pgoutput sends
 * it as {@code u}) carries the column's value at that change, from the store or from a proven reselect, and the
 * placeholder with the {@code pg.toast.unresolved} header where the value cannot be proven. The task runs as Connect
 * drives it ({@link LiveTask}); the table's {@code body} is stored out of line ({@code STORAGE EXTERNAL}, 6 kB).
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class UnchangedToastLiveTest {

    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final String PLACEHOLDER = "__debezium_unavailable_value";

    @TempDir
    Path spill;

    private static void createTable(PostgresDatabase db) {
        db.execute("CREATE TABLE docs (id int PRIMARY KEY, body text, note text)",
                "ALTER TABLE docs ALTER COLUMN body SET STORAGE EXTERNAL",
                "INSERT INTO docs VALUES (1, " + big("one") + ", 'n0'), (2, " + big("two") + ", 'n0')");
    }

    /** A 6,400-character value unique to {@code tag}: out of line with STORAGE EXTERNAL. */
    private static String big(String tag) {
        return "'" + tag + "-' || (SELECT string_agg(md5('" + tag + "' || g), '') FROM generate_series(1, 200) g)";
    }

    private static String bodyOf(PostgresDatabase db, int id) {
        return db.queryValue("SELECT body FROM docs WHERE id = " + id);
    }

    private Map<String, String> config(PostgresDatabase db, String slot, String snapshotMode, String resolution) {
        Map<String, String> config = new HashMap<>(MixedWorkloadIT.connectorConfig(db, slot, slot));
        config.put("snapshot.mode", snapshotMode);
        config.put("spill.directory", spill.toString());
        if (resolution != null) {
            config.put(ToastKeys.UNCHANGED_TOAST_RESOLUTION_CONFIG, resolution);
        }
        return config;
    }

    private static Struct after(SourceRecord record) {
        return ((Struct) record.value()).getStruct("after");
    }

    private static boolean isChange(SourceRecord record) {
        return record.value() instanceof Struct value && value.schema().field("op") != null && value.schema().field("after") != null;
    }

    private static boolean update(SourceRecord record, int id, String note) {
        return isChange(record) && "u".equals(((Struct) record.value()).getString("op"))
                && after(record).getInt32("id") == id && note.equals(after(record).getString("note"));
    }

    private static boolean snapshotOf(SourceRecord record, int id) {
        return isChange(record) && "r".equals(((Struct) record.value()).getString("op")) && after(record).getInt32("id") == id;
    }

    private static String unresolved(SourceRecord record) {
        Header header = record.headers().lastWithName(LifecycleHeaders.TOAST_UNRESOLVED);
        return header == null ? null : (String) header.value();
    }

    @PostgresTest
    void withoutResolutionAnUnchangedToastValueIsThePlaceholder(PostgresDatabase db) throws Exception {
        createTable(db);
        try (LiveTask task = new LiveTask("toast-none-" + db.majorVersion(), config(db, "toast_none", "initial", null), new LiveTask.Offsets())) {
            task.pollUntil(r -> snapshotOf(r, 2), WAIT);
            db.execute("UPDATE docs SET note = 'n1' WHERE id = 1");

            SourceRecord record = task.pollUntil(r -> update(r, 1, "n1"), WAIT);

            assertThat(after(record).getString("body")).as("this setup makes pgoutput send body as unchanged TOAST").isEqualTo(PLACEHOLDER);
            assertThat(unresolved(record)).isNull();
        }
    }

    @PostgresTest
    void afterASnapshotTheStoreGivesTheValueWithoutQueryingTheSource(PostgresDatabase db) throws Exception {
        createTable(db);
        String name = "toast-snap-" + db.majorVersion();
        try (LiveTask task = new LiveTask(name, config(db, "toast_snap", "initial", "store"), new LiveTask.Offsets())) {
            task.pollUntil(r -> snapshotOf(r, 2), WAIT);
            db.execute("UPDATE docs SET note = 'n1' WHERE id = 1");

            SourceRecord record = task.pollUntil(r -> update(r, 1, "n1"), WAIT);

            assertThat(after(record).getString("body")).isEqualTo(bodyOf(db, 1));
            assertThat(unresolved(record)).isNull();
            assertThat(task.metric("ToastStoreHits")).isEqualTo(1);
            assertThat(task.metric("ToastReselectQueries")).isZero();
        }
    }

    @PostgresTest
    void theStoreOutlivesARestartOfTheTask(PostgresDatabase db) throws Exception {
        createTable(db);
        Map<String, String> config = config(db, "toast_restart", "initial", "store");
        LiveTask.Offsets offsets = new LiveTask.Offsets();
        try (LiveTask task = new LiveTask("toast-restart-a-" + db.majorVersion(), config, offsets)) {
            task.pollUntil(r -> snapshotOf(r, 2), WAIT);
            db.execute("UPDATE docs SET note = 'n1' WHERE id = 2");
            task.pollUntil(r -> update(r, 2, "n1"), WAIT);
        }
        String name = "toast-restart-b-" + db.majorVersion();
        try (LiveTask task = new LiveTask(name, config, offsets)) {
            db.execute("UPDATE docs SET note = 'n2' WHERE id = 1");

            SourceRecord record = task.pollUntil(r -> update(r, 1, "n2"), WAIT);

            assertThat(after(record).getString("body")).isEqualTo(bodyOf(db, 1));
            assertThat(task.metric("ToastStoreHits")).isEqualTo(1);
            assertThat(task.metric("ToastReselectQueries")).as("the value came from the store kept on disk").isZero();
        }
    }

    @PostgresTest(representative = 16)
    void withoutASnapshotTheReselectProvesTheValueByTheRowsXmin(PostgresDatabase db) throws Exception {
        createTable(db);
        String name = "toast-reselect-" + db.majorVersion();
        try (LiveTask task = new LiveTask(name, config(db, "toast_reselect", "no_data", "store"), new LiveTask.Offsets())) {
            streaming(task);
            db.execute("UPDATE docs SET note = 'n1' WHERE id IN (1, 2)");

            SourceRecord one = task.pollUntil(r -> update(r, 1, "n1"), WAIT);
            SourceRecord two = task.pollUntil(r -> update(r, 2, "n1"), WAIT);

            assertThat(after(one).getString("body")).isEqualTo(bodyOf(db, 1));
            assertThat(after(two).getString("body")).isEqualTo(bodyOf(db, 2));
            assertThat(task.metric("ToastReselectHits")).isEqualTo(2);
            assertThat(task.metric("ToastReselectQueries")).as("both rows in one query").isEqualTo(1);
        }
    }

    @PostgresTest(representative = 18)
    void aRowChangedAgainBeforeTheReselectGivesThePlaceholderAndAHeaderNeverTheNewerValue(PostgresDatabase db) throws Exception {
        createTable(db);
        String name = "toast-race-" + db.majorVersion();
        Map<String, String> config = config(db, "toast_race", "no_data", "reselect");
        try (LiveTask task = new LiveTask(name, config, new LiveTask.Offsets())) {
            streaming(task);
            String before = bodyOf(db, 1);
            // Both committed before the task reads the first: when it reselects, the row is the second's.
            db.execute("UPDATE docs SET note = 'older' WHERE id = 1", "UPDATE docs SET body = " + big("newer") + ", note = 'newer' WHERE id = 1");
            SourceRecord older = task.pollUntil(r -> update(r, 1, "older"), WAIT);
            SourceRecord newer = task.pollUntil(r -> update(r, 1, "newer"), WAIT);

            assertThat(after(older).getString("body")).as("the value at that change was " + before.substring(0, 8) + "...")
                    .isEqualTo(PLACEHOLDER);
            assertThat(unresolved(older)).isEqualTo("body");
            assertThat(after(newer).getString("body")).isEqualTo(bodyOf(db, 1));
            assertThat(task.metric("ToastUnresolved")).isEqualTo(1);
        }
    }

    @PostgresTest
    void aRolledBackSavepointsValueNeverReachesTheStore(PostgresDatabase db) throws Exception {
        createTable(db);
        String name = "toast-savepoint-" + db.majorVersion();
        try (LiveTask task = new LiveTask(name, config(db, "toast_savepoint", "initial", "store"), new LiveTask.Offsets());
             var c = db.connect()) {
            task.pollUntil(r -> snapshotOf(r, 2), WAIT);
            c.setAutoCommit(false);
            try (var st = c.createStatement()) {
                st.execute("UPDATE docs SET body = " + big("kept") + " WHERE id = 1");
                st.execute("SAVEPOINT s");
                st.execute("UPDATE docs SET body = " + big("rolledback") + " WHERE id = 1");
                st.execute("ROLLBACK TO SAVEPOINT s");
                st.execute("UPDATE docs SET note = 'same-tx' WHERE id = 1");
            }
            c.commit();
            db.execute("UPDATE docs SET note = 'later' WHERE id = 1");

            SourceRecord sameTx = task.pollUntil(r -> update(r, 1, "same-tx"), WAIT);
            SourceRecord later = task.pollUntil(r -> update(r, 1, "later"), WAIT);

            assertThat(bodyOf(db, 1)).startsWith("kept-");
            assertThat(after(sameTx).getString("body")).isEqualTo(bodyOf(db, 1));
            assertThat(after(later).getString("body")).isEqualTo(bodyOf(db, 1));
            assertThat(task.metric("ToastReselectQueries")).isZero();
        }
    }

    @PostgresTest
    void aPreparedTransactionGetsTheCommittedValueAndARolledBackOneLeavesIt(PostgresDatabase db) throws Exception {
        createTable(db);
        String name = "toast-2pc-" + db.majorVersion();
        Map<String, String> config = config(db, "toast_2pc", "initial", "store");
        config.put(ReplicationKeys.PREPARED_TRANSACTION_MODE_CONFIG, "stage");
        config.put(RecordKeys.PROVIDE_TRANSACTION_METADATA_CONFIG, "true");
        try (LiveTask task = new LiveTask(name, config, new LiveTask.Offsets()); var c = db.connect()) {
            task.pollUntil(r -> snapshotOf(r, 2), WAIT);
            String committed = bodyOf(db, 1);
            try (var st = c.createStatement()) {
                st.execute("BEGIN");
                st.execute("UPDATE docs SET body = " + big("undone") + " WHERE id = 1");
                st.execute("PREPARE TRANSACTION 'toast_undone'");
                st.execute("ROLLBACK PREPARED 'toast_undone'");
                st.execute("BEGIN");
                st.execute("UPDATE docs SET note = 'prepared' WHERE id = 1");
                st.execute("PREPARE TRANSACTION 'toast_done'");
            }

            SourceRecord prepared;
            try {
                prepared = task.pollUntil(r -> update(r, 1, "prepared"), WAIT);
            } finally {
                try (var st = c.createStatement()) {
                    st.execute("COMMIT PREPARED 'toast_done'");
                }
            }
            assertThat(after(prepared).getString("body")).as("at PREPARE").isEqualTo(committed);

            db.execute("UPDATE docs SET note = 'after' WHERE id = 1");
            SourceRecord after = task.pollUntil(r -> update(r, 1, "after"), WAIT);

            assertThat(after(after).getString("body")).as("the rolled-back value never counted").isEqualTo(committed);
            assertThat(task.metric("ToastReselectQueries")).isZero();
        }
    }

    @PostgresTest
    void directJsonEncodingCarriesTheResolvedValue(PostgresDatabase db) throws Exception {
        createTable(db);
        Map<String, String> config = config(db, "toast_json", "initial", "store");
        config.put("direct.encoding", "json");
        config.put("key.converter", CrossKeyRules.BYTE_ARRAY_CONVERTER);
        config.put("value.converter", CrossKeyRules.BYTE_ARRAY_CONVERTER);
        config.remove("key.converter.schemas.enable");
        config.remove("value.converter.schemas.enable");
        try (LiveTask task = new LiveTask("toast-json-" + db.majorVersion(), config, new LiveTask.Offsets())) {
            task.pollUntil(r -> json(r).contains("\"op\":\"r\"") && json(r).contains("\"id\":2"), WAIT);
            db.execute("UPDATE docs SET note = 'n1' WHERE id = 1");

            SourceRecord record = task.pollUntil(r -> json(r).contains("\"note\":\"n1\""), WAIT);

            assertThat(json(record)).contains("\"body\":\"" + bodyOf(db, 1) + "\"").doesNotContain(PLACEHOLDER);
        }
    }

    /** Polls for two seconds: the task has created its slot (snapshot.mode=no_data) and streams from it. */
    private static void streaming(LiveTask task) throws InterruptedException {
        try {
            task.pollUntil(r -> false, Duration.ofSeconds(2));
        } catch (AssertionError expected) {
            // Nothing to emit yet.
        }
    }

    private static String json(SourceRecord record) {
        return record.value() instanceof byte[] bytes ? new String(bytes, StandardCharsets.UTF_8) : "";
    }
}
