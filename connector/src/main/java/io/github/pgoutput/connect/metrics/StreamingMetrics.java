package io.github.pgoutput.connect.metrics;

import java.time.Instant;
import java.util.concurrent.atomic.LongAdder;

import javax.management.ObjectName;

import io.github.pgoutput.assembly.Delivery;
import io.github.pgoutput.pgoutput.Lsn;

/**
 * The values behind {@link StreamingMetricsMXBean}. The task's poll thread writes them (plain volatile stores and
 * adders, no locks, nothing allocated per record); JMX readers compute derived values on read.
 */
public final class StreamingMetrics implements StreamingMetricsMXBean {

    private static final long RATE_MIN_INTERVAL_NANOS = 1_000_000_000L;

    private final ObjectName name;
    private volatile long lastCommitEpochMillis = -1;
    private volatile Lsn received = Lsn.INVALID;
    private volatile Lsn flushed = Lsn.INVALID;
    private volatile Lsn serverWalEnd = Lsn.INVALID;
    private volatile long retainedWalBytes = -1;
    private volatile int openStreamedTransactions;
    private volatile long spillBytes;
    private volatile int queueRemainingCapacity;
    private volatile boolean failoverSlot;
    private volatile String synchronizedStandbySlots = "";
    private volatile int physicalStandbys = -1;
    /** Unchanged TOAST resolution's counts, when the task resolves; null otherwise. */
    private volatile io.github.pgoutput.toast.ToastStats toast;
    private final LongAdder committed = new LongAdder();
    private final LongAdder prepared = new LongAdder();
    private final LongAdder rolledBack = new LongAdder();
    private final LongAdder records = new LongAdder();
    /** Rate window; touched by readers only, under this object's lock. */
    private long rateSampleNanos = System.nanoTime();
    private long rateSampleRecords;
    private double lastRate;

    public StreamingMetrics(String connector, int task) {
        name = TaskMBeans.name("streaming", connector, task);
    }

    public static ObjectName objectName(String connector, int task) {
        return new StreamingMetrics(connector, task).name;
    }

    ObjectName name() {
        return name;
    }

    /** Registers with the platform MBean server, replacing a leftover registration of a task that did not stop. */
    public void register() {
        TaskMBeans.register(this, name);
    }

    public void unregister() {
        TaskMBeans.unregister(name);
    }

    public void deliveryEmitted(Delivery delivery) {
        switch (delivery.kind()) {
            case COMMITTED -> committed.increment();
            case PREPARED -> prepared.increment();
            case ROLLED_BACK -> rolledBack.increment();
        }
        Instant time = delivery.time();
        if (time != null) {
            lastCommitEpochMillis = time.toEpochMilli();
        }
    }

    public void recordsEmitted(int count) {
        records.add(count);
    }

    public void session(Lsn receivedLsn, Lsn flushedLsn, Lsn walEnd) {
        received = receivedLsn;
        flushed = flushedLsn;
        serverWalEnd = walEnd;
    }

    public void assembly(int openStreamed, long spilled) {
        openStreamedTransactions = openStreamed;
        spillBytes = spilled;
    }

    public void queueRemainingCapacity(int remaining) {
        queueRemainingCapacity = remaining;
    }

    public void retainedWalBytes(long bytes) {
        retainedWalBytes = bytes;
    }

    /** What the server showed about a failover of the slot when streaming started. */
    public void failoverReadiness(boolean failover, String standbySlots, int standbys) {
        failoverSlot = failover;
        synchronizedStandbySlots = standbySlots == null ? "" : standbySlots;
        physicalStandbys = standbys;
    }

    @Override
    public boolean getFailoverSlot() {
        return failoverSlot;
    }

    @Override
    public String getSynchronizedStandbySlots() {
        return synchronizedStandbySlots;
    }

    @Override
    public int getPhysicalStandbys() {
        return physicalStandbys;
    }

    @Override
    public long getMillisBehindSource() {
        long commit = lastCommitEpochMillis;
        return commit < 0 ? -1 : Math.max(0, System.currentTimeMillis() - commit);
    }

    @Override
    public String getReceivedLsn() {
        return text(received);
    }

    @Override
    public String getFlushedLsn() {
        return text(flushed);
    }

    @Override
    public String getServerWalEndLsn() {
        return text(serverWalEnd);
    }

    private static String text(Lsn lsn) {
        return lsn == null || !lsn.isValid() ? "" : lsn.toString();
    }

    @Override
    public long getRetainedWalBytes() {
        return retainedWalBytes;
    }

    @Override
    public int getOpenStreamedTransactions() {
        return openStreamedTransactions;
    }

    @Override
    public long getSpillBytes() {
        return spillBytes;
    }

    @Override
    public long getCommittedDeliveries() {
        return committed.sum();
    }

    @Override
    public long getPreparedDeliveries() {
        return prepared.sum();
    }

    @Override
    public long getRolledBackDeliveries() {
        return rolledBack.sum();
    }

    @Override
    public long getRecordsEmitted() {
        return records.sum();
    }

    @Override
    public synchronized double getRecordsPerSecond() {
        long now = System.nanoTime();
        long elapsed = now - rateSampleNanos;
        if (elapsed >= RATE_MIN_INTERVAL_NANOS) {
            long total = records.sum();
            lastRate = (total - rateSampleRecords) * 1e9 / elapsed;
            rateSampleNanos = now;
            rateSampleRecords = total;
        }
        return lastRate;
    }

    @Override
    public int getQueueRemainingCapacity() {
        return queueRemainingCapacity;
    }

    /** The counts of unchanged TOAST resolution to report. */
    public void toast(io.github.pgoutput.toast.ToastStats stats) {
        this.toast = stats;
    }

    @Override
    public long getToastStoreHits() {
        var stats = toast;
        return stats == null ? 0 : stats.storeHits();
    }

    @Override
    public long getToastReselectHits() {
        var stats = toast;
        return stats == null ? 0 : stats.reselectHits();
    }

    @Override
    public long getToastUnresolved() {
        var stats = toast;
        return stats == null ? 0 : stats.unresolved();
    }

    @Override
    public long getToastReselectQueries() {
        var stats = toast;
        return stats == null ? 0 : stats.reselectQueries();
    }

    @Override
    public long getToastReselectRows() {
        var stats = toast;
        return stats == null ? 0 : stats.reselectRows();
    }
}
