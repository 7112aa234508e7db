package io.github.pgoutput.pgoutput;

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
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Decodes pgoutput payloads (protocol versions 1 to 4) into {@link PgOutputMessage}s. Pure: no I/O, no catalog
 * lookups; relation metadata is whatever the Relation messages say.
 *
 * <p>The decoder tracks whether it is inside a stream block (between Stream Start and Stream Stop), because
 * Relation, Type, Insert, Update, Delete, Truncate and Message carry an xid prefix only there. It fails closed:
 * any payload that is truncated, malformed, has bytes left over, or is not allowed by the negotiated
 * {@link DecoderSettings} or at this point of the stream raises one {@link PgOutputDecodingException}, and the
 * tracked state is left as it was.
 *
 * <p>Not thread-safe: one decoder per replication stream.
 */
public final class PgOutputDecoder {

    private final DecoderSettings settings;
    private final PayloadReader in = new PayloadReader();
    private final TupleDataReader tuples = new TupleDataReader(in);
    private boolean insideStreamBlock;

    public PgOutputDecoder(DecoderSettings settings) {
        this.settings = Objects.requireNonNull(settings, "settings");
    }

    /**
     * Decodes one pgoutput message. {@code payload.position()} is the type byte; the message must end exactly at
     * {@code payload.limit()}. The buffer's position, limit and byte order are not changed. Stream Start opens a
     * stream block and Stream Stop closes it.
     *
     * @param walPosition used only in error messages; may be {@link Lsn#INVALID}
     * @throws PgOutputDecodingException when the payload is not a valid message for these settings and this state
     */
    public PgOutputMessage decode(ByteBuffer payload, Lsn walPosition) {
        PgOutputMessage message = decode(payload, walPosition, insideStreamBlock);
        if (message instanceof StreamStart) {
            insideStreamBlock = true;
        } else if (message instanceof StreamStop) {
            insideStreamBlock = false;
        }
        return message;
    }

    /**
     * Decodes one message as if inside ({@code true}) or outside ({@code false}) a stream block, without reading or
     * changing the tracked stream state. Used to read spilled changes back.
     *
     * @throws PgOutputDecodingException when the payload is not a valid message for these settings and that state
     */
    public PgOutputMessage decode(ByteBuffer payload, Lsn walPosition, boolean insideStreamBlock) {
        Objects.requireNonNull(payload, "payload");
        Lsn position = Objects.requireNonNullElse(walPosition, Lsn.INVALID);
        in.reset(payload, position);
        if (in.isEmpty()) {
            throw PgOutputDecodingException.emptyPayload(position);
        }
        char tag = in.readTag();
        checkAllowed(tag, insideStreamBlock);
        PgOutputMessage message = switch (tag) {
            case 'B' -> new Begin(in.lsn("final_lsn"), in.timestamp("commit_ts"), in.xid("xid"));
            case 'C' -> commit();
            case 'O' -> new Origin(in.lsn("origin_lsn"), in.string("origin name"));
            case 'R' -> relation(streamXid(insideStreamBlock));
            case 'Y' -> new Type(streamXid(insideStreamBlock), in.oid("type oid"), in.string("type namespace"), in.string("type name"));
            case 'I' -> insert(streamXid(insideStreamBlock));
            case 'U' -> update(streamXid(insideStreamBlock));
            case 'D' -> delete(streamXid(insideStreamBlock));
            case 'T' -> truncate(streamXid(insideStreamBlock));
            case 'M' -> logicalMessage(streamXid(insideStreamBlock));
            case 'S' -> streamStart();
            case 'E' -> new StreamStop();
            case 'c' -> streamCommit();
            case 'A' -> streamAbort();
            case 'b' -> new BeginPrepare(in.lsn("prepare_lsn"), in.lsn("end_lsn"), in.timestamp("prepare_ts"), in.xid("xid"), in.string("gid"));
            case 'P' -> prepare();
            case 'K' -> commitPrepared();
            case 'r' -> rollbackPrepared();
            case 'p' -> streamPrepare();
            default -> throw new IllegalStateException("checkAllowed let through unknown tag " + (int) tag);
        };
        in.requireFullyConsumed();
        return message;
    }

    /** True between a decoded Stream Start and the following Stream Stop. */
    public boolean insideStreamBlock() {
        return insideStreamBlock;
    }

    public DecoderSettings settings() {
        return settings;
    }

    private Xid streamXid(boolean insideStreamBlock) {
        return insideStreamBlock ? in.xid("stream xid prefix") : Xid.INVALID;
    }

    private Commit commit() {
        int flags = flags();
        return new Commit(flags, in.lsn("commit_lsn"), in.lsn("end_lsn"), in.timestamp("commit_ts"));
    }

    private Relation relation(Xid xid) {
        long relationId = in.oid("relation oid");
        String namespace = in.string("namespace");
        String name = in.string("relation name");
        int identityAt = in.offset();
        char identityCode = (char) (in.int8("replica identity") & 0xFF);
        ReplicaIdentity identity = ReplicaIdentity.fromCode(identityCode);
        if (identity == null) {
            throw in.failureAt(identityAt, "unknown replica identity " + describeByte(identityCode)
                    + "; expected 'd', 'n', 'f' or 'i'");
        }
        int count = in.nonNegativeInt16("column count");
        // Each column takes at least: flags (1), an empty name (1), type oid (4), type modifier (4).
        in.requireRoomFor(count, 10, "relation columns");
        List<RelationColumn> columns = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            boolean partOfKey = (in.int8("column flags") & 1) != 0;
            columns.add(new RelationColumn(partOfKey, in.string("column name"), in.oid("column type oid"), in.int32("column type modifier")));
        }
        return new Relation(xid, relationId, namespace, name, identity, columns);
    }

    private Insert insert(Xid xid) {
        long relationId = in.oid("relation oid");
        expectTupleKind('N', "'N' (new tuple)");
        return new Insert(xid, relationId, tuples.read());
    }

    private Update update(Xid xid) {
        long relationId = in.oid("relation oid");
        int kindAt = in.offset();
        char kind = (char) (in.int8("tuple kind") & 0xFF);
        Optional<OldTuple> oldTuple = Optional.empty();
        if (kind == 'K' || kind == 'O') {
            oldTuple = Optional.of(new OldTuple(kind == 'K' ? OldTuple.Kind.KEY : OldTuple.Kind.FULL, tuples.read()));
            kindAt = in.offset();
            kind = (char) (in.int8("tuple kind") & 0xFF);
            if (kind != 'N') {
                throw in.failureAt(kindAt, "unknown tuple kind " + describeByte(kind) + " after the old tuple; expected 'N' (new tuple)");
            }
        } else if (kind != 'N') {
            throw in.failureAt(kindAt, "unknown tuple kind " + describeByte(kind)
                    + "; expected 'K' (old key), 'O' (old row) or 'N' (new tuple)");
        }
        return new Update(xid, relationId, oldTuple, tuples.read());
    }

    private Delete delete(Xid xid) {
        long relationId = in.oid("relation oid");
        int kindAt = in.offset();
        char kind = (char) (in.int8("tuple kind") & 0xFF);
        if (kind != 'K' && kind != 'O') {
            throw in.failureAt(kindAt, "unknown tuple kind " + describeByte(kind) + "; expected 'K' (old key) or 'O' (old row)");
        }
        return new Delete(xid, relationId, new OldTuple(kind == 'K' ? OldTuple.Kind.KEY : OldTuple.Kind.FULL, tuples.read()));
    }

    private Truncate truncate(Xid xid) {
        int count = in.nonNegativeInt32("relation count");
        int options = in.int8("truncate flags") & 0xFF;
        in.requireRoomFor(count, 4, "relation oids");
        Long[] relationIds = new Long[count];
        for (int i = 0; i < count; i++) {
            relationIds[i] = in.oid("relation oid");
        }
        return new Truncate(xid, options, List.of(relationIds));
    }

    private LogicalMessage logicalMessage(Xid xid) {
        boolean transactional = (in.int8("flags") & 1) != 0;
        Lsn lsn = in.lsn("lsn");
        String prefix = in.string("prefix");
        int length = in.nonNegativeInt32("content length");
        return new LogicalMessage(xid, transactional, lsn, prefix, in.bytes(length, "content"));
    }

    private StreamStart streamStart() {
        Xid xid = in.xid("xid");
        int firstAt = in.offset();
        int first = in.int8("first_segment");
        if (first != 0 && first != 1) {
            throw in.failureAt(firstAt, "first_segment is " + first + "; expected 0 or 1");
        }
        return new StreamStart(xid, first == 1);
    }

    private StreamCommit streamCommit() {
        Xid xid = in.xid("xid");
        int flags = flags();
        return new StreamCommit(xid, flags, in.lsn("commit_lsn"), in.lsn("end_lsn"), in.timestamp("commit_ts"));
    }

    private StreamAbort streamAbort() {
        Xid xid = in.xid("xid");
        Xid subXid = in.xid("subxid");
        // abort_lsn and abort_ts exist only with protocol 4 and streaming = parallel; the layout gives no other hint.
        if (settings.streamAbortCarriesAbortInfo()) {
            Lsn abortLsn = in.lsn("abort_lsn");
            Instant abortTime = in.timestamp("abort_ts");
            return new StreamAbort(xid, subXid, Optional.of(abortLsn), Optional.of(abortTime));
        }
        return new StreamAbort(xid, subXid, Optional.empty(), Optional.empty());
    }

    private Prepare prepare() {
        int flags = flags();
        return new Prepare(flags, in.lsn("prepare_lsn"), in.lsn("end_lsn"), in.timestamp("prepare_ts"), in.xid("xid"), in.string("gid"));
    }

    private CommitPrepared commitPrepared() {
        int flags = flags();
        return new CommitPrepared(flags, in.lsn("commit_lsn"), in.lsn("end_lsn"), in.timestamp("commit_ts"), in.xid("xid"), in.string("gid"));
    }

    private RollbackPrepared rollbackPrepared() {
        int flags = flags();
        return new RollbackPrepared(flags, in.lsn("prepare_end_lsn"), in.lsn("rollback_end_lsn"), in.timestamp("prepare_ts"),
                in.timestamp("rollback_ts"), in.xid("xid"), in.string("gid"));
    }

    private StreamPrepare streamPrepare() {
        int flags = flags();
        return new StreamPrepare(flags, in.lsn("prepare_lsn"), in.lsn("end_lsn"), in.timestamp("prepare_ts"), in.xid("xid"), in.string("gid"));
    }

    /**
     * The flags byte of C/c/P/K/r/p. PostgreSQL defines no flags and its own subscriber rejects any; a set bit would
     * mean a newer layout we do not know, so we reject it too rather than misread the fields after it.
     */
    private int flags() {
        int at = in.offset();
        int flags = in.int8("flags") & 0xFF;
        if (flags != 0) {
            throw in.failureAt(at, "unknown flags 0x" + Integer.toHexString(flags) + "; PostgreSQL defines none for this message (expected 0)");
        }
        return flags;
    }

    private void expectTupleKind(char expected, String description) {
        int at = in.offset();
        char kind = (char) (in.int8("tuple kind") & 0xFF);
        if (kind != expected) {
            throw in.failureAt(at, "unknown tuple kind " + describeByte(kind) + "; expected " + description);
        }
    }

    private void checkAllowed(char tag, boolean inside) {
        MessageRules.check(tag, inside, settings, in);
    }

    static String describeByte(char value) {
        String hex = String.format("0x%02X", (int) value);
        return value >= 0x20 && value < 0x7F ? "'" + value + "' (" + hex + ")" : hex;
    }
}
