package io.github.pgoutput.connect.metrics;

import io.github.pgoutput.snapshot.IncrementalSnapshot;
import java.util.List;
import java.util.function.LongSupplier;
import javax.management.ObjectName;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The incremental snapshot's progress: counted by the task's poll thread, read by JMX ({@link
 * IncrementalSnapshotMetricsMBean}) and written to the log at most every {@code logIntervalNanos} (chunks, rows,
 * rate, ETA of the current table), and when a snapshot is held back, so that a snapshot that makes no progress says
 * why. Thread-safe for readers: the fields are volatile, one writer.
 */
public final class IncrementalSnapshotMetrics implements IncrementalSnapshotMetricsMBean, IncrementalSnapshot.Progress {

    private static final Logger log = LoggerFactory.getLogger(IncrementalSnapshotMetrics.class);

    private final LongSupplier nanos;
    private final long logIntervalNanos;
    private ObjectName name;
    private long nextLogNanos;
    private volatile long startNanos;
    private volatile boolean running;
    private volatile boolean paused;
    private volatile String currentTable = "";
    private volatile int tablesLeft;
    private volatile int tablesDone;
    private volatile long chunksDone;
    private volatile long rowsDone;
    private volatile long tableRowsDone;
    private volatile long tableRowsEstimated = -1;

    public IncrementalSnapshotMetrics(LongSupplier nanos, long logIntervalNanos) {
        this.nanos = nanos;
        this.logIntervalNanos = logIntervalNanos;
        this.nextLogNanos = nanos.getAsLong() + logIntervalNanos;
    }

    /** The object name {@code io.github.pgoutput:type=incremental-snapshot,connector=<connector>,task=<task>}. */
    public static ObjectName objectName(String connector, int task) {
        return TaskMBeans.name("incremental-snapshot", connector, task);
    }

    /** Registers on the platform MBean server, replacing one left by an earlier task of the same name. */
    public IncrementalSnapshotMetrics register(String connector, int task) {
        ObjectName objectName = objectName(connector, task);
        if (TaskMBeans.register(this, objectName)) {
            name = objectName;
        }
        return this;
    }

    public void unregister() {
        if (name != null) {
            TaskMBeans.unregister(name);
        }
    }

    /** Where the snapshot stands now: the tables left (the first being read) and whether it is paused. */
    public void state(List<String> tablesToRead, boolean isPaused) {
        boolean wasRunning = running;
        running = !tablesToRead.isEmpty();
        if (running && !wasRunning) {
            startNanos = nanos.getAsLong();
            chunksDone = 0;
            rowsDone = 0;
            tablesDone = 0;
        }
        String current = running ? tablesToRead.get(0) : "";
        if (!current.equals(currentTable)) {
            currentTable = current;
            tableRowsDone = 0;
            tableRowsEstimated = -1;
        }
        tablesLeft = tablesToRead.size();
        paused = isPaused;
    }

    /** A chunk of {@code rows} rows of the current table was emitted; its estimated size is {@code estimatedRows}. */
    public void chunk(int rows, long estimatedRows) {
        chunksDone++;
        rowsDone += rows;
        tableRowsDone += rows;
        tableRowsEstimated = estimatedRows;
        long now = nanos.getAsLong();
        if (now - nextLogNanos >= 0) {
            nextLogNanos = now + logIntervalNanos;
            long eta = getCurrentTableEtaSeconds();
            log.info("Incremental snapshot: {} rows of {} ({}), {} chunk(s) and {} row(s) in all at {} rows/s; {} table(s) left{}",
                    tableRowsDone, currentTable, tableRowsEstimated < 0 ? "size unknown" : "~" + tableRowsEstimated + " estimated",
                    chunksDone, rowsDone, Math.round(getRowsPerSecond()), tablesLeft, eta < 0 ? "" : ", this table in ~" + eta + " s");
        }
    }

    /** A table was read through. */
    public void tableDone(String table) {
        tablesDone++;
        log.info("Incremental snapshot of {} finished: {} row(s)", table, tableRowsDone);
    }

    /** No chunk can be read now, because of {@code reason}; logged at most once per interval. */
    public void held(String reason) {
        long now = nanos.getAsLong();
        if (now - nextLogNanos >= 0) {
            nextLogNanos = now + logIntervalNanos;
            log.info("Incremental snapshot waits: {}", reason);
        }
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    @Override
    public boolean isPaused() {
        return paused;
    }

    @Override
    public String getCurrentTable() {
        return currentTable;
    }

    @Override
    public int getTablesLeft() {
        return tablesLeft;
    }

    @Override
    public int getTablesDone() {
        return tablesDone;
    }

    @Override
    public long getChunksDone() {
        return chunksDone;
    }

    @Override
    public long getRowsDone() {
        return rowsDone;
    }

    @Override
    public long getCurrentTableRowsDone() {
        return tableRowsDone;
    }

    @Override
    public long getCurrentTableRowsEstimated() {
        return tableRowsEstimated;
    }

    @Override
    public double getRowsPerSecond() {
        long elapsed = nanos.getAsLong() - startNanos;
        return !running || elapsed <= 0 ? 0 : rowsDone * 1e9 / elapsed;
    }

    @Override
    public long getCurrentTableEtaSeconds() {
        double rate = getRowsPerSecond();
        long left = tableRowsEstimated - tableRowsDone;
        return !running || rate <= 0 || tableRowsEstimated < 0 || left < 0 ? -1 : (long) (left / rate);
    }
}
