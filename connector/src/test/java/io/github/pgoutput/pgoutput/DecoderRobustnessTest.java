package io.github.pgoutput.pgoutput;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Whatever bytes arrive, the decoder either returns a message or raises {@link PgOutputDecodingException}: never
 * another exception, and never a change to the caller's buffer.
 */
class DecoderRobustnessTest {

    private static final List<DecoderSettings> ALL_SETTINGS = List.of(
            new DecoderSettings(1, StreamingMode.OFF), new DecoderSettings(2, StreamingMode.OFF),
            new DecoderSettings(2, StreamingMode.ON), new DecoderSettings(3, StreamingMode.OFF),
            new DecoderSettings(3, StreamingMode.ON), new DecoderSettings(4, StreamingMode.ON),
            new DecoderSettings(4, StreamingMode.PARALLEL));

    private static final List<byte[]> CAPTURED = capturedPayloads();

    @Property(tries = 3000)
    void randomBytesDecodeOrFailClosed(@ForAll("randomPayloads") byte[] payload, @ForAll("settings") DecoderSettings settings,
                                       @ForAll boolean insideStreamBlock) {
        assertDecodesOrFailsClosed(payload, settings, insideStreamBlock);
    }

    @Property(tries = 3000)
    void randomBodiesBehindAValidTypeByteDecodeOrFailClosed(@ForAll("validTagPayloads") byte[] payload,
                                                            @ForAll("settings") DecoderSettings settings,
                                                            @ForAll boolean insideStreamBlock) {
        assertDecodesOrFailsClosed(payload, settings, insideStreamBlock);
    }

    @Property(tries = 5000)
    void mutatedCapturedFramesDecodeOrFailClosed(@ForAll("mutatedFrames") byte[] payload,
                                                 @ForAll("settings") DecoderSettings settings,
                                                 @ForAll boolean insideStreamBlock) {
        assertDecodesOrFailsClosed(payload, settings, insideStreamBlock);
    }

    @Property(tries = 500)
    void trackedStreamStateSurvivesAnySequenceOfPayloads(@ForAll("mutatedFrameSequences") List<byte[]> payloads,
                                                         @ForAll("settings") DecoderSettings settings) {
        PgOutputDecoder decoder = new PgOutputDecoder(settings);
        for (byte[] payload : payloads) {
            boolean before = decoder.insideStreamBlock();
            try {
                PgOutputMessage message = decoder.decode(ByteBuffer.wrap(payload), Lsn.INVALID);
                boolean expected = message instanceof PgOutputMessage.StreamStart
                        || (before && !(message instanceof PgOutputMessage.StreamStop));
                assertThat(decoder.insideStreamBlock()).isEqualTo(expected);
            } catch (PgOutputDecodingException e) {
                assertThat(decoder.insideStreamBlock()).as("a failed decode leaves the state alone").isEqualTo(before);
            }
        }
    }

    private static void assertDecodesOrFailsClosed(byte[] payload, DecoderSettings settings, boolean insideStreamBlock) {
        PgOutputDecoder decoder = new PgOutputDecoder(settings);
        ByteBuffer buffer = ByteBuffer.wrap(payload.clone());
        try {
            PgOutputMessage message = decoder.decode(buffer, Lsn.INVALID, insideStreamBlock);
            assertThat(message).isNotNull();
            assertThat(message.tag()).isEqualTo((char) (payload[0] & 0xFF));
        } catch (PgOutputDecodingException e) {
            assertThat(e.offset()).isBetween(0, payload.length);
            assertThat(e.getMessage()).contains("WAL position");
        }
        assertThat(buffer.position()).isZero();
        assertThat(buffer.limit()).isEqualTo(payload.length);
        assertThat(buffer.array()).isEqualTo(payload);
    }

    @Provide
    Arbitrary<DecoderSettings> settings() {
        return Arbitraries.of(ALL_SETTINGS);
    }

    @Provide
    Arbitrary<byte[]> randomPayloads() {
        return Arbitraries.bytes().array(byte[].class).ofMinSize(0).ofMaxSize(80);
    }

    @Provide
    Arbitrary<byte[]> validTagPayloads() {
        Arbitrary<Character> tags = Arbitraries.of('B', 'C', 'O', 'R', 'Y', 'I', 'U', 'D', 'T', 'M', 'S', 'E', 'c', 'A', 'b',
                'P', 'K', 'r', 'p');
        Arbitrary<byte[]> bodies = Arbitraries.bytes().array(byte[].class).ofMaxSize(60);
        return Combinators.combine(tags, bodies).as((tag, body) -> {
            byte[] payload = new byte[body.length + 1];
            payload[0] = (byte) tag.charValue();
            System.arraycopy(body, 0, payload, 1, body.length);
            return payload;
        });
    }

    @Provide
    Arbitrary<byte[]> mutatedFrames() {
        return Combinators.combine(Arbitraries.of(CAPTURED), Arbitraries.integers().between(1, 4),
                        Arbitraries.randoms())
                .as((frame, mutations, random) -> {
                    byte[] payload = frame.clone();
                    for (int i = 0; i < mutations; i++) {
                        payload = mutate(payload, random);
                    }
                    return payload;
                });
    }

    @Provide
    Arbitrary<List<byte[]>> mutatedFrameSequences() {
        return Arbitraries.oneOf(Arbitraries.of(CAPTURED), mutatedFrames()).list().ofMaxSize(30);
    }

    /** One of: flip a bit, truncate, insert bytes, delete a byte, or overwrite a 2- or 4-byte field (lengths, counts). */
    private static byte[] mutate(byte[] payload, java.util.Random random) {
        if (payload.length == 0) {
            return new byte[] {(byte) random.nextInt()};
        }
        int at = random.nextInt(payload.length);
        switch (random.nextInt(6)) {
            case 0 -> {
                byte[] copy = payload.clone();
                copy[at] ^= (byte) (1 << random.nextInt(8));
                return copy;
            }
            case 1 -> {
                return Arrays.copyOf(payload, at);
            }
            case 2 -> {
                byte[] inserted = new byte[1 + random.nextInt(8)];
                random.nextBytes(inserted);
                byte[] copy = new byte[payload.length + inserted.length];
                System.arraycopy(payload, 0, copy, 0, at);
                System.arraycopy(inserted, 0, copy, at, inserted.length);
                System.arraycopy(payload, at, copy, at + inserted.length, payload.length - at);
                return copy;
            }
            case 3 -> {
                byte[] copy = new byte[payload.length - 1];
                System.arraycopy(payload, 0, copy, 0, at);
                System.arraycopy(payload, at + 1, copy, at, payload.length - at - 1);
                return copy;
            }
            case 4 -> {
                return overwrite(payload, at, 2, random);
            }
            default -> {
                return overwrite(payload, at, 4, random);
            }
        }
    }

    private static byte[] overwrite(byte[] payload, int at, int width, java.util.Random random) {
        byte[] copy = payload.clone();
        int[] interesting = {0, -1, 1, Integer.MAX_VALUE, Integer.MIN_VALUE, 0x7FFF, 0xFFFF, random.nextInt(),
                random.nextInt(64)};
        int value = interesting[random.nextInt(interesting.length)];
        for (int i = 0; i < width && at + i < copy.length; i++) {
            copy[at + i] = (byte) (value >>> (8 * (width - 1 - i)));
        }
        return copy;
    }

    private static List<byte[]> capturedPayloads() {
        List<byte[]> payloads = new ArrayList<>();
        GoldenFrames.SPEC.all().forEach(frame -> payloads.add(frame.payload()));
        GoldenFrames.PG15.all().forEach(frame -> payloads.add(frame.payload()));
        return List.copyOf(payloads);
    }
}
