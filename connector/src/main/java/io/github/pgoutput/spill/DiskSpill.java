package io.github.pgoutput.spill;

import io.github.pgoutput.pgoutput.Lsn;
import io.github.pgoutput.pgoutput.Xid;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The default spill: append-only files under {@code spill.directory}, one per top-level transaction, in the frame
 * format of {@link DiskSpillFormat}. Directory and files are readable by the owner only.
 *
 * <p>What is read back is trusted to be what was appended, so the directory is vetted first ({@code SpillDirectory}:
 * no link, owned by the worker's user, writable by nobody else), each file is created new (never an existing file or
 * link) with permissions 0600, and it stays open from its first write until its transaction is discarded: reads go
 * through that same channel, never through the path again, and a read first checks that the path still names that
 * file, so a file removed or swapped behind the spill's back fails the read. Each transaction with data on disk thus
 * holds one file descriptor.
 *
 * <p>Several connectors may share the directory: file names start with the slot name, and a spill creates, clears
 * and deletes only the files of its own slot (anything else in the directory is left alone).
 *
 * <p>Appends go to a direct (off-heap) buffer per transaction first; when the buffers of all transactions together pass
 * {@code spill.memory.buffer.bytes} they are all written out, so a large transaction is written in large sequential
 * chunks and memory use does not depend on transaction size or count. The files are not fsynced: they only have to
 * live as long as the process (after a restart PostgreSQL streams open transactions again).
 */
public final class DiskSpill implements TransactionSpill {

    private final Path directory;
    private final String slotName;
    private final Pattern ownFiles;
    private final SpillSettings settings;
    private final Map<Xid, SpillFile> files = new HashMap<>();
    private final SpillQuota quota;
    private long bufferedBytes;
    private int openReaders;
    /** A direct read buffer kept between reads, so reading a transaction back allocates nothing in the common case. */
    private ByteBuffer spareReadBuffer;

    private DiskSpill(Path directory, String slotName, SpillSettings settings) {
        this.directory = directory;
        this.slotName = slotName;
        this.ownFiles = DiskSpillFormat.filesOf(slotName);
        this.settings = settings;
        this.quota = new SpillQuota(settings, directory.toString(), " or free space");
    }

    /**
     * Opens the spill of slot {@code slotName} in {@code settings.directory()}, creating the directory (owner-only) if
     * needed.
     *
     * @throws SpillException naming the directory when it cannot be created or written, or is not safe to trust
     *                        (see {@code SpillDirectory})
     * @throws IllegalArgumentException when {@code slotName} is no valid replication slot name
     */
    public static DiskSpill open(String slotName, SpillSettings settings) {
        if (!DiskSpillFormat.SLOT_NAME.matcher(slotName).matches()) {
            throw new IllegalArgumentException("slot.name '" + slotName + "' is no replication slot name (lowercase letters,"
                    + " digits and underscores, at most 63 characters), so it cannot name spill files");
        }
        Path directory = SpillDirectory.open(settings.directory(), slotName);
        return new DiskSpill(directory, slotName, settings);
    }

    /** The factory behind {@code spill.backend=disk}. */
    public static TransactionSpillFactory factory() {
        return context -> open(context.slotName(), context.settings());
    }

    public Path directory() {
        return directory;
    }

    @Override
    public void append(Xid xid, Xid subXid, Lsn walPosition, ByteBuffer payload) {
        SpillFile file = files.computeIfAbsent(xid,
                key -> new SpillFile(DiskSpillFormat.fileOf(directory, slotName, key), fullHint()));
        if (openReaders > 0 && file.readers > 0) {
            throw new IllegalStateException("cannot append to xid " + xid + " while a reader of it is open");
        }
        file.checkUsable();
        long frameBytes = DiskSpillFormat.frameBytes(payload.remaining());
        quota.checkRoom(xid, file.bytes, frameBytes, "spill file", file.path);
        if (!subXid.equals(xid)) {
            file.markFirstAppend(subXid);
        }
        if (frameBytes > settings.memoryBufferBytes()) {
            flush(file);
            file.writeFrameThrough(walPosition, payload, (int) frameBytes);
        } else {
            file.buffer(walPosition, payload, (int) frameBytes, settings.memoryBufferBytes());
            bufferedBytes += frameBytes;
        }
        file.bytes += frameBytes;
        file.frames++;
        quota.added(frameBytes);
        if (bufferedBytes > settings.memoryBufferBytes()) {
            for (SpillFile each : files.values()) {
                flush(each);
                if (each != file) {
                    each.releaseBuffer();
                }
            }
        }
    }

    @Override
    public SpillReader read(Xid xid) {
        SpillFile file = files.get(xid);
        if (file != null) {
            file.checkUsable();
        }
        if (file == null || file.bytes == 0) {
            // Everything appended was cut off again (rolled-back savepoints); the file may never have been written.
            return EmptyReader.INSTANCE;
        }
        flush(file);
        try {
            FileChannel channel = file.channelToRead();
            verify(file, channel);
            FrameReader frames = new FrameReader(file.path, channel, file.bytes, takeReadBuffer());
            file.readers++;
            openReaders++;
            return new DiskReader(file, frames);
        } catch (IOException e) {
            throw new SpillException("cannot read spill file " + file.path + " of transaction " + xid + " (" + describe(e)
                    + "); the transaction cannot be delivered (restart the connector to have PostgreSQL stream it again)", e);
        }
    }

    private ByteBuffer takeReadBuffer() {
        ByteBuffer buffer = spareReadBuffer != null ? spareReadBuffer : FrameReader.newReadBuffer();
        spareReadBuffer = null;
        return buffer;
    }

    private void returnReadBuffer(FrameReader frames) {
        spareReadBuffer = frames.release();
    }

    /** Reads the whole file once so that damage shows before anything of the transaction is delivered. */
    private void verify(SpillFile file, FileChannel channel) throws IOException {
        long size = channel.size();
        if (size != file.bytes) {
            throw new SpillException("spill file " + file.path + " holds " + size + " bytes but " + file.bytes
                    + " were appended (" + file.frames + " frames); it was truncated or changed behind the connector's back"
                    + " and the transaction cannot be delivered from it");
        }
        FrameReader frames = new FrameReader(file.path, channel, file.bytes, takeReadBuffer());
        long count = 0;
        try {
            while (frames.next() != null) {
                count++;
            }
        } finally {
            returnReadBuffer(frames);
        }
        if (count != file.frames) {
            throw new SpillException("spill file " + file.path + " holds " + count + " frames but " + file.frames
                    + " were appended; the transaction cannot be delivered from it");
        }
    }

    @Override
    public void discard(Xid xid) {
        SpillFile file = files.remove(xid);
        if (file != null) {
            forget(file);
        }
    }

    @Override
    public void discardSubtransaction(Xid xid, Xid subXid) {
        if (xid.equals(subXid)) {
            discard(xid);
            return;
        }
        SpillFile file = files.get(xid);
        SpillFile.Mark mark = file == null ? null : file.firstAppendOf(subXid);
        if (mark == null) {
            return;
        }
        long removed = file.bytes - mark.offset();
        if (mark.offset() >= file.flushedBytes) {
            file.used -= (int) removed;
            bufferedBytes -= removed;
        } else {
            bufferedBytes -= file.used;
            file.used = 0;
            try {
                file.truncate(mark.offset());
            } catch (IOException e) {
                file.broken = e;
                throw new SpillException("cannot cut rolled-back subtransaction " + subXid + " out of spill file " + file.path
                        + " (" + describe(e) + ")", e);
            }
            file.flushedBytes = mark.offset();
        }
        quota.released(removed);
        file.bytes = mark.offset();
        file.frames = mark.frames();
        file.forgetMarksFrom(mark.offset());
    }

    /** Forgets this spill's transactions and deletes what an earlier run of the same slot left in the directory. */
    @Override
    public void clear() {
        forgetAll();
        try (DirectoryStream<Path> leftovers = Files.newDirectoryStream(directory)) {
            for (Path path : leftovers) {
                if (ownFiles.matcher(path.getFileName().toString()).matches()
                        && !Files.isDirectory(path, LinkOption.NOFOLLOW_LINKS)) {
                    Files.deleteIfExists(path);
                }
            }
        } catch (IOException e) {
            throw new SpillException("cannot clear the files of slot " + slotName + " from spill.directory " + directory
                    + " (" + describe(e) + ")", e);
        }
    }

    private void forgetAll() {
        for (SpillFile file : new ArrayList<>(files.values())) {
            forget(file);
        }
        files.clear();
    }

    @Override
    public SpillUsage usage() {
        return new SpillUsage(files.size(), quota.totalBytes(), bufferedBytes);
    }

    /**
     * Deletes the files of this spill's own transactions only: a newer spill of the same slot (a restarted task) may
     * already be writing files of its own there.
     */
    @Override
    public void close() {
        forgetAll();
    }

    private void forget(SpillFile file) {
        quota.released(file.bytes);
        bufferedBytes -= file.used;
        file.used = 0;
        file.releaseBuffer();
        try {
            file.closeAndDelete();
        } catch (IOException e) {
            throw new SpillException("cannot delete spill file " + file.path + " (" + describe(e) + ")", e);
        }
    }

    private void flush(SpillFile file) {
        int used = file.used;
        if (used == 0) {
            return;
        }
        file.writeBuffer();
        bufferedBytes -= used;
    }

    private String fullHint() {
        return "free space in spill.directory " + directory + " or point it at a larger, writable file system"
                + (settings.maxTotalBytes() == SpillSettings.UNLIMITED ? ", and set spill.max.total.bytes below the space available"
                : " (spill.max.total.bytes is " + settings.maxTotalBytes() + ")");
    }

    static String describe(Exception e) {
        if (e instanceof FileSystemException fse && fse.getReason() != null) {
            return fse.getReason() + ": " + fse.getFile();
        }
        return e.toString();
    }

    private final class DiskReader implements SpillReader {
        private final SpillFile file;
        private final FrameReader frames;
        private boolean closed;

        /** Reads through the file's own channel, which stays open for the file's later reads and appends. */
        DiskReader(SpillFile file, FrameReader frames) {
            this.file = file;
            this.frames = frames;
        }

        @Override
        public SpilledMessage next() {
            if (closed) {
                throw new IllegalStateException("spill reader of " + file.path + " is closed");
            }
            try {
                return frames.next();
            } catch (IOException e) {
                throw new SpillException("cannot read spill file " + file.path + " at offset " + frames.offset() + " ("
                        + describe(e) + ")", e);
            }
        }

        @Override
        public void close() {
            if (closed) {
                return;
            }
            closed = true;
            file.readers--;
            openReaders--;
            returnReadBuffer(frames);
        }
    }

    private enum EmptyReader implements SpillReader {
        INSTANCE;

        @Override
        public SpilledMessage next() {
            return null;
        }

        @Override
        public void close() {
        }
    }
}
