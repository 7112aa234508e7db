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
 * Resuming from the caller's own stored end LSN (docs/pgoutput-protocol.md §2.4, 6.6, section 9 item 6): after a clean restart PostgreSQL
 * 15 and 16 forget a confirmed_flush advance, 17 and 18 keep it; either way nothing confirmed is delivered again.
 */
class ResumeIT {

    private static final Duration WAIT = Duration.ofSeconds(30);

    @PostgresTest(representative = 17)
    @Timeout(120)
    void resumingFromTheOwnStoredLsnNeverRedeliversAConfirmedTransactionAcrossARestart(PostgresDatabase db) throws Exception {
        db.execute("CREATE TABLE t (id int PRIMARY KEY)", "CREATE PUBLICATION pub FOR TABLE t");
        ReplicationSettings settings = LiveStreams.settings(db, "resume", "pub").build();
        ReplicationSession.open(settings, Lsn.INVALID).close();
        awaitSlotInactive(db, "resume");
        Lsn slotBefore = confirmedFlush(db, "resume");
        Lsn restartBefore = restartLsn(db);

        Lsn stored;
        try (ReplicationSession session = ReplicationSession.open(settings, Lsn.INVALID)) {
            db.execute("INSERT INTO t VALUES (1)");
            stored = commitEndLsn(last(readUntil(session, count(1, "C"), WAIT), 'C'));
            session.declareDurable(stored);
            awaitConfirmedFlush(db, "resume", stored, WAIT);
        }
        awaitSlotInactive(db, "resume");
        boolean flushOnly = restartLsn(db).equals(restartBefore);
        System.out.printf("ResumeIT on PostgreSQL %d: the advance to %s moved %s%n", db.majorVersion(), stored,
                flushOnly ? "only confirmed_flush_lsn" : "restart_lsn too");

        db.cluster().restart("fast");

        Lsn slotAfterRestart = confirmedFlush(db, "resume");
        if (db.majorVersion() >= 17) {
            assertThat(slotAfterRestart).as("PostgreSQL %d saves the slot at the shutdown checkpoint", db.majorVersion()).isEqualTo(stored);
        } else if (flushOnly) {
            assertThat(slotAfterRestart).as("PostgreSQL %d loses an advance that moved only confirmed_flush_lsn", db.majorVersion())
                    .isEqualTo(slotBefore).isLessThan(stored);
            // The slot alone would deliver the confirmed transaction again.
            try (ReplicationSession naive = ReplicationSession.open(settings, Lsn.INVALID)) {
                assertThat(commitEndLsn(last(readUntil(naive, count(1, "C"), WAIT), 'C'))).isEqualTo(stored);
            }
            awaitSlotInactive(db, "resume");
        } else {
            // restart_lsn moved too (a running_xacts record lay in between), which marks the slot for saving.
            assertThat(slotAfterRestart).as("PostgreSQL %d saved a slot whose restart_lsn moved", db.majorVersion()).isEqualTo(stored);
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

    private static Lsn restartLsn(PostgresDatabase db) {
        return Lsn.parse(db.queryValue("SELECT restart_lsn FROM pg_replication_slots WHERE slot_name = 'resume'"));
    }
}
