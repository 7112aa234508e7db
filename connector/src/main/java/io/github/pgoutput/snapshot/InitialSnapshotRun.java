package io.github.pgoutput.snapshot;

import io.github.pgoutput.pgoutput.Lsn;
import java.time.Duration;
import java.util.List;

/**
 * An initial snapshot being read, as a sequence of {@link Item}s: a truncate per table first when the snapshot is taken
 * again (the connector has a stored offset, so a consumer may hold rows from before; rows deleted while no slot
 * recorded changes would otherwise stay), then the rows. Each item says where the snapshot stands after it, which is
 * what a resumable snapshot's offsets carry. Not thread-safe: one caller thread (the task's poll thread).
 */
public final class InitialSnapshotRun implements AutoCloseable {

    /** One step of the snapshot, and where a resumable snapshot stands after it. */
    public sealed interface Item {
        /** For a resumable snapshot, the rows still to read after this item; null otherwise. */
        StoredOffset.Progress progress();

        /** How many rows of a group of identical rows (a table without a unique key) precede the next one. */
        int rowInGroup();

        /** A table's rows held from before are to be dropped: the snapshot is taken again. */
        record Truncate(SnapshotTable table, StoredOffset.Progress progress, int rowInGroup) implements Item {
        }

        /** A row read; the one marked {@link SnapshotRow.Marker#LAST} ends the snapshot. */
        record Row(SnapshotRow row, StoredOffset.Progress progress, int rowInGroup) implements Item {
            public boolean last() {
                return row.marker() == SnapshotRow.Marker.LAST;
            }
        }
    }

    private final InitialSnapshot snapshot;
    private final SnapshotReader reader;
    private final InitialSnapshot.Resumable resumable;
    /** Truncates still to hand out before the rows. */
    private int truncatesLeft;

    InitialSnapshotRun(InitialSnapshot snapshot, boolean truncateFirst) {
        this.snapshot = snapshot;
        this.reader = snapshot.reader();
        this.resumable = snapshot.resumable();
        this.truncatesLeft = truncateFirst ? reader.tables().size() : 0;
    }

    /**
     * The next item: a truncate while any is left, else the next row, waiting at most {@code maxWait} for it.
     *
     * @return null when no row is ready yet, or the snapshot is {@link #finished()}
     */
    public Item next(Duration maxWait) throws InterruptedException {
        if (truncatesLeft > 0) {
            List<SnapshotTable> tables = reader.tables();
            return new Item.Truncate(tables.get(tables.size() - truncatesLeft--), standing(), reader.rowInGroup());
        }
        SnapshotRow row = reader.next(maxWait);
        return row == null ? null : new Item.Row(row, standing(), reader.rowInGroup());
    }

    private StoredOffset.Progress standing() {
        return resumable == null ? null : new StoredOffset.Progress(resumable.fingerprint(), reader.position(), resumable.resumes());
    }

    /** Every item was handed out (a snapshot without rows finishes without a {@code LAST} row). */
    public boolean finished() {
        return truncatesLeft == 0 && reader.finished();
    }

    /**
     * A group of identical rows of a table without a unique key is being handed out: a position inside it cannot say
     * which of its rows a consumer holds, so a caller that cuts batches keeps the group in one.
     */
    public boolean groupContinues() {
        return reader.groupContinues();
    }

    /** The slot's consistent point: streaming starts here. */
    public Lsn consistentPoint() {
        return snapshot.consistentPoint();
    }

    /** The exported snapshot's transaction id, which the rows' records carry. */
    public Long transactionId() {
        return reader.transactionId();
    }

    /** Tables and rows read so far, for metrics and logs. */
    public SnapshotProgress progress() {
        return reader.progress();
    }

    /**
     * The resumptions streaming must take into account after this snapshot (skipping the changes its resumed rows
     * hold); null when it was never resumed.
     */
    public InitialSnapshot.Resumable resumptions() {
        return resumable == null || resumable.resumes().isEmpty() ? null : resumable;
    }

    /** Stops the readers and, for a temporary slot, closes the connection that holds it (which drops the slot). */
    @Override
    public void close() {
        snapshot.close();
    }
}
