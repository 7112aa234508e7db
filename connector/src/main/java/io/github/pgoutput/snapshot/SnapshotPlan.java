package io.github.pgoutput.snapshot;

import java.util.Objects;

/**
 * What the task does at start-up, decided by {@link SnapshotPlanner}. Immutable.
 *
 * @param action           what to do
 * @param dropExistingSlot true when a slot of the configured name exists and must be dropped first: a snapshot needs a
 *                         slot created together with its exported snapshot, and a lost slot can never stream again
 * @param reason           one sentence for the start-up log line
 */
public record SnapshotPlan(Action action, boolean dropExistingSlot, String reason) {

    public enum Action {
        /** Create the slot with an exported snapshot, emit the snapshot, then stream from the consistent point. */
        SNAPSHOT_THEN_STREAM,
        /** Stream from the stored offset (or the slot's position); no snapshot. */
        STREAM,
        /** Create a temporary slot with an exported snapshot, emit the snapshot, then stay idle. */
        SNAPSHOT_ONLY,
        /** Nothing to do: an {@code initial_only} snapshot was completed before. Stay idle. */
        IDLE
    }

    public SnapshotPlan {
        Objects.requireNonNull(action, "action");
        Objects.requireNonNull(reason, "reason");
    }
}
