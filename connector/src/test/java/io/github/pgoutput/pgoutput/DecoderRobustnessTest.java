package io.github.pgoutput.pgoutput;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.pgoutput.testing.SeededProperty;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

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

    private static final char[] TAGS = {'B', 'C', 'O', 'R', 'Y', 'I', 'U', 'D', 'T', 'M', 'S', 'E', 'c', 'A', 'b', 'P', 'K',
            'r', 'p'};

    private static final List<byte[]> CAPTURED = capturedPayloads();

    @Test
    void emptyAndSingleBytePayloadsDecodeOrFailClosed() {
        List<byte[]> payloads = new ArrayList<>(List.of(new byte[0]));
        for (int b = 0; b < 256; b++) {
            payloads.add(new byte[] {(byte) b});
        }
        for (byte[] payload : payloads) {
            for (DecoderSettings settings : ALL_SETTINGS) {
                assertDecodesOrFailsClosed(payload, settings, false);
                assertDecodesOrFailsClosed(payload, settings, true);
            }
        }
    }

    @Test
    void capturedFramesDecodeOrFailClosedUnderEverySetting() {
        for (byte[] payload : CAPTURED) {
            for (DecoderSettings settings : ALL_SETTINGS) {
                assertDecodesOrFailsClosed(payload, settings, false);
                assertDecodesOrFailsClosed(payload, settings, true);
            }
        }
    }

    @Test
    void randomBytesDecodeOrFailClosed() {
        SeededProperty.check(3000, random -> assertDecodesOrFailsClosed(randomPayload(random), settings(random),
                random.nextBoolean()));
    }

    @Test
    void randomBodiesBehindAValidTypeByteDecodeOrFailClosed() {
        SeededProperty.check(3000, random -> assertDecodesOrFailsClosed(validTagPayload(random), settings(random),
                random.nextBoolean()));
    }

    @Test
    void mutatedCapturedFramesDecodeOrFailClosed() {
        SeededProperty.check(5000, random -> assertDecodesOrFailsClosed(mutatedFrame(random), settings(random),
                random.nextBoolean()));
    }

    @Test
    void trackedStreamStateSurvivesAnySequenceOfPayloads() {
        SeededProperty.check(500, random -> assertStreamStateTracked(mutatedFrameSequence(random), settings(random)));
    }

    private static void assertStreamStateTracked(List<byte[]> payloads, DecoderSettings settings) {
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

    private static DecoderSettings settings(Random random) {
        return ALL_SETTINGS.get(random.nextInt(ALL_SETTINGS.size()));
    }

    /** 0 to 80 arbitrary bytes. */
    private static byte[] randomPayload(Random random) {
        byte[] payload = new byte[random.nextInt(81)];
        random.nextBytes(payload);
        return payload;
    }

    /** A message type byte the decoder knows, followed by 0 to 60 arbitrary bytes. */
    private static byte[] validTagPayload(Random random) {
        byte[] payload = new byte[1 + random.nextInt(61)];
        random.nextBytes(payload);
        payload[0] = (byte) TAGS[random.nextInt(TAGS.length)];
        return payload;
    }

    /** A captured frame with 1 to 4 mutations. */
    private static byte[] mutatedFrame(Random random) {
        byte[] payload = CAPTURED.get(random.nextInt(CAPTURED.size())).clone();
        int mutations = 1 + random.nextInt(4);
        for (int i = 0; i < mutations; i++) {
            payload = mutate(payload, random);
        }
        return payload;
    }

    /** 0 to 30 payloads, each a captured frame as it is or mutated. */
    private static List<byte[]> mutatedFrameSequence(Random random) {
        int size = random.nextInt(31);
        List<byte[]> payloads = new ArrayList<>(size);
        for (int i = 0; i < size; i++) {
            payloads.add(random.nextBoolean() ? CAPTURED.get(random.nextInt(CAPTURED.size())) : mutatedFrame(random));
        }
        return payloads;
    }

    /** One of: flip a bit, truncate, insert bytes, delete a byte, or overwrite a 2- or 4-byte field (lengths, counts). */
    private static byte[] mutate(byte[] payload, Random random) {
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

    private static byte[] overwrite(byte[] payload, int at, int width, Random random) {
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
