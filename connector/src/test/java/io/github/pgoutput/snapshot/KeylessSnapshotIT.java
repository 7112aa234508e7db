package io.github.pgoutput.snapshot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.pgoutput.pgoutput.Lsn;
import io.github.pgoutput.replication.PgConnections;
import io.github.pgoutput.replication.ReplicationSettings;
import io.github.pgoutput.replication.TableName;
import io.github.pgoutput.snapshot.ResumableProgress.Position;
import io.github.pgoutput.testing.PostgresDatabase;
import io.github.pgoutput.testing.PostgresTest;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;

/**
 * A resumable snapshot of tables without a unique key (issue 36): read in the order of their rows' hashes, identical
 * rows handed out together, a big one in key ranges at once; after every group handed out, the position names exactly
 * the rows not handed out yet, counted with their copies; a read stopped in the middle, with identical rows deleted,
 * rows updated across the stop in both directions and copies inserted in between, resumes in a new exported snapshot,
 * and what was read before, what is read after and the changes streaming delivers (each side placed by hashing the
 * changed row as PostgreSQL sends it) add up to the table as it is, every row as often as it is there.
 */
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class KeylessSnapshotIT {

    private static final TableName DUPES = new TableName("public", "dupes");
    private static final TableName PLAIN = new TableName("public", "plain");
    private static final List<TableName> TABLES = List.of(DUPES, PLAIN);
    private static final SnapshotSettings THREE_THREADS = new SnapshotSettings(3, List.of(), 16, Duration.ofSeconds(10), "pub");
    private static final String COLUMNS = "v::text, note, at::text, amount::text, tags::text";
    private static final String HASH = "encode(sha256(record_send(ROW(v, note, at, amount, tags))), 'hex')";

    /**
     * dupes: REPLICA IDENTITY FULL, no key, 40,000 rows of 15,000 values at fillfactor 10 (about 5,000 blocks: key ranges),
     * each value two or three times; a tenth of the third copies differ only in the scale of a numeric (1.00, not 1.0),
     * which makes them other rows. plain: REPLICA IDENTITY DEFAULT without a key, 1,000 rows, some twice.
     */
    private static void createTables(PostgresDatabase db) {
        db.execute("CREATE TABLE dupes (v int, note text, at timestamptz, amount numeric, tags text[])"
                        + " WITH (fillfactor = 10, autovacuum_enabled = false)",
                "ALTER TABLE dupes REPLICA IDENTITY FULL",
                "INSERT INTO dupes SELECT g % 15000, 'note ' || (g % 15000), timestamptz '2024-03-31 00:30:00+00' + (g % 15000) * interval"
                        + " '7 minutes', CASE WHEN g % 10 = 0 AND g > 30000 THEN 1.00 ELSE 1.0 END, ARRAY['t', (g % 15000)::text]"
                        + " FROM generate_series(1, 40000) g",
                "CREATE TABLE plain (n int, label text)",
                "INSERT INTO plain SELECT g % 900, 'p' || (g % 900) FROM generate_series(1, 1000) g",
                "CREATE PUBLICATION pub FOR TABLE dupes, plain WITH (publish = 'insert, update, delete, truncate')");
    }

    private static SnapshotReader startInKeyOrder(ReplicationSettings settings, ExportedSnapshot exported, Position from,
                                                  boolean continuation) {
        return SnapshotReader.startInKeyOrder(() -> PgConnections.openSql(settings), exported.snapshotName(), TABLES, settings.user(),
                THREE_THREADS, from, continuation);
    }

    @PostgresTest(representative = 17)
    void aTableWithoutAKeyIsReadInHashOrderAndThePositionAfterEachGroupNamesExactlyTheRowsNotHandedOut(PostgresDatabase db)
            throws Exception {
        createTables(db);
        Map<String, String> hashes = hashes(db);
        Map<String, Long> dupes = multiset(db.query("SELECT " + COLUMNS + " FROM dupes"));
        ReplicationSettings settings = SnapshotTestSupport.settings(db, "kl_slot", "pub");
        try (ExportedSnapshot exported = ExportedSnapshot.create(settings, true, Duration.ofSeconds(30));
             SnapshotReader reader = startInKeyOrder(settings, exported, Position.startOf(0), false)) {
            List<SnapshotRow> rows = new ArrayList<>();
            Map<String, Long> handedOut = new HashMap<>();
            int groups = 0;
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
            while (!reader.finished() && System.nanoTime() < deadline) {
                SnapshotRow row = reader.next(Duration.ofMillis(200));
                if (row == null) {
                    continue;
                }
                rows.add(row);
                if (!row.table().name().equals(DUPES) || row.marker() == SnapshotRow.Marker.LAST) {
                    continue;
                }
                handedOut.merge(text(row.values()), 1L, Long::sum);
                if (reader.groupContinues()) {
                    SnapshotRow copy = reader.next(Duration.ZERO);
                    assertThat(copy).as("the rest of a group is there at once").isNotNull();
                    assertThat(copy.values()).as("a group is identical rows").isEqualTo(row.values());
                    rows.add(copy);
                    handedOut.merge(text(copy.values()), 1L, Long::sum);
                    while (reader.groupContinues()) {
                        SnapshotRow more = reader.next(Duration.ZERO);
                        assertThat(more.values()).isEqualTo(row.values());
                        rows.add(more);
                        handedOut.merge(text(more.values()), 1L, Long::sum);
                    }
                    groups++;
                }
                Position at = reader.position();
                assertThat(at.table()).isZero();
                assertThat(at.rowOrder()).as("a position in dupes names its row order").startsWith("h1-");
                assertThat(at.rest()).as("dupes is read in three hash ranges").hasSize(3);
                if (groups % 500 == 0) {
                    assertThat(notIn(dupes, hashes, at)).as("the rows the position counts as read are those handed out, copies counted")
                            .isEqualTo(handedOut);
                }
            }
            assertThat(reader.finished()).isTrue();
            assertThat(groups).as("groups of identical rows were met").isGreaterThan(1000);
            assertThat(multiset(rows.stream().filter(r -> r.table().name().equals(DUPES)).map(SnapshotRow::values).toList()))
                    .as("every row of dupes, as often as it is there").isEqualTo(dupes);
            assertThat(multiset(rows.stream().filter(r -> r.table().name().equals(PLAIN)).map(SnapshotRow::values).toList()))
                    .isEqualTo(multiset(db.query("SELECT n::text, label FROM plain")));
            assertThat(rows.stream().map(r -> r.table().name()).distinct()).containsExactly(DUPES, PLAIN);
            assertThat(rows.stream().filter(SnapshotRow::lastInTable).map(r -> r.table().name())).containsExactly(DUPES, PLAIN);
            assertThat(rows.get(rows.size() - 1).marker()).isEqualTo(SnapshotRow.Marker.LAST);
        }
    }

    /**
     * Stopped 12,000 rows into dupes (after a whole group, where a committed position always is); then one copy of
     * identical rows is deleted, rows are updated (their new hashes fall on either side of the stop), copies and new
     * rows are inserted, on both sides; the stream's text of a timestamptz is in another time zone than the snapshot's.
     */
    @PostgresTest(representative = 17)
    void aStoppedReadResumesInANewSnapshotAndWithTheChangesStreamingDeliversEveryRowIsThereAsOftenAsInTheTable(PostgresDatabase db)
            throws Exception {
        createTables(db);
        ReplicationSettings settings = SnapshotTestSupport.settings(db, "klr_slot", "pub");
        Map<String, Long> consumer = new HashMap<>();
        Position stopped;
        SnapshotTable described;
        try (ExportedSnapshot exported = ExportedSnapshot.create(settings, true, Duration.ofSeconds(30));
             SnapshotReader reader = startInKeyOrder(settings, exported, Position.startOf(0), false)) {
            described = reader.tables().get(0);
            long read = 0;
            while (read < 12_000 || reader.groupContinues() || !everyRangeBegun(reader.position())) {
                SnapshotRow row = reader.next(Duration.ofSeconds(5));
                assertThat(row).isNotNull();
                assertThat(row.table().name()).as("the stop comes inside dupes").isEqualTo(DUPES);
                consumer.merge(text(row.values()), 1L, Long::sum);
                read++;
            }
            stopped = reader.position();
        }
        List<Change> changes = new ArrayList<>();
        try (Connection sql = db.connect(); Statement st = sql.createStatement()) {
            List<List<String>> before = new ArrayList<>();
            List<List<String>> after = new ArrayList<>();
            try (ResultSet rs = st.executeQuery("SELECT DISTINCT ON (v, amount) ctid::text, " + HASH + ", " + COLUMNS
                    + " FROM dupes ORDER BY v, amount")) {
                while (rs.next() && (before.size() < 60 || after.size() < 60)) {
                    List<String> row = java.util.Arrays.asList(rs.getString(1), rs.getString(3), rs.getString(4), rs.getString(5),
                            rs.getString(6), rs.getString(7));
                    (inRest(stopped, rs.getString(2)) ? after : before).add(row);
                }
            }
            for (List<List<String>> side : List.of(before, after)) {
                for (int i = 0; i < 20; i++) {
                    List<String> row = side.get(i);
                    st.execute("DELETE FROM dupes WHERE ctid = '" + row.get(0) + "'");
                    changes.add(new Change(row.subList(1, 6), null));
                }
                for (int i = 20; i < 50; i++) {
                    List<String> row = side.get(i);
                    try (ResultSet rs = st.executeQuery("UPDATE dupes SET note = note || ' changed' WHERE ctid = '" + row.get(0)
                            + "' RETURNING " + COLUMNS)) {
                        rs.next();
                        changes.add(new Change(row.subList(1, 6), values(rs)));
                    }
                }
                for (int i = 50; i < 60; i++) {
                    List<String> row = side.get(i);
                    try (ResultSet rs = st.executeQuery("INSERT INTO dupes SELECT * FROM dupes WHERE ctid = '" + row.get(0)
                            + "' RETURNING " + COLUMNS)) {
                        rs.next();
                        changes.add(new Change(null, values(rs)));
                    }
                }
            }
            try (ResultSet rs = st.executeQuery("INSERT INTO dupes SELECT 20000 + g, 'new', now(), 2, NULL FROM generate_series(1, 30) g"
                    + " RETURNING " + COLUMNS)) {
                while (rs.next()) {
                    changes.add(new Change(null, values(rs)));
                }
            }
        }
        assertThat(changes.stream().filter(c -> c.before() != null && c.after() != null)
                .filter(c -> inRest(stopped, hashOf(db, c.before())) != inRest(stopped, hashOf(db, c.after()))))
                .as("some updates cross the stop").hasSizeGreaterThan(5);
        db.execute("ALTER TABLE plain ADD COLUMN extra int", "INSERT INTO plain VALUES (1, 'after', 7)");
        Lsn changesCommitted = Lsn.parse(db.queryValue("SELECT pg_current_wal_lsn()"));

        List<SnapshotRow> resumed;
        Lsn readAt;
        try (ExportedSnapshot exported = ExportedSnapshot.createForSnapshotOnly(settings, "klr_slot_resume", Duration.ofSeconds(30));
             SnapshotReader reader = startInKeyOrder(settings, exported, stopped, true)) {
            readAt = exported.consistentPoint();
            resumed = SnapshotTestSupport.readAll(reader);
        }
        Map<String, Long> resumedDupes = multiset(resumed.stream().filter(r -> r.table().name().equals(DUPES)).map(SnapshotRow::values).toList());
        Map<String, Long> nowStillToRead = new HashMap<>();
        for (List<String> row : db.query("SELECT " + COLUMNS + ", " + HASH + " FROM dupes")) {
            if (inRest(stopped, row.get(5))) {
                nowStillToRead.merge(text(row.subList(0, 5)), 1L, Long::sum);
            }
        }
        assertThat(resumedDupes).as("exactly the rows whose hashes lie in the ranges still to read, as they are now, copies counted")
                .isEqualTo(nowStillToRead);
        assertThat(resumed).as("a continuation has no first row").noneMatch(r -> r.marker() == SnapshotRow.Marker.FIRST);
        assertThat(resumed.stream().filter(r -> r.table().name().equals(PLAIN)).map(r -> r.values().size()).distinct())
                .as("plain, not begun before, is read with its new column").containsExactly(3);

        // The stream: each side of each change delivered unless the resumed snapshot holds it already.
        resumedDupes.forEach((row, n) -> consumer.merge(row, n, Long::sum));
        try (ResumedRows placed = new ResumedRows(() -> PgConnections.openSql(settings), TABLES, "pub",
                List.of(new ResumableProgress.Resume(stopped, readAt)));
             Connection chatham = db.connect()) {
            // pgoutput prints a timestamptz in its own session's time zone; the placement must not depend on it.
            try (Statement st = chatham.createStatement()) {
                st.execute("SET TimeZone = 'Pacific/Chatham'");
            }
            for (Change change : changes) {
                Change streamed = new Change(asStreamed(chatham, change.before()), asStreamed(chatham, change.after()));
                assertThat(streamed.before() == null ? streamed.after().get(2) : streamed.before().get(2))
                        .as("Chatham's offset, with or without daylight saving").matches(".*\\+1[23]:45");
                if (change.before() != null && !placed.contains(changesCommitted, DUPES, changedRow(described, streamed.before()))) {
                    String removed = text(change.before());
                    assertThat(consumer.getOrDefault(removed, 0L)).as("a delivered removal finds its row").isPositive();
                    consumer.merge(removed, -1L, Long::sum);
                }
                if (change.after() != null && !placed.contains(changesCommitted, DUPES, changedRow(described, streamed.after()))) {
                    consumer.merge(text(change.after()), 1L, Long::sum);
                }
                for (List<String> side : java.util.Arrays.asList(streamed.before(), streamed.after())) {
                    if (side != null) {
                        assertThat(placed.contains(readAt, DUPES, changedRow(described, side)))
                                .as("nothing at the resumption's point is skipped").isFalse();
                    }
                }
            }
            consumer.values().removeIf(n -> n == 0);
            assertThat(consumer).as("read before + read after + what streaming delivers = the table now, every row as often")
                    .isEqualTo(multiset(db.query("SELECT " + COLUMNS + " FROM dupes")));
            List<String> missingValue = new ArrayList<>(changes.get(0).before());
            Map<String, String> texts = new HashMap<>(changedRow(described, missingValue).texts());
            texts.remove("note");
            assertThat(placed.contains(changesCommitted, DUPES, new ChangedRow(described.columns(), texts)))
                    .as("a row without every value cannot be placed: delivered").isFalse();
            assertThat(placed.contains(changesCommitted, DUPES, new ChangedRow(described.columns().subList(0, 4),
                    changedRow(described, missingValue).texts()))).as("a row of other columns cannot be placed: delivered").isFalse();
        }
    }

    @PostgresTest(representative = 17)
    void aResumptionAfterTheColumnsOfTheTableBeingReadChangedIsRefused(PostgresDatabase db) throws Exception {
        createTables(db);
        ReplicationSettings settings = SnapshotTestSupport.settings(db, "klc_slot", "pub");
        Position stopped;
        try (ExportedSnapshot exported = ExportedSnapshot.create(settings, true, Duration.ofSeconds(30));
             SnapshotReader reader = startInKeyOrder(settings, exported, Position.startOf(0), false)) {
            for (int i = 0; i < 500 || reader.groupContinues(); i++) {
                assertThat(reader.next(Duration.ofSeconds(5))).isNotNull();
            }
            stopped = reader.position();
        }
        db.execute("ALTER TABLE dupes ADD COLUMN extra int");
        try (ExportedSnapshot exported = ExportedSnapshot.createForSnapshotOnly(settings, "klc_slot_resume", Duration.ofSeconds(30))) {
            assertThatThrownBy(() -> startInKeyOrder(settings, exported, stopped, true).close())
                    .isInstanceOfSatisfying(SnapshotException.class, e -> assertThat(e.reason()).isEqualTo(SnapshotException.Reason.NOT_RESUMABLE))
                    .hasMessageContaining("table public.dupes").hasMessageContaining("columns of a table without a unique key changed");
        }
    }

    @PostgresTest(representative = 17)
    void moreIdenticalRowsThanOneTransactionMayHoldFailTheReadBeforeAnyOfThemIsHandedOut(PostgresDatabase db) throws Exception {
        db.execute("CREATE TABLE same (v int)", "INSERT INTO same SELECT 1 FROM generate_series(1, 6)",
                "INSERT INTO same SELECT g FROM generate_series(2, 4) g", "CREATE PUBLICATION pub FOR TABLE same");
        ReplicationSettings settings = SnapshotTestSupport.settings(db, "kls_slot", "pub");
        TableName same = new TableName("public", "same");
        try (ExportedSnapshot exported = ExportedSnapshot.create(settings, true, Duration.ofSeconds(30));
             SnapshotReader reader = SnapshotReader.startInKeyOrder(() -> PgConnections.openSql(settings), exported.snapshotName(),
                     List.of(same), settings.user(), THREE_THREADS.withMaxGroupRows(5), Position.startOf(0), false)) {
            List<String> handedOut = new ArrayList<>();
            assertThatThrownBy(() -> {
                while (!reader.finished()) {
                    SnapshotRow row = reader.next(Duration.ofMillis(200));
                    if (row != null) {
                        handedOut.add(row.values().get(0));
                    }
                }
            }).isInstanceOfSatisfying(SnapshotException.class, e -> assertThat(e.reason()).isEqualTo(SnapshotException.Reason.NOT_RESUMABLE))
                    .hasMessageContaining("table public.same has no unique key and 6 identical rows")
                    .hasMessageContaining("more than transaction.max.records=5").hasMessageContaining("to at least 6");
            assertThat(handedOut).as("none of the six").doesNotContain("1");
        }
    }

    /** The order each kind of table is read in by a resumable snapshot, and by an incremental one. */
    @PostgresTest(representative = 17)
    void aResumableSnapshotReadsByTheUniqueKeyWhereThereIsOneAndByRowHashesWhereThereIsNone(PostgresDatabase db) throws Exception {
        db.execute("CREATE TABLE pk (id int PRIMARY KEY, v text)",
                "CREATE TABLE full_pk (id int PRIMARY KEY, v text)", "ALTER TABLE full_pk REPLICA IDENTITY FULL",
                "CREATE TABLE full_none (id int, v text)", "ALTER TABLE full_none REPLICA IDENTITY FULL",
                "CREATE TABLE default_none (id int, v text)",
                "CREATE TABLE nothing_pk (id int PRIMARY KEY, v text)", "ALTER TABLE nothing_pk REPLICA IDENTITY NOTHING",
                "CREATE TABLE by_index (id int NOT NULL, v text)", "CREATE UNIQUE INDEX by_index_v ON by_index (id)",
                "ALTER TABLE by_index REPLICA IDENTITY USING INDEX by_index_v");
        Map<String, String> orders = new TreeMap<>();
        Map<String, String> incremental = new TreeMap<>();
        try (Connection sql = db.connect()) {
            for (String table : List.of("pk", "full_pk", "full_none", "default_none", "nothing_pk", "by_index")) {
                SnapshotTable described = SnapshotTables.describe(sql, new TableName("public", table), null);
                TableOrder order = TableOrder.of(sql, described);
                orders.put(table, order instanceof TableKey key ? "key " + key.columns().stream().map(TableKey.Column::name).toList()
                        : "row hash " + (order.rowOrder().equals(RowHashOrder.fingerprint(described.columns()))));
                try {
                    incremental.put(table, "key " + TableKey.of(sql, described, TableKey.Reader.INCREMENTAL_SNAPSHOT).columns().size());
                } catch (SnapshotException e) {
                    incremental.put(table, "refused");
                }
            }
        }
        assertThat(orders).containsExactly(Map.entry("by_index", "key [id]"), Map.entry("default_none", "row hash true"),
                Map.entry("full_none", "row hash true"), Map.entry("full_pk", "key [id]"), Map.entry("nothing_pk", "key [id]"),
                Map.entry("pk", "key [id]"));
        assertThat(incremental).as("an incremental snapshot still needs the replica identity's key")
                .containsExactly(Map.entry("by_index", "key 1"), Map.entry("default_none", "refused"), Map.entry("full_none", "refused"),
                        Map.entry("full_pk", "refused"), Map.entry("nothing_pk", "refused"), Map.entry("pk", "key 1"));
    }

    /** A change's old row ({@code before}, null for an insert) and new row ({@code after}, null for a delete), as text. */
    private record Change(List<String> before, List<String> after) {
    }

    private static ChangedRow changedRow(SnapshotTable table, List<String> values) {
        Map<String, String> texts = new HashMap<>();
        for (int i = 0; i < values.size(); i++) {
            texts.put(table.columns().get(i).name(), values.get(i));
        }
        return new ChangedRow(table.columns(), texts);
    }

    private static List<String> values(ResultSet rs) throws SQLException {
        List<String> values = new ArrayList<>();
        for (int i = 1; i <= 5; i++) {
            values.add(rs.getString(i));
        }
        return values;
    }

    /** {@code row} as a session in another time zone prints it: its timestamptz with that zone's offset. */
    private static List<String> asStreamed(Connection session, List<String> row) throws SQLException {
        if (row == null) {
            return null;
        }
        List<String> streamed = new ArrayList<>(row);
        try (Statement st = session.createStatement();
             ResultSet rs = st.executeQuery("SELECT '" + row.get(2) + "'::timestamptz::text")) {
            rs.next();
            streamed.set(2, rs.getString(1));
        }
        return streamed;
    }

    /** The row's hash as the snapshot computes it, from its text values cast back in a session of the database's. */
    private static String hashOf(PostgresDatabase db, List<String> values) {
        List<String> literals = values.stream().map(v -> v == null ? "NULL" : "'" + v.replace("'", "''") + "'").toList();
        return db.queryValue("SELECT encode(sha256(record_send(ROW(" + literals.get(0) + "::int, " + literals.get(1) + "::text, "
                + literals.get(2) + "::timestamptz, " + literals.get(3) + "::numeric, " + literals.get(4) + "::text[]))), 'hex')");
    }

    /** Each row of dupes (its text, as the reader hands it out) and its hash. */
    private static Map<String, String> hashes(PostgresDatabase db) {
        Map<String, String> hashes = new HashMap<>();
        for (List<String> row : db.query("SELECT " + COLUMNS + ", " + HASH + " FROM dupes")) {
            hashes.put(text(row.subList(0, 5)), row.get(5));
        }
        return hashes;
    }

    /** The rows of {@code table} (a multiset) whose hashes {@code position} does not name as still to read. */
    private static Map<String, Long> notIn(Map<String, Long> table, Map<String, String> hashes, Position position) {
        Map<String, Long> read = new HashMap<>();
        table.forEach((row, n) -> {
            if (!inRest(position, hashes.get(row))) {
                read.put(row, n);
            }
        });
        return read;
    }

    private static boolean inRest(Position position, String hash) {
        return position.rest().stream().anyMatch(r -> RowHashOrder.inRange(hash, r));
    }

    /** Whether every range of {@code position} has handed out a row: its last key read is past its lower bound. */
    private static boolean everyRangeBegun(Position position) {
        for (int r = 0; r < position.rest().size(); r++) {
            List<String> lowerBound = r == 0 ? List.of() : position.rest().get(r - 1).upTo();
            if (position.rest().get(r).after().equals(lowerBound)) {
                return false;
            }
        }
        return true;
    }

    private static String text(List<String> values) {
        return String.join("\u0001", values.stream().map(v -> v == null ? "\u0000NULL" : v).toList());
    }

    private static Map<String, Long> multiset(List<List<String>> rows) {
        Map<String, Long> counts = new HashMap<>();
        for (List<String> row : rows) {
            counts.merge(text(row), 1L, Long::sum);
        }
        return counts;
    }
}
