package io.github.pgoutput.replication;

import io.github.pgoutput.pgoutput.Lsn;
import io.github.pgoutput.pgoutput.PgOutputMessage.StreamAbort;
import io.github.pgoutput.pgoutput.StreamingMode;
import io.github.pgoutput.testing.PostgresDatabase;
import io.github.pgoutput.testing.PostgresTest;
import org.junit.jupiter.api.Timeout;

import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.function.UnaryOperator;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Live captures decoded into exact message sequences, one per behaviour the connector must handle. Expected sequences
 * are written as tokens (see {@link Captures}); streamed transactions are compared by their {@link Captures#shape()},
 * which does not depend on where the server cut stream blocks. Run with {@code -Dcapture.dir=...} to store the bytes.
 */
class CaptureScenariosIT {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final String BIG_ROWS = "SELECT g, repeat('x', 10) FROM generate_series(1, %d) g";

    @PostgresTest
    @Timeout(60)
    void ordinaryTransactionWithInsertUpdateDeleteTruncate(PostgresDatabase db) throws Exception {
        db.execute("CREATE TABLE t (id int PRIMARY KEY, v text)", "CREATE PUBLICATION pub FOR TABLE t");
        String sql = "BEGIN; INSERT INTO t VALUES (1, 'a'), (2, 'b'); UPDATE t SET v = 'c' WHERE id = 1;"
                + " DELETE FROM t WHERE id = 2; TRUNCATE t; COMMIT;";
        Captures caps = capture(db, "ordinary", b -> b, sql, c -> c.count('C') >= 1);

        // TRUNCATE invalidates the relation, so its R is sent again before the T, even within one transaction.
        assertThat(caps.tokens()).containsExactly("B", "R public.t DEFAULT id*,v", "I t N(t:1,t:a)", "I t N(t:2,t:b)",
                "U t N(t:1,t:c)", "D t K(t:2,n)", "R public.t DEFAULT id*,v", "T t options=0", "C");
    }

    @PostgresTest
    @Timeout(60)
    void replicaIdentityFullSendsTheOldRowAndDefaultSendsTheOldKeyOnlyWhenItChanges(PostgresDatabase db) throws Exception {
        db.execute("CREATE TABLE t_full (id int, v text)", "ALTER TABLE t_full REPLICA IDENTITY FULL",
                "CREATE TABLE t_def (id int PRIMARY KEY, v text)", "CREATE PUBLICATION pub FOR TABLE t_full, t_def");
        String sql = "INSERT INTO t_full VALUES (1, 'a'); UPDATE t_full SET v = 'b'; DELETE FROM t_full;\n"
                + "INSERT INTO t_def VALUES (1, 'a'); UPDATE t_def SET v = 'b'; UPDATE t_def SET id = 2; DELETE FROM t_def;";
        Captures caps = capture(db, "replica-identity", b -> b, sql, c -> c.count('C') >= 7);

        assertThat(caps.tokens()).containsExactly(
                "B", "R public.t_full FULL id*,v*", "I t_full N(t:1,t:a)", "C",
                "B", "U t_full O(t:1,t:a) N(t:1,t:b)", "C",
                "B", "D t_full O(t:1,t:b)", "C",
                "B", "R public.t_def DEFAULT id*,v", "I t_def N(t:1,t:a)", "C",
                "B", "U t_def N(t:1,t:b)", "C",
                "B", "U t_def K(t:1,n) N(t:2,t:b)", "C",
                "B", "D t_def K(t:2,n)", "C");
    }

    @PostgresTest
    @Timeout(60)
    void anUnchangedToastedColumnIsSentAsUnchanged(PostgresDatabase db) throws Exception {
        db.execute("CREATE TABLE t_toast (id int PRIMARY KEY, big text, small int)",
                "ALTER TABLE t_toast ALTER COLUMN big SET STORAGE EXTERNAL", "CREATE PUBLICATION pub FOR TABLE t_toast");
        String sql = "INSERT INTO t_toast VALUES (1, repeat('y', 4000), 1); UPDATE t_toast SET small = 2;"
                + " UPDATE t_toast SET id = 2;";
        Captures caps = capture(db, "unchanged-toast", b -> b, sql, c -> c.count('C') >= 3);

        assertThat(caps.tokens()).containsExactly(
                "B", "R public.t_toast DEFAULT id*,big,small", "I t_toast N(t:1,t:yyyyyyyy…4000,t:1)", "C",
                "B", "U t_toast N(t:1,u,t:2)", "C",
                "B", "U t_toast K(t:1,n,n) N(t:2,u,t:2)", "C");
    }

    @PostgresTest(logicalDecodingWorkMem = "64kB")
    @Timeout(90)
    void aLargeTransactionIsStreamedAndItsRolledBackSavepointAborted(PostgresDatabase db) throws Exception {
        db.execute("CREATE TABLE big_t (id int, pad text)", "CREATE PUBLICATION pub FOR TABLE big_t");
        String sql = "BEGIN; INSERT INTO big_t " + BIG_ROWS.formatted(600) + "; SAVEPOINT s; INSERT INTO big_t " + BIG_ROWS.formatted(600)
                + "; ROLLBACK TO s; INSERT INTO big_t " + BIG_ROWS.formatted(300) + "; COMMIT;\n"
                + "INSERT INTO big_t VALUES (0, 'after');";
        Captures caps = capture(db, "streamed-savepoint", b -> b, sql, c -> c.count('C') >= 1);

        // Even a subtransaction's stream abort ends the transaction's relation scope: R is sent again (with the new
        // subtransaction's xid). Section 9 item 5: the R sent inside the stream counts for later transactions once the
        // stream commits, so the B I C after it has no R.
        assertThat(caps.shape()).containsExactly("S x1 first", "R@x1 public.big_t DEFAULT id,pad", "I@x1 big_t +",
                "I@x2 big_t +", "A x1 x2", "R@x3 public.big_t DEFAULT id,pad", "I@x3 big_t +", "c x1", "B", "I big_t", "C");
        assertThat(caps.countAt("I@x1 ")).isEqualTo(600);
        assertThat(caps.countAt("I@x2 ")).isBetween(1L, 600L);
        assertThat(caps.countAt("I@x3 ")).isEqualTo(300);
    }

    @PostgresTest(logicalDecodingWorkMem = "64kB")
    @Timeout(90)
    void twoConcurrentStreamedTransactionsInterleaveBlockByBlock(PostgresDatabase db) throws Exception {
        db.execute("CREATE TABLE big_a (id int, pad text)", "CREATE TABLE big_b (id int, pad text)",
                "CREATE PUBLICATION pub FOR TABLE big_a, big_b");
        ReplicationSession session = open(db, b -> b);
        Captures caps = new Captures(session);
        StringBuilder sql = new StringBuilder();
        try (session; Connection a = db.connect(); Connection b = db.connect(); Statement sa = a.createStatement(); Statement sb = b.createStatement()) {
            a.setAutoCommit(false);
            b.setAutoCommit(false);
            for (int round = 0; round < 4; round++) {
                String ia = "INSERT INTO big_a " + BIG_ROWS.formatted(250);
                String ib = "INSERT INTO big_b " + BIG_ROWS.formatted(250);
                sa.execute(ia);
                sb.execute(ib);
                sql.append("session A: ").append(ia).append("\nsession B: ").append(ib).append('\n');
            }
            a.commit();
            b.commit();
            sql.append("session A: COMMIT\nsession B: COMMIT");
            caps.readUntil(session, c -> c.count('c') >= 2, WAIT);
            caps.writeIfAsked(db, session, "interleaved-streams", sql.toString());
        }

        List<String> starts = caps.tokens().stream().filter(t -> t.startsWith("S ")).map(t -> t.split(" ")[1]).toList();
        assertThat(starts).as("blocks of both transactions").contains("x1", "x2");
        assertThat(String.join("", starts)).as("a block of one after a block of the other and back").containsPattern("x1.*x2.*x1|x2.*x1.*x2");
        assertThat(caps.tokens()).containsSubsequence("c x1", "c x2");
        assertThat(caps.countAt("I@x1 ")).isEqualTo(1000);
        assertThat(caps.countAt("I@x2 ")).isEqualTo(1000);
        assertEveryChangeCarriesItsBlocksXid(caps);
    }

    @PostgresTest(logicalDecodingWorkMem = "64kB")
    @Timeout(90)
    void anAbortedStreamedTransactionEndsWithAStreamAbortOfTheWholeTransaction(PostgresDatabase db) throws Exception {
        db.execute("CREATE TABLE big_t (id int, pad text)", "CREATE TABLE flush_marker (id int)", "CREATE PUBLICATION pub FOR TABLE big_t");
        ReplicationSession session = open(db, b -> b);
        Captures caps = new Captures(session);
        try (session; Connection a = db.connect(); Statement sa = a.createStatement()) {
            a.setAutoCommit(false);
            sa.execute("INSERT INTO big_t " + BIG_ROWS.formatted(1000));
            awaitStreamBlock(db, session, caps);
            // Rolled back only after blocks arrived: the live case, in which PostgreSQL 18 too sends the abort.
            a.rollback();
            caps.readUntil(session, c -> c.count('A') >= 1, WAIT);
            caps.writeIfAsked(db, session, "streamed-abort", "BEGIN; INSERT INTO big_t " + BIG_ROWS.formatted(1000)
                    + ";\n-- (other session, to flush WAL) INSERT INTO flush_marker VALUES (1); -- wait for a stream block\nROLLBACK;");
        }

        assertThat(caps.shape()).containsExactly("S x1 first", "R@x1 public.big_t DEFAULT id,pad", "I@x1 big_t +", "A x1 x1");
    }

    @PostgresTest(logicalDecodingWorkMem = "64kB")
    @Timeout(90)
    void aStreamedTransactionOnAnUnpublishedTableStreamsEmptyBlocks(PostgresDatabase db) throws Exception {
        db.execute("CREATE TABLE t (id int PRIMARY KEY)", "CREATE TABLE unpublished (id int, pad text)", "CREATE PUBLICATION pub FOR TABLE t");
        String sql = "INSERT INTO unpublished " + BIG_ROWS.formatted(1000) + ";\nINSERT INTO t VALUES (1);";
        Captures caps = capture(db, "streamed-unpublished", b -> b, sql, c -> c.count('C') >= 1);

        assertThat(caps.shape()).containsExactly("S x1 first", "c x1", "B", "R public.t DEFAULT id*", "I t N(t:1)", "C");
        assertThat(caps.tokens()).as("blocks with nothing inside").contains("E").doesNotContain("I@x1");
    }

    @PostgresTest
    @Timeout(60)
    void preparedTransactionsArriveAtPrepareAndThenCommitOrRollBack(PostgresDatabase db) throws Exception {
        db.execute("CREATE TABLE t (id int PRIMARY KEY)", "CREATE PUBLICATION pub FOR TABLE t");
        String sql = "BEGIN; INSERT INTO t VALUES (1); PREPARE TRANSACTION 'g1'; COMMIT PREPARED 'g1';\n"
                + "BEGIN; INSERT INTO t VALUES (2); PREPARE TRANSACTION 'g2'; ROLLBACK PREPARED 'g2';";
        Captures caps = capture(db, "two-phase", b -> b.twoPhase(true), sql, c -> c.count('r') >= 1);

        assertThat(caps.tokens()).containsExactly("b g1", "R public.t DEFAULT id*", "I t N(t:1)", "P g1", "K g1",
                "b g2", "I t N(t:2)", "P g2", "r g2");
    }

    @PostgresTest(logicalDecodingWorkMem = "64kB")
    @Timeout(90)
    void aStreamedPreparedTransactionEndsWithStreamPrepareThenCommitPrepared(PostgresDatabase db) throws Exception {
        db.execute("CREATE TABLE big_t (id int, pad text)", "CREATE PUBLICATION pub FOR TABLE big_t");
        String sql = "BEGIN; INSERT INTO big_t " + BIG_ROWS.formatted(1000) + "; PREPARE TRANSACTION 'g3'; COMMIT PREPARED 'g3';";
        Captures caps = capture(db, "streamed-prepared", b -> b.twoPhase(true), sql, c -> c.count('K') >= 1);

        assertThat(caps.shape()).containsExactly("S x1 first", "R@x1 public.big_t DEFAULT id,pad", "I@x1 big_t +", "p x1 g3", "K g3");
        assertThat(caps.countAt("I@x1 ")).isEqualTo(1000);
    }

    @PostgresTest
    @Timeout(60)
    void logicalMessagesTransactionalInPlaceAndNonTransactionalAtOnce(PostgresDatabase db) throws Exception {
        db.execute("CREATE TABLE t (id int PRIMARY KEY)", "CREATE PUBLICATION pub FOR TABLE t");
        String sql = "BEGIN; INSERT INTO t VALUES (1); SELECT pg_logical_emit_message(false, 'ntx', 'now');"
                + " SELECT pg_logical_emit_message(true, 'tx', 'in order'); COMMIT;\n"
                + "SELECT pg_logical_emit_message(true, 'tx', 'alone');";
        Captures caps = capture(db, "logical-messages", b -> b.messages(true), sql, c -> c.count('C') >= 2);

        // Section 9 item 3: the non-transactional message comes before the Begin of the transaction that emitted it.
        assertThat(caps.tokens()).containsExactly("M ntx ntx now", "B", "R public.t DEFAULT id*", "I t N(t:1)",
                "M tx tx in order", "C", "B", "M tx tx alone", "C");
    }

    @PostgresTest
    @Timeout(60)
    void binaryModeSendsTheTypesSendFormat(PostgresDatabase db) throws Exception {
        db.execute("CREATE TABLE t_bin (id int PRIMARY KEY, flag bool, n numeric, s text, nothing text)", "CREATE PUBLICATION pub FOR TABLE t_bin");
        String sql = "INSERT INTO t_bin VALUES (1, true, 1.50, 'txt', NULL);";
        Captures caps = capture(db, "binary", b -> b.binary(true), sql, c -> c.count('C') >= 1);

        assertThat(caps.tokens()).containsExactly("B", "R public.t_bin DEFAULT id*,flag,n,s,nothing",
                "I t_bin N(b:00000001,b:01,b:0002000000000002…12,b:747874,n)", "C");
    }

    @PostgresTest
    @Timeout(60)
    void aUserDefinedEnumIsDescribedByATypeMessage(PostgresDatabase db) throws Exception {
        db.execute("CREATE TYPE mood AS ENUM ('sad', 'happy')", "CREATE TABLE t_enum (id int PRIMARY KEY, m mood)",
                "CREATE PUBLICATION pub FOR TABLE t_enum");
        String sql = "INSERT INTO t_enum VALUES (1, 'happy');";
        Captures caps = capture(db, "enum-type", b -> b, sql, c -> c.count('C') >= 1);

        assertThat(caps.tokens()).containsExactly("B", "Y public.mood", "R public.t_enum DEFAULT id*,m", "I t_enum N(t:1,t:happy)", "C");
    }

    @PostgresTest(minVersion = 16, logicalDecodingWorkMem = "64kB")
    @Timeout(90)
    void parallelStreamingAbortsCarryTheAbortLsn(PostgresDatabase db) throws Exception {
        db.execute("CREATE TABLE big_t (id int, pad text)", "CREATE TABLE flush_marker (id int)", "CREATE PUBLICATION pub FOR TABLE big_t");
        ReplicationSession session = open(db, b -> b.streaming(StreamingMode.PARALLEL));
        Captures caps = new Captures(session);
        try (session; Connection a = db.connect(); Statement sa = a.createStatement()) {
            a.setAutoCommit(false);
            sa.execute("INSERT INTO big_t " + BIG_ROWS.formatted(300));
            sa.execute("SAVEPOINT s");
            sa.execute("INSERT INTO big_t " + BIG_ROWS.formatted(900));
            awaitStreamBlock(db, session, caps);
            caps.readUntil(session, c -> c.countAt("I@x2") > 0, WAIT);
            sa.execute("ROLLBACK TO s");
            sa.execute("INSERT INTO big_t VALUES (0, 'after')");
            a.rollback();
            caps.readUntil(session, c -> c.count('A') >= 2, WAIT);
            caps.writeIfAsked(db, session, "parallel-abort", "BEGIN; INSERT INTO big_t " + BIG_ROWS.formatted(300) + "; SAVEPOINT s;"
                    + " INSERT INTO big_t " + BIG_ROWS.formatted(900) + ";\n-- (other session) INSERT INTO flush_marker VALUES (1);"
                    + " -- wait for blocks of the subtransaction\nROLLBACK TO s; INSERT INTO big_t VALUES (0, 'after'); ROLLBACK;");
        }

        assertThat(caps.shape()).containsExactly("S x1 first", "R@x1 public.big_t DEFAULT id,pad", "I@x1 big_t +", "I@x2 big_t +",
                "A x1 x2 with-abort-lsn", "A x1 x1 with-abort-lsn");
        assertThat(caps.messages()).filteredOn(StreamAbort.class::isInstance).map(StreamAbort.class::cast)
                .allSatisfy(a -> assertThat(a.abortLsn().orElseThrow()).isGreaterThan(Lsn.INVALID));
    }

    @PostgresTest(logicalDecodingWorkMem = "64kB")
    @Timeout(90)
    void withStreamingOffALargeTransactionArrivesWholeAtCommit(PostgresDatabase db) throws Exception {
        db.execute("CREATE TABLE big_t (id int, pad text)", "CREATE PUBLICATION pub FOR TABLE big_t");
        String sql = "INSERT INTO big_t " + BIG_ROWS.formatted(1000) + ";";
        Captures caps = capture(db, "streaming-off", b -> b.streaming(StreamingMode.OFF), sql, c -> c.count('C') >= 1);

        assertThat(caps.shape()).containsExactly("B", "R public.big_t DEFAULT id,pad", "I big_t +", "C");
        assertThat(caps.countAt("I big_t")).isEqualTo(1000);
    }

    @PostgresTest(minVersion = 16)
    @Timeout(60)
    void originNoneDropsTransactionsThatCarryAReplicationOrigin(PostgresDatabase db) throws Exception {
        db.execute("CREATE TABLE t (id int PRIMARY KEY)", "CREATE PUBLICATION pub FOR TABLE t", "SELECT pg_replication_origin_create('orig1')");
        String sql = "SELECT pg_replication_origin_session_setup('orig1'); INSERT INTO t VALUES (1); SELECT pg_replication_origin_session_reset();\n"
                + "INSERT INTO t VALUES (2);";
        Captures none = capture(db, "origin-none", b -> b.origin(OriginFilter.NONE), sql, c -> c.count('C') >= 1);
        assertThat(none.tokens()).containsExactly("B", "R public.t DEFAULT id*", "I t N(t:2)", "C");

        LiveStreams.awaitSlotInactive(db, "capture");
        db.execute("SELECT pg_drop_replication_slot('capture')", "TRUNCATE t");
        Captures any = capture(db, "origin-any", b -> b.origin(OriginFilter.ANY), sql, c -> c.count('C') >= 2);
        assertThat(any.tokens()).containsExactly("B", "O orig1", "R public.t DEFAULT id*", "I t N(t:1)", "C", "B", "I t N(t:2)", "C");
    }

    /** Opens a session with a fresh slot, runs the SQL (psql-like: each line one batch), and reads until {@code done}. */
    private static Captures capture(PostgresDatabase db, String scenario, UnaryOperator<ReplicationSettings.Builder> options, String sql,
                                    java.util.function.Predicate<Captures> done) throws Exception {
        try (ReplicationSession session = open(db, options)) {
            Captures caps = new Captures(session);
            for (String batch : sql.split("\n")) {
                db.execute(batch.split("(?<=;)\\s*"));
            }
            caps.readUntil(session, done, WAIT);
            assertThat(caps.readFor(session, Duration.ofMillis(300))).as("nothing after the expected messages").isEmpty();
            caps.writeIfAsked(db, session, scenario, sql);
            return caps;
        }
    }

    static ReplicationSession open(PostgresDatabase db, UnaryOperator<ReplicationSettings.Builder> options) {
        return ReplicationSession.open(options.apply(LiveStreams.settings(db, "capture", "pub").messages(false)).build(), Lsn.INVALID);
    }

    /** Flushes WAL with a commit elsewhere (an open transaction's WAL is not read before it is flushed) and waits for an E. */
    static void awaitStreamBlock(PostgresDatabase db, ReplicationSession session, Captures caps) throws InterruptedException {
        db.execute("INSERT INTO flush_marker VALUES (1)");
        caps.readUntil(session, c -> c.count('E') >= 1, WAIT);
    }

    private static void assertEveryChangeCarriesItsBlocksXid(Captures caps) {
        String block = null;
        for (String token : caps.tokens()) {
            if (token.startsWith("S ")) {
                block = token.split(" ")[1];
            } else if (token.equals("E")) {
                block = null;
            } else if (token.contains("@")) {
                assertThat(token).as("inside the block of %s", block).contains("@" + block + " ");
            }
        }
    }
}
