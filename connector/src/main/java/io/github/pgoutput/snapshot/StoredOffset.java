package io.github.pgoutput.snapshot;

import io.github.pgoutput.pgoutput.Lsn;

import java.util.Objects;

/** What the connector's stored offset says, as far as the snapshot decision needs it. Immutable. */
public sealed interface StoredOffset {

    /** No offset stored: the connector never ran (or its offsets were deleted). */
    record Absent() implements StoredOffset {
    }

    /**
     * A snapshot was being emitted when the task stopped. Its exported snapshot died with its replication connection,
     * so it cannot be resumed.
     */
    record SnapshotInProgress() implements StoredOffset {
    }

    /** Streaming position: the end LSN of the last change unit stored (or the consistent point of a finished snapshot). */
    record At(Lsn lsn) implements StoredOffset {
        public At {
            Objects.requireNonNull(lsn, "lsn");
        }
    }
}
