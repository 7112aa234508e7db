package io.github.pgoutput.snapshot;

import io.github.pgoutput.replication.TableName;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Progress of one snapshot, per table and in total: the figures the log lines show and the connect layer publishes as
 * metrics. Thread-safe: the readers update it, anyone may read it.
 */
public final class SnapshotProgress {

    /** Where a table is. */
    public enum State { WAITING, READING, DONE }

    /**
     * One table's figures at one moment.
     *
     * @param estimatedRows  {@code pg_class.reltuples} when reading began, -1 when unknown
     * @param percent        rows done of the estimate (may pass 100 when the estimate is low), -1 when unknown
     * @param rowsPerSecond  since the table's reading began; 0 before
     * @param eta            time left at the current rate, null when unknown or done
     */
    public record TableStatus(TableName table, State state, long rowsDone, long estimatedRows, double percent, double rowsPerSecond,
                              Duration eta, Duration elapsed) {

        /** The log line's text, e.g. {@code public.orders: 120000 of ~2000000 rows (6.0 %), 150000 rows/s, ETA 12 s}. */
        public String describe() {
            StringBuilder sb = new StringBuilder().append(table).append(": ").append(rowsDone).append(" of ")
                    .append(estimatedRows < 0 ? "an unknown number of" : "~" + estimatedRows).append(" rows");
            if (percent >= 0) {
                sb.append(String.format(Locale.ROOT, " (%.1f %%)", percent));
            }
            sb.append(String.format(Locale.ROOT, ", %.0f rows/s", rowsPerSecond));
            if (eta != null) {
                sb.append(", ETA ").append(eta.toSeconds()).append(" s");
            }
            return sb.append(", ").append(elapsed.toMillis()).append(" ms elapsed").toString();
        }
    }

    private final List<Counter> counters = new ArrayList<>();

    SnapshotProgress(List<SnapshotTable> tables) {
        for (SnapshotTable t : tables) {
            counters.add(new Counter(t.name(), t.estimatedRows()));
        }
    }

    Counter counter(int index) {
        return counters.get(index);
    }

    /** Every table in reading order. */
    public List<TableStatus> tables() {
        long now = System.nanoTime();
        return counters.stream().map(c -> c.status(now)).toList();
    }

    public int tableCount() {
        return counters.size();
    }

    public int tablesDone() {
        return (int) counters.stream().filter(c -> c.endNanos != 0).count();
    }

    public long rowsDone() {
        return counters.stream().mapToLong(c -> c.rows.get()).sum();
    }

    /** Sum of the known estimates; tables never analysed count as 0. */
    public long estimatedRows() {
        return counters.stream().mapToLong(c -> Math.max(0, c.estimatedRows)).sum();
    }

    /** One table's counters; rows are counted by the threads reading the table's parts. */
    static final class Counter {
        final TableName table;
        final long estimatedRows;
        final AtomicLong rows = new AtomicLong();
        volatile long startNanos;
        volatile long endNanos;

        Counter(TableName table, long estimatedRows) {
            this.table = table;
            this.estimatedRows = estimatedRows;
        }

        /** Marks the table's reading begun at {@code nanos}, once; true for the part that began it. */
        synchronized boolean begin(long nanos) {
            if (startNanos != 0) {
                return false;
            }
            startNanos = nanos;
            return true;
        }

        TableStatus status(long now) {
            long start = startNanos;
            long end = endNanos;
            long done = rows.get();
            State state = start == 0 ? State.WAITING : end == 0 ? State.READING : State.DONE;
            long elapsedNanos = start == 0 ? 0 : (end == 0 ? now : end) - start;
            double rate = elapsedNanos <= 0 ? 0 : done * 1e9 / elapsedNanos;
            double percent = estimatedRows > 0 ? 100.0 * done / estimatedRows : estimatedRows == 0 && state == State.DONE ? 100 : -1;
            Duration eta = null;
            if (state == State.READING && estimatedRows > 0 && rate > 0) {
                eta = Duration.ofMillis((long) (Math.max(0, estimatedRows - done) * 1000 / rate));
            }
            return new TableStatus(table, state, done, estimatedRows, percent, rate, eta, Duration.ofNanos(elapsedNanos));
        }
    }
}
