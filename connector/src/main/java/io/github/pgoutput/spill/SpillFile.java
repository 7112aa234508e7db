package io.github.pgoutput.spill;

import io.github.pgoutput.pgoutput.Lsn;
import io.github.pgoutput.pgoutput.Xid;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.zip.CRC32C;

/**
 * Bookkeeping of one transaction's spill file: its length, frame count, front buffer, and where each subtransaction
 * first appended (so a rolled-back savepoint can be cut off at that offset).
 */
final class SpillFile {

    /** Position of a subtransaction's first frame: its byte offset and the number of frames before it. */
    record Mark(long offset, long frames) {
    }

    final Path path;
    long bytes;
    long frames;
    long flushedBytes;
    int readers;
    ByteBuffer buffer;
    int used;
    Exception broken;
    private final Map<Xid, Mark> firstAppends = new HashMap<>();

    private final String fullHint;

    /** {@code fullHint} tells the user what to do when the file system is full or unwritable. */
    SpillFile(Path path, String fullHint) {
        this.path = path;
        this.fullHint = fullHint;
    }

    void checkUsable() {
        if (broken != null) {
            throw new SpillException("spill file " + path + " failed earlier (" + DiskSpill.describe(broken)
                    + "); its transaction cannot be delivered", broken);
        }
    }

    void markFirstAppend(Xid subXid) {
        firstAppends.putIfAbsent(subXid, new Mark(bytes, frames));
    }

    Mark firstAppendOf(Xid subXid) {
        return firstAppends.get(subXid);
    }

    void forgetMarksFrom(long offset) {
        firstAppends.values().removeIf(mark -> mark.offset() >= offset);
    }

    /**
     * Adds a frame to the front buffer. The buffer is direct, so writing it out is one copy into the kernel; it grows
     * by doubling up to {@code maxBuffer} (a larger need only arises for the frame that passes the limit).
     */
    void buffer(Lsn walPosition, ByteBuffer payload, int frameBytes, int maxBuffer) {
        int needed = used + frameBytes;
        if (buffer == null || buffer.capacity() < needed) {
            int grown = buffer == null ? Math.max(frameBytes, 4096) : Math.max(buffer.capacity() * 2, needed);
            ByteBuffer larger = ByteBuffer.allocateDirect(Math.max(needed, Math.min(grown, maxBuffer)));
            if (used > 0) {
                larger.put(0, buffer, 0, used);
            }
            buffer = larger;
        }
        used = DiskSpillFormat.putFrame(buffer, used, walPosition.value(), payload);
    }

    void releaseBuffer() {
        if (used == 0) {
            buffer = null;
        }
    }

    void writeBuffer() {
        write(buffer.duplicate().position(0).limit(used));
        flushedBytes += used;
        used = 0;
    }

    /** Writes a frame too large for the front buffer straight to the file, without copying the payload. */
    void writeFrameThrough(Lsn walPosition, ByteBuffer payload, int frameBytes) {
        ByteBuffer header = ByteBuffer.allocate(DiskSpillFormat.HEADER_BYTES);
        DiskSpillFormat.putHeader(header, walPosition.value(), payload.remaining());
        header.flip();
        CRC32C crc = new CRC32C();
        crc.update(header.duplicate());
        crc.update(payload.duplicate());
        ByteBuffer trailer = ByteBuffer.allocate(DiskSpillFormat.TRAILER_BYTES).putInt((int) crc.getValue()).flip();
        write(header, payload.duplicate(), trailer);
        flushedBytes += frameBytes;
    }

    private void write(ByteBuffer... data) {
        try (FileChannel channel = FileChannel.open(path, Set.of(StandardOpenOption.CREATE, StandardOpenOption.WRITE),
                DiskSpill.ownerOnly(path, DiskSpill.ownerFile()))) {
            channel.position(flushedBytes);
            for (ByteBuffer each : data) {
                while (each.hasRemaining()) {
                    channel.write(each);
                }
            }
        } catch (IOException e) {
            broken = e;
            throw new SpillException("cannot write spill file " + path + " (" + DiskSpill.describe(e) + "); " + fullHint, e);
        }
    }
}
