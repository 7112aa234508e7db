package io.github.pgoutput.connect;

import io.github.pgoutput.assembly.TransactionAssembler;
import io.github.pgoutput.connect.offsets.SourceOffsets.Position;
import io.github.pgoutput.connect.record.ChangeRecordBuilder;
import io.github.pgoutput.replication.ReplicationStream;
import io.github.pgoutput.snapshot.SnapshotPlan;

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
            if (failed instanceof Streaming) {
                return new Connecting();
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

    /** The start-up decision of {@code snapshot.mode} is to be made (again), from the stored offset and the slot. */
    record Planning() implements Phase {
    }

    /**
     * The start-up decision was made ({@code start()} makes it, so a mode conflict fails there) from the stored offset
     * {@code stored} (the start of the stream when none is stored, then {@code offsetStored} is false); carried out on
     * the next poll.
     */
    record Decided(SnapshotPlan plan, Position stored, boolean offsetStored) implements Phase {
    }

    /** Emitting the rows of a snapshot; then streaming, or idleness for {@code initial_only}. */
    record Snapshotting(SnapshotPhase snapshot, ChangeRecordBuilder builder, boolean thenStream) implements Phase {
    }

    /** A replication session is to be opened from the durable position. */
    record Connecting() implements Phase {
    }

    /** Reading one replication session and emitting its deliveries. */
    record Streaming(ReplicationStream stream, TransactionAssembler assembler, DeliveryEmitter emitter) implements Phase {
    }

    /** {@code initial_only} after its snapshot, or when it was taken before: nothing more to do. */
    record Idle() implements Phase {
    }

    /** After a transient failure: wait until {@code untilNanos}, then go on with {@code then}. */
    record BackingOff(long untilNanos, Phase then) implements Phase {
    }
}
