package io.github.pgoutput.spill;

import io.github.pgoutput.pgoutput.Xid;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.io.TempDir;

class DiskSpillContractTest extends TransactionSpillContract {

    private static final String SLOT = "contract_slot";

    @TempDir
    Path directory;

    @Override
    protected SpillSettings settings() {
        return SpillSettings.defaults(SLOT).withDirectory(directory).withMemoryBufferBytes(1024);
    }

    @Override
    protected TransactionSpill open(SpillSettings settings) {
        return DiskSpill.open(SLOT, settings);
    }

    private Path fileOf(Xid xid) {
        return DiskSpillFormat.fileOf(directory, SLOT, xid);
    }

    @Override
    protected void truncateStored(TransactionSpill spill, Xid xid) throws Exception {
        try (FileChannel channel = FileChannel.open(fileOf(xid), StandardOpenOption.WRITE)) {
            channel.truncate(channel.size() - 1);
        }
    }

    @Override
    protected void corruptStored(TransactionSpill spill, Xid xid) throws Exception {
        // Flip a byte of the last frame's payload: the first frame is intact, so a reader that did not verify the
        // whole file first would hand it out before noticing.
        try (FileChannel channel = FileChannel.open(fileOf(xid), StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            long offset = channel.size() - DiskSpillFormat.TRAILER_BYTES - 1;
            ByteBuffer one = ByteBuffer.allocate(1);
            channel.read(one, offset);
            one.put(0, (byte) (one.get(0) ^ 0x01)).rewind();
            channel.write(one, offset);
        }
    }

    @Override
    protected void removeStored(TransactionSpill spill, Xid xid) throws Exception {
        Files.delete(fileOf(xid));
    }
}
