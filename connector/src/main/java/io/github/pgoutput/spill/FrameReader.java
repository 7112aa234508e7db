package io.github.pgoutput.spill;

import io.github.pgoutput.pgoutput.Lsn;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.zip.CRC32C;

/**
 * Reads and checks the frames of one spill file sequentially through a direct read buffer (so file data is copied
 * once, from the kernel, and checksummed in place); a frame larger than the buffer gets a heap buffer of its own for
 * as long as it is current.
 */
final class FrameReader {

    static final int READ_BUFFER_BYTES = 1 << 20;

    private final Path path;
    private final FileChannel channel;
    private final long length;
    private final CRC32C crc = new CRC32C();
    private final int normalCapacity;
    private final ByteBuffer standard;
    private ByteBuffer buffer;
    /** The buffer {@link #readOnlyView} views. */
    private ByteBuffer readOnlyOf;
    private ByteBuffer readOnlyView;
    private long frameOffset;

    /** {@code readBuffer} is a direct buffer of {@link #READ_BUFFER_BYTES} that this reader uses until {@link #release()}. */
    FrameReader(Path path, FileChannel channel, long length, ByteBuffer readBuffer) {
        this.path = path;
        this.channel = channel;
        this.length = length;
        this.normalCapacity = readBuffer.capacity();
        this.standard = readBuffer;
        this.buffer = readBuffer.clear().limit(0);
    }

    static ByteBuffer newReadBuffer() {
        return ByteBuffer.allocateDirect(READ_BUFFER_BYTES);
    }

    /** Returns the standard read buffer for reuse; this reader must not be used afterwards. */
    ByteBuffer release() {
        buffer = null;
        readOnlyOf = null;
        readOnlyView = null;
        return standard;
    }

    /** Offset of the next frame in the file. */
    long offset() {
        return frameOffset;
    }

    /**
     * Returns the next frame's message (payload valid until the next call), or {@code null} at {@code length}.
     *
     * @throws SpillException naming the file and offset when a frame is cut short or fails its checks
     */
    SpilledMessage next() throws IOException {
        if (frameOffset >= length) {
            return null;
        }
        fill(DiskSpillFormat.HEADER_BYTES);
        int start = buffer.position();
        byte version = buffer.get(start);
        if (version != DiskSpillFormat.FORMAT_VERSION) {
            throw corrupt("unknown frame format version " + version + " (expected " + DiskSpillFormat.FORMAT_VERSION + ")");
        }
        long walPosition = buffer.getLong(start + 1);
        int payloadLength = buffer.getInt(start + 9);
        long frameBytes = DiskSpillFormat.frameBytes(Math.max(payloadLength, 0));
        if (payloadLength < 0 || frameOffset + frameBytes > length) {
            throw corrupt("frame length " + payloadLength + " runs past the end of the " + length + "-byte file");
        }
        fill((int) frameBytes);
        start = buffer.position();
        int payloadEnd = start + DiskSpillFormat.HEADER_BYTES + payloadLength;
        crc.reset();
        // Checked in place: the buffer's limit is narrowed to the frame and put back (no view per frame).
        int limit = buffer.limit();
        crc.update(buffer.limit(payloadEnd));
        buffer.limit(limit);
        int stored = buffer.getInt(payloadEnd);
        if (stored != (int) crc.getValue()) {
            throw corrupt("CRC-32C mismatch (stored " + Integer.toHexString(stored) + ", computed "
                    + Long.toHexString(crc.getValue()) + ")");
        }
        ByteBuffer payload = readOnly().slice(start + DiskSpillFormat.HEADER_BYTES, payloadLength);
        buffer.position(start + (int) frameBytes);
        frameOffset += frameBytes;
        return new SpilledMessage(Lsn.of(walPosition), payload);
    }

    /** A read-only view of the current buffer, to hand out payloads from: made once per buffer, not per frame. */
    private ByteBuffer readOnly() {
        if (readOnlyOf != buffer) {
            readOnlyOf = buffer;
            // Whole capacity: payloads are sliced from it by absolute index, wherever the buffer's limit is now.
            readOnlyView = buffer.asReadOnlyBuffer().clear();
        }
        return readOnlyView;
    }

    /** Makes at least {@code needed} bytes of the current frame available from the buffer's position. */
    private void fill(int needed) throws IOException {
        if (buffer.remaining() >= needed) {
            return;
        }
        if (needed > normalCapacity) {
            ByteBuffer oversized = ByteBuffer.allocate(needed);
            oversized.put(buffer);
            buffer = oversized;
        } else if (buffer != standard) {
            buffer = standard.clear().put(buffer);
        } else {
            buffer.compact();
        }
        long bufferStartOffset = frameOffset;
        while (buffer.position() < needed) {
            int read = channel.read(buffer, bufferStartOffset + buffer.position());
            if (read < 0) {
                throw corrupt("the file ends after " + (bufferStartOffset + buffer.position()) + " bytes, expected "
                        + length);
            }
        }
        buffer.flip();
    }

    private SpillException corrupt(String what) {
        return new SpillException("spill file " + path + " is damaged at offset " + frameOffset + ": " + what
                + "; the transaction cannot be delivered from it (restart the connector to have PostgreSQL stream it again)");
    }
}
