package io.github.pgoutput.connect;

import io.github.pgoutput.assembly.ChangeEvent;
import io.github.pgoutput.assembly.Delivery;
import io.github.pgoutput.connect.offsets.SourceOffsets;
import io.github.pgoutput.connect.offsets.SourceOffsets.Position;
import io.github.pgoutput.pgoutput.ColumnValue;
import io.github.pgoutput.pgoutput.PgOutputMessage;
import io.github.pgoutput.pgoutput.PgOutputMessage.Relation;
import io.github.pgoutput.pgoutput.TupleData;
import io.github.pgoutput.replication.TableName;
import io.github.pgoutput.snapshot.ResumedRows;
import io.github.pgoutput.snapshot.SnapshotException;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * Streaming after a resumed exactly-once snapshot: skips the changes its resumed rows already contain
 * ({@link ResumedRows}) and keeps the resumptions in the offsets until the stream has passed the last one's point, so
 * that a restart in between skips the same changes. A change is skipped only when it is known to be in a row as read:
 * a PREPARED delivery (whose rows a later snapshot holds only once COMMIT PREPARED ran), an update whose old and new
 * key lie in parts read at different points, or a key value pgoutput did not send is delivered.
 *
 * <p>Not thread-safe: the task's poll thread.
 */
public final class ResumedSnapshotFilter implements AutoCloseable {

    private final SourceOffsets.Resumed resumed;
    private final ResumedRows rows;

    ResumedSnapshotFilter(SourceOffsets.Resumed resumed, ResumedRows rows) {
        this.resumed = Objects.requireNonNull(resumed, "resumed");
        this.rows = Objects.requireNonNull(rows, "rows");
    }

    /** The last resumption's consistent point. */
    io.github.pgoutput.pgoutput.Lsn until() {
        return resumed.until();
    }

    /** The offset of a record at {@code position}: with the resumptions while before the last one's point. */
    Map<String, Object> offset(Position position) {
        return SourceOffsets.encode(position, resumed);
    }

    /**
     * Whether {@code event} of {@code delivery} is already in the rows of the resumed snapshot.
     *
     * @throws SnapshotException {@code NOT_RESUMABLE} for a TRUNCATE of a table partly read after it: it cannot be
     *                           delivered for the rows read before it only
     */
    boolean skips(ChangeEvent event, Delivery delivery) {
        if (delivery.kind() != Delivery.Kind.COMMITTED || delivery.twoPhase() || !delivery.lsn().isBefore(resumed.until())) {
            return false;
        }
        PgOutputMessage.StreamScoped message = event.message();
        if (message instanceof PgOutputMessage.Insert insert) {
            return contains(delivery, event.relation(), insert.newTuple());
        }
        if (message instanceof PgOutputMessage.Update update) {
            boolean newRow = contains(delivery, event.relation(), update.newTuple());
            if (update.oldTuple().isPresent() && newRow != contains(delivery, event.relation(), update.oldTuple().get().tuple())) {
                return false;
            }
            return newRow;
        }
        if (message instanceof PgOutputMessage.Delete delete) {
            return contains(delivery, event.relation(), delete.oldTuple().tuple());
        }
        if (message instanceof PgOutputMessage.Truncate) {
            for (Relation relation : event.relations()) {
                if (rows.truncateConflicts(delivery.lsn(), tableOf(relation))) {
                    throw new SnapshotException(SnapshotException.Reason.NOT_RESUMABLE, "table " + tableOf(relation) + " was truncated"
                            + " (transaction committed at " + delivery.lsn() + ") while the exactly-once snapshot was interrupted; its rows"
                            + " read after the resumption already lack what the truncate removed, the rows read before do not, and one"
                            + " truncate record cannot serve both. Take the snapshot again: reset the connector's offsets (DELETE"
                            + " /connectors/<name>/offsets while it is stopped) and drop its slot");
                }
            }
        }
        return false;
    }

    private boolean contains(Delivery delivery, Relation relation, TupleData tuple) {
        return rows.contains(delivery.lsn(), tableOf(relation), textOf(relation, tuple));
    }

    private static TableName tableOf(Relation relation) {
        return new TableName(relation.namespace(), relation.relationName());
    }

    /** A column's text by name; null when the tuple does not carry it as text. */
    private static Function<String, String> textOf(Relation relation, TupleData tuple) {
        List<io.github.pgoutput.pgoutput.RelationColumn> columns = relation.columns();
        return name -> {
            for (int i = 0; i < columns.size() && i < tuple.size(); i++) {
                if (columns.get(i).name().equals(name)) {
                    return tuple.get(i) instanceof ColumnValue.Text text ? text.asString() : null;
                }
            }
            return null;
        };
    }

    @Override
    public void close() {
        rows.close();
    }
}
