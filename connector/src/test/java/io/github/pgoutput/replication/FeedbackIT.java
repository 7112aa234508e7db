package io.github.pgoutput.replication;

import io.github.pgoutput.pgoutput.Lsn;
import io.github.pgoutput.testing.PostgresDatabase;
import io.github.pgoutput.testing.PostgresTest;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.List;

import static io.github.pgoutput.replication.LiveStreams.awaitConfirmedFlush;
import static io.github.pgoutput.replication.LiveStreams.commitEndLsn;
import static io.github.pgoutput.replication.LiveStreams.confirmedFlush;
import static io.github.pgoutput.replication.LiveStreams.count;
import static io.github.pgoutput.replication.LiveStreams.currentWal;
import static io.github.pgoutput.replication.LiveStreams.last;
import static io.github.pgoutput.replication.LiveStreams.readFor;
import static io.github.pgoutput.replication.LiveStreams.readUntil;
import static org.assertj.core.api.Assertions.assertThat;

/** The flushed LSN the server sees is exactly what the caller declared durable, nothing more. */
class FeedbackIT {

    private static final Duration WAIT = Duration.ofSeconds(20);

    @PostgresTest(representative = 15)
    @Timeout(60)
    void confirmedFlushNeverPassesWhatTheCallerDeclared(PostgresDatabase db) throws Exception {
        db.execute("CREATE TABLE t (id int PRIMARY KEY, v text)", "CREATE PUBLICATION pub FOR TABLE t",
                "CREATE TABLE unpublished (id int)");
        ReplicationSettings settings = LiveStreams.settings(db, "feedback", "pub").build();
        Lsn declared;
        try (ReplicationSession session = ReplicationSession.open(settings, Lsn.INVALID)) {
            Lsn atStart = confirmedFlush(db, "feedback");
            // WAL the slot does not publish moves the server's position on, so keepalives carry a walEnd past the
            // slot. pgjdbc's automatic flush (its default) would confirm that walEnd, both before anything was
            // declared and after a declaration that covers every frame received.
            produceUnpublishedWal(db, session);
            assertThat(session.serverWalEnd()).isGreaterThan(atStart);
            assertThat(confirmedFlush(db, "feedback")).as("nothing declared yet").isEqualTo(atStart);

            db.execute("INSERT INTO t VALUES (1, 'a')");
            declared = commitEndLsn(last(readUntil(session, count(1, "C"), WAIT), 'C'));
            session.declareDurable(declared);
            awaitConfirmedFlush(db, "feedback", declared, WAIT);
            produceUnpublishedWal(db, session);
            assertThat(session.serverWalEnd()).isGreaterThan(declared);
            assertThat(confirmedFlush(db, "feedback")).as("only the declared end LSN").isEqualTo(declared);
        }
        LiveStreams.awaitSlotInactive(db, "feedback");
        assertThat(confirmedFlush(db, "feedback")).as("not even a clean close confirms more").isEqualTo(declared);
    }

    private static void produceUnpublishedWal(PostgresDatabase db, ReplicationSession session) throws InterruptedException {
        for (int i = 0; i < 5; i++) {
            db.execute("INSERT INTO unpublished SELECT generate_series(1, 100)");
            assertThat(readFor(session, Duration.ofMillis(300))).as("nothing published was written").isEmpty();
        }
    }

    @PostgresTest(representative = 15)
    @Timeout(60)
    void confirmsExactlyTheDeclaredEndLsnAndNeverGoesBack(PostgresDatabase db) throws Exception {
        db.execute("CREATE TABLE t (id int PRIMARY KEY, v text)", "CREATE PUBLICATION pub FOR TABLE t");
        ReplicationSettings settings = LiveStreams.settings(db, "declared", "pub").build();
        Lsn second;
        try (ReplicationSession session = ReplicationSession.open(settings, Lsn.INVALID)) {
            db.execute("INSERT INTO t VALUES (1, 'a')", "INSERT INTO t VALUES (2, 'b')");
            List<WalFrame> frames = readUntil(session, count(2, "C"), WAIT);
            Lsn first = commitEndLsn(frames.stream().filter(f -> f.tag() == 'C').findFirst().orElseThrow());
            second = commitEndLsn(last(frames, 'C'));

            session.declareDurable(first);
            readFor(session, Duration.ofMillis(300));
            awaitConfirmedFlush(db, "declared", first, WAIT);

            session.declareDurable(second);
            session.declareDurable(first);
            readFor(session, Duration.ofMillis(300));
            awaitConfirmedFlush(db, "declared", second, WAIT);
            assertThat(session.durableLsn()).isEqualTo(second);
        }
        LiveStreams.awaitSlotInactive(db, "declared");
        assertThat(confirmedFlush(db, "declared")).as("close keeps the declared position").isEqualTo(second);
    }

    @PostgresTest(representative = 15)
    @Timeout(60)
    void anIdleSlotCanBeAdvancedToTheServerWalEndOfAKeepalive(PostgresDatabase db) throws Exception {
        db.execute("CREATE TABLE t (id int PRIMARY KEY)", "CREATE PUBLICATION pub FOR TABLE t", "CREATE TABLE unpublished (id int)");
        ReplicationSettings settings = LiveStreams.settings(db, "idle", "pub").build();
        try (ReplicationSession session = ReplicationSession.open(settings, Lsn.INVALID)) {
            db.execute("INSERT INTO unpublished SELECT generate_series(1, 100)");
            Lsn written = currentWal(db);
            long deadline = System.nanoTime() + WAIT.toNanos();
            while (session.serverWalEnd().isBefore(written) && System.nanoTime() < deadline) {
                db.execute("INSERT INTO unpublished SELECT generate_series(1, 100)");
                assertThat(readFor(session, Duration.ofMillis(300))).as("nothing published was written").isEmpty();
            }
            Lsn walEnd = session.serverWalEnd();
            assertThat(walEnd).isGreaterThanOrEqualTo(written);

            session.declareDurable(walEnd);
            readFor(session, Duration.ofMillis(300));
            awaitConfirmedFlush(db, "idle", walEnd, WAIT);
        }
    }
}
