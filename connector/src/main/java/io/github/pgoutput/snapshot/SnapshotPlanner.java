package io.github.pgoutput.snapshot;

import io.github.pgoutput.snapshot.SnapshotPlan.Action;
import io.github.pgoutput.snapshot.SnapshotException.Reason;

import java.util.Locale;

/**
 * The start-up decision of {@code snapshot.mode}, as a pure function of the stored offset and the slot's state.
 *
 * <p>Two rules matter most. First, a stored streaming position the slot can no longer serve (slot missing,
 * invalidated, or already confirmed past that position) means changes were lost. Only {@code when_needed} and
 * {@code always} answer that with a fresh snapshot; the other streaming modes fail with a message that names the mode
 * to choose, instead of silently skipping data. ({@code always} with a position the slot serves streams from it and
 * has every captured table read again while streaming: {@link SnapshotPlan.Action#STREAM_AND_SNAPSHOT}.)
 *
 * <p>Second, a slot that may hold another consumer's position is never dropped. Slot names are global to the server,
 * so a slot of the configured name may belong to another connector (stopped, with its own offsets) or tool. Without a
 * stored streaming position the connector drops a usable slot only when it can show the slot is its own and unused:
 * the stored offset says a snapshot was in progress on a slot created at consistent point P, the slot's
 * {@code confirmed_flush_lsn} is still exactly P (a slot shows its consistent point there until someone confirms a
 * position, and this connector confirms nothing before its snapshot is committed; every slot creation writes WAL, so
 * another slot does not start at the same point) and no walsender holds it. An invalidated slot is dropped only when
 * the connector has a stored offset for it: without one, dropping it would hide its loss from the consumer that used
 * it. Every other existing slot fails with {@link Reason#SLOT_NOT_OWNED}, naming the slot and the choices.
 */
public final class SnapshotPlanner {

    private SnapshotPlanner() {
    }

    /**
     * @param slotName for the messages (and the SQL they suggest)
     * @throws SnapshotException with {@link Reason#MODE_CONFLICT} when the stored offset cannot be honoured and the
     *                           mode does not allow a new snapshot; with {@link Reason#SLOT_NOT_OWNED} when a snapshot
     *                           would need to drop a slot not shown to be this connector's own and unused; with
     *                           {@link Reason#SLOT_ACTIVE} when that slot is this connector's but still held
     */
    public static SnapshotPlan decide(SnapshotMode mode, StoredOffset offset, SlotState slot, String slotName) {
        return decide(mode, offset, slot, slotName, false);
    }

    /**
     * {@link #decide(SnapshotMode, StoredOffset, SlotState, String)}, where with {@code resumable} (an exactly-once
     * snapshot) an interrupted resumable snapshot is continued instead of taken again: its rows in Kafka stay, and
     * nothing reaches Kafka twice. It keeps its slot, which must still be the one it created and never streamed from;
     * when that slot is gone or was streamed from, the changes since the snapshot began are lost to it, and only
     * {@code when_needed} takes a fresh snapshot (its rows then reach Kafka a second time); the other modes fail with
     * {@link Reason#NOT_RESUMABLE}.
     */
    public static SnapshotPlan decide(SnapshotMode mode, StoredOffset offset, SlotState slot, String slotName, boolean resumable) {
        if (offset instanceof StoredOffset.Debezium) {
            throw new IllegalArgumentException("Debezium's offset is decided by DebeziumHandover, which needs the slot's plugin too");
        }
        if (resumable && mode != SnapshotMode.NO_DATA && offset instanceof StoredOffset.SnapshotInProgress inProgress
                && inProgress.progress() != null) {
            SnapshotPlan resumed = decideResume(mode, inProgress, slot, slotName);
            if (resumed != null) {
                return resumed;
            }
        }
        if (offset instanceof StoredOffset.At at) {
            return decideAt(mode, at, slot, slotName);
        }
        boolean absent = offset instanceof StoredOffset.Absent;
        if (mode == SnapshotMode.NO_DATA) {
            if (absent && slot instanceof SlotState.Lost) {
                throw notOwned(mode, slotName, slot, "there is no stored offset");
            }
            // A usable slot is streamed from where it stands, whoever created it: no_data asks for nothing before that.
            return new SnapshotPlan(Action.STREAM, slot instanceof SlotState.Lost, absent ? "snapshot.mode no_data: stream only"
                    : "snapshot.mode no_data: the unfinished snapshot is abandoned, stream only");
        }
        Action action = mode == SnapshotMode.INITIAL_ONLY ? Action.SNAPSHOT_ONLY : Action.SNAPSHOT_THEN_STREAM;
        String then = action == Action.SNAPSHOT_ONLY ? "snapshot only (temporary slot)" : "snapshot, then stream from the new slot's consistent point";
        if (slot instanceof SlotState.Missing) {
            return new SnapshotPlan(action, false, (absent ? "no stored offset: " : "the previous snapshot did not finish: ") + then);
        }
        if (absent) {
            throw notOwned(mode, slotName, slot, "there is no stored offset");
        }
        StoredOffset.SnapshotInProgress inProgress = (StoredOffset.SnapshotInProgress) offset;
        if (slot instanceof SlotState.Lost) {
            return new SnapshotPlan(action, true, "the previous snapshot did not finish and replication slot '" + slotName
                    + "' was invalidated: drop it, " + then);
        }
        SlotState.Usable usable = (SlotState.Usable) slot;
        if (!inProgress.slotConsistentPoint().isValid()) {
            throw notOwned(mode, slotName, slot, "the stored offset says a snapshot was in progress, but it was written by an"
                    + " earlier connector version and does not record the consistent point of the slot it created");
        }
        if (!usable.confirmedFlushLsn().equals(inProgress.slotConsistentPoint())) {
            throw notOwned(mode, slotName, slot, "the stored offset says a snapshot was in progress on a slot this connector created"
                    + " at consistent point " + inProgress.slotConsistentPoint() + ", but the slot's confirmed_flush_lsn is "
                    + usable.confirmedFlushLsn() + ", so it was re-created or streamed from since");
        }
        if (usable.active()) {
            throw new SnapshotException(Reason.SLOT_ACTIVE, "replication slot '" + slotName + "', created at " + inProgress.slotConsistentPoint()
                    + " for this connector's unfinished snapshot, is active: a walsender still holds it, usually a previous task's"
                    + " connection that has not noticed yet that its client is gone (at most wal_sender_timeout). It is dropped"
                    + " for a new snapshot once it is released; if another consumer reads it, stop that consumer");
        }
        return new SnapshotPlan(action, true, "the previous snapshot did not finish and its exported snapshot is gone; the slot is"
                + " the one this connector created at " + inProgress.slotConsistentPoint() + " and was never streamed from: drop it, " + then);
    }

    /** The resumption of an interrupted resumable snapshot, or null when {@code when_needed} takes it afresh instead. */
    private static SnapshotPlan decideResume(SnapshotMode mode, StoredOffset.SnapshotInProgress inProgress, SlotState slot, String slotName) {
        StoredOffset.Progress progress = inProgress.progress();
        String from = "resume the interrupted snapshot after row " + ResumableProgress.encode(progress.at()) + " (table index:key)";
        if (mode == SnapshotMode.INITIAL_ONLY) {
            // Its slot was temporary and is gone; nothing streams, so no change needs it.
            return new SnapshotPlan(Action.SNAPSHOT_ONLY, false, from + ", snapshot only", inProgress);
        }
        String problem;
        if (slot instanceof SlotState.Usable usable) {
            if (usable.confirmedFlushLsn().equals(inProgress.slotConsistentPoint())) {
                if (usable.active()) {
                    throw new SnapshotException(Reason.SLOT_ACTIVE, "replication slot '" + slotName + "', created at "
                            + inProgress.slotConsistentPoint() + " for this connector's interrupted snapshot, is active: a walsender"
                            + " still holds it, usually a previous task's connection that has not noticed yet that its client is gone"
                            + " (at most wal_sender_timeout). The snapshot resumes once it is released; if another consumer reads it,"
                            + " stop that consumer");
                }
                return new SnapshotPlan(Action.SNAPSHOT_THEN_STREAM, false, from + ", then stream from the slot's consistent point "
                        + inProgress.slotConsistentPoint(), inProgress);
            }
            problem = "its replication slot '" + slotName + "' has confirmed_flush_lsn " + usable.confirmedFlushLsn()
                    + ", not the consistent point " + inProgress.slotConsistentPoint() + " it was created at, so it was re-created or"
                    + " streamed from since";
        } else if (slot instanceof SlotState.Lost) {
            problem = "its replication slot '" + slotName + "' was invalidated (wal_status = lost)";
        } else {
            problem = "its replication slot '" + slotName + "' does not exist any more";
        }
        if (mode == SnapshotMode.WHEN_NEEDED || mode == SnapshotMode.ALWAYS) {
            return null;
        }
        throw new SnapshotException(Reason.NOT_RESUMABLE, "the interrupted resumable snapshot cannot be resumed: " + problem
                + ", so the changes made since the snapshot began cannot be streamed to the rows it has emitted. Set"
                + " snapshot.mode=when_needed to take the snapshot again from the start (its rows then reach Kafka a second time),"
                + " or reset the connector's offsets (DELETE /connectors/<name>/offsets while it is stopped) and drop the slot"
                + " yourself if nothing else needs it (snapshot.mode is " + configValue(mode) + ")");
    }

    private static SnapshotPlan decideAt(SnapshotMode mode, StoredOffset.At at, SlotState slot, String slotName) {
        if (mode == SnapshotMode.INITIAL_ONLY) {
            return new SnapshotPlan(Action.IDLE, false, "snapshot.mode initial_only and the snapshot was completed before");
        }
        String problem = unservable(at, slot, slotName);
        if (problem == null && mode == SnapshotMode.ALWAYS) {
            return new SnapshotPlan(Action.STREAM_AND_SNAPSHOT, false, "stream from the stored offset " + at.lsn()
                    + " and read every captured table again meanwhile (snapshot.mode always)");
        }
        if (problem == null) {
            return new SnapshotPlan(Action.STREAM, false, "stream from the stored offset " + at.lsn());
        }
        if (mode == SnapshotMode.WHEN_NEEDED || mode == SnapshotMode.ALWAYS) {
            // always: a fresh consistent snapshot is what every start takes anyway.
            return new SnapshotPlan(Action.SNAPSHOT_THEN_STREAM, !(slot instanceof SlotState.Missing),
                    problem + ": snapshot again (snapshot.mode " + configValue(mode) + ")");
        }
        throw new SnapshotException(Reason.MODE_CONFLICT, problem + ", so the changes after the stored offset " + at.lsn()
                + " cannot be streamed and would be lost. Set snapshot.mode=when_needed to take a fresh consistent snapshot"
                + " and stream from there (snapshot.mode is " + configValue(mode) + ")");
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

    /** The refusal to drop an existing slot: what was seen, why it stays, and the user's choices. */
    private static SnapshotException notOwned(SnapshotMode mode, String slotName, SlotState slot, String seen) {
        String drop = "SELECT pg_drop_replication_slot('" + slotName.replace("'", "''") + "')";
        StringBuilder message = new StringBuilder("replication slot '").append(slotName).append("' already exists");
        if (slot instanceof SlotState.Lost) {
            message.append(" and was invalidated (wal_status = lost)");
        } else if (slot instanceof SlotState.Usable usable) {
            message.append(" (confirmed_flush_lsn ").append(usable.confirmedFlushLsn()).append(usable.active() ? ", active" : "").append(")");
        }
        message.append(" and ").append(seen).append(", so nothing shows that this connector created it and has not streamed from it")
                .append(". It may hold another consumer's position (another connector with the same slot.name, or another tool),")
                .append(" so it is not dropped (snapshot.mode is ").append(configValue(mode)).append("). Choose one: ");
        if (slot instanceof SlotState.Lost) {
            message.append("if nothing needs that slot any more, drop it yourself (").append(drop)
                    .append(") and restart the task; or set slot.name to a name no slot has.");
        } else if (mode == SnapshotMode.INITIAL_ONLY) {
            message.append("initial_only takes its snapshot with a temporary slot of that name, so if nothing needs the existing slot,")
                    .append(" drop it yourself (").append(drop).append(") and restart the task; or set slot.name to a name no slot has.");
        } else {
            message.append("if nothing needs that slot, drop it yourself (").append(drop).append(") and restart the task to take the")
                    .append(" snapshot with a new slot; or stream from the slot where it stands, without a snapshot, with")
                    .append(" snapshot.mode=no_data; or set slot.name to a name no slot has.");
        }
        message.append(" (A task of this connector that stopped after creating the slot but before its first offset was committed,")
                .append(" that is within offset.flush.interval.ms of its start, leaves such a slot behind too: then drop it.)");
        return new SnapshotException(Reason.SLOT_NOT_OWNED, message.toString());
    }

    private static String configValue(SnapshotMode mode) {
        return mode.name().toLowerCase(Locale.ROOT);
    }
}
