package io.github.pgoutput.connect;

import io.github.pgoutput.assembly.ChangeEvent;
import io.github.pgoutput.assembly.Delivery;
import io.github.pgoutput.connect.offsets.SourceOffsets.Position;
import io.github.pgoutput.connect.offsets.SourceOffsets;
import io.github.pgoutput.pgoutput.Lsn;
import io.github.pgoutput.snapshot.ResumedSnapshotChanges;
import java.util.Map;
import java.util.Objects;

/**
 * Streaming after a resumed exactly-once snapshot, in the task: the changes the snapshot's rows already contain are
 * skipped ({@link ResumedSnapshotChanges} decides which), and every record's offset keeps the resumptions until the
 * stream has passed the last one's point, so that a restart in between skips the same changes.
 *
 * <p>Not thread-safe: the task's poll thread.
 */
final class ResumedSnapshotFilter implements AutoCloseable {

    private final SourceOffsets.Resumed resumed;
    private final ResumedSnapshotChanges changes;

    ResumedSnapshotFilter(SourceOffsets.Resumed resumed, ResumedSnapshotChanges changes) {
        this.resumed = Objects.requireNonNull(resumed, "resumed");
        this.changes = Objects.requireNonNull(changes, "changes");
    }

    /** The last resumption's consistent point. */
    Lsn until() {
        return changes.until();
    }

    /** The offset of a record at {@code position}: with the resumptions while before the last one's point. */
    Map<String, Object> offset(Position position) {
        return SourceOffsets.encode(position, resumed);
    }

    /** See {@link ResumedSnapshotChanges#lacking}. */
    ChangeEvent lacking(ChangeEvent event, Delivery delivery) {
        return changes.lacking(event, delivery);
    }

    @Override
    public void close() {
        changes.close();
    }
}
