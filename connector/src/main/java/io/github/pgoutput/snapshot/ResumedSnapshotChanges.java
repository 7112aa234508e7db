package io.github.pgoutput.snapshot;

import io.github.pgoutput.assembly.ChangeEvent;
import io.github.pgoutput.assembly.Delivery;
import io.github.pgoutput.pgoutput.ColumnValue;
import io.github.pgoutput.pgoutput.Lsn;
import io.github.pgoutput.pgoutput.OldTuple;
import io.github.pgoutput.pgoutput.PgOutputMessage.Relation;
import io.github.pgoutput.pgoutput.PgOutputMessage;
import io.github.pgoutput.pgoutput.RelationColumn;
import io.github.pgoutput.pgoutput.TupleData;
import io.github.pgoutput.replication.TableName;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Streaming after a resumed exactly-once snapshot: the changes its resumed rows already contain ({@link RowPlacement})
 * are skipped until the stream has passed the last resumption's point (the connector keeps the resumptions in its
 * offsets until then, so that a restart in between skips the same changes).
 *
 * <p>Each side of a change is placed on its own: the row an Insert adds, the row a Delete removes, and for an Update
 * the old row it removes and the new row it adds. A side whose row was read after the change's commit is in the
 * snapshot already; a side whose row was read before it is not. So an Update whose two rows were read at different
 * points delivers only the side the snapshot lacks: a Delete of the old row when the new row was read after the change
 * (it holds the new row), an Insert of the new row when the old row was read after the change (it lacks the old row).
 * Delivering the whole Update would add a row twice or remove one never added, which a consumer of a table without a
 * key (counting identical rows) cannot undo, and under a key would put an older state after a newer one. An Update
 * without an old row (its key unchanged) has one place. A side that cannot be placed counts as read before, so it is
 * delivered; a PREPARED delivery is delivered whole, since a later snapshot holds its rows only once COMMIT PREPARED
 * ran.
 *
 * <p>Not thread-safe: the task's poll thread.
 */
public final class ResumedSnapshotChanges implements AutoCloseable {

    private final Lsn until;
    private final RowPlacement rows;

    /**
     * @param until the last resumption's consistent point: changes committed from there on are delivered whole
     * @param rows  where the resumed snapshot's rows were read
     */
    public ResumedSnapshotChanges(Lsn until, RowPlacement rows) {
        this.until = Objects.requireNonNull(until, "until");
        this.rows = Objects.requireNonNull(rows, "rows");
    }

    /** The last resumption's consistent point. */
    public Lsn until() {
        return until;
    }

    /**
     * What of {@code event} of {@code delivery} the resumed snapshot lacks: {@code event} itself, null when its rows
     * as read hold all of it, or for an Update whose rows were read at different points, the Delete or Insert of the
     * side they lack (same relation, WAL position and index).
     *
     * @throws SnapshotException {@code NOT_RESUMABLE} for a TRUNCATE of a table partly read after it: it cannot be
     *                           delivered for the rows read before it only
     */
    public ChangeEvent lacking(ChangeEvent event, Delivery delivery) {
        if (delivery.kind() != Delivery.Kind.COMMITTED || delivery.twoPhase() || !delivery.lsn().isBefore(until)) {
            return event;
        }
        PgOutputMessage.StreamScoped message = event.message();
        if (message instanceof PgOutputMessage.Insert insert) {
            return contains(delivery, event.relation(), insert.newTuple(), false) ? null : event;
        }
        if (message instanceof PgOutputMessage.Delete delete) {
            return contains(delivery, event.relation(), delete.oldTuple().tuple(), keyOnly(delete.oldTuple())) ? null : event;
        }
        if (message instanceof PgOutputMessage.Update update) {
            return lacking(event, update, delivery);
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
        return event;
    }

    private ChangeEvent lacking(ChangeEvent event, PgOutputMessage.Update update, Delivery delivery) {
        Relation relation = event.relation();
        OldTuple old = update.oldTuple().orElse(null);
        // Under REPLICA IDENTITY FULL the old row holds the values of the new row's unchanged TOAST columns.
        TupleData oldRow = old != null && old.kind() == OldTuple.Kind.FULL ? old.tuple() : null;
        TupleData newRow = withUnchangedFrom(update.newTuple(), oldRow);
        boolean newRead = contains(delivery, relation, newRow, false);
        boolean oldRead = old == null ? newRead : contains(delivery, relation, old.tuple(), keyOnly(old));
        if (oldRead && newRead) {
            return null;
        }
        if (!oldRead && !newRead) {
            return event;
        }
        PgOutputMessage.StreamScoped side = oldRead
                ? new PgOutputMessage.Insert(update.xid(), update.relationId(), newRow)
                : new PgOutputMessage.Delete(update.xid(), update.relationId(), old);
        return new ChangeEvent(side, event.relations(), event.walPosition(), event.index());
    }

    /** {@code tuple} with each unchanged TOAST value taken from {@code old} (a whole old row), when there is one. */
    private static TupleData withUnchangedFrom(TupleData tuple, TupleData old) {
        if (old == null || old.size() != tuple.size()) {
            return tuple;
        }
        List<ColumnValue> values = new ArrayList<>(tuple.columns());
        boolean changed = false;
        for (int i = 0; i < values.size(); i++) {
            if (values.get(i) instanceof ColumnValue.UnchangedToast && !(old.get(i) instanceof ColumnValue.UnchangedToast)) {
                values.set(i, old.get(i));
                changed = true;
            }
        }
        return changed ? new TupleData(values) : tuple;
    }

    private boolean contains(Delivery delivery, Relation relation, TupleData tuple, boolean keyOnly) {
        return rows.contains(delivery.lsn(), tableOf(relation), changedRow(relation, tuple, keyOnly));
    }

    private static boolean keyOnly(OldTuple old) {
        return old.kind() == OldTuple.Kind.KEY;
    }

    private static TableName tableOf(Relation relation) {
        return new TableName(relation.namespace(), relation.relationName());
    }

    /**
     * The columns {@code tuple} carries as text or NULL. Absent: unchanged TOAST values, and with {@code keyOnly} (a
     * key-only old row, whose other columns pgoutput sends as NULL) every column outside the replica identity.
     */
    public static ChangedRow changedRow(Relation relation, TupleData tuple, boolean keyOnly) {
        List<RelationColumn> columns = relation.columns();
        Map<String, String> texts = new HashMap<>();
        for (int i = 0; i < columns.size() && i < tuple.size(); i++) {
            if (keyOnly && !columns.get(i).partOfKey()) {
                continue;
            }
            ColumnValue value = tuple.get(i);
            if (value instanceof ColumnValue.Text text) {
                texts.put(columns.get(i).name(), text.asString());
            } else if (value instanceof ColumnValue.Null) {
                texts.put(columns.get(i).name(), null);
            }
        }
        return new ChangedRow(columns, texts);
    }

    @Override
    public void close() {
        rows.close();
    }
}
