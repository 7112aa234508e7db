package io.github.pgoutput.toast;

import io.github.pgoutput.assembly.ChangeEvent;
import io.github.pgoutput.pgoutput.Xid;
import java.util.List;
import java.util.Set;

/**
 * One change as the {@link ToastResolver} saw it: the change with the unchanged TOAST values the store had put in, and
 * what the reselect needs to prove the others.
 *
 * @param event      the change, its new tuple's {@code u} columns replaced where the store knew the value
 * @param missing    indexes of the columns still {@code u} (and selected for resolution), in column order
 * @param kind       what the change does to its row
 * @param relationId the table's OID; 0 for a change of no single table (truncate, logical message)
 * @param key        the row's key after the change (the deleted row's for a delete); null when unknown
 * @param oldKey     the row's key before an update that changed it; null otherwise
 * @param sent       indexes of the columns the change sent with a value (or NULL): those it may have changed
 * @param writer     the (sub)transaction id pgoutput names for a change of a streamed transaction, else
 *                   {@link Xid#INVALID}
 * @param truncated  the tables a truncate empties; empty for other changes
 */
public record ObservedChange(ChangeEvent event, List<Integer> missing, Kind kind, long relationId, RowKey key, RowKey oldKey,
                             Set<Integer> sent, Xid writer, Set<Long> truncated) {

    /** What a change does to its row. */
    public enum Kind {
        INSERT, UPDATE, DELETE, TRUNCATE, OTHER
    }

    public ObservedChange {
        missing = List.copyOf(missing);
        sent = Set.copyOf(sent);
        truncated = Set.copyOf(truncated);
    }

    /** A change the resolver has nothing to do with (a logical message, a table not captured, no key). */
    static ObservedChange untouched(ChangeEvent event, Kind kind, long relationId, RowKey key, RowKey oldKey, Set<Integer> sent,
                                    Xid writer) {
        return new ObservedChange(event, List.of(), kind, relationId, key, oldKey, sent, writer, Set.of());
    }

    /** Whether this change involves row {@code other}: as its key now, or as the key it changed from. */
    boolean touches(RowKey other) {
        return other.equals(key) || other.equals(oldKey);
    }
}
