package io.github.pgoutput.replication;

import io.github.pgoutput.pgoutput.Lsn;
import io.github.pgoutput.testing.PostgresDatabase;
import io.github.pgoutput.testing.PostgresTest;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;

import static io.github.pgoutput.replication.LiveStreams.awaitSlotInactive;
import static io.github.pgoutput.replication.LiveStreams.commitEndLsn;
import static io.github.pgoutput.replication.LiveStreams.confirmedFlush;
import static io.github.pgoutput.replication.LiveStreams.count;
import static io.github.pgoutput.replication.LiveStreams.last;
import static io.github.pgoutput.replication.LiveStreams.readUntil;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Closing cleanly, and losing the connection. */
class SessionLifecycleIT {

    private static final Duration WAIT = Duration.ofSeconds(20);

    @PostgresTest
    @Timeout(60)
    void closeEndsTheCopyAcceptingTheServersTrailingFramesAndConfirmsTheDeclaredLsn(PostgresDatabase db) throws Exception {
        db.execute("CREATE TABLE t (id int PRIMARY KEY)", "CREATE PUBLICATION pub FOR TABLE t");
        ReplicationSession session = ReplicationSession.open(LiveStreams.settings(db, "closing", "pub").build(), Lsn.INVALID);
        db.execute("INSERT INTO t VALUES (1)");
        Lsn end = commitEndLsn(last(readUntil(session, count(1, "C"), WAIT), 'C'));
        session.declareDurable(end);

        // The server answers CopyDone with CopyDone, one more CopyData keepalive, then CommandComplete (docs/pgoutput-protocol.md §2.5).
        assertThatCode(session::close).doesNotThrowAnyException();
        assertThatCode(session::close).as("idempotent").doesNotThrowAnyException();

        awaitSlotInactive(db, "closing");
        assertThat(confirmedFlush(db, "closing")).as("close sends the last declared LSN").isEqualTo(end);
        assertThatThrownBy(session::readPending).isInstanceOf(IllegalStateException.class).hasMessageContaining("closed");
    }

    @PostgresTest
    @Timeout(60)
    void aTerminatedWalsenderSurfacesAsARetriableConnectionLoss(PostgresDatabase db) throws Exception {
        db.execute("CREATE TABLE t (id int PRIMARY KEY)", "CREATE PUBLICATION pub FOR TABLE t");
        try (ReplicationSession session = ReplicationSession.open(LiveStreams.settings(db, "lost", "pub").build(), Lsn.INVALID)) {
            db.execute("SELECT pg_terminate_backend(active_pid) FROM pg_replication_slots WHERE slot_name = 'lost'");

            assertThatThrownBy(() -> readUntil(session, frames -> false, WAIT))
                    .isInstanceOf(ReplicationConnectionLostException.class)
                    .hasMessageContaining("slot 'lost'");
            assertThatCode(session::close).as("closing a dead session").doesNotThrowAnyException();
        }
    }

    @PostgresTest
    @Timeout(60)
    void aPublicationDroppedWhileStreamingEndsTheSessionWithAPermanentError(PostgresDatabase db) throws Exception {
        db.execute("CREATE TABLE t (id int PRIMARY KEY)", "CREATE PUBLICATION pub FOR TABLE t");
        try (ReplicationSession session = ReplicationSession.open(LiveStreams.settings(db, "dropped", "pub").build(), Lsn.INVALID)) {
            db.execute("DROP PUBLICATION pub", "INSERT INTO t VALUES (1)");

            // 15-17 end the stream with an error; 18 only warns and would skip the change (docs/pgoutput-protocol.md §5.2).
            assertThatThrownBy(() -> readUntil(session, frames -> false, WAIT))
                    .isInstanceOfSatisfying(ReplicationSetupException.class, e -> assertThat(e.setting()).isEqualTo(Setting.PUBLICATION_NAME))
                    .hasMessageContaining("\"pub\"");
        }
    }

    @PostgresTest
    @Timeout(60)
    void aSecondSessionOnABusySlotIsRefusedAsRetriable(PostgresDatabase db) {
        db.execute("CREATE TABLE t (id int PRIMARY KEY)", "CREATE PUBLICATION pub FOR TABLE t");
        ReplicationSettings settings = LiveStreams.settings(db, "busy", "pub").build();
        try (ReplicationSession first = ReplicationSession.open(settings, Lsn.INVALID)) {
            assertThatThrownBy(() -> ReplicationSession.open(settings, Lsn.INVALID))
                    .isInstanceOfSatisfying(ReplicationConnectionLostException.class, e -> assertThat(e.setting()).isEqualTo(Setting.SLOT_NAME))
                    .hasMessageContaining("slot 'busy' is in use by another consumer (walsender PID");
        }
    }
}
