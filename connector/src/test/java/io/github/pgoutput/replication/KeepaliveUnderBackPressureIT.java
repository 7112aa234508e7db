package io.github.pgoutput.replication;

import io.github.pgoutput.pgoutput.Lsn;
import io.github.pgoutput.testing.PostgresDatabase;
import io.github.pgoutput.testing.PostgresTest;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.List;

import static io.github.pgoutput.replication.LiveStreams.count;
import static io.github.pgoutput.replication.LiveStreams.readUntil;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A caller that stops reading for longer than wal_sender_timeout keeps its connection: the server's reply-requested
 * keepalives are answered by the session's keeper (docs/pgoutput-protocol.md §2.3, 9 item 9).
 */
class KeepaliveUnderBackPressureIT {

    private static final int TRANSACTIONS = 30;
    private static final int ROWS_PER_TRANSACTION = 2000;

    @PostgresTest(representative = 16)
    @Timeout(90)
    void survivesACallerThatDoesNotReadForFourTimesTheSenderTimeout(PostgresDatabase db) throws Exception {
        db.execute("CREATE TABLE t (id int, pad text)", "CREATE PUBLICATION pub FOR TABLE t");
        try (AutoCloseable timeout = db.cluster().withSystemSetting("wal_sender_timeout", "2s")) {
            ReplicationSettings settings = LiveStreams.settings(db, "slow_reader", "pub").build();
            try (ReplicationSession session = ReplicationSession.open(settings, Lsn.INVALID)) {
                assertThat(session.keepaliveGuardInterval()).isEqualTo(Duration.ofMillis(500));
                for (int i = 0; i < TRANSACTIONS; i++) {
                    db.execute("INSERT INTO t SELECT g, repeat('x', 100) FROM generate_series(1, " + ROWS_PER_TRANSACTION + ") g");
                }
                // The caller is busy elsewhere (say, waiting for Kafka) while the server keeps sending.
                Thread.sleep(8_000);

                List<WalFrame> frames = readUntil(session, count(TRANSACTIONS, "C"), Duration.ofSeconds(60));

                assertThat(frames.stream().filter(f -> f.tag() == 'I').count()).isEqualTo((long) TRANSACTIONS * ROWS_PER_TRANSACTION);
                assertThat(session.keeperStatusUpdates()).as("the keeper answered while the caller was away").isPositive();
            }
        }
    }
}
