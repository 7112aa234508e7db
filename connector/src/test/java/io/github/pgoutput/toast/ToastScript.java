package io.github.pgoutput.toast;

import io.github.pgoutput.assembly.ChangeEvent;
import io.github.pgoutput.assembly.Delivery;
import io.github.pgoutput.assembly.TransactionAssembler;
import io.github.pgoutput.connect.Deliveries;
import io.github.pgoutput.pgoutput.ColumnValue;
import io.github.pgoutput.pgoutput.Lsn;
import io.github.pgoutput.pgoutput.OldTuple;
import io.github.pgoutput.pgoutput.PgOutputMessage;
import io.github.pgoutput.pgoutput.PgOutputMessage.Relation;
import io.github.pgoutput.pgoutput.RelationColumn;
import io.github.pgoutput.pgoutput.ReplicaIdentity;
import io.github.pgoutput.pgoutput.TupleData;
import io.github.pgoutput.pgoutput.Xid;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Builds pgoutput message sequences of one table {@code public.docs (id int4 key, body text, note text)}, runs them
 * through the real assembler and a {@link ReselectBatch}, and records what came out; the current rows a reselect reads
 * are scripted ({@link Rows}).
 */
final class ToastScript {

    static final long TABLE = 16384;
    static final Relation DOCS = relation(List.of(new RelationColumn(true, "id", 23, -1), new RelationColumn(false, "body", 25, -1),
            new RelationColumn(false, "note", 25, -1)));
    static final String U = "\u0000u";
    static final Instant TIME = Instant.parse("2026-01-02T03:04:05Z");

    static Relation relation(List<RelationColumn> columns) {
        return new Relation(Xid.INVALID, TABLE, "public", "docs", ReplicaIdentity.DEFAULT, columns);
    }

    static String big(String tag) {
        return tag + ":" + "v".repeat(300);
    }

    static PgOutputMessage insert(String id, String body, String note) {
        return new PgOutputMessage.Insert(Xid.INVALID, TABLE, Deliveries.tuple(id, body, note));
    }

    static PgOutputMessage update(String id, String body, String note) {
        return new PgOutputMessage.Update(Xid.INVALID, TABLE, Optional.empty(), Deliveries.tuple(id, body, note));
    }

    static PgOutputMessage updateKey(String oldId, String id, String body, String note) {
        return new PgOutputMessage.Update(Xid.INVALID, TABLE, Optional.of(new OldTuple(OldTuple.Kind.KEY,
                Deliveries.tuple(oldId, null, null))), Deliveries.tuple(id, body, note));
    }

    static PgOutputMessage delete(String id) {
        return new PgOutputMessage.Delete(Xid.INVALID, TABLE, new OldTuple(OldTuple.Kind.KEY, Deliveries.tuple(id, null, null)));
    }

    static PgOutputMessage truncate() {
        return new PgOutputMessage.Truncate(Xid.INVALID, 0, List.of(TABLE));
    }

    static PgOutputMessage[] tx(long xid, long commitLsn, PgOutputMessage... body) {
        return Deliveries.transaction(xid, commitLsn, body);
    }

    static PgOutputMessage[] prepared(long xid, long prepareLsn, String gid, PgOutputMessage... body) {
        List<PgOutputMessage> all = new ArrayList<>();
        all.add(new PgOutputMessage.BeginPrepare(Lsn.of(prepareLsn), Lsn.of(prepareLsn + 0x20), TIME, Xid.of(xid), gid));
        all.addAll(List.of(body));
        all.add(new PgOutputMessage.Prepare(0, Lsn.of(prepareLsn), Lsn.of(prepareLsn + 0x20), TIME, Xid.of(xid), gid));
        return all.toArray(PgOutputMessage[]::new);
    }

    static PgOutputMessage[] commitPrepared(long xid, long commitLsn, String gid) {
        return new PgOutputMessage[] {new PgOutputMessage.CommitPrepared(0, Lsn.of(commitLsn), Lsn.of(commitLsn + 0x20), TIME,
                Xid.of(xid), gid)};
    }

    static PgOutputMessage[] rollbackPrepared(long xid, long prepareEndLsn, long endLsn, String gid) {
        return new PgOutputMessage[] {new PgOutputMessage.RollbackPrepared(0, Lsn.of(prepareEndLsn), Lsn.of(endLsn), TIME, TIME,
                Xid.of(xid), gid)};
    }

    /** The current rows a reselect reads, by key, and the queries it got. */
    static final class Rows implements CurrentRows {
        final Map<RowKey, Row> rows = new HashMap<>();
        final List<Collection<RowKey>> queries = new ArrayList<>();
        SQLException failure;

        Rows row(String id, long xmin, String body, String note) {
            Map<String, ColumnValue> columns = new LinkedHashMap<>();
            columns.put("body", Deliveries.tuple(body).get(0));
            columns.put("note", Deliveries.tuple(note).get(0));
            rows.put(new RowKey(TABLE, List.of(id)), new Row(Xid.of(xmin), columns));
            return this;
        }

        @Override
        public Map<RowKey, Row> read(Relation relation, Collection<String> columns, Collection<RowKey> keys) throws SQLException {
            queries.add(List.copyOf(keys));
            if (failure != null) {
                throw failure;
            }
            Map<RowKey, Row> found = new HashMap<>();
            for (RowKey key : keys) {
                Row row = rows.get(key);
                if (row != null) {
                    Map<String, ColumnValue> requested = new LinkedHashMap<>();
                    columns.forEach(c -> requested.put(c, row.columns().get(c)));
                    found.put(key, new Row(row.xmin(), requested));
                }
            }
            return found;
        }

        @Override
        public void close() {
        }
    }

    /** A change as the builder gets it: its new tuple's texts ({@code U} for unchanged TOAST) and unresolved columns. */
    record Out(Delivery.Kind kind, String message, List<String> values, List<String> unresolved) {
    }

    /** Runs {@code messages} through {@code batch} (reselect allowed), returning every change handed out. */
    static List<Out> run(Path spill, ReselectBatch batch, PgOutputMessage... messages) {
        return run(spill, batch, true, messages);
    }

    static List<Out> run(Path spill, ReselectBatch batch, boolean reselect, PgOutputMessage... messages) {
        List<PgOutputMessage> all = new ArrayList<>();
        all.add(DOCS);
        all.addAll(List.of(messages));
        List<Out> out = new ArrayList<>();
        try (TransactionAssembler assembler = Deliveries.assembler(spill, all.toArray(PgOutputMessage[]::new))) {
            Delivery delivery;
            while ((delivery = assembler.nextDelivery()) != null) {
                ReselectBatch.Outcome outcome;
                while ((outcome = batch.next(delivery, reselect, e -> false)) != null) {
                    out.add(new Out(delivery.kind(), outcome.event().message().getClass().getSimpleName(), texts(outcome.event()),
                            outcome.unresolved()));
                }
                if (!batch.atEnd(delivery)) {
                    throw new AssertionError("a whole delivery is available, yet the batch is not at its end");
                }
                batch.delivered(delivery);
            }
        }
        return out;
    }

    private static List<String> texts(ChangeEvent event) {
        TupleData tuple;
        if (event.message() instanceof PgOutputMessage.Insert insert) {
            tuple = insert.newTuple();
        } else if (event.message() instanceof PgOutputMessage.Update update) {
            tuple = update.newTuple();
        } else {
            return List.of();
        }
        List<String> texts = new ArrayList<>();
        for (ColumnValue value : tuple.columns()) {
            texts.add(value instanceof ColumnValue.Text t ? t.asString() : value instanceof ColumnValue.UnchangedToast ? U : null);
        }
        return texts;
    }

    private ToastScript() {
    }
}
