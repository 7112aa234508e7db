package io.github.pgoutput.snapshot;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.pgoutput.pgoutput.Lsn;
import io.github.pgoutput.replication.PgConnections;
import io.github.pgoutput.replication.ReplicationSettings;
import io.github.pgoutput.replication.TableName;
import io.github.pgoutput.snapshot.ResumableProgress.KeyRange;
import io.github.pgoutput.snapshot.ResumableProgress.Position;
import io.github.pgoutput.testing.PostgresDatabase;
import io.github.pgoutput.testing.PostgresTest;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Timeout;

/**
 * A resumable snapshot with {@code snapshot.max.threads} above 1 (issue 18): a big table is split into key ranges that
 * the readers read at once, each in key order; the next table is begun only once every range of this one is read; after
 * every row handed out the reader's position names exactly the rows not handed out yet, so a snapshot resumed from any
 * of those positions in a later exported snapshot reads every row still to read, once, and none read before.
 */
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class KeyRangeSnapshotIT {

    private static final TableName BIG = new TableName("public", "big");
    private static final TableName PAIRS = new TableName("public", "pairs");
    private static final TableName SMALL = new TableName("public", "small");
    private static final List<TableName> TABLES = List.of(BIG, PAIRS, SMALL);
    private static final SnapshotSettings THREE_THREADS = new SnapshotSettings(3, List.of(), 16, Duration.ofSeconds(10), "pub");

    /**
     * big: 40,000 rows at fillfactor 10 (about 3,600 blocks: three ranges), a row filter on PostgreSQL 15 and later;
     * pairs: a composite key of text and int, 30,000 rows at fillfactor 10 (two ranges); small: 10 rows (one range).
     */
    private static boolean createTables(PostgresDatabase db) {
        db.execute("CREATE TABLE big (id bigint PRIMARY KEY, v text) WITH (fillfactor = 10, autovacuum_enabled = false)",
                "INSERT INTO big SELECT g, md5(g::text) FROM generate_series(1, 40000) g",
                "CREATE TABLE pairs (region text, n int, v text, PRIMARY KEY (region, n)) WITH (fillfactor = 10)",
                "INSERT INTO pairs SELECT 'r-' || (g % 7) || CASE WHEN g % 3 = 0 THEN ' é,:' ELSE '' END, g, md5(g::text)"
                        + " FROM generate_series(1, 30000) g",
                "CREATE TABLE small (id int PRIMARY KEY)", "INSERT INTO small SELECT generate_series(1, 10)");
        boolean rowFilter = db.majorVersion() >= 15;
        db.execute(rowFilter ? "CREATE PUBLICATION pub FOR TABLE big WHERE (id % 7 <> 0), pairs, small"
                : "CREATE PUBLICATION pub FOR TABLE big, pairs, small");
        return rowFilter;
    }

    private static SnapshotReader startInKeyOrder(ReplicationSettings settings, ExportedSnapshot exported, Position from,
                                                  boolean continuation) {
        return SnapshotReader.startInKeyOrder(() -> PgConnections.openSql(settings), exported.snapshotName(), TABLES, settings.user(),
                THREE_THREADS, from, continuation);
    }

    @PostgresTest(representative = 18)
    void aBigTableIsReadInKeyRangesAtOnceAndThePositionAfterEachRowNamesExactlyTheRowsNotHandedOut(PostgresDatabase db)
            throws Exception {
        boolean rowFilter = createTables(db);
        List<Long> bigIds = visibleBigIds(db, rowFilter);
        ReplicationSettings settings = SnapshotTestSupport.settings(db, "kr_slot", "pub");
        try (ExportedSnapshot exported = ExportedSnapshot.create(settings, true, Duration.ofSeconds(30));
             SnapshotReader reader = startInKeyOrder(settings, exported, Position.startOf(0), false)) {
            assertThat(reader.position()).as("before the first row").isEqualTo(Position.startOf(0));
            // The readers block on the small hand-out queue, so all three stay inside their ranges' COPY until rows
            // are taken; they may need a moment to connect on a loaded machine.
            String readersInBig = "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                    + " AND application_name = 'kafka-connect-pgoutput:kr_slot' AND query LIKE 'COPY (SELECT%\"big\"%ORDER BY%'";
            long waitUntil = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (!db.queryValue(readersInBig).equals("3") && System.nanoTime() < waitUntil) {
                Thread.sleep(100);
            }
            assertThat(db.queryValue(readersInBig)).as("three readers inside key ranges of the one big table").isEqualTo("3");

            List<SnapshotRow> rows = new ArrayList<>();
            Set<Long> handedOut = new HashSet<>();
            Position before = reader.position();
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
            while (!reader.finished() && System.nanoTime() < deadline) {
                SnapshotRow row = reader.next(Duration.ofMillis(200));
                if (row == null) {
                    continue;
                }
                rows.add(row);
                if (row.table().name().equals(BIG) && row.marker() != SnapshotRow.Marker.LAST) {
                    long id = Long.parseLong(row.values().get(0));
                    Position after = reader.position();
                    assertThat(after.table()).isZero();
                    assertThat(after.rest()).as("big is read in three ranges").hasSize(3);
                    assertThat(inRest(before, id)).as("row %d was still to read before it was handed out", id).isTrue();
                    assertThat(inRest(after, id)).as("row %d is read once handed out", id).isFalse();
                    handedOut.add(id);
                    if (handedOut.size() % 2000 == 0) {
                        assertThat(bigIds.stream().filter(i -> !inRest(after, i)).collect(Collectors.toSet()))
                                .as("the rows the position counts as read are the rows handed out").isEqualTo(handedOut);
                    }
                    before = after;
                }
            }
            assertThat(reader.finished()).isTrue();
            assertThat(rows.stream().filter(r -> r.table().name().equals(BIG)).map(r -> Long.valueOf(r.values().get(0))))
                    .as("every published row of big once").containsExactlyInAnyOrderElementsOf(bigIds);
            assertThat(rows.stream().map(r -> r.table().name()).distinct()).as("one table after another, in the order given")
                    .containsExactly(BIG, PAIRS, SMALL);
            assertThat(tableRuns(rows)).as("no table's rows interleave with another's").isEqualTo(3);
            assertThat(rows.stream().filter(r -> r.table().name().equals(PAIRS)).map(r -> r.values().get(0) + "|" + r.values().get(1)))
                    .hasSize(30_000).doesNotHaveDuplicates();
            assertThat(rows.stream().filter(SnapshotRow::firstInTable).map(r -> r.table().name())).containsExactly(BIG, PAIRS, SMALL);
            assertThat(rows.stream().filter(SnapshotRow::lastInTable).map(r -> r.table().name())).containsExactly(BIG, PAIRS, SMALL);
            assertThat(rows.stream().filter(r -> r.marker() == SnapshotRow.Marker.FIRST)).hasSize(1).first().isSameAs(rows.get(0));
            assertThat(rows.stream().filter(r -> r.marker() == SnapshotRow.Marker.LAST)).hasSize(1).first()
                    .isSameAs(rows.get(rows.size() - 1));
            assertThat(reader.progress().rowsDone()).isEqualTo(bigIds.size() + 30_010L);
        }
    }

    /**
     * The reading stops 12,000 rows into big; rows are then deleted, updated and inserted in every range, read and not
     * read. The snapshot resumed from the stored position in a new exported snapshot reads exactly the rows of its ranges
     * as they are now, and then the other tables; with what was handed out before, every row is there once. Changes
     * committed in between are placed as {@link ResumedRows} must place them: in the rows read after the resumption.
     */
    @PostgresTest(representative = 18)
    void aSnapshotResumedFromThePositionReadsEachRangeAfterItsLastKeyAsOfTheNewSnapshot(PostgresDatabase db) throws Exception {
        boolean rowFilter = createTables(db);
        ReplicationSettings settings = SnapshotTestSupport.settings(db, "krr_slot", "pub");
        Position stopped;
        Set<Long> readBefore = new HashSet<>();
        try (ExportedSnapshot exported = ExportedSnapshot.create(settings, true, Duration.ofSeconds(30));
             SnapshotReader reader = startInKeyOrder(settings, exported, Position.startOf(0), false)) {
            // The readers race for the hand-out queue, so one range may hand out nothing in the first 12,000 rows; the
            // stop waits until every range has handed out a row, so that each range is resumed after a key of its own.
            while (readBefore.size() < 12_000 || !everyRangeBegun(reader.position())) {
                SnapshotRow row = reader.next(Duration.ofSeconds(5));
                assertThat(row).isNotNull();
                assertThat(row.table().name()).as("the stop comes inside big").isEqualTo(BIG);
                readBefore.add(Long.valueOf(row.values().get(0)));
            }
            stopped = reader.position();
        }
        assertThat(stopped.rest()).hasSize(3);
        List<Long> lastKeys = stopped.rest().stream().map(r -> Long.valueOf(r.after().get(0))).toList();
        // Around each range's last key read, two rows before it and two after are deleted or updated (those before it
        // fall in the previous range's unread part when the range has handed out only a row or two); rows are inserted.
        List<Long> changed = new ArrayList<>(List.of(-5L, 40001L));
        for (int r = 0; r < 3; r++) {
            long last = lastKeys.get(r);
            changed.addAll(List.of(last - 2, last - 1, last + 2, last + 3));
            db.execute("DELETE FROM big WHERE id IN (" + (last - 1) + ", " + (last + 2) + ")",
                    "UPDATE big SET v = 'changed' WHERE id IN (" + (last - 2) + ", " + (last + 3) + ")");
        }
        db.execute("INSERT INTO big VALUES (-5, 'new below'), (40001, 'new above'), (40002, 'new above')");
        Lsn changesCommitted = Lsn.parse(db.queryValue("SELECT pg_current_wal_lsn()"));

        List<SnapshotRow> resumed;
        Lsn readAt;
        try (ExportedSnapshot exported = ExportedSnapshot.createForSnapshotOnly(settings, "krr_slot_resume", Duration.ofSeconds(30));
             SnapshotReader reader = startInKeyOrder(settings, exported, stopped, true)) {
            readAt = exported.consistentPoint();
            resumed = SnapshotTestSupport.readAll(reader);
        }
        List<Long> resumedBig = resumed.stream().filter(r -> r.table().name().equals(BIG)).map(r -> Long.valueOf(r.values().get(0))).toList();
        List<Long> nowStillToRead = visibleBigIds(db, rowFilter).stream().filter(id -> inRest(stopped, id)).toList();
        assertThat(resumedBig).as("exactly the rows of the ranges still to read, as they are now").doesNotHaveDuplicates()
                .containsExactlyInAnyOrderElementsOf(nowStillToRead).contains(40001L).doesNotContainAnyElementsOf(readBefore)
                .as("inserted below the last key read in the first range: streaming delivers it").doesNotContain(-5L);
        Set<Long> together = new HashSet<>(readBefore);
        together.addAll(resumedBig);
        together.add(-5L);
        assertThat(together).as("with the rows read before (and the one streaming delivers), every row there is now")
                .containsAll(visibleBigIds(db, rowFilter));
        assertThat(resumed.stream().map(r -> r.table().name()).distinct()).containsExactly(BIG, PAIRS, SMALL);
        assertThat(resumed).as("a continuation has no first row").noneMatch(r -> r.marker() == SnapshotRow.Marker.FIRST);
        assertThat(resumed.stream().filter(SnapshotRow::firstInTable).map(r -> r.table().name()))
                .as("big was begun before").containsExactly(PAIRS, SMALL);
        assertThat(resumed.get(resumed.size() - 1).marker()).isEqualTo(SnapshotRow.Marker.LAST);
        assertThat(resumed.stream().filter(r -> r.table().name().equals(BIG) && "changed".equals(r.values().get(1)))
                .map(r -> Long.valueOf(r.values().get(0)))).as("the updates to rows still to read are in the rows read")
                .containsExactlyInAnyOrderElementsOf(visibleBigIds(db, rowFilter, "v = 'changed'").stream().filter(id -> inRest(stopped, id)).toList());

        // Streaming after the resumption skips a change committed before readAt exactly for the rows read after it.
        try (ResumedRows placed = new ResumedRows(() -> PgConnections.openSql(settings), TABLES, "pub",
                List.of(new ResumableProgress.Resume(stopped, readAt)))) {
            for (long id : changed) {
                ChangedRow key = new ChangedRow(List.of(), Map.of("id", String.valueOf(id)));
                assertThat(placed.contains(changesCommitted, BIG, key)).as("a change to row %d before the resumption", id)
                        .isEqualTo(inRest(stopped, id));
                assertThat(placed.contains(readAt, BIG, key)).as("a change to row %d at the resumption's point", id).isFalse();
            }
            assertThat(placed.contains(changesCommitted, PAIRS, new ChangedRow(List.of(), Map.of("region", "r-1", "n", "1")))).as("a later table").isTrue();
        }
    }

    @PostgresTest(representative = 18)
    void aSnapshotResumedAtALaterTableReadsNoRowOfAnEarlierOne(PostgresDatabase db) throws Exception {
        createTables(db);
        ReplicationSettings settings = SnapshotTestSupport.settings(db, "krl_slot", "pub");
        Position inPairs = new Position(1, List.of(new KeyRange(List.of("r-3", "9000"), List.of())));
        try (ExportedSnapshot exported = ExportedSnapshot.create(settings, true, Duration.ofSeconds(30));
             SnapshotReader reader = startInKeyOrder(settings, exported, inPairs, true)) {
            List<SnapshotRow> rows = SnapshotTestSupport.readAll(reader);
            assertThat(rows.stream().map(r -> r.table().name()).distinct()).containsExactly(PAIRS, SMALL);
            assertThat(rows.stream().filter(r -> r.table().name().equals(PAIRS)).count())
                    .isEqualTo(Long.parseLong(db.queryValue("SELECT count(*) FROM pairs WHERE (region, n) > ('r-3', 9000)")));
        }
    }

    private static List<Long> visibleBigIds(PostgresDatabase db, boolean rowFilter) {
        return visibleBigIds(db, rowFilter, "true");
    }

    /** The ids of big's rows that the publication publishes (its row filter, when there is one) and that match {@code condition}. */
    private static List<Long> visibleBigIds(PostgresDatabase db, boolean rowFilter, String condition) {
        return db.query("SELECT id FROM big WHERE (" + condition + ")" + (rowFilter ? " AND id % 7 <> 0" : "")).stream()
                .map(r -> Long.valueOf(r.get(0))).toList();
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

    /** Whether the bigint key {@code id} of big is still to read at {@code position} (a position in big). */
    private static boolean inRest(Position position, long id) {
        return position.rest().stream().anyMatch(r -> (r.after().isEmpty() || id > Long.parseLong(r.after().get(0)))
                && (r.upTo().isEmpty() || id <= Long.parseLong(r.upTo().get(0))));
    }

    private static int tableRuns(List<SnapshotRow> rows) {
        int runs = 0;
        TableName previous = null;
        for (SnapshotRow r : rows) {
            if (!r.table().name().equals(previous)) {
                runs++;
                previous = r.table().name();
            }
        }
        return runs;
    }
}
