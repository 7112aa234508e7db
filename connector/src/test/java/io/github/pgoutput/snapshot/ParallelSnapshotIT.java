package io.github.pgoutput.snapshot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.pgoutput.replication.ReplicationSettings;
import io.github.pgoutput.replication.TableName;
import io.github.pgoutput.testing.PostgresDatabase;
import io.github.pgoutput.testing.PostgresTest;

import java.sql.Connection;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Timeout;

/**
 * Tables are read by {@code snapshot.max.threads} connections at once, in the order given (the connector gives
 * {@link SnapshotTables#inCaptureOrder}, Debezium's), limited by {@code snapshot.include.list}; progress counts every row.
 */
class ParallelSnapshotIT {

    private static final List<TableName> CAPTURED = List.of(new TableName("public", "b"), new TableName("s2", "a"),
            new TableName("public", "A"), new TableName("public", "a"), new TableName("public", "c"));

    @PostgresTest(representative = 16)
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void readsWithMaxThreadsConnectionsInADeterministicOrder(PostgresDatabase db) throws Exception {
        db.execute("CREATE SCHEMA s2");
        for (TableName t : CAPTURED) {
            db.execute("CREATE TABLE " + t.quoted() + " (id int PRIMARY KEY, v text)",
                    "INSERT INTO " + t.quoted() + " SELECT g, md5(g::text) FROM generate_series(1, 5000) g", "ANALYZE " + t.quoted());
        }
        ReplicationSettings settings = SnapshotTestSupport.settings(db, "par_slot", "pub");
        SnapshotSettings threeThreads = new SnapshotSettings(3, List.of(), 16, Duration.ofSeconds(10), null);
        try (ExportedSnapshot exported = ExportedSnapshot.create(settings, true, Duration.ofSeconds(30));
             SnapshotReader reader = SnapshotTestSupport.start(settings, exported, SnapshotTables.inCaptureOrder(CAPTURED, List.of()),
                     threeThreads)) {
            assertThat(reader.tables()).extracting(t -> t.name().toString())
                    .containsExactly("public.A", "public.a", "public.b", "public.c", "s2.a");
            assertThat(reader.transactionId()).as("the snapshot transaction's id, source.txId as Debezium has it").isNotNull();
            assertThat(db.queryValue("SELECT string_agg(backend_xid::text, ',') FROM pg_stat_activity WHERE datname = current_database()"
                    + " AND backend_type = 'client backend' AND application_name = 'kafka-connect-pgoutput:par_slot'"))
                    .as("one reader's READ ONLY transaction has that id").isEqualTo(reader.transactionId().toString());
            // The buffer holds 16 rows, so all three readers are inside their transactions now, waiting.
            Thread.sleep(500);
            assertThat(db.queryValue("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                    + " AND backend_type = 'client backend' AND application_name = 'kafka-connect-pgoutput:par_slot'"))
                    .as("reader connections").isEqualTo("3");
            assertThat(db.queryValue("SELECT count(DISTINCT backend_xmin::text) FROM pg_stat_activity WHERE datname = current_database()"
                    + " AND backend_type = 'client backend' AND application_name = 'kafka-connect-pgoutput:par_slot'"))
                    .as("all readers share one snapshot").isEqualTo("1");
            List<SnapshotRow> rows = SnapshotTestSupport.readAll(reader);
            assertThat(rows).hasSize(25_000);
            assertThat(rows.stream().filter(SnapshotRow::firstInTable).count()).isEqualTo(5);
            assertThat(rows.stream().filter(SnapshotRow::lastInTable).count()).isEqualTo(5);
            assertThat(rows.stream().filter(r -> r.marker() == SnapshotRow.Marker.FIRST)).hasSize(1).first().isSameAs(rows.get(0));
            assertThat(rows.stream().filter(r -> r.marker() == SnapshotRow.Marker.LAST)).hasSize(1).first().isSameAs(rows.get(24_999));
            SnapshotProgress progress = reader.progress();
            assertThat(progress.tablesDone()).isEqualTo(5);
            assertThat(progress.rowsDone()).isEqualTo(25_000);
            assertThat(progress.tables()).allSatisfy(s -> {
                assertThat(s.state()).isEqualTo(SnapshotProgress.State.DONE);
                assertThat(s.estimatedRows()).isEqualTo(5000);
                assertThat(s.percent()).isEqualTo(100.0);
            });
        }
    }

    /**
     * One table of 40,000 rows at fillfactor 10 (about 3,600 blocks) is read by the three threads at once, each a block
     * range of it; its rows after 26,000 are deleted (and not vacuumed away), so the last range holds no row at all.
     * A row filter of the publication still applies within every range.
     */
    @PostgresTest(representative = 16)
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void oneBigTableIsReadByEveryThreadInBlockRangesWithEveryRowOnceAndItsFirstAndLastRowMarked(PostgresDatabase db) throws Exception {
        db.execute("CREATE TABLE big (id int PRIMARY KEY, v text) WITH (fillfactor = 10, autovacuum_enabled = false)",
                "INSERT INTO big SELECT g, md5(g::text) FROM generate_series(1, 40000) g",
                "DELETE FROM big WHERE id > 26000",
                "CREATE TABLE small (id int PRIMARY KEY)", "INSERT INTO small SELECT generate_series(1, 10)");
        boolean rowFilter = db.majorVersion() >= 15;
        db.execute(rowFilter ? "CREATE PUBLICATION pub FOR TABLE big WHERE (id % 7 <> 0), small" : "CREATE PUBLICATION pub FOR TABLE big, small");
        assertThat(Long.parseLong(db.queryValue("SELECT pg_relation_size('big') / 8192")))
                .as("blocks enough for three ranges").isGreaterThanOrEqualTo(3 * BlockRanges.MIN_BLOCKS_PER_RANGE);
        ReplicationSettings settings = SnapshotTestSupport.settings(db, "range_slot", "pub");
        SnapshotSettings threeThreads = new SnapshotSettings(3, List.of(), 16, Duration.ofSeconds(10), "pub");
        try (ExportedSnapshot exported = ExportedSnapshot.create(settings, true, Duration.ofSeconds(30));
             SnapshotReader reader = SnapshotTestSupport.start(settings, exported,
                     List.of(new TableName("public", "big"), new TableName("public", "small")), threeThreads)) {
            Thread.sleep(500);
            // The empty last range ends at once and its reader goes on to small; the two others wait in theirs, for
            // the consumer (their COPY may have ended on the server, its rows in the socket: the query stays listed).
            assertThat(db.queryValue("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                    + " AND application_name = 'kafka-connect-pgoutput:range_slot'"
                    + " AND query LIKE 'COPY (SELECT%\"big\"%ctid%'"))
                    .as("two readers inside block ranges of the one big table").isEqualTo("2");
            List<SnapshotRow> rows = SnapshotTestSupport.readAll(reader);
            List<SnapshotRow> big = rows.stream().filter(r -> r.table().name().table().equals("big")).toList();
            List<Long> ids = big.stream().map(r -> Long.valueOf(r.values().get(0))).toList();
            long expected = rowFilter ? java.util.stream.LongStream.rangeClosed(1, 26000).filter(i -> i % 7 != 0).count() : 26000;
            assertThat(ids).as("every visible, published row of big once").hasSize((int) expected).doesNotHaveDuplicates()
                    .allSatisfy(id -> assertThat(id).isBetween(1L, 26000L));
            if (rowFilter) {
                assertThat(ids).noneMatch(id -> id % 7 == 0);
            }
            assertThat(big.stream().filter(SnapshotRow::firstInTable)).as("one first row of big, its first in the stream")
                    .hasSize(1).first().isSameAs(big.get(0));
            assertThat(big.stream().filter(SnapshotRow::lastInTable)).as("one last row of big, its last in the stream")
                    .hasSize(1).first().isSameAs(big.get(big.size() - 1));
            assertThat(rows.stream().filter(r -> r.marker() == SnapshotRow.Marker.FIRST)).hasSize(1).first().isSameAs(rows.get(0));
            assertThat(rows.stream().filter(r -> r.marker() == SnapshotRow.Marker.LAST)).hasSize(1).first()
                    .isSameAs(rows.get(rows.size() - 1));
            assertThat(rows).filteredOn(r -> r.table().name().table().equals("small")).hasSize(10)
                    .satisfies(small -> {
                        assertThat(small.get(0).firstInTable()).isTrue();
                        assertThat(small.get(9).lastInTable()).isTrue();
                    });
            assertThat(reader.progress().rowsDone()).isEqualTo(expected + 10);
            assertThat(reader.progress().tables()).allSatisfy(t -> assertThat(t.state()).isEqualTo(SnapshotProgress.State.DONE));
        }
    }

    @PostgresTest(representative = 16)
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void oneThreadGivesTheSameRowSequenceEveryTimeAndTheIncludeListFilters(PostgresDatabase db) throws Exception {
        db.execute("CREATE SCHEMA s2");
        for (TableName t : CAPTURED) {
            db.execute("CREATE TABLE " + t.quoted() + " (id int PRIMARY KEY, v text)",
                    "INSERT INTO " + t.quoted() + " SELECT g, '" + t + "' FROM generate_series(1, 300) g");
        }
        db.execute("CREATE PUBLICATION pub FOR TABLE s2.a, public.c, public.\"A\"");
        try (Connection c = db.connect()) {
            assertThat(SnapshotTables.published(c, "pub")).extracting(TableName::toString).containsExactly("public.A", "public.c", "s2.a");
        }
        ReplicationSettings settings = SnapshotTestSupport.settings(db, "seq_slot", "pub");
        SnapshotSettings oneThread = SnapshotSettings.defaults().withMaxThreads(1)
                .withIncludeList(List.of(Pattern.compile("public\\.[ab]"), Pattern.compile("s2\\..*")));
        List<String> first = sequence(settings, oneThread);
        List<String> second = sequence(settings, oneThread);
        assertThat(first).hasSize(900).isEqualTo(second);
        assertThat(first.stream().distinct()).containsExactly("public.a", "public.b", "s2.a");
    }

    @PostgresTest(representative = 16)
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void tablesNotYetReadCannotBeAlteredAndTimeoutsDoNotEndTheRead(PostgresDatabase db) throws Exception {
        db.execute("CREATE TABLE first (id int PRIMARY KEY)", "INSERT INTO first SELECT generate_series(1, 100)",
                "CREATE TABLE second (id int PRIMARY KEY, v text)", "INSERT INTO second VALUES (1, 'kept')");
        db.setDefault("statement_timeout", "1s");
        db.setDefault("idle_in_transaction_session_timeout", "1s");
        ReplicationSettings settings = SnapshotTestSupport.settings(db, "lock_slot", "pub");
        SnapshotSettings tiny = new SnapshotSettings(1, List.of(), 1, Duration.ofSeconds(10), null);
        try (ExportedSnapshot exported = ExportedSnapshot.create(settings, true, Duration.ofSeconds(30));
             SnapshotReader reader = SnapshotTestSupport.start(settings, exported,
                     List.of(new TableName("public", "first"), new TableName("public", "second")), tiny);
             Connection ddl = db.connect(); java.sql.Statement st = ddl.createStatement()) {
            exported.close();
            assertThat(reader.next(Duration.ofSeconds(5))).isNotNull();
            st.execute("SET lock_timeout = '200ms'");
            assertThatThrownBy(() -> st.execute("ALTER TABLE second DROP COLUMN v")).hasMessageContaining("lock timeout");
            Thread.sleep(2500); // longer than both timeouts, with the reader waiting for the consumer
            List<SnapshotRow> rest = SnapshotTestSupport.readAll(reader);
            assertThat(rest).hasSize(100);
            assertThat(rest.get(99).values()).containsExactly("1", "kept");
        }
    }

    private static List<String> sequence(ReplicationSettings settings, SnapshotSettings snapshot) throws Exception {
        try (ExportedSnapshot exported = ExportedSnapshot.create(settings, true, Duration.ofSeconds(30));
             SnapshotReader reader = SnapshotTestSupport.start(settings, exported, SnapshotTables.inCaptureOrder(CAPTURED, List.of()),
                     snapshot)) {
            return SnapshotTestSupport.readAll(reader).stream().map(r -> r.values().get(1)).toList();
        }
    }
}
