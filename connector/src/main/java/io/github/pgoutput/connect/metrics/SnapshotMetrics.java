package io.github.pgoutput.connect.metrics;

import javax.management.ObjectName;

import io.github.pgoutput.snapshot.SnapshotProgress;

/**
 * The task's {@link SnapshotMetricsMBean}, reading a {@link SnapshotProgress} the task hands over when the snapshot
 * starts. Thread-safe: JMX reads from its own threads, the task sets the progress from the poll thread.
 */
public final class SnapshotMetrics implements SnapshotMetricsMBean {

    private final ObjectName name;
    private volatile SnapshotProgress progress;
    private volatile long startNanos;
    private volatile long endNanos;

    private SnapshotMetrics(ObjectName name) {
        this.name = name;
    }

    /** The object name {@code io.github.pgoutput:type=snapshot,connector=<connector>,task=<task>}. */
    public static ObjectName objectName(String connector, int task) {
        return TaskMBeans.name("snapshot", connector, task);
    }

    /** Registers the MBean on the platform MBean server, replacing one left by an earlier task of the same name. */
    public static SnapshotMetrics register(String connector, int task) {
        SnapshotMetrics metrics = new SnapshotMetrics(objectName(connector, task));
        TaskMBeans.register(metrics, metrics.name);
        return metrics;
    }

    public void unregister() {
        TaskMBeans.unregister(name);
    }

    public void started(SnapshotProgress snapshot, long startedNanos) {
        endNanos = 0;
        startNanos = startedNanos;
        progress = snapshot;
    }

    public void completed() {
        endNanos = System.nanoTime();
    }

    @Override
    public boolean isRunning() {
        return progress != null && endNanos == 0;
    }

    @Override
    public boolean isCompleted() {
        return progress != null && endNanos != 0;
    }

    @Override
    public long getRowsDone() {
        SnapshotProgress p = progress;
        return p == null ? 0 : p.rowsDone();
    }

    @Override
    public long getRowsEstimated() {
        SnapshotProgress p = progress;
        return p == null ? 0 : p.estimatedRows();
    }

    @Override
    public double getPercentDone() {
        long estimated = getRowsEstimated();
        return estimated <= 0 ? -1 : 100.0 * getRowsDone() / estimated;
    }

    @Override
    public double getRowsPerSecond() {
        if (progress == null) {
            return 0;
        }
        long end = endNanos == 0 ? System.nanoTime() : endNanos;
        long elapsed = end - startNanos;
        return elapsed <= 0 ? 0 : getRowsDone() * 1e9 / elapsed;
    }

    @Override
    public long getEtaSeconds() {
        double rate = getRowsPerSecond();
        long left = getRowsEstimated() - getRowsDone();
        if (!isRunning() || rate <= 0 || left < 0) {
            return -1;
        }
        return (long) (left / rate);
    }

    @Override
    public int getTablesDone() {
        SnapshotProgress p = progress;
        return p == null ? 0 : p.tablesDone();
    }

    @Override
    public int getTablesTotal() {
        SnapshotProgress p = progress;
        return p == null ? 0 : p.tableCount();
    }
}
