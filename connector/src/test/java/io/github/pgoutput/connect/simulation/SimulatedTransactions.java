package io.github.pgoutput.connect.simulation;

import io.github.pgoutput.connect.offsets.SourceOffsets;
import io.github.pgoutput.connect.record.LifecycleHeaders;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Objects;
import java.util.Set;

import org.apache.kafka.connect.source.SourceRecord;
import org.apache.kafka.connect.source.TransactionContext;

/**
 * The model of Connect's transaction context under {@code transaction.boundary=connector}: the task asks for commits
 * after records; the records handed to the producer since the last commit form the open Kafka transaction, which
 * stays open across polls and across retriable poll failures, and is aborted when the worker dies or the task stops.
 *
 * <p>What must hold, checked as each poll's records are handed over: every transaction the task commits holds the
 * records of exactly one delivery, the last of them the one carrying the offset after the delivery (a heartbeat is
 * a transaction of its own); every record carrying such an offset is committed on; a commit is requested only for a
 * record handed over in the same poll.
 */
final class SimulatedTransactions implements TransactionContext {

    private final Set<SourceRecord> requested = Collections.newSetFromMap(new IdentityHashMap<>());
    private final List<SourceRecord> open = new ArrayList<>();
    private final Set<SourceRecord> openSet = Collections.newSetFromMap(new IdentityHashMap<>());
    /** The records of the transactions committed since the last {@link #drainCommitted()}. */
    private final List<SourceRecord> committedRecords = new ArrayList<>();
    private long committed;

    @Override
    public void commitTransaction() {
        throw new AssertionError("the task commits after records, never a whole batch");
    }

    @Override
    public void commitTransaction(SourceRecord record) {
        requested.add(Objects.requireNonNull(record));
    }

    @Override
    public void abortTransaction() {
        throw new AssertionError("the task never aborts a transaction");
    }

    @Override
    public void abortTransaction(SourceRecord record) {
        throw new AssertionError("the task never aborts a transaction");
    }

    /** A poll's records go to the producer; returns the first broken rule, or null. */
    String handedOver(List<SourceRecord> records) {
        for (SourceRecord record : records) {
            open.add(record);
            openSet.add(record);
            boolean endsDelivery = !SourceOffsets.decode(record.sourceOffset()).isInsideDelivery();
            boolean commit = requested.remove(record);
            if (endsDelivery != commit) {
                return (commit ? "a commit requested on a record inside a delivery: " : "the record ending a delivery is not committed on: ")
                        + describe(record);
            }
            if (commit) {
                String broken = oneDelivery(open);
                if (broken != null) {
                    return broken;
                }
                committedRecords.addAll(open);
                open.clear();
                openSet.clear();
                committed++;
            }
        }
        if (!requested.isEmpty()) {
            String unsent = describe(requested.iterator().next());
            requested.clear();
            return "a commit requested on a record not handed over in that poll: " + unsent;
        }
        return null;
    }

    /** The worker dies or the task stops: the open transaction is aborted, requests for unsent records forgotten. */
    void aborted() {
        open.clear();
        openSet.clear();
        committedRecords.clear();
        requested.clear();
    }

    /** Whether {@code record} is in the open transaction (handed over, its transaction not committed). */
    boolean isOpen(SourceRecord record) {
        return openSet.contains(record);
    }

    /** The records of the transactions committed since the last call. */
    List<SourceRecord> drainCommitted() {
        List<SourceRecord> drained = List.copyOf(committedRecords);
        committedRecords.clear();
        return drained;
    }

    long committed() {
        return committed;
    }

    private static String oneDelivery(List<SourceRecord> transaction) {
        SourceRecord last = transaction.get(transaction.size() - 1);
        String xid = SimulatedKafka.header(last, LifecycleHeaders.XID);
        if (xid == null) {
            return transaction.size() == 1 ? null : "a heartbeat committed with " + (transaction.size() - 1) + " other records: " + describe(last);
        }
        for (SourceRecord record : transaction) {
            if (!Objects.equals(xid, SimulatedKafka.header(record, LifecycleHeaders.XID))
                    || !Objects.equals(SimulatedKafka.header(last, LifecycleHeaders.COMMIT_LSN), SimulatedKafka.header(record, LifecycleHeaders.COMMIT_LSN))
                    || !Objects.equals(SimulatedKafka.header(last, LifecycleHeaders.OUTCOME), SimulatedKafka.header(record, LifecycleHeaders.OUTCOME))) {
                return "one Kafka transaction holds records of two deliveries: " + describe(record) + " and " + describe(last);
            }
        }
        return null;
    }

    private static String describe(SourceRecord record) {
        return record.topic() + " xid=" + SimulatedKafka.header(record, LifecycleHeaders.XID) + " commit_lsn="
                + SimulatedKafka.header(record, LifecycleHeaders.COMMIT_LSN) + " outcome=" + SimulatedKafka.header(record, LifecycleHeaders.OUTCOME)
                + " order=" + SimulatedKafka.header(record, LifecycleHeaders.TX_ORDER) + " offset=" + record.sourceOffset();
    }
}
