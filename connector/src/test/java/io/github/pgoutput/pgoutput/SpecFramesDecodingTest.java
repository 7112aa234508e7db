package io.github.pgoutput.pgoutput;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.pgoutput.pgoutput.PgOutputMessage.Begin;
import io.github.pgoutput.pgoutput.PgOutputMessage.BeginPrepare;
import io.github.pgoutput.pgoutput.PgOutputMessage.Commit;
import io.github.pgoutput.pgoutput.PgOutputMessage.CommitPrepared;
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
import io.github.pgoutput.pgoutput.PgOutputMessage.Update;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The annotated dumps of the protocol spec (section 7), decoded to exact messages. */
class SpecFramesDecodingTest {

    private static final PgOutputDecoder PROTO_2_NO_STREAMING = new PgOutputDecoder(new DecoderSettings(2, StreamingMode.OFF));

    @Test
    void decodesBeginInsertCommitOfATextTransaction() {
        assertThat(decode(PROTO_2_NO_STREAMING, "begin")).isEqualTo(
                new Begin(Lsn.parse("0/15737D0"), micros(0x0003046e6f2202ddL), Xid.of(752)));
        assertThat(decode(PROTO_2_NO_STREAMING, "insert-text")).isEqualTo(
                new Insert(Xid.INVALID, 16406, tuple(text("1"), text("10"), text("a"))));
        assertThat(decode(PROTO_2_NO_STREAMING, "commit")).isEqualTo(
                new Commit(0, Lsn.parse("0/15737D0"), Lsn.parse("0/1573800"), micros(0x0003046e6f2202ddL)));
    }

    @Test
    void decodesUpdateWithOldKeyWhoseNonKeyColumnsAreNull() {
        assertThat(decode(PROTO_2_NO_STREAMING, "update-old-key")).isEqualTo(new Update(Xid.INVALID, 16406,
                Optional.of(new OldTuple(OldTuple.Kind.KEY, tuple(text("2"), nul(), nul()))),
                tuple(text("3"), text("20"), text("b"))));
    }

    @Test
    void decodesRelationWithKeyColumn() {
        assertThat(decode(PROTO_2_NO_STREAMING, "relation")).isEqualTo(new Relation(Xid.INVALID, 16433, "public", "t_trunc",
                ReplicaIdentity.DEFAULT, List.of(new RelationColumn(true, "id", 23, -1))));
    }

    @Test
    void decodesUnchangedToastColumnAsItsOwnMarker() {
        assertThat(decode(PROTO_2_NO_STREAMING, "update-toast")).isEqualTo(new Update(Xid.INVALID, 16410, Optional.empty(),
                tuple(text("1"), ColumnValue.UnchangedToast.INSTANCE, text("2"))));
    }

    @Test
    void decodesBinaryColumnsAsTheRawSendFormat() {
        assertThat(decode(PROTO_2_NO_STREAMING, "insert-binary")).isEqualTo(new Insert(Xid.INVALID, 16422, tuple(
                binary("00000001"),
                binary("6861707079"),
                binary("000000020000001700000004000000070000001900000001" + "71"),
                binary("000000010000000000000017000000020000000100000004000000010000000400000002"),
                binary("000200000000000200011388"),
                binary("0102"),
                binary("0002b0ec8517d580"),
                binary("a0eebc999c0b4ef8bb6d6bb9bd380a11"))));
    }

    @Test
    void decodesBeginOfAnOriginTransactionWithTheOriginsCommitTime() {
        assertThat(decode(PROTO_2_NO_STREAMING, "begin-origin")).isEqualTo(
                new Begin(Lsn.parse("0/1680C40"), Instant.parse("2024-01-01T00:00:00Z"), Xid.of(775)));
        assertThat(decode(PROTO_2_NO_STREAMING, "origin")).isEqualTo(new Origin(Lsn.parse("0/ABCDEF"), "orig1"));
    }

    @Test
    void decodesAStreamedTransactionWithXidPrefixesOnlyInsideTheBlock() {
        PgOutputDecoder decoder = new PgOutputDecoder(new DecoderSettings(2, StreamingMode.ON));

        assertThat(decode(decoder, "stream-start")).isEqualTo(new StreamStart(Xid.of(761), true));
        assertThat(decoder.insideStreamBlock()).isTrue();
        assertThat(decode(decoder, "stream-insert")).isEqualTo(
                new Insert(Xid.of(761), 16425, tuple(text("1"), text("x".repeat(100)))));
        assertThat(decode(decoder, "stream-stop")).isEqualTo(new StreamStop());
        assertThat(decoder.insideStreamBlock()).isFalse();
        assertThat(decode(decoder, "stream-abort")).isEqualTo(
                new StreamAbort(Xid.of(761), Xid.of(762), Optional.empty(), Optional.empty()));
        assertThat(decode(decoder, "stream-commit")).isEqualTo(new StreamCommit(Xid.of(761), 0, Lsn.parse("0/15B81E0"),
                Lsn.parse("0/15B8218"), micros(0x0003046e6f2210b9L)));
    }

    @Test
    void decodesRelationInsideAStreamBlockWithTheSubtransactionXid() {
        PgOutputDecoder decoder = new PgOutputDecoder(new DecoderSettings(2, StreamingMode.ON));

        assertThat(decoder.decode(GoldenFrames.SPEC.frame("stream-relation").buffer(), Lsn.INVALID, true)).isEqualTo(
                new Relation(Xid.of(775), 16419, "public", "t_big", ReplicaIdentity.DEFAULT, List.of(
                        new RelationColumn(false, "id", 23, -1),
                        new RelationColumn(false, "pad", 25, -1))));
        assertThat(decoder.insideStreamBlock()).as("the explicit variant leaves the tracked state alone").isFalse();
    }

    @Test
    void decodesStreamAbortWithAbortLsnAndTimeUnderProtocol4Parallel() {
        PgOutputDecoder decoder = new PgOutputDecoder(new DecoderSettings(4, StreamingMode.PARALLEL));

        assertThat(decode(decoder, "stream-abort-parallel")).isEqualTo(new StreamAbort(Xid.of(751), Xid.of(752),
                Optional.of(Lsn.parse("0/15B2B60")), Optional.of(micros(0x0003046e732b3128L))));
    }

    @Test
    void decodesTheTwoPhaseMessages() {
        PgOutputDecoder decoder = new PgOutputDecoder(new DecoderSettings(3, StreamingMode.ON));
        Lsn prepareLsn = Lsn.parse("0/1631DA8");
        Lsn prepareEnd = Lsn.parse("0/1631EA0");
        Instant prepareTime = micros(0x0003046e6f2226bcL);

        assertThat(decode(decoder, "begin-prepare")).isEqualTo(new BeginPrepare(prepareLsn, prepareEnd, prepareTime, Xid.of(770), "g1"));
        assertThat(decode(decoder, "prepare")).isEqualTo(new Prepare(0, prepareLsn, prepareEnd, prepareTime, Xid.of(770), "g1"));
        assertThat(decode(decoder, "commit-prepared")).isEqualTo(new CommitPrepared(0, Lsn.parse("0/1631EA0"),
                Lsn.parse("0/1631ED8"), micros(0x0003046e6f2226f3L), Xid.of(770), "g1"));
        assertThat(decode(decoder, "rollback-prepared")).isEqualTo(new RollbackPrepared(0, Lsn.parse("0/1632078"),
                Lsn.parse("0/16320B0"), micros(0x0003046e6f222726L), micros(0x0003046e6f222762L), Xid.of(771), "g2"));
        assertThat(decode(decoder, "stream-prepare")).isEqualTo(new StreamPrepare(0, Lsn.parse("0/16593C8"),
                Lsn.parse("0/16594C0"), micros(0x0003046e6f222a25L), Xid.of(772), "g3"));
    }

    @Test
    void decodesNonTransactionalLogicalMessage() {
        assertThat(decode(PROTO_2_NO_STREAMING, "message-ntx")).isEqualTo(new LogicalMessage(Xid.INVALID, false,
                Lsn.parse("0/17FB280"), "ntxpfx", Bytes.utf8("hello-ntx")));
    }

    @Test
    void decodesTruncateWithCascadeAndRestartIdentity() {
        Truncate truncate = (Truncate) decode(PROTO_2_NO_STREAMING, "truncate-cascade");

        assertThat(truncate).isEqualTo(new Truncate(Xid.INVALID, 3, List.of(16441L)));
        assertThat(truncate.cascade()).isTrue();
        assertThat(truncate.restartIdentity()).isTrue();
    }

    @Test
    void leavesTheBufferPositionAndLimitAlone() {
        ByteBuffer buffer = GoldenFrames.SPEC.frame("insert-text").buffer();

        PROTO_2_NO_STREAMING.decode(buffer, Lsn.INVALID);

        assertThat(buffer.position()).isZero();
        assertThat(buffer.limit()).isEqualTo(buffer.capacity());
    }

    @Test
    void decodesAPayloadThatIsASliceOfALargerFrame() {
        byte[] payload = GoldenFrames.SPEC.frame("insert-text").payload();
        byte[] frame = new byte[25 + payload.length + 7];
        System.arraycopy(payload, 0, frame, 25, payload.length);
        ByteBuffer sliced = ByteBuffer.wrap(frame, 25, payload.length).slice();
        ByteBuffer positioned = ByteBuffer.wrap(frame, 25, payload.length);

        PgOutputMessage expected = new Insert(Xid.INVALID, 16406, tuple(text("1"), text("10"), text("a")));
        assertThat(PROTO_2_NO_STREAMING.decode(sliced, Lsn.INVALID)).isEqualTo(expected);
        assertThat(PROTO_2_NO_STREAMING.decode(positioned, Lsn.INVALID)).isEqualTo(expected);
    }

    @Test
    void decodesDirectAndReadOnlyBuffersTheSameWay() {
        byte[] payload = GoldenFrames.SPEC.frame("update-old-key").payload();
        ByteBuffer direct = ByteBuffer.allocateDirect(payload.length).put(payload).flip();
        ByteBuffer readOnly = ByteBuffer.wrap(payload).asReadOnlyBuffer();

        PgOutputMessage expected = decode(PROTO_2_NO_STREAMING, "update-old-key");
        assertThat(PROTO_2_NO_STREAMING.decode(direct, Lsn.INVALID)).isEqualTo(expected);
        assertThat(PROTO_2_NO_STREAMING.decode(readOnly, Lsn.INVALID)).isEqualTo(expected);
        assertThat(direct.position()).isZero();
    }

    @Test
    void aMessageDecodedFromADirectBufferKeepsItsValuesWhenTheNextOneIsDecoded() {
        // Direct buffers (the spill's) are copied into one array that the decoder reuses: nothing may alias it.
        PgOutputDecoder decoder = new PgOutputDecoder(new DecoderSettings(2, StreamingMode.OFF));
        PgOutputMessage first = decoder.decode(direct("update-old-key"), Lsn.INVALID);
        PgOutputMessage second = decoder.decode(direct("insert-text"), Lsn.INVALID);

        assertThat(first).isEqualTo(decode(PROTO_2_NO_STREAMING, "update-old-key"));
        assertThat(second).isEqualTo(decode(PROTO_2_NO_STREAMING, "insert-text"));
        assertThat(decoder.decode(direct("update-old-key"), Lsn.INVALID)).isEqualTo(first);
    }

    private static ByteBuffer direct(String frameName) {
        byte[] payload = GoldenFrames.SPEC.frame(frameName).payload();
        return ByteBuffer.allocateDirect(payload.length).put(payload).flip();
    }

    private static PgOutputMessage decode(PgOutputDecoder decoder, String frameName) {
        GoldenFrames.Frame frame = GoldenFrames.SPEC.frame(frameName);
        return decoder.decode(frame.buffer(), frame.walPosition());
    }

    static Instant micros(long postgresMicros) {
        return PgTimestamps.toInstant(postgresMicros);
    }

    static TupleData tuple(ColumnValue... columns) {
        return new TupleData(List.of(columns));
    }

    static ColumnValue text(String value) {
        return new ColumnValue.Text(Bytes.utf8(value));
    }

    static ColumnValue binary(String hex) {
        return new ColumnValue.Binary(Bytes.copyOf(HexFormat.of().parseHex(hex)));
    }

    static ColumnValue nul() {
        return ColumnValue.Null.INSTANCE;
    }
}
