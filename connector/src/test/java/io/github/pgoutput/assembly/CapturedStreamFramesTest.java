package io.github.pgoutput.assembly;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.pgoutput.pgoutput.ColumnValue;
import io.github.pgoutput.pgoutput.DecoderSettings;
import io.github.pgoutput.pgoutput.Lsn;
import io.github.pgoutput.pgoutput.PgOutputDecoder;
import io.github.pgoutput.pgoutput.PgOutputMessage.Insert;
import io.github.pgoutput.pgoutput.StreamingMode;
import io.github.pgoutput.pgoutput.Xid;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The real decoder end to end: the streamed transaction captured from PostgreSQL 17.6 in docs/pgoutput-protocol.md (§7.6,
 * frames kept in the decoder's golden file) goes through the assembler and the disk spill as raw payloads and is
 * decoded again from the spill at its Stream Commit.
 */
class CapturedStreamFramesTest extends AssemblerTestSupport {

    /**
     * The capture has no Relation for relid 16425 (t_stream: id int4 key, pad text), so this one is built by hand
     * from the layout of the captured PostgreSQL 18.0 stream-relation frame, with xid prefix 761.
     */
    private static final String STREAM_RELATION_16425 =
            "52 000002f9 00004029 7075626c696300 745f73747265616d00 64 0002 01 696400 00000017 ffffffff 00 70616400 00000019 ffffffff";

    private final Map<String, byte[]> golden = load();
    private final PgOutputDecoder decoder = new PgOutputDecoder(new DecoderSettings(2, StreamingMode.ON));

    private static Map<String, byte[]> load() {
        try (InputStream in = CapturedStreamFramesTest.class.getResourceAsStream("/io/github/pgoutput/pgoutput/frames/spec-section-7.hex")) {
            Map<String, byte[]> frames = new HashMap<>();
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                String[] parts = line.strip().split("\\s+", 3);
                if (parts.length == 3 && !parts[0].startsWith("#")) {
                    frames.put(parts[0], HexFormat.of().parseHex(parts[2].replaceAll("\\s+", "")));
                }
            }
            return frames;
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** Decodes the frames in order with the session decoder (which tracks the stream block), as the connector will. */
    private MessageSource wire(String... names) {
        Deque<WireMessage> messages = new ArrayDeque<>();
        long position = 0x15757F8;
        for (String name : names) {
            byte[] payload = name.equals("hand-relation")
                    ? HexFormat.of().parseHex(STREAM_RELATION_16425.replace(" ", "")) : golden.get(name).clone();
            Lsn lsn = Lsn.of(position += 0x10);
            messages.add(new WireMessage(decoder.decode(ByteBuffer.wrap(payload), lsn), ByteBuffer.wrap(payload), lsn));
        }
        return messages::poll;
    }

    private TransactionAssembler assembler(MessageSource source) {
        return new TransactionAssembler(source, spill(), decoder::decode, PreparedTransactionMode.FAIL, 1L << 20);
    }

    @Test
    void streamedInsertIsSpilledAsBytesAndDecodedAgainAtStreamCommit() {
        TransactionAssembler assembler = assembler(wire("stream-start", "hand-relation", "stream-insert", "stream-stop",
                "stream-abort", "stream-commit"));

        Delivery delivery = assembler.nextDelivery();
        ChangeEvent change = delivery.changes().next();

        assertThat(delivery.xid()).isEqualTo(Xid.of(761));
        assertThat(delivery.lsn()).isEqualTo(Lsn.parse("0/15B81E0"));
        assertThat(delivery.endLsn()).isEqualTo(Lsn.parse("0/15B8218"));
        Insert insert = (Insert) change.message();
        assertThat(insert.xid()).isEqualTo(Xid.of(761));
        assertThat(insert.newTuple().columns()).extracting(value -> ((ColumnValue.Text) value).asString())
                .containsExactly("1", "x".repeat(100));
        assertThat(change.relation().relationName()).isEqualTo("t_stream");
        assertThat(change.relation().columns()).extracting(column -> column.name()).containsExactly("id", "pad");
        assertThat(delivery.changes().next()).isNull();
        assertThat(delivery.changes().atEnd()).isTrue();
        assertThat(List.of(assembler.spillUsage().transactions(), assembler.openStreamedTransactions())).containsOnly(0);
    }
}
