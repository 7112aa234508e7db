package io.github.pgoutput.connect.metrics;

/**
 * The snapshot's progress as JMX attributes, registered by the task as
 * {@code io.github.pgoutput:type=snapshot,connector=<name>,task=<id>} from start to stop. Every value is 0 (ETA -1)
 * before a snapshot starts and keeps its final figures after it ended; figures are for the whole snapshot.
 */
public interface SnapshotMetricsMBean {

    /** true while the snapshot's rows are being emitted. */
    boolean isRunning();

    /** true once the snapshot's last row was handed to Connect. */
    boolean isCompleted();

    /** Rows read from the tables so far. */
    long getRowsDone();

    /** The sum of {@code pg_class.reltuples} of the tables (tables never analysed count 0). */
    long getRowsEstimated();

    /** rowsDone / rowsEstimated in percent; -1 when the estimate is 0. */
    double getPercentDone();

    /** Rows read per second since the snapshot started. */
    double getRowsPerSecond();

    /** Seconds left at the current rate; -1 when unknown or done. */
    long getEtaSeconds();

    int getTablesDone();

    int getTablesTotal();
}
