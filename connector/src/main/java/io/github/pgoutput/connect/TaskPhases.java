package io.github.pgoutput.connect;

import io.github.pgoutput.assembly.TransactionAssembler;
import io.github.pgoutput.connect.offsets.DebeziumOffset;
import io.github.pgoutput.connect.offsets.SourceOffsets.Position;
import io.github.pgoutput.connect.offsets.SourceOffsets;
import io.github.pgoutput.connect.record.ChangeRecordBuilder;
import io.github.pgoutput.pgoutput.Lsn;
import io.github.pgoutput.replication.ReplicationStream;
import io.github.pgoutput.snapshot.SnapshotPlan;
import java.util.Map;

/**
 * The phases of {@link PgOutputSourceTask}: a closed set of types, each holding what the task needs while in it, so a
 * phase cannot be entered without its resources and tests can drive every transition.
 */
final class TaskPhases {

    private TaskPhases() {
    }

    /** What the task is doing; each poll works on the current phase. */
    sealed interface Phase permits Planning, Decided, Snapshotting, Connecting, Streaming, Idle, BackingOff {

        /** What the task does after a failure in {@code failed}: the snapshot is decided again, a session reopened. */
        static Phase recoveryOf(Phase failed) {
            if (failed instanceof Snapshotting) {
                // The exported snapshot cannot be read again: decide afresh (the stored offset says "in progress" or nothing).
                return new Planning();
            }
            if (failed instanceof BackingOff b) {
                return recoveryOf(b.then());
            }
            if (failed instanceof Streaming s) {
                return new Connecting(s.origin(), s.resumedSnapshot(), false);
            }
            if (failed instanceof Decided) {
                // Carrying out a decision can fail half-way (slot dropped, snapshot not started): decide again.
                return new Planning();
            }
            return failed; // Planning, Connecting, Idle
        }

        /** What the task was doing in {@code failed}, for the message of an error raised there. */
        static String failureContext(Phase failed, String slotName) {
            if (failed instanceof BackingOff b) {
                return failureContext(b.then(), slotName);
            }
            if (failed instanceof Decided d) {
                return "carrying out the start-up decision (" + d.plan().action() + ") for slot '" + slotName + "'";
            }
            if (failed instanceof Planning) {
                return "deciding on the snapshot again for slot '" + slotName + "'";
            }
            if (failed instanceof Snapshotting) {
                return "taking the snapshot for slot '" + slotName + "'";
            }
            return "streaming from replication slot '" + slotName + "'";
        }
    }

    /**
     * Where the task's offsets come from, decided at start-up and kept until the next decision: this connector's own,
     * or Debezium's after an in-place switch from Debezium ({@link #OWN} otherwise).
     *
     * @param debeziumStart    Debezium's stored offset the start-up decision went on from (the connector had no offset
     *                         of its own, or an older one); null for {@link #OWN}
     * @param supersededOffset with {@code debeziumStart}: the older offset of this connector's own that Debezium's
     *                         passed, or null
     */
    record Origin(DebeziumOffset debeziumStart, Map<String, Object> supersededOffset) {

        static final Origin OWN = new Origin(null, null);
    }

    /** The start-up decision of {@code snapshot.mode} is to be made (again), from the stored offset and the slot. */
    record Planning() implements Phase {
    }

    /**
     * The start-up decision was made ({@code start()} makes it, so a mode conflict fails there) from the stored offset
     * {@code stored} (the start of the stream when none is stored, then {@code offsetStored} is false); carried out on
     * the next poll.
     *
     * @param resumedSnapshot the resumptions of a resumed exactly-once snapshot the stored offset names, or null
     */
    record Decided(SnapshotPlan plan, Position stored, boolean offsetStored, Origin origin,
                   SourceOffsets.Resumed resumedSnapshot) implements Phase {
    }

    /** Emitting the rows of a snapshot; then streaming, or idleness for {@code initial_only}. */
    record Snapshotting(SnapshotPhase snapshot, ChangeRecordBuilder builder, boolean thenStream, Origin origin) implements Phase {
    }

    /**
     * A replication session is to be opened from the durable position.
     *
     * @param resumedSnapshot        the resumptions of a resumed exactly-once snapshot that streaming must still take
     *                               into account (from the stored offset, or from the snapshot just finished), or null
     * @param snapshotCapturedTables {@code snapshot.mode=always} resuming from a stored offset: the incremental snapshot
     *                               of every captured table is still to be asked for (at the first session)
     */
    record Connecting(Origin origin, SourceOffsets.Resumed resumedSnapshot, boolean snapshotCapturedTables) implements Phase {
    }

    /** Reading one replication session and emitting its deliveries. */
    record Streaming(ReplicationStream stream, TransactionAssembler assembler, DeliveryEmitter emitter, Origin origin,
                     SourceOffsets.Resumed resumedSnapshot, IdleMark idleMark) implements Phase {
    }

    /** {@code initial_only} after its snapshot, or when it was taken before: nothing more to do. */
    record Idle() implements Phase {
    }

    /** After a transient failure: wait until {@code untilNanos}, then go on with {@code then}. */
    record BackingOff(long untilNanos, Phase then) implements Phase {
    }

    /**
     * The highest server WAL end one streaming session has reported while nothing was being emitted: what the task
     * may confirm as idle, and the position of a heartbeat. Starts anew with each session. Not thread-safe: the task's
     * poll thread.
     */
    static final class IdleMark {

        private Lsn lsn = Lsn.INVALID;

        /** Moves the mark to {@code walEnd} when it lies beyond it; true when it moved. */
        boolean advanceTo(Lsn walEnd) {
            if (walEnd.isValid() && walEnd.isAfter(lsn)) {
                lsn = walEnd;
                return true;
            }
            return false;
        }

        Lsn lsn() {
            return lsn;
        }
    }
}
