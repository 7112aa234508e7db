package io.github.pgoutput.spill;

import io.github.pgoutput.pgoutput.Lsn;
import io.github.pgoutput.pgoutput.Xid;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.zip.CRC32C;

/**
 * Bookkeeping of one transaction's spill file: its length, frame count, front buffer, and where each subtransaction
 * first appended (so a rolled-back savepoint can be cut off at that offset).
 *
 * <p>The file is created on the first write, as a new file (an existing file or link of that name fails the write),
 * and its channel stays open until {@link #closeAndDelete()}: every later write, truncation and read goes through it,
 * so the data read back is the data written even if the name is made to point elsewhere meanwhile.
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
    /** Open from the first write on; {@code null} before. */
    private FileChannel channel;
    /** The file's identity (device and inode on POSIX) as created; {@code null} where the file system has none. */
    private Object fileKey;

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
        try {
            FileChannel target = channelToWrite();
            long position = flushedBytes;
            for (ByteBuffer each : data) {
                while (each.hasRemaining()) {
                    position += target.write(each, position);
                }
            }
        } catch (IOException e) {
            broken = e;
            throw new SpillException("cannot write spill file " + path + " (" + DiskSpill.describe(e) + "); " + fullHint, e);
        }
    }

    private FileChannel channelToWrite() throws IOException {
        if (channel == null) {
            channel = FileChannel.open(path, Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.READ,
                    StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS),
                    SpillDirectory.ownerOnly(path, SpillDirectory.OWNER_FILE));
            fileKey = Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS).fileKey();
        }
        return channel;
    }

    /**
     * The channel to read the file through, after checking that the path still names the file this spill created: a
     * removed or replaced file means the store no longer holds what was appended.
     *
     * @throws SpillException when it does not
     */
    FileChannel channelToRead() throws IOException {
        BasicFileAttributes now;
        try {
            now = Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (NoSuchFileException e) {
            now = null;
        }
        if (channel == null || now == null || !now.isRegularFile() || (fileKey != null && !fileKey.equals(now.fileKey()))) {
            throw new SpillException("spill file " + path + " was " + (now == null ? "removed" : "replaced")
                    + " behind the connector's back (" + bytes + " bytes in " + frames + " frames were appended);"
                    + " the transaction cannot be delivered from it");
        }
        return channel;
    }

    void truncate(long length) throws IOException {
        channel.truncate(length);
    }

    /** Closes the file and deletes it, unless its name has come to mean another file meanwhile. */
    void closeAndDelete() throws IOException {
        if (channel == null) {
            return;
        }
        try {
            channel.close();
        } finally {
            channel = null;
            try {
                Object current = Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS).fileKey();
                if (fileKey == null || fileKey.equals(current)) {
                    Files.delete(path);
                }
            } catch (NoSuchFileException e) {
                // already gone (cleared by a newer spill of the same slot, or removed by hand)
            }
        }
    }
}
