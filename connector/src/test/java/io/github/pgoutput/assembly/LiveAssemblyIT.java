package io.github.pgoutput.assembly;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.pgoutput.assembly.LiveAssembly.Seen;
import io.github.pgoutput.spill.DiskSpill;
import io.github.pgoutput.spill.SpillContext;
import io.github.pgoutput.spill.SpillSettings;
import io.github.pgoutput.spill.TransactionSpill;
import io.github.pgoutput.spill.TransactionSpills;
import io.github.pgoutput.testing.PostgresDatabase;
import io.github.pgoutput.testing.PostgresTest;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real session, decoder and assembler on PostgreSQL with {@code logical_decoding_work_mem=64kB}: concurrent large
 * transactions streamed in interleaved blocks, savepoints rolled back (also nested) and released, a large transaction
 * aborted, small ones committing in between, and prepared transactions committed and rolled back. The table rebuilt
 * from the deliveries must equal what the database holds.
 */
@Timeout(90)
class LiveAssemblyIT {

    private static final Duration CONSUME_TIMEOUT = Duration.ofSeconds(40);

    @TempDir
    Path spillDirectory;

    /** What the workload left to check besides the table contents. */
    record Workload(long abortedXid, long committedXid) {
    }

    private static void createTables(PostgresDatabase db) {
        db.execute("CREATE TABLE t (id int PRIMARY KEY, v text)", "CREATE TABLE marker (id int)");
    }

    private static void insert(Statement statement, int from, int to) throws SQLException {
        statement.execute("INSERT INTO t SELECT g, repeat(md5(g::text), 3) FROM generate_series(" + from + ", " + to + ") g");
    }

    private static long xid(Statement statement) throws SQLException {
        try (ResultSet rows = statement.executeQuery("SELECT pg_current_xact_id()::text::bigint")) {
            rows.next();
            return rows.getLong(1);
        }
    }

    /**
     * Runs the workload on five connections, statement by statement in a fixed interleaving, so the large transactions
     * are decoded (and streamed) interleaved with each other and with the small ones.
     */
    private static Workload runWorkload(PostgresDatabase db) throws SQLException {
        try (Connection ca = db.connect(); Connection cb = db.connect(); Connection cc = db.connect();
             Connection cd = db.connect(); Connection ce = db.connect();
             Statement a = ca.createStatement(); Statement b = cb.createStatement(); Statement c = cc.createStatement();
             Statement d = cd.createStatement(); Statement e = ce.createStatement()) {
            a.execute("BEGIN");
            insert(a, 1, 1500);
            long committedXid = xid(a);
            b.execute("BEGIN");
            insert(b, 100_001, 101_500);
            long abortedXid = xid(b);
            insert(c, 200_001, 200_005);
            a.execute("SAVEPOINT s1");
            insert(a, 1501, 2500);
            a.execute("ROLLBACK TO SAVEPOINT s1");
            d.execute("BEGIN");
            insert(d, 300_001, 301_500);
            d.execute("PREPARE TRANSACTION 'g_commit'");
            insert(b, 101_501, 103_000);
            insert(c, 200_006, 200_010);
            a.execute("SAVEPOINT s2");
            insert(a, 2501, 3000);
            a.execute("RELEASE SAVEPOINT s2");
            a.execute("UPDATE t SET v = 'updated ' || id WHERE id BETWEEN 100 AND 400");
            a.execute("DELETE FROM t WHERE id BETWEEN 1000 AND 1100");
            a.execute("SAVEPOINT outer_sp");
            insert(a, 3001, 3500);
            a.execute("SAVEPOINT inner_sp");
            insert(a, 3501, 4000);
            a.execute("RELEASE SAVEPOINT inner_sp");
            a.execute("ROLLBACK TO SAVEPOINT outer_sp");
            d.execute("BEGIN");
            insert(d, 400_001, 401_500);
            d.execute("PREPARE TRANSACTION 'g_rollback'");
            e.execute("BEGIN");
            insert(e, 500_001, 500_003);
            e.execute("PREPARE TRANSACTION 'g_small'");
            b.execute("ROLLBACK");
            insert(c, 200_011, 200_015);
            insert(a, 4001, 4200);
            a.execute("COMMIT");
            c.execute("COMMIT PREPARED 'g_commit'");
            c.execute("ROLLBACK PREPARED 'g_rollback'");
            c.execute("COMMIT PREPARED 'g_small'");
            c.execute("INSERT INTO marker VALUES (1)");
            return new Workload(abortedXid, committedXid);
        }
    }

    private TransactionSpill diskSpill() {
        return DiskSpill.open("live", SpillSettings.defaults("live").withDirectory(spillDirectory).withMemoryBufferBytes(16 * 1024));
    }

    private static void assertCommonOutcome(PostgresDatabase db, LiveAssembly live, Workload workload) {
        assertThat(live.rows).as("table rebuilt from the deliveries").isEqualTo(LiveAssembly.rowsOf(db));
        // A: 1500 + 500 (released savepoint) + 200 inserted, 101 deleted; 15 small; 1500 + 3 prepared and committed.
        assertThat(live.rows).hasSize(1500 + 500 + 200 - 101 + 15 + 1500 + 3);
        assertThat(live.deliveries).extracting(Seen::xid).extracting(x -> x.value())
                .doesNotContain(workload.abortedXid());
        assertThat(live.deliveries).filteredOn(s -> s.xid().value() == workload.committedXid()).singleElement()
                .satisfies(s -> assertThat(s.changes()).isEqualTo(2200 + 301 + 101));
        assertThat(live.spill.appends).as("messages spilled from stream blocks").isPositive();
        assertThat(live.spill.subtransactionDiscards).as("rolled-back savepoints cut out of the spill").isPositive();
        assertThat(live.assembler.openStreamedTransactions()).isZero();
        assertThat(live.spill.usage().transactions()).as("nothing left in the spill").isZero();
    }

    @PostgresTest(logicalDecodingWorkMem = "64kB")
    void stageModeDeliversTheLifecycleOfPreparedTransactionsAndExactlyWhatTheDatabaseHolds(PostgresDatabase db) throws Exception {
        createTables(db);
        try (LiveAssembly live = LiveAssembly.start(db, "live_stage", PreparedTransactionMode.STAGE, diskSpill())) {
            Workload workload = runWorkload(db);
            live.consumeUntilMarker(CONSUME_TIMEOUT);

            assertCommonOutcome(db, live, workload);
            List<Seen> prepared = live.ofKind(Delivery.Kind.PREPARED);
            assertThat(prepared).extracting(Seen::gid).containsExactly("g_commit", "g_rollback", "g_small");
            assertThat(prepared.get(0).changes()).isEqualTo(1500);
            assertThat(prepared.get(2).changes()).isEqualTo(3);
            if (db.majorVersion() >= 18) {
                // PostgreSQL 18 stops decoding a transaction once it knows it aborted (docs/pgoutput-protocol.md §6.3 rule 10): the prepared
                // transaction rolled back while decoding reads it comes as b, the changes decoded so far (none, some
                // or all), P, then r. Consumers discard PREPARED changes on ROLLED_BACK, so a partial set is harmless.
                assertThat(prepared.get(1).changes()).isBetween(0L, 1500L);
            } else {
                assertThat(prepared.get(1).changes()).isEqualTo(1500);
            }
            assertThat(live.ofKind(Delivery.Kind.COMMITTED)).filteredOn(Seen::twoPhase).extracting(Seen::gid)
                    .containsExactly("g_commit", "g_small");
            assertThat(live.ofKind(Delivery.Kind.ROLLED_BACK)).extracting(Seen::gid).containsExactly("g_rollback");
            assertThat(live.ofKind(Delivery.Kind.COMMITTED)).filteredOn(Seen::twoPhase).extracting(Seen::xid)
                    .containsExactly(prepared.get(0).xid(), prepared.get(2).xid());
        }
    }

    @PostgresTest(logicalDecodingWorkMem = "64kB")
    void failModeGetsCommittedPreparedTransactionsAsOrdinaryCommitsThroughTheDatabaseSpill(PostgresDatabase db) throws Exception {
        createTables(db);
        SpillSettings settings = SpillSettings.defaults("live_fail").withBackend(SpillSettings.DATABASE_BACKEND)
                .withMemoryBufferBytes(16 * 1024);
        TransactionSpill spill = TransactionSpills.open(new SpillContext("live_fail", settings, db::connect));
        try (LiveAssembly live = LiveAssembly.start(db, "live_fail", PreparedTransactionMode.FAIL, spill)) {
            Workload workload = runWorkload(db);
            live.consumeUntilMarker(CONSUME_TIMEOUT);

            assertCommonOutcome(db, live, workload);
            assertThat(live.deliveries).extracting(Seen::kind).containsOnly(Delivery.Kind.COMMITTED);
            assertThat(live.deliveries).noneMatch(Seen::twoPhase).allMatch(s -> s.gid() == null);
            // In commit order: three small ones, the large one, the two committed prepared ones as plain commits, the
            // marker (no change on t); the rolled-back prepared transaction and the aborted one never show.
            assertThat(live.deliveries).extracting(Seen::changes).containsExactly(5L, 5L, 5L, 2602L, 1500L, 3L, 0L);
        } finally {
            spill.close();
        }
    }

    @PostgresTest(logicalDecodingWorkMem = "64kB")
    void failModeOnASlotAlreadySwitchedToTwoPhaseStopsAndSaysToUseStageOrRecreateTheSlot(PostgresDatabase db) throws Exception {
        createTables(db);
        db.execute("SELECT pg_create_logical_replication_slot('live_2pc', 'pgoutput', false, true)");
        try (LiveAssembly live = LiveAssembly.start(db, "live_2pc", PreparedTransactionMode.FAIL, diskSpill())) {
            db.execute("BEGIN; INSERT INTO t VALUES (1, 'one'); PREPARE TRANSACTION 'g1'", "COMMIT PREPARED 'g1'",
                    "INSERT INTO marker VALUES (1)");

            assertThatThrownBy(() -> live.consumeUntilMarker(CONSUME_TIMEOUT))
                    .hasMessageContaining("stage")
                    .hasMessageContaining("without two_phase")
                    .hasMessageContaining("g1");
            assertThat(live.rows).isEmpty();
        }
    }
}
