package io.github.pgoutput.snapshot;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.pgoutput.assembly.ChangeEvent;
import io.github.pgoutput.assembly.Delivery;
import io.github.pgoutput.assembly.PreparedTransactionMode;
import io.github.pgoutput.assembly.TransactionAssembler;
import io.github.pgoutput.assembly.WireMessage;
import io.github.pgoutput.pgoutput.ColumnValue;
import io.github.pgoutput.pgoutput.Lsn;
import io.github.pgoutput.pgoutput.PgOutputDecoder;
import io.github.pgoutput.pgoutput.PgOutputMessage;
import io.github.pgoutput.pgoutput.TupleData;
import io.github.pgoutput.replication.ReplicationSession;
import io.github.pgoutput.replication.ReplicationSettings;
import io.github.pgoutput.replication.TableName;
import io.github.pgoutput.replication.WalFrame;
import io.github.pgoutput.spill.DiskSpill;
import io.github.pgoutput.spill.SpillSettings;
import io.github.pgoutput.testing.PostgresDatabase;
import io.github.pgoutput.testing.PostgresTest;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * No gap and no overlap: with inserts, updates and deletes committing all the time, the slot is created with an
 * exported snapshot, the snapshot is read, and the slot streams from the consistent point. Applying the snapshot rows
 * and then the streamed changes gives exactly the tables' state at a later point, and each row appears once in the
 * snapshot.
 */
class SnapshotConsistencyIT {

    private static final List<String> TABLES = List.of("accounts", "events");
    /** Every column through its output function, as pgoutput and COPY send it; NULL stays NULL. */
    private static final String TEXT_COLUMNS = "id::text, v, CASE WHEN b IS NULL THEN NULL ELSE format('%s', b) END,"
            + " format('%s', n), format('%s', ts), format('%s', arr)";

    @TempDir
    Path spillDirectory;

    @PostgresTest
    @Timeout(value = 4, unit = TimeUnit.MINUTES)
    void snapshotThenStreamReproducesTheTablesExactly(PostgresDatabase db) throws Exception {
        for (String table : TABLES) {
            db.execute("CREATE TABLE " + table + " (id int PRIMARY KEY, v text, b boolean, n numeric(12,3), ts timestamptz, arr int[])",
                    "INSERT INTO " + table + " SELECT g, 'row ' || g || E'\\t\\\\x', g % 3 = 0, g * 1.5, now(), ARRAY[g, -g]"
                            + " FROM generate_series(1, 3000) g");
        }
        db.execute("CREATE TABLE marker (id int PRIMARY KEY)", "CREATE PUBLICATION pub FOR TABLE accounts, events, marker");
        ReplicationSettings settings = SnapshotTestSupport.settings(db, "snap_slot", "pub");

        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong committed = new AtomicLong();
        Thread workload = new Thread(() -> runWorkload(db, stop, committed), "workload");
        workload.start();
        awaitCommits(committed, 50);

        Map<String, Map<String, List<String>>> state = new HashMap<>();
        Lsn consistentPoint;
        try (ExportedSnapshot exported = ExportedSnapshot.create(settings, false, Duration.ofSeconds(30))) {
            consistentPoint = exported.consistentPoint();
            List<SnapshotRow> rows;
            try (SnapshotReader reader = SnapshotTestSupport.start(settings, exported, List.of(new TableName("public", "accounts"),
                    new TableName("public", "events")), SnapshotSettings.defaults())) {
                exported.close(); // every reader imported the snapshot; the export is no longer needed
                rows = SnapshotTestSupport.readAll(reader);
            }
            for (SnapshotRow row : rows) {
                List<String> previous = state.computeIfAbsent(row.table().name().table(), t -> new TreeMap<>())
                        .put(row.values().get(0), row.values());
                assertThat(previous).as("row %s of %s appears once in the snapshot", row.values().get(0), row.table().name()).isNull();
                assertThat(row.table().columns().get(0).partOfKey()).isTrue();
                assertThat(row.table().columns().get(1).partOfKey()).isFalse();
            }
            assertThat(rows.get(0).marker()).isEqualTo(SnapshotRow.Marker.FIRST);
            assertThat(rows.get(rows.size() - 1).marker()).isEqualTo(SnapshotRow.Marker.LAST);
        }
        awaitCommits(committed, committed.get() + 50); // changes after the consistent point
        stop.set(true);
        workload.join();
        Map<String, Map<String, List<String>>> expected = new HashMap<>();
        for (String table : TABLES) {
            expected.put(table, byId(db.query("SELECT " + TEXT_COLUMNS + " FROM " + table)));
        }
        db.execute("INSERT INTO marker VALUES (1)");

        streamUntilMarker(settings, consistentPoint, state);

        for (String table : TABLES) {
            assertThat(state.get(table)).as("%s rebuilt from snapshot + stream", table).isEqualTo(expected.get(table));
        }
    }

    private void streamUntilMarker(ReplicationSettings settings, Lsn consistentPoint, Map<String, Map<String, List<String>>> state)
            throws InterruptedException {
        try (ReplicationSession session = ReplicationSession.open(settings, consistentPoint);
             DiskSpill spill = DiskSpill.open("snap", SpillSettings.defaults("snap").withDirectory(spillDirectory))) {
            PgOutputDecoder decoder = new PgOutputDecoder(session.protocol().decoderSettings());
            TransactionAssembler assembler = new TransactionAssembler(() -> {
                WalFrame frame = session.readPending();
                return frame == null ? null
                        : new WireMessage(decoder.decode(frame.payload().duplicate(), frame.headerLsn()), frame.payload(), frame.headerLsn());
            }, spill, decoder::decode, PreparedTransactionMode.FAIL, 1L << 20);
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
            boolean markerSeen = false;
            Delivery delivery = null;
            while (!markerSeen) {
                assertThat(System.nanoTime()).as("marker streamed in time").isLessThan(deadline);
                if (delivery == null) {
                    delivery = assembler.nextDelivery();
                    if (delivery == null) {
                        Thread.sleep(5);
                        continue;
                    }
                    assertThat(delivery.lsn()).as("nothing committed before the consistent point is streamed").isGreaterThanOrEqualTo(consistentPoint);
                }
                ChangeEvent event = delivery.changes().next();
                if (event == null) {
                    if (delivery.changes().atEnd()) {
                        delivery = null;
                    } else {
                        Thread.sleep(5);
                    }
                    continue;
                }
                String table = event.relation().relationName();
                if (table.equals("marker")) {
                    markerSeen = true;
                    continue;
                }
                Map<String, List<String>> rows = state.computeIfAbsent(table, t -> new TreeMap<>());
                PgOutputMessage message = event.message();
                if (message instanceof PgOutputMessage.Insert insert) {
                    List<String> values = texts(insert.newTuple());
                    rows.put(values.get(0), values);
                } else if (message instanceof PgOutputMessage.Update update) {
                    update.oldTuple().ifPresent(old -> rows.remove(texts(old.tuple()).get(0)));
                    List<String> values = texts(update.newTuple());
                    rows.put(values.get(0), values);
                } else if (message instanceof PgOutputMessage.Delete delete) {
                    rows.remove(texts(delete.oldTuple().tuple()).get(0));
                }
            }
        }
    }

    private static List<String> texts(TupleData tuple) {
        List<String> values = new ArrayList<>();
        for (ColumnValue v : tuple.columns()) {
            if (v instanceof ColumnValue.Text text) {
                values.add(text.asString());
            } else if (v instanceof ColumnValue.Null) {
                values.add(null);
            } else {
                throw new AssertionError("unexpected column value " + v);
            }
        }
        return values;
    }

    private static Map<String, List<String>> byId(List<List<String>> rows) {
        Map<String, List<String>> map = new TreeMap<>();
        rows.forEach(r -> map.put(r.get(0), r));
        return map;
    }

    private static void awaitCommits(AtomicLong committed, long atLeast) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (committed.get() < atLeast) {
            assertThat(System.nanoTime()).as("workload progresses").isLessThan(deadline);
            Thread.sleep(10);
        }
    }

    /** Single-statement and multi-statement transactions: inserts, updates (also of the key), deletes. */
    private static void runWorkload(PostgresDatabase db, AtomicBoolean stop, AtomicLong committed) {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        int nextId = 100_000;
        try (Connection c = db.connect(); Statement st = c.createStatement()) {
            while (!stop.get()) {
                String table = TABLES.get(random.nextInt(TABLES.size()));
                int id = 1 + random.nextInt(3000);
                switch (random.nextInt(5)) {
                    case 0 -> st.execute("INSERT INTO " + table + " VALUES (" + nextId++ + ", 'new', NULL, 1.25, now(), '{}')");
                    case 1 -> st.execute("UPDATE " + table + " SET v = 'upd ' || clock_timestamp(), b = NOT b, n = n + 0.001 WHERE id = " + id);
                    case 2 -> st.execute("DELETE FROM " + table + " WHERE id = " + id);
                    case 3 -> st.execute("UPDATE " + table + " SET id = " + nextId++ + " WHERE id = " + id);
                    default -> {
                        c.setAutoCommit(false);
                        st.execute("INSERT INTO " + table + " VALUES (" + nextId++ + ", 'tx', true, 2, now(), ARRAY[1,NULL])");
                        st.execute("UPDATE " + table + " SET arr = arr || 7 WHERE id = " + (id + 1));
                        st.execute("DELETE FROM " + table + " WHERE id = " + (id + 2));
                        c.commit();
                        c.setAutoCommit(true);
                    }
                }
                committed.incrementAndGet();
                Thread.sleep(1);
            }
        } catch (Exception e) {
            throw new IllegalStateException("workload failed", e);
        }
    }
}
