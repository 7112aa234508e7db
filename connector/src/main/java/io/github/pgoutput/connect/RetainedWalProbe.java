package io.github.pgoutput.connect;

import io.github.pgoutput.connect.metrics.StreamingMetrics;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.concurrent.TimeUnit;

import io.github.pgoutput.replication.PgConnections;
import io.github.pgoutput.replication.ReplicationSettings;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Asks the server, at most every {@link #INTERVAL_MS} ms, how many bytes of WAL the slot retains
 * ({@code pg_current_wal_lsn() - restart_lsn}) and puts the answer into {@link StreamingMetrics}. Keeps one normal
 * SQL connection open between probes. A failed probe is logged at DEBUG and leaves the last value: a metric never
 * fails the task. Poll thread only.
 */
final class RetainedWalProbe implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(RetainedWalProbe.class);
    static final long INTERVAL_MS = 10_000;
    private static final String QUERY = "SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), restart_lsn)::bigint"
            + " FROM pg_replication_slots WHERE slot_name = ?";

    private final String slotName;
    private final StreamingMetrics metrics;
    private Connection connection;
    private long nextProbeNanos = System.nanoTime();

    RetainedWalProbe(String slotName, StreamingMetrics metrics) {
        this.slotName = slotName;
        this.metrics = metrics;
    }

    void refreshIfDue(ReplicationSettings settings) {
        if (settings == null || System.nanoTime() - nextProbeNanos < 0) {
            return;
        }
        nextProbeNanos = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(INTERVAL_MS);
        try {
            if (connection == null || connection.isClosed()) {
                connection = PgConnections.openSql(settings);
            }
            try (PreparedStatement statement = connection.prepareStatement(QUERY)) {
                statement.setString(1, slotName);
                try (ResultSet rs = statement.executeQuery()) {
                    if (rs.next()) {
                        long bytes = rs.getLong(1);
                        metrics.retainedWalBytes(rs.wasNull() ? -1 : bytes);
                    }
                }
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
