package io.github.pgoutput.replication;

import io.github.pgoutput.pgoutput.Lsn;
import io.github.pgoutput.testing.PostgresDatabase;
import io.github.pgoutput.testing.PostgresTest;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.List;

import static io.github.pgoutput.replication.LiveStreams.awaitConfirmedFlush;
import static io.github.pgoutput.replication.LiveStreams.awaitSlotInactive;
import static io.github.pgoutput.replication.LiveStreams.beginFinalLsn;
import static io.github.pgoutput.replication.LiveStreams.commitEndLsn;
import static io.github.pgoutput.replication.LiveStreams.confirmedFlush;
import static io.github.pgoutput.replication.LiveStreams.count;
import static io.github.pgoutput.replication.LiveStreams.last;
import static io.github.pgoutput.replication.LiveStreams.readUntil;
import static io.github.pgoutput.replication.LiveStreams.tags;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Resuming from the caller's own stored end LSN (spec 2.4, 6.6, section 9 item 6): after a clean restart PostgreSQL
 * 15 and 16 forget a confirmed_flush advance, 17 and 18 keep it; either way nothing confirmed is delivered again.
 */
class ResumeIT {

    private static final Duration WAIT = Duration.ofSeconds(30);

    @PostgresTest
    @Timeout(120)
    void resumingFromTheOwnStoredLsnNeverRedeliversAConfirmedTransactionAcrossARestart(PostgresDatabase db) throws Exception {
        db.execute("CREATE TABLE t (id int PRIMARY KEY)", "CREATE PUBLICATION pub FOR TABLE t");
        ReplicationSettings settings = LiveStreams.settings(db, "resume", "pub").build();
        ReplicationSession.open(settings, Lsn.INVALID).close();
        Lsn slotBefore = confirmedFlush(db, "resume");

        Lsn stored;
        try (ReplicationSession session = ReplicationSession.open(settings, Lsn.INVALID)) {
            db.execute("INSERT INTO t VALUES (1)");
            stored = commitEndLsn(last(readUntil(session, count(1, "C"), WAIT), 'C'));
            session.declareDurable(stored);
            awaitConfirmedFlush(db, "resume", stored, WAIT);
        }
        awaitSlotInactive(db, "resume");

        db.cluster().restart("fast");

        Lsn slotAfterRestart = confirmedFlush(db, "resume");
        if (db.majorVersion() <= 16) {
            assertThat(slotAfterRestart).as("PostgreSQL %d loses a flush-only advance on a clean restart", db.majorVersion())
                    .isEqualTo(slotBefore).isLessThan(stored);
        } else {
            assertThat(slotAfterRestart).as("PostgreSQL %d saves the slot at the shutdown checkpoint", db.majorVersion())
                    .isEqualTo(stored);
        }

        db.execute("INSERT INTO t VALUES (2)");
        try (ReplicationSession session = ReplicationSession.open(settings, stored)) {
            assertThat(session.startLsn()).isEqualTo(stored);
            List<WalFrame> frames = readUntil(session, count(1, "C"), WAIT);
            assertThat(tags(frames)).isEqualTo("BRIC");
            assertThat(beginFinalLsn(frames.get(0))).as("the first transaction delivered is the new one").isGreaterThan(stored);
            awaitConfirmedFlush(db, "resume", stored, WAIT);
        }
    }

    @PostgresTest(maxVersion = 16)
    @Timeout(120)
    void withoutTheOwnLsnTheSlotRedeliversAfterARestartOn15And16(PostgresDatabase db) throws Exception {
        db.execute("CREATE TABLE t (id int PRIMARY KEY)", "CREATE PUBLICATION pub FOR TABLE t");
        ReplicationSettings settings = LiveStreams.settings(db, "naive", "pub").build();
        ReplicationSession.open(settings, Lsn.INVALID).close();
        Lsn stored;
        try (ReplicationSession session = ReplicationSession.open(settings, Lsn.INVALID)) {
            db.execute("INSERT INTO t VALUES (1)");
            stored = commitEndLsn(last(readUntil(session, count(1, "C"), WAIT), 'C'));
            session.declareDurable(stored);
            awaitConfirmedFlush(db, "naive", stored, WAIT);
        }
        awaitSlotInactive(db, "naive");
        db.cluster().restart("fast");

        try (ReplicationSession session = ReplicationSession.open(settings, Lsn.INVALID)) {
            List<WalFrame> frames = readUntil(session, count(1, "C"), WAIT);
            assertThat(commitEndLsn(last(frames, 'C'))).as("the confirmed transaction came again").isEqualTo(stored);
        }
    }
}
