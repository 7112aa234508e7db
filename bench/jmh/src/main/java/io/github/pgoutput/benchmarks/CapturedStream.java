package io.github.pgoutput.benchmarks;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.zip.GZIPInputStream;

/**
 * A pgoutput stream recorded by {@code bench/capture-decoder-streams.sh}: resource
 * {@code captures/<name>.frames.gz}, a gzip of frames, each a 4-byte big-endian length and that many payload bytes.
 * All payloads live in one array; {@link #frame(int)} hands out views of it the way pgjdbc hands out slices of
 * its receive buffer.
 */
final class CapturedStream {

    private final String name;
    private final byte[] bytes;
    private final int[] offsets;
    private final int[] lengths;

    private CapturedStream(String name, byte[] bytes, int[] offsets, int[] lengths) {
        this.name = name;
        this.bytes = bytes;
        this.offsets = offsets;
        this.lengths = lengths;
    }

    static CapturedStream load(String name) {
        String resource = "/captures/" + name + ".frames.gz";
        try (InputStream raw = CapturedStream.class.getResourceAsStream(resource)) {
            if (raw == null) {
                throw new IllegalArgumentException("no capture " + resource + " on the classpath; run bench/capture-decoder-streams.sh");
            }
            DataInputStream in = new DataInputStream(new GZIPInputStream(raw, 1 << 16));
            byte[] bytes = new byte[1 << 20];
            int[] offsets = new int[1 << 12];
            int[] lengths = new int[1 << 12];
            int count = 0;
            int used = 0;
            while (true) {
                int length;
                try {
                    length = in.readInt();
                } catch (EOFException end) {
                    break;
                }
                if (length < 0) {
                    throw new IOException("negative frame length " + length + " at frame " + count + " of " + resource);
                }
                if (count == offsets.length) {
                    offsets = Arrays.copyOf(offsets, count * 2);
                    lengths = Arrays.copyOf(lengths, count * 2);
                }
                while (bytes.length - used < length) {
                    bytes = Arrays.copyOf(bytes, bytes.length * 2);
                }
                in.readFully(bytes, used, length);
                offsets[count] = used;
                lengths[count] = length;
                used += length;
                count++;
            }
            return new CapturedStream(name, Arrays.copyOf(bytes, used), Arrays.copyOf(offsets, count), Arrays.copyOf(lengths, count));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read capture " + resource, e);
        }
    }

    String name() {
        return name;
    }

    int messageCount() {
        return offsets.length;
    }

    long payloadBytes() {
        return bytes.length;
    }

    /** A read-write heap view of frame {@code index}: position = the type byte, limit = the end of the message. */
    ByteBuffer frame(int index) {
        return ByteBuffer.wrap(bytes, offsets[index], lengths[index]);
    }
}
