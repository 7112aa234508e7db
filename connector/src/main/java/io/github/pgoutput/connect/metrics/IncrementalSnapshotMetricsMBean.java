package io.github.pgoutput.connect.metrics;

/**
 * Progress of the incremental snapshot under way, as JMX attributes of
 * {@code io.github.pgoutput:type=incremental-snapshot,connector=<name>,task=0}. Counts start again with each
 * {@code execute-snapshot} that finds no snapshot under way.
 */
public interface IncrementalSnapshotMetricsMBean {

    /** True while tables are left to read (also while paused). */
    boolean isRunning();

    boolean isPaused();

    /** The table being read; empty when none. */
    String getCurrentTable();

    int getTablesLeft();

    int getTablesDone();

    long getChunksDone();

    long getRowsDone();

    /** Rows emitted from the current table. */
    long getCurrentTableRowsDone();

    /** The planner's estimate of the current table's rows; -1 when unknown. */
    long getCurrentTableRowsEstimated();

    /** Rows per second since the snapshot started. */
    double getRowsPerSecond();

    /** Seconds until the current table is read, at the rate so far; -1 when unknown. */
    long getCurrentTableEtaSeconds();
}
