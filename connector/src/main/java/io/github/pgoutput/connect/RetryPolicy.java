package io.github.pgoutput.connect;

import io.github.pgoutput.connect.config.ReplicationKeys;
import io.github.pgoutput.replication.ReplicationConnectionLostException;
import io.github.pgoutput.replication.SqlStates;
import java.sql.SQLException;
import org.apache.kafka.connect.errors.ConnectException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one place that decides what the task does after a transient failure: try again after a pause, or fail.
 * Two budgets, both renewed when a replication session opens:
 * <ul>
 *   <li>refusals that end by themselves or never (a slot another walsender holds, a server that is still a standby
 *       during a promotion): {@code slot.max.retries} retries, {@code slot.retry.delay.ms} apart;</li>
 *   <li>every other transient failure (a connection refused, lost or not yet possible): {@code errors.max.retries}
 *       retries (-1: no limit), {@link #RECONNECT_BACKOFF_MS} apart, so a server that stays away shows as a FAILED
 *       task with its last error rather than as a RUNNING one that delivers nothing.</li>
 * </ul>
 * Not thread-safe: the task's poll thread.
 */
final class RetryPolicy {

    private static final Logger log = LoggerFactory.getLogger(RetryPolicy.class);

    /**
     * The pause before a new attempt after a transient failure other than a bounded refusal. During a failover the
     * task waits in these steps for a standby to be promoted, so they bound the time from the promotion to the first
     * new record; an attempt costs one connection per host in database.hostname.
     */
    static final long RECONNECT_BACKOFF_MS = 1_000;

    /** Try again after {@code delayMillis}. */
    record Retry(long delayMillis) {
    }

    private final String slotName;
    private final int errorsMaxRetries;
    private final int slotMaxRetries;
    private final long slotRetryDelayMs;
    /** Bounded refusals since the last session that opened. */
    private int boundedRefusals;
    /** Other transient failures since the last session that opened. */
    private int connectionRetries;

    RetryPolicy(String slotName, int errorsMaxRetries, int slotMaxRetries, long slotRetryDelayMs) {
        this.slotName = slotName;
        this.errorsMaxRetries = errorsMaxRetries;
        this.slotMaxRetries = slotMaxRetries;
        this.slotRetryDelayMs = slotRetryDelayMs;
    }

    /** A replication session opened: both budgets are whole again. */
    void sessionOpened() {
        boundedRefusals = 0;
        connectionRetries = 0;
    }

    /**
     * A transient failure while the task starts: Connect fails a task whose start() throws, so the first polls decide
     * instead, after the pause this returns. Counted, but never over budget here: the polls after it check.
     */
    long atStart(Throwable error) {
        if (boundedRefusal(error) != null) {
            boundedRefusals++;
            return slotRetryDelayMs;
        }
        connectionRetries++;
        return RECONNECT_BACKOFF_MS;
    }

    /**
     * A transient failure of a poll, classified as {@code classified}: the pause before the next attempt.
     *
     * @throws ConnectException when the budget is spent, naming the keys that set it and the last error
     */
    Retry afterPollFailure(ConnectException classified, Throwable error) {
        ReplicationConnectionLostException bounded = boundedRefusal(error);
        if (bounded == null) {
            if (errorsMaxRetries >= 0 && ++connectionRetries > errorsMaxRetries) {
                throw new ConnectException("Slot '" + slotName + "': no replication session after "
                        + errorsMaxRetries + " retries " + RECONNECT_BACKOFF_MS + " ms apart ("
                        + ReplicationKeys.ERRORS_MAX_RETRIES_CONFIG + "; -1 retries without limit);"
                        + " restart the task once the server is reachable. Last error: " + classified.getMessage(), error);
            }
            log.warn("Slot {}: {}; reconnecting from the last confirmed position (retry {} of {}, {})", slotName,
                    classified.getMessage(), connectionRetries, errorsMaxRetries < 0 ? "no limit" : Integer.toString(errorsMaxRetries),
                    ReplicationKeys.ERRORS_MAX_RETRIES_CONFIG);
            return new Retry(RECONNECT_BACKOFF_MS);
        }
        if (++boundedRefusals > slotMaxRetries) {
            throw new ConnectException("Slot '" + slotName + "' " + bounded.boundedBecause() + " after "
                    + slotMaxRetries + " retries " + slotRetryDelayMs + " ms apart ("
                    + ReplicationKeys.SLOT_MAX_RETRIES_CONFIG + ", "
                    + ReplicationKeys.SLOT_RETRY_DELAY_MS_CONFIG + "): " + bounded.getMessage(), error);
        }
        log.warn("Slot {}: {}; retry {} of {} ({}) in {} ms", slotName, bounded.getMessage(), boundedRefusals,
                slotMaxRetries, ReplicationKeys.SLOT_MAX_RETRIES_CONFIG, slotRetryDelayMs);
        return new Retry(slotRetryDelayMs);
    }

    /**
     * The refusal in {@code error} that the task retries only slot.max.retries times: a slot another walsender holds,
     * or a server that is (still) a standby during a promotion (also a read-only refusal that reached the task as a
     * plain SQLException, from a path that does not classify its own errors). Null for anything else.
     */
    private static ReplicationConnectionLostException boundedRefusal(Throwable error) {
        for (Throwable t = error; t != null; t = t.getCause()) {
            if (t instanceof ReplicationConnectionLostException lost && lost.isBounded()) {
                return lost;
            }
            if (t instanceof SQLException sql && SqlStates.isReadOnlyTransaction(sql.getSQLState())) {
                return ReplicationConnectionLostException.standby(sql.getMessage(), sql);
            }
        }
        return null;
    }
}
