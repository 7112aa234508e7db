package io.github.pgoutput.assembly;

import io.github.pgoutput.pgoutput.Lsn;
import io.github.pgoutput.pgoutput.PgOutputMessage;
import io.github.pgoutput.pgoutput.PgOutputMessage.Relation;
import java.util.List;

/**
 * One change of a delivery, with the schema it was written against.
 *
 * @param message     an Insert, Update, Delete, Truncate, or a transactional logical message (or the
 *                    non-transactional one of a synthetic delivery). Its {@code xid} is the (sub)transaction prefix
 *                    from the stream block, or {@code Xid.INVALID} for a change of a non-streamed transaction.
 * @param relations   the Relation in force for the change's table when the change was written: one for
 *                    Insert/Update/Delete, one per table for Truncate (same order as its relation ids), none for
 *                    logical messages
 * @param walPosition the WAL position of the change's XLogData frame (start of its WAL record)
 * @param index       0-based position of the change within its delivery
 */
public record ChangeEvent(PgOutputMessage.StreamScoped message, List<Relation> relations, Lsn walPosition, long index) {

    public ChangeEvent {
        relations = List.copyOf(relations);
    }

    /** The only relation of an Insert, Update or Delete. */
    public Relation relation() {
        if (relations.size() != 1) {
            throw new IllegalStateException(message.getClass().getSimpleName() + " has " + relations.size() + " relations");
        }
        return relations.get(0);
    }
}
