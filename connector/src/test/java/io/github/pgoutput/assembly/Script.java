package io.github.pgoutput.assembly;

import io.github.pgoutput.pgoutput.Bytes;
import io.github.pgoutput.pgoutput.ColumnValue;
import io.github.pgoutput.pgoutput.Lsn;
import io.github.pgoutput.pgoutput.OldTuple;
import io.github.pgoutput.pgoutput.PgOutputMessage;
import io.github.pgoutput.pgoutput.PgOutputMessage.Begin;
import io.github.pgoutput.pgoutput.PgOutputMessage.BeginPrepare;
import io.github.pgoutput.pgoutput.PgOutputMessage.Commit;
import io.github.pgoutput.pgoutput.PgOutputMessage.CommitPrepared;
import io.github.pgoutput.pgoutput.PgOutputMessage.Delete;
import io.github.pgoutput.pgoutput.PgOutputMessage.Insert;
import io.github.pgoutput.pgoutput.PgOutputMessage.LogicalMessage;
import io.github.pgoutput.pgoutput.PgOutputMessage.Origin;
import io.github.pgoutput.pgoutput.PgOutputMessage.Prepare;
import io.github.pgoutput.pgoutput.PgOutputMessage.Relation;
import io.github.pgoutput.pgoutput.PgOutputMessage.RollbackPrepared;
import io.github.pgoutput.pgoutput.PgOutputMessage.StreamAbort;
import io.github.pgoutput.pgoutput.PgOutputMessage.StreamCommit;
import io.github.pgoutput.pgoutput.PgOutputMessage.StreamPrepare;
import io.github.pgoutput.pgoutput.PgOutputMessage.StreamStart;
import io.github.pgoutput.pgoutput.PgOutputMessage.StreamStop;
import io.github.pgoutput.pgoutput.PgOutputMessage.Truncate;
import io.github.pgoutput.pgoutput.PgOutputMessage.Type;
import io.github.pgoutput.pgoutput.PgOutputMessage.Update;
import io.github.pgoutput.pgoutput.RelationColumn;
import io.github.pgoutput.pgoutput.ReplicaIdentity;
import io.github.pgoutput.pgoutput.TupleData;
import io.github.pgoutput.pgoutput.Xid;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;

/**
 * A scripted message stream for assembler tests: messages in wire order, with optional pauses where the source
 * reports "nothing available yet". Payloads are 8-byte ids into this script's registry and {@link #decoder()} maps
 * them back, so a message read back from the spill is the very record that was appended.
 */
final class Script {

    static final Instant T0 = Instant.parse("2026-11-29T10:00:00Z");
    private static final WireMessage PAUSE = new WireMessage(new StreamStop(), ByteBuffer.allocate(0), Lsn.INVALID);

    private final List<PgOutputMessage> registry = new ArrayList<>();
    private final Deque<WireMessage> queue = new ArrayDeque<>();
    private long nextLsn = 0x1000;

    static Xid xid(long value) {
        return Xid.of(value);
    }

    static Lsn lsn(long value) {
        return Lsn.of(value);
    }

    Script add(PgOutputMessage message) {
        return add(message, lsn(nextLsn += 0x10));
    }

    Script add(PgOutputMessage message, Lsn walPosition) {
        registry.add(message);
        ByteBuffer payload = ByteBuffer.allocate(Long.BYTES).putLong(0, registry.size() - 1);
        queue.add(new WireMessage(message, payload, walPosition));
        return this;
    }

    /** The source returns null once here. */
    Script pause() {
        queue.add(PAUSE);
        return this;
    }

    MessageSource source() {
        return () -> {
            WireMessage next = queue.poll();
            return next == PAUSE ? null : next;
        };
    }

    /** True when the source has handed out every message and pause. */
    boolean isEmpty() {
        return queue.isEmpty();
    }

    SpilledMessageDecoder decoder() {
        return (payload, walPosition, insideStreamBlock) -> registry.get((int) payload.getLong(payload.position()));
    }

    // ---- message builders, named like the protocol ----

    static Begin begin(long xid, long finalLsn) {
        return new Begin(lsn(finalLsn), T0, xid(xid));
    }

    static Commit commit(long commitLsn, long endLsn) {
        return new Commit(0, lsn(commitLsn), lsn(endLsn), T0);
    }

    static Origin origin(String name) {
        return new Origin(lsn(0xABCDEF), name);
    }

    static Relation relation(long xid, long relationId, String name, String... columns) {
        List<RelationColumn> list = new ArrayList<>();
        for (int i = 0; i < columns.length; i++) {
            list.add(new RelationColumn(i == 0, columns[i], 25, -1));
        }
        return new Relation(Xid.of(xid), relationId, "public", name, ReplicaIdentity.DEFAULT, list);
    }

    static Type type(long xid, long oid, String name) {
        return new Type(Xid.of(xid), oid, "public", name);
    }

    static Insert insert(long xid, long relationId, String value) {
        return new Insert(Xid.of(xid), relationId, row(value));
    }

    static Update update(long xid, long relationId, String value) {
        return new Update(Xid.of(xid), relationId, Optional.empty(), row(value));
    }

    static Delete delete(long xid, long relationId, String value) {
        return new Delete(Xid.of(xid), relationId, new OldTuple(OldTuple.Kind.KEY, row(value)));
    }

    static Truncate truncate(long xid, Long... relationIds) {
        return new Truncate(Xid.of(xid), 0, List.of(relationIds));
    }

    static LogicalMessage message(long xid, boolean transactional, long lsn, String content) {
        return new LogicalMessage(Xid.of(xid), transactional, lsn(lsn), "test", Bytes.utf8(content));
    }

    static StreamStart streamStart(long xid, boolean first) {
        return new StreamStart(xid(xid), first);
    }

    static StreamStop streamStop() {
        return new StreamStop();
    }

    static StreamCommit streamCommit(long xid, long commitLsn, long endLsn) {
        return new StreamCommit(xid(xid), 0, lsn(commitLsn), lsn(endLsn), T0);
    }

    static StreamAbort streamAbort(long xid, long subXid) {
        return new StreamAbort(xid(xid), xid(subXid), Optional.empty(), Optional.empty());
    }

    static BeginPrepare beginPrepare(long xid, String gid, long prepareLsn, long endLsn) {
        return new BeginPrepare(lsn(prepareLsn), lsn(endLsn), T0, xid(xid), gid);
    }

    static Prepare prepare(long xid, String gid, long prepareLsn, long endLsn) {
        return new Prepare(0, lsn(prepareLsn), lsn(endLsn), T0, xid(xid), gid);
    }

    static StreamPrepare streamPrepare(long xid, String gid, long prepareLsn, long endLsn) {
        return new StreamPrepare(0, lsn(prepareLsn), lsn(endLsn), T0, xid(xid), gid);
    }

    static CommitPrepared commitPrepared(long xid, String gid, long commitLsn, long endLsn) {
        return new CommitPrepared(0, lsn(commitLsn), lsn(endLsn), T0.plusSeconds(5), xid(xid), gid);
    }

    static RollbackPrepared rollbackPrepared(long xid, String gid, long prepareEndLsn, long rollbackEndLsn) {
        return new RollbackPrepared(0, lsn(prepareEndLsn), lsn(rollbackEndLsn), T0, T0.plusSeconds(5), xid(xid), gid);
    }

    static TupleData row(String value) {
        return new TupleData(List.of(new ColumnValue.Text(Bytes.utf8(value))));
    }

    /** The text value of a change made with this class's builders. */
    static String valueOf(PgOutputMessage message) {
        TupleData tuple;
        if (message instanceof Insert insert) {
            tuple = insert.newTuple();
        } else if (message instanceof Update update) {
            tuple = update.newTuple();
        } else if (message instanceof Delete delete) {
            tuple = delete.oldTuple().tuple();
        } else if (message instanceof LogicalMessage logical) {
            return logical.content().toUtf8();
        } else {
            return message.getClass().getSimpleName();
        }
        return ((ColumnValue.Text) tuple.get(0)).asString();
    }
}
