package io.github.pgoutput.toast;

import io.github.pgoutput.assembly.ChangeEvent;
import io.github.pgoutput.assembly.Delivery;
import io.github.pgoutput.pgoutput.ColumnValue;
import io.github.pgoutput.pgoutput.Lsn;
import io.github.pgoutput.pgoutput.OldTuple;
import io.github.pgoutput.pgoutput.PgOutputMessage;
import io.github.pgoutput.pgoutput.PgOutputMessage.Delete;
import io.github.pgoutput.pgoutput.PgOutputMessage.Insert;
import io.github.pgoutput.pgoutput.PgOutputMessage.Relation;
import io.github.pgoutput.pgoutput.PgOutputMessage.Truncate;
import io.github.pgoutput.pgoutput.PgOutputMessage.Update;
import io.github.pgoutput.pgoutput.RelationColumn;
import io.github.pgoutput.pgoutput.ReplicaIdentity;
import io.github.pgoutput.pgoutput.TupleData;
import io.github.pgoutput.pgoutput.Xid;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The store's side of unchanged TOAST resolution: sees every change of the captured tables and every snapshot row in
 * commit order, puts in the values it knows and keeps the last large values of each row.
 *
 * <p>Why a stored value is the value of the change: the connector receives every committed change of a captured table
 * in commit order. If the store holds a value for (table, key, column) written at version {@code w}, and the change
 * being resolved is at version {@code v > w}, every change of that row between {@code w} and {@code v} passed through
 * here and either left the column unchanged or replaced (or removed) the stored value. So the value stored is the
 * value at {@code v}. A stored value at {@code w >= v} (the store ran ahead of Kafka before a restart and PostgreSQL
 * sends the change again) proves nothing: a miss. The rules that keep "every change passed through here" true:
 * <ul>
 *   <li>only rows of captured tables, and only tables whose definition (columns, types, key) is the one the values were
 *       stored under: a changed definition (ALTER TABLE) forgets the table's rows;</li>
 *   <li>a delete, a truncate, or a value not stored (NULL, below {@code minValueBytes}, or unresolved) removes what was
 *       stored, so no older value survives a change;</li>
 *   <li>the changes of a PREPARED delivery are kept apart until its COMMIT PREPARED (see {@link ToastStore}).</li>
 * </ul>
 * REPLICA IDENTITY FULL tables need none of this (the old row carries the value) and are left alone.
 *
 * <p>Not thread-safe: the task's poll thread.
 */
public final class ToastResolver {

    /** Which columns are resolved: Debezium's {@code reselect.columns.include.list} / {@code exclude.list}. */
    @FunctionalInterface
    public interface ColumnSelection {
        boolean test(String schema, String table, String column);

        ColumnSelection ALL = (schema, table, column) -> true;
    }

    /** Whether a table (schema, name) is captured: the changes of other tables give no records and are not kept. */
    @FunctionalInterface
    public interface Captured {
        boolean test(String schema, String table);
    }

    private final ToastStore store;
    private final Captured captured;
    private final ColumnSelection selection;
    private final int minValueBytes;
    /** The Relations whose definition was checked against the store in this run (one per table version). */
    private final Map<Relation, Boolean> checked = new IdentityHashMap<>();
    private final ToastStats stats;

    /**
     * @param store         the store, or null to resolve by reselect only
     * @param minValueBytes values shorter than this are not stored: PostgreSQL moves a value out of line (and so
     *                      sends it as unchanged TOAST) only when its row is larger than {@code toast_tuple_target}
     */
    public ToastResolver(ToastStore store, Captured captured, ColumnSelection selection, int minValueBytes, ToastStats stats) {
        this.store = store;
        this.stats = stats;
        this.captured = captured;
        this.selection = selection;
        this.minValueBytes = minValueBytes;
    }

    /** The store; null when resolving by reselect only. */
    public ToastStore store() {
        return store;
    }

    public ToastStats stats() {
        return stats;
    }

    /**
     * A snapshot row, read at the slot's consistent point: its large values become the row's.
     *
     * @param values each column's text form (null for NULL), in the order of {@code columns}
     */
    public void snapshotRow(long relationId, String schema, String table, List<RelationColumn> columns, List<String> values,
                            Lsn consistentPoint) {
        if (store == null || columns.stream().allMatch(RelationColumn::partOfKey)) {
            return;
        }
        Relation relation = new Relation(Xid.INVALID, relationId, schema, table, ReplicaIdentity.DEFAULT, columns);
        checkDefinition(relation);
        Optional<RowKey> key = RowKey.ofText(relationId, columns, values);
        if (key.isEmpty()) {
            return;
        }
        Map<String, ColumnValue> stored = new LinkedHashMap<>();
        for (int i = 0; i < columns.size(); i++) {
            RelationColumn column = columns.get(i);
            String text = values.get(i);
            if (!column.partOfKey() && text != null && text.length() >= minValueBytes && selection.test(schema, table, column.name())) {
                stored.put(column.name(), new ColumnValue.Text(io.github.pgoutput.pgoutput.Bytes.utf8(text)));
            }
        }
        store.put(key.get(), new StoredRow(RowVersion.snapshot(consistentPoint), stored));
    }

    /** One change of {@code delivery}, in delivery order: the values the store knows put in, and the store updated. */
    public ObservedChange observe(ChangeEvent event, Delivery delivery) {
        PgOutputMessage.StreamScoped message = event.message();
        Xid writer = message instanceof PgOutputMessage.Change change ? change.xid() : Xid.INVALID;
        if (message instanceof Truncate truncate) {
            Set<Long> tables = new HashSet<>();
            for (Relation relation : event.relations()) {
                if (captured.test(relation.namespace(), relation.relationName())) {
                    tables.add(relation.relationId());
                    if (store != null) {
                        if (delivery.kind() == Delivery.Kind.PREPARED) {
                            store.truncatePrepared(delivery.xid(), relation.relationId());
                        } else {
                            store.dropTable(relation.relationId());
                        }
                    }
                }
            }
            return new ObservedChange(event, List.of(), ObservedChange.Kind.TRUNCATE, 0, null, null, Set.of(), writer, tables);
        }
        if (!(message instanceof Insert) && !(message instanceof Update) && !(message instanceof Delete)) {
            return ObservedChange.untouched(event, ObservedChange.Kind.OTHER, 0, null, null, Set.of(), writer);
        }
        Relation relation = event.relation();
        if (!captured.test(relation.namespace(), relation.relationName()) || relation.replicaIdentity() == ReplicaIdentity.FULL) {
            return ObservedChange.untouched(event, ObservedChange.Kind.OTHER, 0, null, null, Set.of(), writer);
        }
        checkDefinition(relation);
        RowVersion version = RowVersion.change(delivery.lsn(), event.index());
        if (message instanceof Delete delete) {
            RowKey key = RowKey.of(relation.relationId(), relation.columns(), delete.oldTuple().tuple()).orElse(null);
            if (key != null) {
                forget(delivery, key, version);
            }
            return ObservedChange.untouched(event, ObservedChange.Kind.DELETE, relation.relationId(), key, null, Set.of(), writer);
        }
        TupleData tuple = message instanceof Insert insert ? insert.newTuple() : ((Update) message).newTuple();
        RowKey key = RowKey.of(relation.relationId(), relation.columns(), tuple).orElse(null);
        RowKey oldKey = null;
        if (message instanceof Update update && update.oldTuple().isPresent() && update.oldTuple().get().kind() == OldTuple.Kind.KEY) {
            oldKey = RowKey.of(relation.relationId(), relation.columns(), update.oldTuple().get().tuple()).orElse(null);
            if (oldKey != null && oldKey.equals(key)) {
                oldKey = null;
            }
        }
        ObservedChange.Kind kind = message instanceof Insert ? ObservedChange.Kind.INSERT : ObservedChange.Kind.UPDATE;
        Set<Integer> sent = new HashSet<>();
        List<Integer> unchanged = new ArrayList<>();
        for (int i = 0; i < tuple.size(); i++) {
            if (tuple.get(i) instanceof ColumnValue.UnchangedToast) {
                unchanged.add(i);
            } else {
                sent.add(i);
            }
        }
        // The row the values come from: the old key's when the update moved the row to another key.
        RowKey source = oldKey != null ? oldKey : key;
        List<Integer> missing = new ArrayList<>();
        TupleData resolved = tuple;
        if (!unchanged.isEmpty()) {
            Optional<StoredRow> stored = source == null ? Optional.empty() : lookup(delivery, relation.relationId(), source, version);
            List<ColumnValue> values = new ArrayList<>(tuple.columns());
            for (int i : unchanged) {
                RelationColumn column = relation.columns().get(i);
                if (!selection.test(relation.namespace(), relation.relationName(), column.name())) {
                    continue;
                }
                ColumnValue value = stored.map(row -> row.columns().get(column.name())).orElse(null);
                if (value != null) {
                    values.set(i, value);
                    stats.storeHit();
                } else {
                    missing.add(i);
                }
            }
            resolved = new TupleData(values);
        }
        if (key != null) {
            remember(delivery, relation, key, resolved, version);
        }
        if (oldKey != null) {
            forget(delivery, oldKey, version);
        }
        ChangeEvent event2 = resolved == tuple ? event : new ChangeEvent(withTuple(message, resolved), event.relations(),
                event.walPosition(), event.index());
        return new ObservedChange(event2, missing, kind, relation.relationId(), key, oldKey, sent, writer, Set.of());
    }

    /**
     * Values the reselect proved for the last change of {@code key} in its delivery: they join the stored row (the
     * change that wrote it is at {@code version}, or an earlier change of the same row in the same delivery).
     */
    public void proven(Delivery delivery, RowKey key, RowVersion version, Map<String, ColumnValue> values) {
        if (store == null) {
            return;
        }
        Map<String, ColumnValue> large = new LinkedHashMap<>();
        values.forEach((column, value) -> {
            if ((value instanceof ColumnValue.Text || value instanceof ColumnValue.Binary) && StoredRow.bytes(value).length() >= minValueBytes) {
                large.put(column, value);
            }
        });
        if (large.isEmpty()) {
            return;
        }
        Optional<StoredRow> current = delivery.kind() == Delivery.Kind.PREPARED ? store.getPrepared(delivery.xid(), key) : store.get(key);
        Map<String, ColumnValue> merged = new LinkedHashMap<>(current.map(StoredRow::columns).orElse(Map.of()));
        merged.putAll(large);
        // The row may have been written by a later change of the same delivery (one that left these columns unchanged).
        RowVersion at = current.map(StoredRow::version).filter(version::isBefore).orElse(version);
        if (delivery.kind() == Delivery.Kind.PREPARED) {
            store.putPrepared(delivery.xid(), key, new StoredRow(at, merged));
        } else {
            store.put(key, new StoredRow(at, merged));
        }
    }

    /**
     * The end of a delivery: a COMMIT PREPARED makes its transaction's values the committed ones, a ROLLBACK PREPARED
     * discards them, and the watermark moves to the delivery's end.
     */
    public void delivered(Delivery delivery) {
        if (store == null) {
            return;
        }
        if (delivery.twoPhase() && delivery.kind() == Delivery.Kind.COMMITTED) {
            store.commitPrepared(delivery.xid(), RowVersion.change(delivery.lsn(), -1));
        } else if (delivery.kind() == Delivery.Kind.ROLLED_BACK) {
            store.discardPrepared(delivery.xid());
        }
        store.advance(delivery.endLsn());
    }

    private Optional<StoredRow> lookup(Delivery delivery, long relationId, RowKey key, RowVersion version) {
        if (store == null) {
            return Optional.empty();
        }
        if (delivery.kind() == Delivery.Kind.PREPARED) {
            Optional<StoredRow> own = store.getPrepared(delivery.xid(), key);
            if (own.isPresent()) {
                return own.filter(row -> row.version().isBefore(version));
            }
            if (store.truncatedInPrepared(delivery.xid(), relationId)) {
                return Optional.empty();
            }
        }
        return store.get(key).filter(row -> row.version().isBefore(version));
    }

    private void remember(Delivery delivery, Relation relation, RowKey key, TupleData tuple, RowVersion version) {
        if (store == null) {
            return;
        }
        Map<String, ColumnValue> stored = new LinkedHashMap<>();
        List<RelationColumn> columns = relation.columns();
        for (int i = 0; i < columns.size(); i++) {
            RelationColumn column = columns.get(i);
            ColumnValue value = tuple.get(i);
            if (!column.partOfKey() && (value instanceof ColumnValue.Text || value instanceof ColumnValue.Binary)
                    && StoredRow.bytes(value).length() >= minValueBytes
                    && selection.test(relation.namespace(), relation.relationName(), column.name())) {
                stored.put(column.name(), value);
            }
        }
        if (delivery.kind() == Delivery.Kind.PREPARED) {
            store.putPrepared(delivery.xid(), key, new StoredRow(version, stored));
        } else {
            store.put(key, new StoredRow(version, stored));
        }
    }

    private void forget(Delivery delivery, RowKey key, RowVersion version) {
        if (store == null) {
            return;
        }
        if (delivery.kind() == Delivery.Kind.PREPARED) {
            store.putPrepared(delivery.xid(), key, new StoredRow(version, Map.of()));
        } else {
            store.remove(key);
        }
    }

    /** Forgets a table's rows when its definition differs from the one they were stored under. */
    private void checkDefinition(Relation relation) {
        if (store == null || checked.containsKey(relation)) {
            return;
        }
        String definition = definition(relation);
        Optional<String> stored = store.tableDefinition(relation.relationId());
        if (stored.isEmpty() || !stored.get().equals(definition)) {
            if (stored.isPresent()) {
                store.dropTable(relation.relationId());
            }
            store.tableDefinition(relation.relationId(), definition);
        }
        if (checked.size() > 10_000) {
            checked.clear();
        }
        checked.put(relation, Boolean.TRUE);
    }

    /**
     * What the stored values depend on: the table's name (so that tables no longer captured can be found), and each
     * column's name, type, modifier and key flag. The replica identity kind is left out: the snapshot does not know it,
     * and the key flags already tell every change of it.
     */
    static String definition(Relation relation) {
        StringBuilder text = new StringBuilder().append(relation.namespace()).append('\u0000').append(relation.relationName());
        for (RelationColumn column : relation.columns()) {
            text.append('\u0000').append(column.name()).append(':').append(column.typeOid()).append(':')
                    .append(column.typeModifier()).append(':').append(column.partOfKey() ? 'k' : '-');
        }
        return text.toString();
    }

    /** The schema and table name a {@link #definition} names. */
    static String[] tableOf(String definition) {
        String[] parts = definition.split("\u0000", 3);
        return new String[] {parts[0], parts[1]};
    }

    /** Forgets the stored rows of every table that {@code captured} no longer selects: their history has gaps. */
    public void forgetTablesNotCaptured() {
        if (store == null) {
            return;
        }
        store.tableDefinitions().forEach((relationId, definition) -> {
            String[] table = tableOf(definition);
            if (!captured.test(table[0], table[1])) {
                store.dropTable(relationId);
            }
        });
    }

    static PgOutputMessage.StreamScoped withTuple(PgOutputMessage.StreamScoped message, TupleData tuple) {
        if (message instanceof Insert insert) {
            return new Insert(insert.xid(), insert.relationId(), tuple);
        }
        Update update = (Update) message;
        return new Update(update.xid(), update.relationId(), update.oldTuple(), tuple);
    }
}
