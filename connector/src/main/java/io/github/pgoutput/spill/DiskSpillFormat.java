package io.github.pgoutput.spill;

import io.github.pgoutput.pgoutput.Xid;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.regex.Pattern;
import java.util.zip.CRC32C;

/**
 * The one place that knows the disk spill's persisted names and frame layout.
 *
 * <p>One file per top-level transaction, {@code txn-<xid>.spill}, holding frames back to back:
 * <pre>
 *   Int8  format_version   (1)
 *   Int64 wal_position
 *   Int32 payload_length
 *   Byte(payload_length) payload
 *   Int32 crc32c           over every byte of the frame before it
 * </pre>
 * Files live only as long as their transaction is open; they are never read by another version of the connector,
 * but the version byte makes a stray file from one fail loudly instead of being misread.
 */
final class DiskSpillFormat {

    static final byte FORMAT_VERSION = 1;
    static final int HEADER_BYTES = 1 + 8 + 4;
    static final int TRAILER_BYTES = 4;
    static final int OVERHEAD_BYTES = HEADER_BYTES + TRAILER_BYTES;
    static final Pattern FILE_NAME = Pattern.compile("txn-[0-9]+\\.spill");

    private DiskSpillFormat() {
    }

    static Path fileOf(Path directory, Xid xid) {
        return directory.resolve("txn-" + xid.value() + ".spill");
    }

    static long frameBytes(int payloadLength) {
        return (long) OVERHEAD_BYTES + payloadLength;
    }

    /** Writes the header of a frame at {@code target}'s position. */
    static void putHeader(ByteBuffer target, long walPosition, int payloadLength) {
        target.put(FORMAT_VERSION).putLong(walPosition).putInt(payloadLength);
    }

    /** Writes a whole frame into {@code target} at {@code offset} (absolute, position unchanged); returns the offset after it. */
    static int putFrame(ByteBuffer target, int offset, long walPosition, ByteBuffer payload) {
        int length = payload.remaining();
        target.put(offset, FORMAT_VERSION).putLong(offset + 1, walPosition).putInt(offset + 9, length);
        target.put(offset + HEADER_BYTES, payload, payload.position(), length);
        CRC32C crc = new CRC32C();
        crc.update(target.slice(offset, HEADER_BYTES + length));
        target.putInt(offset + HEADER_BYTES + length, (int) crc.getValue());
        return offset + HEADER_BYTES + length + TRAILER_BYTES;
    }
}
