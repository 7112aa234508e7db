package io.github.pgoutput.connect;

import java.util.ArrayList;
import java.util.List;

import org.apache.kafka.connect.source.SourceRecord;
import org.apache.kafka.connect.source.SourceTaskContext;
import org.apache.kafka.connect.source.TransactionContext;

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
 * <p>Without connector-defined boundaries Connect gives no {@link TransactionContext} and this does nothing.
 *
 * <p>Not thread-safe: the task's poll thread only.
 */
final class DeliveryTransactions {

    /** Connect's, or null when Connect defines the transaction boundaries (or does not use transactions). */
    private final TransactionContext context;
    /** The last records of the deliveries that end in the current poll, in emission order. */
    private final List<SourceRecord> ends = new ArrayList<>();
    /** Whether records of a delivery were handed over without its last: the Kafka transaction is open. */
    private boolean insideDelivery;

    DeliveryTransactions(TransactionContext context) {
        this.context = context;
    }

    /** The transactions of the task with {@code context}; a runtime older than Kafka 3.3 has no transaction context. */
    static DeliveryTransactions of(SourceTaskContext context) {
        return new DeliveryTransactions(context == null ? null : context.transactionContext());
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
        for (SourceRecord last : ends) {
            context.commitTransaction(last);
        }
        insideDelivery = ends.isEmpty() || ends.get(ends.size() - 1) != records.get(records.size() - 1);
        ends.clear();
    }

    /**
     * Whether the open Kafka transaction holds part of a delivery. After a reconnect it stays open until PostgreSQL
     * has sent that delivery again and its remaining records are emitted; nothing else may join it meanwhile (a
     * heartbeat would commit the part with the heartbeat's offset).
     */
    boolean insideDelivery() {
        return insideDelivery;
    }

    /** The current poll's records never reach Connect. */
    void abandoned() {
        ends.clear();
    }
}
