package io.github.pgoutput.snapshot;

/**
 * The {@code snapshot.mode} values, as this package decides with them (see {@link SnapshotPlanner}). The connector
 * configuration parses the key straight into these: each value is the constant's name in lower case.
 */
public enum SnapshotMode {
    /** Snapshot when there is no stored offset, then stream. */
    INITIAL,
    /** Never snapshot; stream only. */
    NO_DATA,
    /** Snapshot when there is no stored offset, then stay idle (no streaming). */
    INITIAL_ONLY,
    /** Like {@link #INITIAL}, and also snapshot again when the stored offset cannot be honoured by the slot. */
    WHEN_NEEDED,
    /**
     * A snapshot at every start: without a stored offset as {@link #INITIAL}; with one the slot can serve, streaming
     * resumes there and every captured table is read again while it streams (an incremental snapshot, which the
     * connect layer runs); with one it cannot serve, as {@link #WHEN_NEEDED}.
     */
    ALWAYS
}
