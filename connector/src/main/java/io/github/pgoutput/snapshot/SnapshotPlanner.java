package io.github.pgoutput.snapshot;

import io.github.pgoutput.snapshot.SnapshotPlan.Action;
import io.github.pgoutput.snapshot.SnapshotException.Reason;

import java.util.Locale;

/**
 * The start-up decision of {@code snapshot.mode}, as a pure function of the stored offset and the slot's state.
 *
 * <p>The one rule that matters most: a stored streaming position the slot can no longer serve (slot missing,
 * invalidated, or already confirmed past that position) means changes were lost. Only {@code when_needed} answers that
 * with a fresh snapshot; the other streaming modes fail with a message that names the mode to choose, instead of
 * silently skipping data.
 */
public final class SnapshotPlanner {

    private SnapshotPlanner() {
    }

    /**
     * @param slotName only for the messages
     * @throws SnapshotException with {@link Reason#MODE_CONFLICT} when the stored offset cannot be honoured and the
     *                           mode does not allow a new snapshot
     */
    public static SnapshotPlan decide(SnapshotMode mode, StoredOffset offset, SlotState slot, String slotName) {
        boolean slotExists = !(slot instanceof SlotState.Missing);
        boolean slotLost = slot instanceof SlotState.Lost;
        if (offset instanceof StoredOffset.Absent) {
            return switch (mode) {
                case INITIAL, WHEN_NEEDED -> new SnapshotPlan(Action.SNAPSHOT_THEN_STREAM, slotExists,
                        "no stored offset: snapshot, then stream from the new slot's consistent point");
                case INITIAL_ONLY -> new SnapshotPlan(Action.SNAPSHOT_ONLY, slotExists, "no stored offset: snapshot only");
                case NO_DATA -> new SnapshotPlan(Action.STREAM, slotLost, "snapshot.mode no_data: stream only");
            };
        }
        if (offset instanceof StoredOffset.SnapshotInProgress) {
            return switch (mode) {
                case INITIAL, WHEN_NEEDED -> new SnapshotPlan(Action.SNAPSHOT_THEN_STREAM, slotExists,
                        "the previous snapshot did not finish and its exported snapshot is gone: snapshot again with a new slot");
                case INITIAL_ONLY -> new SnapshotPlan(Action.SNAPSHOT_ONLY, slotExists, "the previous snapshot did not finish: snapshot again");
                case NO_DATA -> new SnapshotPlan(Action.STREAM, slotLost, "snapshot.mode no_data: the unfinished snapshot is abandoned, stream only");
            };
        }
        StoredOffset.At at = (StoredOffset.At) offset;
        if (mode == SnapshotMode.INITIAL_ONLY) {
            return new SnapshotPlan(Action.IDLE, false, "snapshot.mode initial_only and the snapshot was completed before");
        }
        String problem = unservable(at, slot, slotName);
        if (problem == null) {
            return new SnapshotPlan(Action.STREAM, false, "stream from the stored offset " + at.lsn());
        }
        if (mode == SnapshotMode.WHEN_NEEDED) {
            return new SnapshotPlan(Action.SNAPSHOT_THEN_STREAM, slotExists, problem + ": snapshot again (snapshot.mode when_needed)");
        }
        throw new SnapshotException(Reason.MODE_CONFLICT, problem + ", so the changes after the stored offset " + at.lsn()
                + " cannot be streamed and would be lost. Set snapshot.mode=when_needed to take a fresh consistent snapshot"
                + " and stream from there (snapshot.mode is " + mode.name().toLowerCase(Locale.ROOT) + ")");
    }

    /** Why the slot cannot stream from the stored position, or null when it can. */
    private static String unservable(StoredOffset.At at, SlotState slot, String slotName) {
        if (slot instanceof SlotState.Missing) {
            return "replication slot '" + slotName + "' does not exist (dropped, or never created here)";
        }
        if (slot instanceof SlotState.Lost) {
            return "replication slot '" + slotName + "' was invalidated (wal_status = lost): the WAL it needed was removed";
        }
        SlotState.Usable usable = (SlotState.Usable) slot;
        if (usable.confirmedFlushLsn().isAfter(at.lsn())) {
            return "replication slot '" + slotName + "' has confirmed_flush_lsn " + usable.confirmedFlushLsn()
                    + ", past the stored offset " + at.lsn();
        }
        if (usable.restartLsn().isAfter(at.lsn())) {
            return "replication slot '" + slotName + "' has restart_lsn " + usable.restartLsn() + ", past the stored offset " + at.lsn();
        }
        return null;
    }
}
