package io.github.pgoutput.replication;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Keeps a replication connection alive while its reader is busy elsewhere (for example waiting for Kafka).
 *
 * <p>pgjdbc answers keepalives and sends status updates only inside its read calls. A reader that stays away longer
 * than {@code wal_sender_timeout} would be disconnected, with no error text (docs/pgoutput-protocol.md §2.3). The server resets that timeout
 * on any reply from the client, so when the stream has not been used for the guard interval this class sends a status
 * update from a daemon thread. It takes the stream lock with {@code tryLock}: when the reader holds it, the reader is
 * using the stream and nothing needs doing.
 */
final class KeepaliveGuard {

    private static final Logger LOG = LoggerFactory.getLogger(KeepaliveGuard.class);

    @FunctionalInterface
    interface StatusSender {
        void send() throws SQLException;
    }

    private final long guardNanos;
    private final ReentrantLock streamLock;
    private final StatusSender sender;
    private final ScheduledExecutorService scheduler;
    private final AtomicReference<SQLException> failure = new AtomicReference<>();
    private final AtomicLong updatesSent = new AtomicLong();
    private volatile long lastUseNanos = System.nanoTime();

    KeepaliveGuard(String slotName, Duration guard, ReentrantLock streamLock, StatusSender sender) {
        this.guardNanos = guard.toNanos();
        this.streamLock = streamLock;
        this.sender = sender;
        this.scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "pgoutput-keepalive-" + slotName);
            t.setDaemon(true);
            return t;
        });
        long periodMillis = Math.max(10, guard.toMillis() / 4);
        scheduler.scheduleWithFixedDelay(this::tick, periodMillis, periodMillis, TimeUnit.MILLISECONDS);
    }

    /** Called by the reader, under the stream lock, after each use of the stream. */
    void streamUsed() {
        lastUseNanos = System.nanoTime();
    }

    long updatesSent() {
        return updatesSent.get();
    }

    /** Throws, on the reader's thread, a failure the keeper met; the connection is then gone. */
    void rethrowFailure() {
        SQLException e = failure.get();
        if (e != null) {
            throw SqlErrors.classify(e, "keeping the replication connection alive", Setting.HOSTNAME);
        }
    }

    void stop() {
        scheduler.shutdownNow();
        try {
            scheduler.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void tick() {
        if (failure.get() != null || System.nanoTime() - lastUseNanos < guardNanos || !streamLock.tryLock()) {
            return;
        }
        try {
            sender.send();
            lastUseNanos = System.nanoTime();
            updatesSent.incrementAndGet();
            LOG.debug("reader idle for over {} ms; sent a status update to keep the connection", guardNanos / 1_000_000);
        } catch (SQLException e) {
            failure.compareAndSet(null, e);
        } catch (RuntimeException e) {
            failure.compareAndSet(null, new SQLException("keepalive failed: " + e, SqlStates.CONNECTION_FAILURE, e));
        } finally {
            streamLock.unlock();
        }
    }
}
