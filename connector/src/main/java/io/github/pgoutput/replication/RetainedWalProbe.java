package io.github.pgoutput.replication;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import java.util.function.LongConsumer;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Asks the server, at most every {@link #INTERVAL_MS} ms, how many bytes of WAL the slot retains
 * ({@link SlotManager#retainedWalBytes}) and hands the answer to a sink (the task's metrics). Keeps one normal SQL
 * connection open between probes. A failed probe is logged at DEBUG and hands nothing over, so the sink keeps the
 * last value: a metric never fails the task. No slot of that name hands nothing over either. Not thread-safe: one
 * caller thread (the task's poll thread).
 */
public final class RetainedWalProbe implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(RetainedWalProbe.class);
    static final long INTERVAL_MS = 10_000;

    private final String slotName;
    private final LongConsumer retainedWalBytes;
    private Connection connection;
    private long nextProbeNanos = System.nanoTime();

    /**
     * @param retainedWalBytes gets the bytes, or -1 while the slot reserves no WAL
     */
    public RetainedWalProbe(String slotName, LongConsumer retainedWalBytes) {
        this.slotName = slotName;
        this.retainedWalBytes = retainedWalBytes;
    }

    /** Probes when due; {@code settings} null (no stream opened yet) probes nothing. Never throws. */
    public void refreshIfDue(ReplicationSettings settings) {
        if (settings == null || System.nanoTime() - nextProbeNanos < 0) {
            return;
        }
        nextProbeNanos = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(INTERVAL_MS);
        try {
            if (connection == null || connection.isClosed()) {
                connection = PgConnections.openSql(settings);
            }
            OptionalLong bytes = SlotManager.retainedWalBytes(connection, slotName);
            if (bytes.isPresent()) {
                retainedWalBytes.accept(bytes.getAsLong());
            }
        } catch (SQLException e) {
            log.debug("Slot {}: asking for the retained WAL failed: {}", slotName, e.getMessage());
            close();
        }
    }

    @Override
    public void close() {
        if (connection != null) {
            try {
                connection.close();
            } catch (SQLException e) {
                log.debug("closing the metrics connection failed: {}", e.getMessage());
            }
            connection = null;
        }
    }
}
