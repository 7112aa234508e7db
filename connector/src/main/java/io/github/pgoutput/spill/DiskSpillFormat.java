package io.github.pgoutput.spill;

import io.github.pgoutput.pgoutput.Xid;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.regex.Pattern;
import java.util.zip.CRC32C;

/**
 * The one place that knows the disk spill's persisted names and frame layout.
 *
 * <p>One file per top-level transaction, {@code <slot name>.txn-<xid>.spill}, holding frames back to back:
 * <pre>
 *   Int8  format_version   (1)
 *   Int64 wal_position
 *   Int32 payload_length
 *   Byte(payload_length) payload
 *   Int32 crc32c           over every byte of the frame before it
 * </pre>
 * Files live only as long as their transaction is open; they are never read by another version of the connector,
 * but the version byte makes a stray file from one fail loudly instead of being misread.
 *
 * <p>The slot name prefix lets connectors share one directory: each one creates, clears and deletes only the files
 * of its own slot. A slot name consists of lowercase letters, digits and underscores (PostgreSQL's rule), so the
 * {@code .} after it cannot be part of another slot's name, and {@code a.txn-1.spill} is never a file of slot
 * {@code a_b}.
 */
final class DiskSpillFormat {

    static final byte FORMAT_VERSION = 1;
    static final int HEADER_BYTES = 1 + 8 + 4;
    static final int TRAILER_BYTES = 4;
    static final int OVERHEAD_BYTES = HEADER_BYTES + TRAILER_BYTES;
    /** PostgreSQL's rule for replication slot names (NAMEDATALEN - 1 characters at most). */
    static final Pattern SLOT_NAME = Pattern.compile("[a-z0-9_]{1,63}");

    private DiskSpillFormat() {
    }

    static Path fileOf(Path directory, String slotName, Xid xid) {
        return directory.resolve(slotName + ".txn-" + xid.value() + ".spill");
    }

    /** The names of {@code slotName}'s spill files, and of no other slot's. */
    static Pattern filesOf(String slotName) {
        return Pattern.compile(Pattern.quote(slotName) + "\\.txn-[0-9]+\\.spill");
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
