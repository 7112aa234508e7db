package io.github.pgoutput.replication;

import io.github.pgoutput.pgoutput.DecoderSettings;
import io.github.pgoutput.pgoutput.Lsn;
import io.github.pgoutput.pgoutput.PgOutputDecoder;
import io.github.pgoutput.pgoutput.PgOutputDecodingException;
import io.github.pgoutput.pgoutput.PgOutputMessage.Begin;
import io.github.pgoutput.pgoutput.PgOutputMessage.Commit;
import io.github.pgoutput.pgoutput.StreamingMode;
import io.github.pgoutput.replication.Captures.Captured;
import io.github.pgoutput.testing.PostgresDatabase;
import io.github.pgoutput.testing.PostgresTest;
import org.junit.jupiter.api.Timeout;

import java.nio.ByteBuffer;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * docs/pgoutput-protocol.md §9 ("the surprising parts"), one test each where the session is concerned. Items covered in other
 * classes: 2 (session refusal) {@link PreflightChecksIT}, 3 and 5 {@link CaptureScenariosIT}, 6 {@link ResumeIT},
 * 9 {@link SessionLifecycleIT} and {@link KeepaliveUnderBackPressureIT}.
 */
class SurprisingPartsIT {

    private static final Duration WAIT = Duration.ofSeconds(30);

    @PostgresTest
    @Timeout(60)
    void item2_aTwoPhaseSlotSendsBeginPrepareEvenToProtocol1AndAProtocol1DecoderRefusesIt(PostgresDatabase db) throws Exception {
        db.execute("CREATE TABLE t (id int PRIMARY KEY)", "CREATE PUBLICATION pub FOR TABLE t",
                "SELECT pg_create_logical_replication_slot('tp', 'pgoutput', false, true)",
                "BEGIN; INSERT INTO t VALUES (1); PREPARE TRANSACTION 'g1'", "COMMIT PREPARED 'g1'");
        List<byte[]> payloads = new ArrayList<>();
        try (Connection c = db.connect(); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT encode(data, 'hex') FROM pg_logical_slot_peek_binary_changes('tp', NULL, NULL,"
                     + " 'proto_version', '1', 'publication_names', 'pub')")) {
            while (rs.next()) {
                payloads.add(HexFormat.of().parseHex(rs.getString(1)));
            }
        }
        assertThat(payloads).isNotEmpty();
        assertThat((char) payloads.get(0)[0]).as("Begin Prepare on a protocol 1 session").isEqualTo('b');

        PgOutputDecoder protocol1 = new PgOutputDecoder(new DecoderSettings(1, StreamingMode.OFF));
        assertThatThrownBy(() -> protocol1.decode(ByteBuffer.wrap(payloads.get(0)), Lsn.INVALID))
                .isInstanceOf(PgOutputDecodingException.class).hasMessageContaining("'b'");
        assertThatThrownBy(() -> ReplicationSession.open(LiveStreams.settings(db, "tp", "pub").protocolVersion(1)
                .streaming(StreamingMode.OFF).build(), Lsn.INVALID))
                .isInstanceOf(ReplicationSetupException.class).hasMessageContaining("has two_phase enabled");
    }

    @PostgresTest
    @Timeout(60)
    void item4_commitAndRollbackPreparedMayNameAGidNeverPreparedDownstream(PostgresDatabase db) throws Exception {
        db.execute("CREATE TABLE t (id int PRIMARY KEY)", "CREATE PUBLICATION pub FOR TABLE t");
        ReplicationSettings plain = LiveStreams.settings(db, "late", "pub").build();
        ReplicationSession.open(plain, Lsn.INVALID).close();
        // Prepared while the slot had no two_phase; the session below turns it on at a later LSN (two_phase_at).
        db.execute("BEGIN; INSERT INTO t VALUES (1); PREPARE TRANSACTION 'gy'", "BEGIN; INSERT INTO t VALUES (2); PREPARE TRANSACTION 'gx'");
        Lsn afterPrepares = LiveStreams.currentWal(db);
        LiveStreams.awaitSlotInactive(db, "late");

        try (ReplicationSession session = ReplicationSession.open(plain.toBuilder().twoPhase(true).build(), afterPrepares)) {
            Captures caps = new Captures(session);
            db.execute("COMMIT PREPARED 'gy'", "ROLLBACK PREPARED 'gx'");
            caps.readUntil(session, c -> c.count('r') >= 1, WAIT);

            // At COMMIT PREPARED the whole transaction comes as b..P K; at ROLLBACK PREPARED only an r for a gid that
            // this client never saw prepared.
            assertThat(caps.tokens()).containsExactly("b gy", "R public.t DEFAULT id*", "I t N(t:1)", "P gy", "K gy", "r gx");
            caps.writeIfAsked(db, session, "unknown-gid", "-- slot without two_phase; then:\nBEGIN; INSERT INTO t VALUES (1);"
                    + " PREPARE TRANSACTION 'gy';\nBEGIN; INSERT INTO t VALUES (2); PREPARE TRANSACTION 'gx';\n"
                    + "-- START_REPLICATION at pg_current_wal_lsn() with two_phase on, then:\nCOMMIT PREPARED 'gy'; ROLLBACK PREPARED 'gx';");
        }
    }

    @PostgresTest
    @Timeout(60)
    void item7_headerLsnsAreZeroForRelationsAndGoBackwardsAtTheBeginOfAnOlderTransaction(PostgresDatabase db) throws Exception {
        db.execute("CREATE TABLE t (id int PRIMARY KEY)", "CREATE PUBLICATION pub FOR TABLE t");
        try (ReplicationSession session = CaptureScenariosIT.open(db, b -> b);
             Connection older = db.connect(); Statement st = older.createStatement()) {
            Captures caps = new Captures(session);
            older.setAutoCommit(false);
            st.execute("INSERT INTO t VALUES (1)");
            db.execute("INSERT INTO t VALUES (2)");
            older.commit();
            caps.readUntil(session, c -> c.count('C') >= 2, WAIT);

            List<Captured> all = caps.all();
            assertThat(caps.tokens()).containsExactly("B", "R public.t DEFAULT id*", "I t N(t:2)", "C", "B", "I t N(t:1)", "C");
            assertThat(all.get(1).frame().headerLsn()).as("Relation header").isEqualTo(Lsn.INVALID);
            Lsn firstCommitEnd = ((Commit) all.get(3).message()).endLsn();
            assertThat(all.get(3).frame().headerLsn()).isEqualTo(firstCommitEnd);
            assertThat(all.get(4).frame().headerLsn()).as("the older transaction's Begin goes backwards").isLessThan(firstCommitEnd);
            assertThat(((Begin) all.get(4).message()).finalLsn()).as("its own commit comes later").isGreaterThanOrEqualTo(firstCommitEnd);
            // So progress is taken only from end LSNs: nothing was declared, nothing is confirmed.
            Lsn before = LiveStreams.confirmedFlush(db, "capture");
            caps.readFor(session, Duration.ofMillis(500));
            assertThat(LiveStreams.confirmedFlush(db, "capture")).isEqualTo(before);
        }
    }

    @PostgresTest(logicalDecodingWorkMem = "64kB")
    @Timeout(90)
    void item8_postgres18SkipsATransactionAlreadyAbortedWhenCatchingUp(PostgresDatabase db) throws Exception {
        db.execute("CREATE TABLE big_t (id int, pad text)", "CREATE TABLE t (id int PRIMARY KEY)", "CREATE PUBLICATION pub FOR TABLE big_t, t");
        CaptureScenariosIT.open(db, b -> b).close();
        LiveStreams.awaitSlotInactive(db, "capture");
        String sql = "BEGIN; INSERT INTO big_t SELECT g, repeat('x', 10) FROM generate_series(1, 1000) g; ROLLBACK;\nINSERT INTO t VALUES (1);";
        db.execute("BEGIN", "INSERT INTO big_t SELECT g, repeat('x', 10) FROM generate_series(1, 1000) g", "ROLLBACK");
        db.execute("INSERT INTO t VALUES (1)");

        try (ReplicationSession session = CaptureScenariosIT.open(db, b -> b)) {
            Captures caps = new Captures(session);
            caps.readUntil(session, c -> c.count('C') >= 1, WAIT);
            caps.writeIfAsked(db, session, "aborted-before-catch-up", sql);

            List<String> committed = List.of("B", "R public.t DEFAULT id*", "I t N(t:1)", "C");
            if (db.majorVersion() >= 18) {
                assertThat(caps.shape()).as("no S/E/A at all").isEqualTo(committed);
            } else {
                assertThat(caps.shape()).startsWith("S x1 first").contains("A x1 x1").endsWith(committed.toArray(String[]::new));
            }
        }
    }
}
