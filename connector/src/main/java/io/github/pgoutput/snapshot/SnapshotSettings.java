package io.github.pgoutput.snapshot;

import io.github.pgoutput.replication.TableName;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * How the snapshot is read. Immutable.
 *
 * @param maxThreads       {@code snapshot.max.threads}: tables read at the same time, each through its own connection
 * @param includeList      {@code snapshot.include.list}: regular expressions matched against the whole
 *                         {@code schema.table} (case-sensitive); a captured table is read when one matches. Empty:
 *                         every captured table
 * @param bufferedRows     rows the readers may hold ready for the consumer; the readers wait when it is full
 * @param progressInterval at most how often a table's progress is logged while it is read
 * @param publication      the publication whose column lists and row filters (PostgreSQL 15+) the snapshot applies,
 *                         so it carries exactly what streaming would; null to read every column and row
 * @param maxGroupRows     in key order, the most rows one group may hold (identical rows of a table without a unique key,
 *                         {@link RowHashOrder}), which are handed out together and go into one Kafka transaction; the
 *                         connector passes {@code transaction.max.records}
 */
public record SnapshotSettings(int maxThreads, List<Pattern> includeList, int bufferedRows, Duration progressInterval, String publication,
                               int maxGroupRows) {

    public static final int DEFAULT_MAX_THREADS = 2;
    public static final int DEFAULT_BUFFERED_ROWS = 2048;
    public static final Duration DEFAULT_PROGRESS_INTERVAL = Duration.ofSeconds(10);
    /** The default of {@code transaction.max.records}, which the connector passes instead. */
    public static final int DEFAULT_MAX_GROUP_ROWS = 250_000;

    public SnapshotSettings {
        if (maxThreads < 1) {
            throw new IllegalArgumentException("snapshot.max.threads must be at least 1 but is " + maxThreads);
        }
        includeList = List.copyOf(Objects.requireNonNull(includeList, "includeList"));
        if (bufferedRows < 1) {
            throw new IllegalArgumentException("bufferedRows must be at least 1 but is " + bufferedRows);
        }
        Objects.requireNonNull(progressInterval, "progressInterval");
        if (maxGroupRows < 1) {
            throw new IllegalArgumentException("maxGroupRows must be at least 1 but is " + maxGroupRows);
        }
    }

    /** With the default {@link #maxGroupRows}. */
    public SnapshotSettings(int maxThreads, List<Pattern> includeList, int bufferedRows, Duration progressInterval, String publication) {
        this(maxThreads, includeList, bufferedRows, progressInterval, publication, DEFAULT_MAX_GROUP_ROWS);
    }

    /** {@code snapshot.max.threads} 2, every captured table, the default buffer, a 10 s progress interval, no publication. */
    public static SnapshotSettings defaults() {
        return new SnapshotSettings(DEFAULT_MAX_THREADS, List.of(), DEFAULT_BUFFERED_ROWS, DEFAULT_PROGRESS_INTERVAL, null);
    }

    public SnapshotSettings withMaxThreads(int value) {
        return new SnapshotSettings(value, includeList, bufferedRows, progressInterval, publication, maxGroupRows);
    }

    public SnapshotSettings withIncludeList(List<Pattern> value) {
        return new SnapshotSettings(maxThreads, value, bufferedRows, progressInterval, publication, maxGroupRows);
    }

    public SnapshotSettings withPublication(String value) {
        return new SnapshotSettings(maxThreads, includeList, bufferedRows, progressInterval, value, maxGroupRows);
    }

    public SnapshotSettings withMaxGroupRows(int value) {
        return new SnapshotSettings(maxThreads, includeList, bufferedRows, progressInterval, publication, value);
    }

    /** Whether {@code table} is to be read under {@link #includeList}. */
    public boolean includes(TableName table) {
        if (includeList.isEmpty()) {
            return true;
        }
        String name = table.schema() + "." + table.table();
        return includeList.stream().anyMatch(p -> p.matcher(name).matches());
    }
}
