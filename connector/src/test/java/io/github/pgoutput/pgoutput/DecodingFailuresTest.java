package io.github.pgoutput.pgoutput;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The decoder fails closed: every malformed or misplaced payload raises one {@link PgOutputDecodingException} that
 * names the type byte (character and hex), the byte offset and the WAL position.
 */
class DecodingFailuresTest {

    private static final Lsn WAL = Lsn.parse("16/B374D848");

    private final PgOutputDecoder proto1 = new PgOutputDecoder(new DecoderSettings(1, StreamingMode.OFF));
    private final PgOutputDecoder proto2Streaming = new PgOutputDecoder(new DecoderSettings(2, StreamingMode.ON));
    private final PgOutputDecoder proto4Streaming = new PgOutputDecoder(new DecoderSettings(4, StreamingMode.ON));

    @Test
    void namesTagOffsetAndWalPositionInTheMessage() {
        // Insert whose single text column claims 5 bytes but carries 1.
        PgOutputDecodingException e = failure(proto1, "49 00004016 4e 0001 74 00000005 31");

        assertThat(e.tag()).isEqualTo('I');
        assertThat(e.offset()).isEqualTo(13);
        assertThat(e.walPosition()).isEqualTo(WAL);
        assertThat(e.getMessage())
                .contains("'I' (0x49)")
                .contains("byte offset 13")
                .contains("16/B374D848")
                .contains("column value")
                .contains("5 byte(s)")
                .contains("only 1 remain");
    }

    @Test
    void rejectsEveryTruncationOfEveryGoldenFrame() {
        for (GoldenFrames.Frame frame : GoldenFrames.SPEC.all()) {
            PgOutputDecoder decoder = decoderFor(frame);
            boolean inside = frame.name().startsWith("stream-") && !frame.name().equals("stream-start")
                    && !frame.name().equals("stream-stop") && !frame.name().equals("stream-commit")
                    && !frame.name().startsWith("stream-abort") && !frame.name().equals("stream-prepare");
            for (int length = 1; length < frame.payload().length; length++) {
                ByteBuffer truncated = ByteBuffer.wrap(Arrays.copyOf(frame.payload(), length));
                PgOutputDecodingException e = catchThrowableOfType(PgOutputDecodingException.class,
                        () -> decoder.decode(truncated, frame.walPosition(), inside));
                assertThat(e).as("%s cut to %d bytes", frame.name(), length).isNotNull();
                assertThat(e.tag()).isEqualTo((char) frame.payload()[0]);
                assertThat(e.getMessage()).containsPattern("only \\d+ remain|no NUL terminator before the end");
            }
        }
    }

    @Test
    void rejectsAnEmptyPayload() {
        PgOutputDecodingException e = catchThrowableOfType(PgOutputDecodingException.class,
                () -> proto1.decode(ByteBuffer.allocate(0), WAL));

        assertThat(e.tag()).isEqualTo(PgOutputDecodingException.NO_TAG);
        assertThat(e.getMessage()).contains("empty pgoutput payload").contains("16/B374D848");
    }

    @Test
    void rejectsAnUnknownMessageType() {
        PgOutputDecodingException e = failure(proto1, "58 00000000");

        assertThat(e.offset()).isZero();
        assertThat(e.getMessage()).contains("'X' (0x58)").contains("unknown message type");
    }

    @Test
    void rejectsANonPrintableMessageTypeShowingItsHexValue() {
        assertThat(failure(proto1, "00").getMessage()).contains("type byte 0x00").contains("unknown message type");
    }

    @Test
    void explainsThatAReplicationHeaderIsNotPartOfThePayload() {
        assertThat(failure(proto1, "77 00000000015733f0 00000000015733f0 0003046e6f44162c 42").getMessage())
                .contains("'w' (0x77)").contains("25-byte 'w' header");
    }

    @Test
    void rejectsAnUnknownTupleColumnKind() {
        PgOutputDecodingException e = failure(proto1, "49 00004016 4e 0002 6e 78");

        assertThat(e.offset()).isEqualTo(9);
        assertThat(e.getMessage()).contains("unknown tuple column kind 'x' (0x78) in column 2 of 2");
    }

    @Test
    void rejectsAnUnknownTupleKindInInsertUpdateAndDelete() {
        assertThat(failure(proto1, "49 00004016 4b 0000").getMessage()).contains("unknown tuple kind 'K' (0x4B); expected 'N'");
        assertThat(failure(proto1, "55 00004016 5a 0000").getMessage()).contains("unknown tuple kind 'Z' (0x5A)");
        assertThat(failure(proto1, "55 00004016 4b 0000 4f 0000").getMessage()).contains("after the old tuple");
        assertThat(failure(proto1, "44 00004016 4e 0000").getMessage()).contains("expected 'K' (old key) or 'O' (old row)");
    }

    @Test
    void rejectsALengthThatOverrunsTheBuffer() {
        assertThat(failure(proto1, "49 00004016 4e 0001 62 7fffffff 00").getMessage()).contains("2147483647 byte(s)");
        assertThat(failure(proto1, "4d 00 0000000000000001 7800 7ffffff0 00").getMessage()).contains("content");
    }

    @Test
    void rejectsCountsThatCannotFitInTheRemainingBytes() {
        assertThat(failure(proto1, "49 00004016 4e 7fff 6e").getMessage()).contains("32767 tuple columns");
        assertThat(failure(proto1, "54 7fffffff 00 00004016").getMessage()).contains("relation oids");
        assertThat(failure(proto1, "52 00004016 7000 7400 64 0100 00").getMessage()).contains("relation columns");
    }

    @Test
    void rejectsNegativeLengthsAndCounts() {
        assertThat(failure(proto1, "49 00004016 4e 0001 74 ffffffff").getMessage()).contains("column value length is negative (-1)");
        assertThat(failure(proto1, "49 00004016 4e ffff").getMessage()).contains("tuple column count is negative (-1)");
        assertThat(failure(proto1, "4d 00 0000000000000001 7800 80000000").getMessage()).contains("content length is negative");
        assertThat(failure(proto1, "54 ffffffff 00").getMessage()).contains("relation count is negative");
        assertThat(failure(proto1, "52 00004016 7000 7400 64 8000").getMessage()).contains("column count is negative");
    }

    @Test
    void rejectsTrailingBytesAfterTheLastField() {
        byte[] commit = GoldenFrames.SPEC.frame("commit").payload();
        byte[] withExtra = Arrays.copyOf(commit, commit.length + 2);

        PgOutputDecodingException e = catchThrowableOfType(PgOutputDecodingException.class,
                () -> proto1.decode(ByteBuffer.wrap(withExtra), WAL));

        assertThat(e.offset()).isEqualTo(commit.length);
        assertThat(e.getMessage()).contains("2 unexpected trailing byte(s)");
    }

    @Test
    void rejectsStringsWithoutTerminatorOrNotInUtf8() {
        assertThat(failure(proto1, "4f 0000000000abcdef 6f7269").getMessage()).contains("origin name has no NUL terminator");
        assertThat(failure(proto1, "4f 0000000000abcdef c328 00").getMessage()).contains("origin name is not valid UTF-8");
    }

    @Test
    void rejectsAnUnknownReplicaIdentity() {
        assertThat(failure(proto1, "52 00004016 7000 7400 78 0000").getMessage())
                .contains("unknown replica identity 'x' (0x78)");
    }

    @Test
    void rejectsFlagsThatPostgresqlDoesNotDefine() {
        assertThat(failure(proto1, "43 01 0000000000000001 0000000000000002 0000000000000003").getMessage())
                .contains("unknown flags 0x1");
    }

    @Test
    void rejectsAFirstSegmentMarkerOtherThanZeroOrOne() {
        assertThat(failure(proto2Streaming, "53 000002f9 02").getMessage()).contains("first_segment is 2");
        assertThat(proto2Streaming.insideStreamBlock()).isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {"53 000002f9 01", "45", "63 000002f9 00 0000000000000001 0000000000000002 0000000000000003", "41 000002f9 000002fa"})
    void rejectsStreamingMessagesWhenStreamingIsOff(String hex) {
        PgOutputDecoder proto4NoStreaming = new PgOutputDecoder(new DecoderSettings(4, StreamingMode.OFF));

        assertThat(failure(proto1, hex).getMessage()).contains("only sent when streaming is on");
        assertThat(failure(proto4NoStreaming, hex).getMessage()).contains("only sent when streaming is on");
    }

    @ParameterizedTest
    @ValueSource(strings = {"begin-prepare", "prepare", "commit-prepared", "rollback-prepared", "stream-prepare"})
    void rejectsTwoPhaseMessagesBelowProtocol3AndExplainsTheTwoPhaseSlot(String frameName) {
        byte[] payload = GoldenFrames.SPEC.frame(frameName).payload();

        PgOutputDecodingException e = catchThrowableOfType(PgOutputDecodingException.class,
                () -> proto2Streaming.decode(ByteBuffer.wrap(payload), WAL));

        assertThat(e.offset()).isZero();
        assertThat(e.getMessage())
                .contains("needs protocol version 3")
                .contains("negotiated protocol version 2")
                .contains("slot has two_phase enabled")
                .contains("protocol version 3 and two-phase transactions delivered in stage mode")
                .contains("slot created without two_phase");
    }

    @Test
    void rejectsANestedStreamStartAndKeepsTheBlockOpen() {
        proto2Streaming.decode(hex("53 000002f9 01"), WAL);

        assertThat(failure(proto2Streaming, "53 000002fa 01").getMessage()).contains("nested Stream Start");
        assertThat(proto2Streaming.insideStreamBlock()).isTrue();
    }

    @Test
    void rejectsStreamStopWithoutStreamStart() {
        assertThat(failure(proto2Streaming, "45").getMessage()).contains("Stream Stop without an open stream block");
        assertThat(proto2Streaming.insideStreamBlock()).isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {"begin", "commit", "begin-prepare", "prepare", "commit-prepared", "rollback-prepared",
            "stream-prepare", "stream-commit", "stream-abort"})
    void rejectsTransactionBoundariesInsideAStreamBlock(String frameName) {
        PgOutputDecoder proto3Streaming = new PgOutputDecoder(new DecoderSettings(3, StreamingMode.ON));
        proto3Streaming.decode(hex("53 000002f9 01"), WAL);
        byte[] payload = GoldenFrames.SPEC.frame(frameName).payload();

        PgOutputDecodingException e = catchThrowableOfType(PgOutputDecodingException.class,
                () -> proto3Streaming.decode(ByteBuffer.wrap(payload), WAL));

        assertThat(e.getMessage()).contains("cannot appear inside a stream block");
        assertThat(proto3Streaming.insideStreamBlock()).isTrue();
    }

    @Test
    void readsStreamAbortWithoutAbortInfoUnlessProtocol4AndParallel() {
        byte[] parallelAbort = GoldenFrames.SPEC.frame("stream-abort-parallel").payload();

        PgOutputDecodingException e = catchThrowableOfType(PgOutputDecodingException.class,
                () -> proto4Streaming.decode(ByteBuffer.wrap(parallelAbort), WAL));

        assertThat(e.getMessage()).contains("16 unexpected trailing byte(s)");
    }

    @Test
    void leavesTheBufferAloneWhenDecodingFails() {
        ByteBuffer buffer = hex("49 00004016 4e 0001 74 00000005 31");

        catchThrowableOfType(PgOutputDecodingException.class, () -> proto1.decode(buffer, WAL));

        assertThat(buffer.position()).isZero();
        assertThat(buffer.limit()).isEqualTo(buffer.capacity());
    }

    private static PgOutputDecoder decoderFor(GoldenFrames.Frame frame) {
        if (frame.name().equals("stream-abort-parallel")) {
            return new PgOutputDecoder(new DecoderSettings(4, StreamingMode.PARALLEL));
        }
        return new PgOutputDecoder(new DecoderSettings(3, StreamingMode.ON));
    }

    private static PgOutputDecodingException failure(PgOutputDecoder decoder, String hex) {
        PgOutputDecodingException e = catchThrowableOfType(PgOutputDecodingException.class, () -> decoder.decode(hex(hex), WAL));
        assertThat(e).as("decoding %s should fail", hex).isNotNull();
        assertThat(e.walPosition()).isEqualTo(WAL);
        return e;
    }

    private static ByteBuffer hex(String hex) {
        return ByteBuffer.wrap(HexFormat.of().parseHex(hex.replace(" ", "")));
    }
}
