package io.github.pgoutput.toast;

import io.github.pgoutput.assembly.ChangeEvent;
import io.github.pgoutput.assembly.Delivery;
import io.github.pgoutput.pgoutput.ColumnValue;
import io.github.pgoutput.pgoutput.PgOutputMessage;
import io.github.pgoutput.pgoutput.PgOutputMessage.Insert;
import io.github.pgoutput.pgoutput.PgOutputMessage.Relation;
import io.github.pgoutput.pgoutput.PgOutputMessage.Update;
import io.github.pgoutput.pgoutput.TupleData;
import io.github.pgoutput.pgoutput.Xid;
import java.sql.SQLException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Resolves a delivery's changes in order: the store's values first ({@link ToastResolver}); for the values it does not
 * have, a batched reselect that is accepted only where it is proven. Hands the changes out in delivery order.
 *
 * <p><b>The proof.</b> A change {@code e} of row {@code k} in transaction {@code X} leaves column {@code c} unchanged.
 * The reselect reads {@code k}'s current version and its {@code xmin}. If {@code xmin} is the id of the transaction
 * that made the last change of {@code k} in this delivery ({@code X}, or for a streamed transaction the subtransaction
 * pgoutput names), the current version is that last change's: nothing committed later has replaced it. If moreover
 * every change of {@code k} after {@code e} in this delivery is an update of the same key that left {@code c}
 * unchanged, the current value of {@code c} is its value at {@code e}. Both need the rest of the delivery, so a change
 * with a missing value is held, with the changes after it, until the delivery ends or {@code maxChanges} changes (or
 * {@code maxBytes} of their values) are held; then every held change is decided with one query per table.
 *
 * <p><b>Not proven</b> (the column keeps the placeholder and is named in {@link Outcome#unresolved()}):
 * the row is gone or has a newer version ({@code xmin} is another transaction's: a later commit changed it, or the
 * change's own commit is not visible yet); a later change of the delivery set the column, deleted the row, changed
 * its key or truncated the table; the delivery goes on past the held window; the row was written in a subtransaction
 * of a transaction PostgreSQL sent whole (pgoutput does not name subtransactions then, so {@code xmin} cannot be
 * matched); the table has no replica identity key; the change was already in Kafka (replayed after a restart: it is
 * resolved from the store only, since its record is not emitted again); the reselect failed.
 *
 * <p>Memory: at most {@code maxChanges} changes and about {@code maxBytes} of their values. Not thread-safe.
 */
public final class ReselectBatch {

    /**
     * A change ready for the record builder.
     *
     * @param event      the change with every value that could be resolved put in
     * @param unresolved the columns left as unchanged TOAST, in column order; empty when none
     * @param failure    the reselect error that left some of them unresolved, or null
     * @param skipped    the caller's filter said the change gives no record: the store did not see it
     */
    public record Outcome(ChangeEvent event, List<String> unresolved, SQLException failure, boolean skipped) {
    }

    private static final class Held {
        ObservedChange change;
        TupleData tuple;
        final List<Integer> missing;
        List<String> unresolved = List.of();
        SQLException failure;
        boolean decided;
        final long bytes;
        final boolean skipped;

        Held(ObservedChange change, boolean skipped) {
            this.change = change;
            this.skipped = skipped;
            this.missing = new ArrayList<>(change.missing());
            this.decided = missing.isEmpty();
            this.tuple = tupleOf(change.event().message());
            this.bytes = size(change.event().message());
        }
    }

    private record Candidate(Held held, Relation relation, Xid writer, RowVersion lastVersion) {
    }

    private final ToastResolver resolver;
    private final CurrentRows rows;
    private final int maxChanges;
    private final long maxBytes;
    private final ToastStats stats;
    private final ArrayDeque<Held> held = new ArrayDeque<>();
    private long heldBytes;
    private boolean endReached;
    private boolean hasUndecided;

    /** @param rows the reselect, or null to resolve from the store only */
    public ReselectBatch(ToastResolver resolver, CurrentRows rows, int maxChanges, long maxBytes) {
        this.resolver = resolver;
        this.rows = rows;
        this.maxChanges = Math.max(1, maxChanges);
        this.maxBytes = maxBytes;
        this.stats = resolver.stats();
    }

    /**
     * The next change of {@code delivery}, resolved; null when none is available right now or the delivery's changes
     * are all handed out (tell them apart with {@link #atEnd}).
     *
     * @param reselect false when the delivery's records are all in Kafka already (a replay): no query is sent
     * @param skip     changes that give no record because their effect is already in the records (a resumed
     *                 snapshot's rows): handed out flagged {@link Outcome#skipped()}, unseen by the store, whose rows
     *                 then stay those of the snapshot
     */
    public Outcome next(Delivery delivery, boolean reselect, java.util.function.Predicate<ChangeEvent> skip) {
        while (true) {
            Held head = held.peekFirst();
            if (head != null && head.decided) {
                held.removeFirst();
                heldBytes -= head.bytes;
                return outcome(head);
            }
            if (head != null && (endReached || held.size() >= maxChanges || heldBytes >= maxBytes)) {
                decide(delivery, reselect);
                continue;
            }
            if (endReached) {
                return null;
            }
            ChangeEvent event = delivery.changes().next();
            if (event == null) {
                if (!delivery.changes().atEnd()) {
                    return null;
                }
                endReached = true;
                continue;
            }
            boolean skipped = skip.test(event);
            Held observed = skipped ? new Held(ObservedChange.untouched(event, ObservedChange.Kind.OTHER, 0, null, null, Set.of(),
                    Xid.INVALID), true) : new Held(resolver.observe(event, delivery), false);
            held.addLast(observed);
            heldBytes += observed.bytes;
            hasUndecided |= !observed.decided;
            if (!hasUndecided) {
                // Nothing waits for a proof: hand it out at once, holding nothing.
                held.removeFirst();
                heldBytes -= observed.bytes;
                return outcome(observed);
            }
        }
    }

    /** Whether every change of {@code delivery} has been handed out. */
    public boolean atEnd(Delivery delivery) {
        return held.isEmpty() && (endReached || delivery.changes().atEnd());
    }

    /** The delivery was handed out whole: the store moves on ({@link ToastResolver#delivered}); ready for the next. */
    public void delivered(Delivery delivery) {
        resolver.delivered(delivery);
        reset();
    }

    /** Forgets the held changes (the session was abandoned; its deliveries come again). */
    public void reset() {
        held.clear();
        heldBytes = 0;
        endReached = false;
        hasUndecided = false;
    }

    private Outcome outcome(Held h) {
        ChangeEvent event = h.change.event();
        if (h.tuple != null && h.tuple != tupleOf(event.message())) {
            event = new ChangeEvent(ToastResolver.withTuple(event.message(), h.tuple), event.relations(), event.walPosition(), event.index());
        }
        if (!h.unresolved.isEmpty()) {
            stats.unresolved(h.unresolved.size());
        }
        return new Outcome(event, h.unresolved, h.failure, h.skipped);
    }

    private void decide(Delivery delivery, boolean reselect) {
        List<Held> all = new ArrayList<>(held);
        List<Candidate> candidates = new ArrayList<>();
        for (int i = 0; i < all.size(); i++) {
            Held h = all.get(i);
            if (h.decided) {
                continue;
            }
            if (!reselect || rows == null || h.change.key() == null || !endReached) {
                continue;
            }
            Candidate candidate = prove(all, i, delivery);
            if (candidate != null) {
                candidates.add(candidate);
            }
        }
        if (!candidates.isEmpty()) {
            reselect(candidates, delivery);
        }
        for (Held h : all) {
            if (!h.decided) {
                h.unresolved = names(h, h.missing);
                h.decided = true;
            }
        }
        hasUndecided = false;
    }

    /**
     * Narrows the missing columns of {@code all.get(index)} to those the rest of the delivery does not disprove, and
     * names the transaction whose version of the row must be current; null when nothing is left to read.
     */
    private Candidate prove(List<Held> all, int index, Delivery delivery) {
        Held h = all.get(index);
        ObservedChange change = h.change;
        RowKey key = change.key();
        Xid writer = change.writer();
        RowVersion last = RowVersion.change(delivery.lsn(), change.event().index());
        Set<Integer> possible = new LinkedHashSet<>(h.missing);
        for (int j = index + 1; j < all.size() && !possible.isEmpty(); j++) {
            ObservedChange later = all.get(j).change;
            if (later.kind() == ObservedChange.Kind.TRUNCATE && later.truncated().contains(change.relationId())) {
                possible.clear();
            } else if (later.relationId() == change.relationId() && later.touches(key)) {
                if (later.kind() == ObservedChange.Kind.UPDATE && later.oldKey() == null && key.equals(later.key())) {
                    possible.removeAll(later.sent());
                    writer = later.writer();
                    last = RowVersion.change(delivery.lsn(), later.event().index());
                } else {
                    possible.clear();
                }
            }
        }
        if (possible.isEmpty()) {
            return null;
        }
        h.missing.retainAll(possible);
        return new Candidate(h, change.event().relation(), writer.isValid() ? writer : delivery.xid(), last);
    }

    private void reselect(List<Candidate> candidates, Delivery delivery) {
        Map<Long, List<Candidate>> byTable = new LinkedHashMap<>();
        for (Candidate c : candidates) {
            byTable.computeIfAbsent(c.relation().relationId(), t -> new ArrayList<>()).add(c);
        }
        for (List<Candidate> table : byTable.values()) {
            Relation relation = table.get(table.size() - 1).relation();
            Set<String> columns = new LinkedHashSet<>();
            Set<RowKey> keys = new LinkedHashSet<>();
            for (Candidate c : table) {
                c.held().missing.forEach(i -> columns.add(relation.columns().get(i).name()));
                keys.add(c.held().change.key());
            }
            Map<RowKey, CurrentRows.Row> current;
            long start = System.nanoTime();
            try {
                current = rows.read(relation, columns, keys);
            } catch (SQLException e) {
                table.forEach(c -> c.held().failure = e);
                continue;
            }
            long hits = 0;
            Map<RowKey, Candidate> lastOfKey = new HashMap<>();
            for (Candidate c : table) {
                CurrentRows.Row row = current.get(c.held().change.key());
                if (row == null || !row.xmin().equals(c.writer())) {
                    continue;
                }
                Held h = c.held();
                List<ColumnValue> values = new ArrayList<>(h.tuple.columns());
                for (var it = h.missing.iterator(); it.hasNext(); ) {
                    int i = it.next();
                    ColumnValue value = row.columns().get(relation.columns().get(i).name());
                    if (value != null) {
                        values.set(i, value);
                        it.remove();
                        hits++;
                    }
                }
                h.tuple = new TupleData(values);
                lastOfKey.merge(h.change.key(), c, (a, b) -> b);
            }
            stats.reselected(hits, current.size(), System.nanoTime() - start);
            // The proven values are the row's after the delivery too: they join the stored row.
            for (Candidate c : lastOfKey.values()) {
                CurrentRows.Row row = current.get(c.held().change.key());
                Map<String, ColumnValue> proven = new LinkedHashMap<>();
                row.columns().forEach(proven::put);
                resolver.proven(delivery, c.held().change.key(), c.lastVersion(), proven);
            }
        }
    }

    private static List<String> names(Held h, List<Integer> indexes) {
        if (indexes.isEmpty()) {
            return List.of();
        }
        Relation relation = h.change.event().relation();
        List<String> names = new ArrayList<>(indexes.size());
        indexes.forEach(i -> names.add(relation.columns().get(i).name()));
        return names;
    }

    private static TupleData tupleOf(PgOutputMessage.StreamScoped message) {
        if (message instanceof Insert insert) {
            return insert.newTuple();
        }
        if (message instanceof Update update) {
            return update.newTuple();
        }
        return null;
    }

    /** The bytes of a change's values, to bound what is held. */
    private static long size(PgOutputMessage.StreamScoped message) {
        TupleData tuple = tupleOf(message);
        if (tuple == null) {
            return 64;
        }
        long bytes = 64;
        for (ColumnValue value : tuple.columns()) {
            if (value instanceof ColumnValue.Text text) {
                bytes += text.value().length();
            } else if (value instanceof ColumnValue.Binary binary) {
                bytes += binary.value().length();
            }
        }
        return bytes;
    }
}
