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
 * The model of Connect's transaction context under {@code transaction.boundary=connector}: the task asks for a commit
 * or an abort after a record, or after the whole batch of a poll; {@link ExactlyOnceWorker} carries the requests out as
 * it dispatches the poll's records (Connect's {@code WorkerTransactionContext} and its
 * {@code TransactionBoundaryManager}).
 *
 * <p>What the task promises (docs/exactly-once.md), checked here: every Kafka transaction it commits holds whole
 * deliveries (each delivery's records on every topic, the last one carrying the offset after the delivery) and
 * heartbeats, at most {@code transaction.batch.max.deliveries} of them, and incremental snapshot chunk rows between
 * them (a chunk cut short by a failed poll leaves its first rows in the open transaction, which the next delivery
 * commits with it); a delivery is never split across transactions nor interleaved with anything else; after a poll
 * the open transaction holds no finished delivery or heartbeat (nothing finished waits for later traffic); a commit is
 * requested only for a record handed over in the same poll.
 */
final class SimulatedTransactions implements TransactionContext {

    private final Set<SourceRecord> commitOn = Collections.newSetFromMap(new IdentityHashMap<>());
    private final Set<SourceRecord> abortOn = Collections.newSetFromMap(new IdentityHashMap<>());
    private final int maxUnits;
    private boolean commitBatch;
    private boolean abortBatch;

    /** @param maxUnits {@code transaction.batch.max.deliveries} */
    SimulatedTransactions(int maxUnits) {
        this.maxUnits = maxUnits;
    }

    @Override
    public void commitTransaction() {
        commitBatch = true;
    }

    @Override
    public void commitTransaction(SourceRecord record) {
        commitOn.add(Objects.requireNonNull(record));
    }

    @Override
    public void abortTransaction() {
        abortBatch = true;
    }

    @Override
    public void abortTransaction(SourceRecord record) {
        abortOn.add(Objects.requireNonNull(record));
    }

    /** Whether the task asked for a commit right after {@code record}; the request is used up. */
    boolean commitRequestedOn(SourceRecord record) {
        return commitOn.remove(record);
    }

    /** Whether the task asked for an abort right after {@code record}; the request is used up. */
    boolean abortRequestedOn(SourceRecord record) {
        return abortOn.remove(record);
    }

    /** Whether the task asked for a commit after the whole batch; the request is used up. */
    boolean batchCommitRequested() {
        boolean requested = commitBatch;
        commitBatch = false;
        return requested;
    }

    /** Whether the task asked for an abort after the whole batch; the request is used up. */
    boolean batchAbortRequested() {
        boolean requested = abortBatch;
        abortBatch = false;
        return requested;
    }

    /** The worker died or the task stopped: requests for records never dispatched are forgotten. */
    void forget() {
        commitOn.clear();
        abortOn.clear();
        commitBatch = false;
        abortBatch = false;
    }

    /** The first broken rule of the transaction about to be committed with {@code records}, or null. */
    String checkCommitted(List<SourceRecord> records) {
        List<List<SourceRecord>> units = units(records);
        for (List<SourceRecord> unit : units) {
            SourceRecord last = unit.get(unit.size() - 1);
            if (unitOf(last).startsWith("delivery") && !endsDelivery(last)) {
                return "a Kafka transaction is committed with part of a delivery (" + unit.size() + " of its records, the last "
                        + describe(last) + ")";
            }
        }
        long deliveries = units.stream().filter(unit -> !isSnapshot(unit.get(0))).count();
        if (deliveries > maxUnits) {
            return "a Kafka transaction holds " + deliveries + " deliveries or heartbeats, more than"
                    + " transaction.batch.max.deliveries=" + maxUnits + ": " + describe(records.get(0)) + " ... " + describe(records.get(records.size() - 1));
        }
        return null;
    }

    /** The first broken rule once a poll's records are dispatched, {@code open} being the open transaction's, or null. */
    String checkPollEnd(List<SourceRecord> open) {
        if (!commitOn.isEmpty() || !abortOn.isEmpty()) {
            String unsent = describe((commitOn.isEmpty() ? abortOn : commitOn).iterator().next());
            forget();
            return "a commit or abort requested on a record not handed over in that poll: " + unsent;
        }
        for (SourceRecord record : open) {
            String unit = unitOf(record);
            if (unit.equals("heartbeat") || unit.startsWith("delivery") && endsDelivery(record)) {
                return "a finished " + (unit.equals("heartbeat") ? "heartbeat" : "delivery") + " waits in the open Kafka transaction"
                        + " for a later poll: " + describe(record);
            }
        }
        return null;
    }

    /** {@code records} cut into units: runs of one delivery, of chunk rows, and single heartbeats. */
    private static List<List<SourceRecord>> units(List<SourceRecord> records) {
        List<List<SourceRecord>> units = new ArrayList<>();
        String previous = null;
        for (SourceRecord record : records) {
            String unit = unitOf(record);
            if (!unit.equals(previous) || unit.equals("heartbeat")) {
                units.add(new ArrayList<>());
            }
            units.get(units.size() - 1).add(record);
            previous = unit;
        }
        return units;
    }

    /** What {@code record} belongs to: a delivery (by its end LSN and outcome), a snapshot chunk, or a heartbeat. */
    static String unitOf(SourceRecord record) {
        if (isSnapshot(record)) {
            return "snapshot";
        }
        String commitLsn = SimulatedKafka.header(record, LifecycleHeaders.COMMIT_LSN);
        return commitLsn == null ? "heartbeat" : "delivery " + commitLsn + " " + SimulatedKafka.header(record, LifecycleHeaders.OUTCOME);
    }

    static boolean isSnapshot(SourceRecord record) {
        return "true".equals(SimulatedKafka.header(record, LifecycleHeaders.SNAPSHOT));
    }

    private static boolean endsDelivery(SourceRecord record) {
        return !SourceOffsets.decode(record.sourceOffset()).isInsideDelivery();
    }

    static String describe(SourceRecord record) {
        return record.topic() + " xid=" + SimulatedKafka.header(record, LifecycleHeaders.XID) + " commit_lsn="
                + SimulatedKafka.header(record, LifecycleHeaders.COMMIT_LSN) + " outcome=" + SimulatedKafka.header(record, LifecycleHeaders.OUTCOME)
                + " order=" + SimulatedKafka.header(record, LifecycleHeaders.TX_ORDER) + " lsn=" + SimulatedKafka.header(record, LifecycleHeaders.LSN)
                + " offset=" + record.sourceOffset();
    }
}
