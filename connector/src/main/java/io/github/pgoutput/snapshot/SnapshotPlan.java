package io.github.pgoutput.snapshot;

import java.util.Objects;

/**
 * What the task does at start-up, decided by {@link SnapshotPlanner}. Immutable.
 *
 * @param action           what to do
 * @param dropExistingSlot true when a slot of the configured name exists and must be dropped first: a snapshot needs a
 *                         slot created together with its exported snapshot, and a lost slot can never stream again
 * @param reason           one sentence for the start-up log line
 * @param resumeFrom       for a snapshot action, the resumable snapshot to continue (its slot is kept), or null to take
 *                         a snapshot from the start
 */
public record SnapshotPlan(Action action, boolean dropExistingSlot, String reason, StoredOffset.SnapshotInProgress resumeFrom) {

    public enum Action {
        /** Create the slot with an exported snapshot, emit the snapshot, then stream from the consistent point. */
        SNAPSHOT_THEN_STREAM,
        /** Stream from the stored offset (or the slot's position); no snapshot. */
        STREAM,
        /**
         * Stream from the stored offset, and read every captured table again while streaming, in chunks between the
         * stream's transactions (an incremental snapshot): {@code snapshot.mode=always} after the first start.
         */
        STREAM_AND_SNAPSHOT,
        /** Create a temporary slot with an exported snapshot, emit the snapshot, then stay idle. */
        SNAPSHOT_ONLY,
        /** Nothing to do: an {@code initial_only} snapshot was completed before. Stay idle. */
        IDLE
    }

    public SnapshotPlan {
        Objects.requireNonNull(action, "action");
        Objects.requireNonNull(reason, "reason");
        if (resumeFrom != null && (resumeFrom.progress() == null || dropExistingSlot || (action != Action.SNAPSHOT_THEN_STREAM && action != Action.SNAPSHOT_ONLY))) {
            throw new IllegalArgumentException("only a snapshot that keeps its slot is resumed");
        }
    }

    public SnapshotPlan(Action action, boolean dropExistingSlot, String reason) {
        this(action, dropExistingSlot, reason, null);
    }
}
