package io.github.pgoutput.connect;

import io.github.pgoutput.connect.config.ConnectKeys;
import io.github.pgoutput.connect.config.PgOutputSourceConnectorConfig;
import io.github.pgoutput.connect.config.ThroughputKeys;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.source.SourceRecord;
import org.apache.kafka.connect.source.SourceTaskContext;
import org.apache.kafka.connect.source.TransactionContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Connector-defined Kafka transactions ({@code transaction.boundary=connector} on a worker with exactly-once source
 * support): each delivery's records and its source offset are written in one Kafka transaction, which Connect
 * commits after the delivery's last record. A {@code read_committed} consumer then sees a PostgreSQL transaction
 * (or a PREPARED delivery, a COMMITTED or ROLLED_BACK outcome, a logical message, a heartbeat) whole or not at all,
 * on every topic it touches.
 *
 * <p>The records of one delivery may span many polls: the Kafka transaction then stays open across them. A delivery
 * whose records are all filtered out has no records and needs no commit; one that has records always emits its last
 * one, the record that carries the offset after the delivery. Commits are requested only when the poll holding the
 * record hands its records to Connect: a poll that fails hands nothing over, and the records it built come again.
 * Snapshot records are not deliveries; each snapshot poll's records are one transaction, as with poll boundaries.
 *
 * <p>Connect acknowledges the records of a transaction ({@code commitRecord}) only once it has committed it, so the
 * records of the open transaction cannot count against {@code max.queue.size}: the delivery could never reach its
 * last record, and the transaction never commit. {@link #openRecords()} is what the task leaves out. Connect holds
 * those records in memory until the commit, so a delivery's size costs worker heap.
 *
 * <p>A delivery must reach its last record within the producer's {@code transaction.timeout.ms} (60 s unless the
 * connector sets {@code producer.override.transaction.timeout.ms}), or the broker aborts its transaction. A WARN names
 * the setting once a delivery has kept the transaction open for half of it; a delivery still open at the timeout
 * fails the task with a message naming the settings, never a split or a partial commit.
 *
 * <p>{@code transaction.batch.max.deliveries} above 1 lets whole deliveries that end in the same poll share one Kafka
 * transaction (at most that many each): the commit is requested after every n-th delivery ending in the poll and
 * after the last one, so a delivery is never split and nothing finished waits for a later poll. It trades the
 * per-transaction cost (a commit round trip and a marker per partition) against a consumer seeing several small
 * PostgreSQL transactions appear in one step, each still whole.
 *
 * <p>Without connector-defined boundaries Connect gives no {@link TransactionContext} and this does nothing.
 *
 * <p>Not thread-safe: the task's poll thread only.
 */
final class DeliveryTransactions {

    private static final Logger log = LoggerFactory.getLogger(DeliveryTransactions.class);
    /** The producer's own default {@code transaction.timeout.ms}. */
    static final long PRODUCER_TRANSACTION_TIMEOUT_DEFAULT_MS = 60_000;

    /** Connect's, or null when Connect defines the transaction boundaries (or does not use transactions). */
    private final TransactionContext context;
    /** The last records of the deliveries that end in the current poll, in emission order. */
    private final List<SourceRecord> ends = new ArrayList<>();
    /** The records handed over since the last requested commit: the open Kafka transaction's (a delivery's first part). */
    private long openRecords;
    private final LongSupplier nanoTime;
    private final long timeoutMs;
    private final String slot;
    /** {@code transaction.max.records}: the most records the open transaction may hold. */
    private final long maxOpenRecords;
    /** {@code transaction.batch.max.deliveries}: the most whole deliveries one Kafka transaction may hold. */
    private final int maxDeliveries;
    /** When the open transaction got its first record; valid while {@link #openRecords} is positive. */
    private long openedNanos;
    private boolean warned;

    /** For tests: the producer's default timeout, the system clock. */
    DeliveryTransactions(TransactionContext context) {
        this(context, System::nanoTime, PRODUCER_TRANSACTION_TIMEOUT_DEFAULT_MS, "slot", Long.MAX_VALUE);
    }

    /**
     * @param timeoutMs the producer's {@code transaction.timeout.ms}
     * @param slot      the slot's name, for the log
     */
    DeliveryTransactions(TransactionContext context, LongSupplier nanoTime, long timeoutMs, String slot) {
        this(context, nanoTime, timeoutMs, slot, Long.MAX_VALUE);
    }

    /** @param maxOpenRecords {@code transaction.max.records} */
    DeliveryTransactions(TransactionContext context, LongSupplier nanoTime, long timeoutMs, String slot, long maxOpenRecords) {
        this(context, nanoTime, timeoutMs, slot, maxOpenRecords, 1);
    }

    /** @param maxDeliveries {@code transaction.batch.max.deliveries}, at least 1 */
    DeliveryTransactions(TransactionContext context, LongSupplier nanoTime, long timeoutMs, String slot, long maxOpenRecords,
                         int maxDeliveries) {
        if (maxDeliveries < 1) {
            throw new IllegalArgumentException("transaction.batch.max.deliveries must be at least 1, not " + maxDeliveries);
        }
        this.maxDeliveries = maxDeliveries;
        this.maxOpenRecords = maxOpenRecords;
        this.context = context;
        this.nanoTime = nanoTime;
        this.timeoutMs = timeoutMs;
        this.slot = slot;
    }

    /**
     * The transactions of the task with {@code context} and the connector configuration {@code props} (which hold the
     * connector's producer overrides); a runtime older than Kafka 3.3 has no transaction context.
     */
    static DeliveryTransactions of(SourceTaskContext context, Map<String, String> props, LongSupplier nanoTime, String slot,
                                   long maxOpenRecords, int maxDeliveries) {
        String override = props.get(ConnectKeys.PRODUCER_TRANSACTION_TIMEOUT_CONFIG);
        long timeoutMs = PRODUCER_TRANSACTION_TIMEOUT_DEFAULT_MS;
        if (override != null) {
            try {
                timeoutMs = Long.parseLong(override.trim());
            } catch (NumberFormatException e) {
                // The producer refuses it when it starts, with its own message; keep the default for the WARN.
            }
        }
        return new DeliveryTransactions(context == null ? null : context.transactionContext(), nanoTime, timeoutMs, slot,
                maxOpenRecords, maxDeliveries);
    }

    /** The transaction timeout the start-up advice recommends under poll (or interval) boundaries. */
    static final long POLL_BOUNDARY_TIMEOUT_ADVICE_MS = 10_000;

    /**
     * What a crash of the worker costs under exactly-once, for the task's start-up log; empty when the configuration
     * {@code props} asks for no exactly-once delivery ({@code exactly.once.support=required} or an explicit
     * {@code transaction.boundary}).
     *
     * <p>Why: Connect writes a transaction's source offset into the offsets topic inside the transaction. A worker
     * killed while such a transaction is open leaves it open, and a restarted worker reads the offsets topic
     * read_committed to its end before it starts anything (a worker taking over the task reads it before the task
     * starts): that read waits until the broker aborts the dead producer's transaction, after its
     * {@code transaction.timeout.ms} and the broker's next check for timed-out transactions (every 10 s by default).
     * Measured (WorkerKillIT, scenarios/worker-kill.sh): with poll boundaries and the producer's default 60 s, that read
     * took 60-64 s in two of three runs; with 10 s, 8 s when a kill hit such a transaction. Under poll boundaries a transaction is one poll and commits in well
     * under a second, so a short timeout costs nothing; under connector boundaries it must exceed the longest
     * delivery, and a crash during a commit then holds recovery for as long.
     */
    static Optional<String> crashRecoveryAdvice(Map<String, String> props, long timeoutMs) {
        String boundary = props.get(ConnectKeys.TRANSACTION_BOUNDARY_CONFIG);
        boolean required = "required".equalsIgnoreCase(String.valueOf(props.get(ConnectKeys.EXACTLY_ONCE_SUPPORT_CONFIG)).trim());
        if (boundary == null && !required) {
            return Optional.empty();
        }
        boolean connector = boundary != null && "connector".equalsIgnoreCase(boundary.trim());
        boolean overridden = props.containsKey(ConnectKeys.PRODUCER_TRANSACTION_TIMEOUT_CONFIG);
        String timeout = "the producer's transaction.timeout.ms (" + timeoutMs + " ms"
                + (overridden ? ", from " + ConnectKeys.PRODUCER_TRANSACTION_TIMEOUT_CONFIG : ", its default") + ")";
        String cost = "If this worker is killed while a Kafka transaction of this task is open, the worker restarted"
                + " (or one taking the task over) reads the offsets topic only once the broker has aborted that"
                + " transaction: up to " + timeout + " plus the broker's transaction.abort.timed.out.transaction.cleanup.interval.ms"
                + " (10000 ms by default), during which it starts no connector. ";
        if (connector) {
            return Optional.of(cost + "Under transaction.boundary=connector that timeout must exceed the longest"
                    + " delivery (a delivery still open at it fails the task), so keep "
                    + ConnectKeys.PRODUCER_TRANSACTION_TIMEOUT_CONFIG + " as low as the largest transaction allows.");
        }
        if (timeoutMs <= POLL_BOUNDARY_TIMEOUT_ADVICE_MS) {
            return Optional.of(cost + "Each Kafka transaction here is one poll, well under that timeout.");
        }
        return Optional.of(cost + "Each Kafka transaction here is one poll, which commits in well under a second:"
                + " set " + ConnectKeys.PRODUCER_TRANSACTION_TIMEOUT_CONFIG + "=" + POLL_BOUNDARY_TIMEOUT_ADVICE_MS
                + " on the connector to bound that wait (workers need connector.client.config.override.policy=All, the"
                + " default).");
    }

    long timeoutMs() {
        return timeoutMs;
    }

    /** Whether the delivery in the open transaction was warned about for nearing the transaction timeout. */
    boolean warnedOfTimeout() {
        return warned;
    }

    /** Whether the connector defines the Kafka transactions ({@code transaction.boundary=connector}). */
    boolean connectorDefined() {
        return context != null;
    }

    /** {@code last}, in the current poll's records, ends a delivery (or a snapshot batch): commit after it. */
    void ended(SourceRecord last) {
        if (context != null) {
            ends.add(last);
        }
    }

    /** {@code records}, the current poll's, go to Connect: request the commits after the deliveries that ended in it. */
    void handedOver(List<SourceRecord> records) {
        if (context == null || records.isEmpty()) {
            return;
        }
        for (int i = 0; i < ends.size(); i++) {
            // The poll's last end always commits: whole deliveries never wait in an open transaction for a later poll.
            if ((i + 1) % maxDeliveries == 0 || i == ends.size() - 1) {
                context.commitTransaction(ends.get(i));
            }
        }
        boolean wasInside = openRecords > 0 && ends.isEmpty();
        if (ends.isEmpty()) {
            openRecords += records.size();
        } else {
            SourceRecord lastEnd = ends.get(ends.size() - 1);
            int at = records.size() - 1;
            while (at >= 0 && records.get(at) != lastEnd) {
                at--;
            }
            openRecords = records.size() - 1 - at;
        }
        ends.clear();
        if (openRecords == 0) {
            return;
        }
        if (openRecords > maxOpenRecords) {
            // Connect holds the open transaction's records in heap until it commits: a bound, not a silent split.
            throw new ConnectException("Slot '" + slot + "': one delivery has put " + openRecords + " records into its open"
                    + " Kafka transaction, more than " + ThroughputKeys.TRANSACTION_MAX_RECORDS_CONFIG + "="
                    + maxOpenRecords + " (transaction.boundary=connector keeps them all in worker heap until the commit)."
                    + " Nothing of it is committed: the transaction aborts and the delivery comes again when the task is"
                    + " restarted. Raise " + ThroughputKeys.TRANSACTION_MAX_RECORDS_CONFIG + " with the worker's"
                    + " heap and " + ConnectKeys.PRODUCER_TRANSACTION_TIMEOUT_CONFIG + ", or use"
                    + " transaction.boundary=poll");
        }
        long now = nanoTime.getAsLong();
        if (!wasInside) {
            openedNanos = now;
            warned = false;
            return;
        }
        long openMs = TimeUnit.NANOSECONDS.toMillis(now - openedNanos);
        requireWithinTimeout(openMs);
        if (!warned && openMs > timeoutMs / 2) {
            warned = true;
            log.warn("Slot {}: one delivery has kept its Kafka transaction open for {} ms, and the producer's transaction.timeout.ms"
                    + " is {} ms: the broker aborts a transaction open longer, and the task then fails and starts the delivery"
                    + " again. For transactions this big, set {} on the connector (at most the broker's transaction.max.timeout.ms,"
                    + " 900000 by default) and connector.client.config.override.policy=All on the workers", slot, openMs, timeoutMs,
                    ConnectKeys.PRODUCER_TRANSACTION_TIMEOUT_CONFIG);
        }
    }

    /**
     * A poll that hands nothing over while a delivery's transaction is open (the stream is slow, or reconnecting):
     * the transaction still ages, and one past the producer's timeout fails the task as in {@link #handedOver}.
     */
    void idle() {
        if (context != null && openRecords > 0) {
            requireWithinTimeout(TimeUnit.NANOSECONDS.toMillis(nanoTime.getAsLong() - openedNanos));
        }
    }

    /**
     * The delivery in the open transaction has not ended after {@code openMs}: past the producer's timeout the broker
     * aborts that transaction (at its next check, every transaction.abort.timed.out.transaction.cleanup.interval.ms),
     * so it can never commit. The task fails now, with the settings to change, rather than go on writing into an
     * aborted transaction and fail later with the producer's own error (an epoch or fencing exception that names
     * no setting). The timeout is the connector's override or the producer's default: a worker-level
     * producer.transaction.timeout.ms is not visible to a task, so a longer timeout must be stated on the connector.
     */
    private void requireWithinTimeout(long openMs) {
        if (openMs < timeoutMs) {
            return;
        }
        String perRecord = openRecords == 0 ? "?" : String.format(Locale.ROOT, "%.1f", openMs * 1000.0 / openRecords);
        throw new ConnectException("Slot '" + slot + "': one delivery has kept its Kafka transaction open for " + openMs
                + " ms with " + openRecords + " records written so far (about " + perRecord + " microseconds a record), and"
                + " it has not ended: the producer's transaction.timeout.ms is " + timeoutMs + " ms, after which the broker"
                + " aborts the transaction. Nothing of this delivery is committed, so a read_committed consumer sees none of"
                + " it, and it is written again, whole, when the task is restarted. Set "
                + ConnectKeys.PRODUCER_TRANSACTION_TIMEOUT_CONFIG + " on the connector above the time the"
                + " largest transaction takes (its rows times the time a record, plus a margin), at most the broker's"
                + " transaction.max.timeout.ms (900000 by default; raise it on the brokers for more), with"
                + " connector.client.config.override.policy=All on the workers; or use transaction.boundary=poll");
    }

    /**
     * Whether the open Kafka transaction holds part of a delivery. After a reconnect it stays open until PostgreSQL
     * has sent that delivery again and its remaining records are emitted; nothing else may join it meanwhile (a
     * heartbeat would commit the part with the heartbeat's offset).
     */
    boolean insideDelivery() {
        return openRecords > 0;
    }

    /** How many records of the open Kafka transaction Connect holds unacknowledged until it commits; 0 without one. */
    long openRecords() {
        return openRecords;
    }

    /** The current poll's records never reach Connect. */
    void abandoned() {
        ends.clear();
    }
}
