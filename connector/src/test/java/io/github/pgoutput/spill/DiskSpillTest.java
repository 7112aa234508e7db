package io.github.pgoutput.spill;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.pgoutput.pgoutput.Lsn;
import io.github.pgoutput.pgoutput.Xid;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What only the disk backend promises: file layout, permissions, and errors that name paths. */
class DiskSpillTest {

    private static final String SLOT = "disk_slot";
    private static final Xid XID = Xid.of(761);

    @TempDir
    Path temp;

    private DiskSpill spill;

    @AfterEach
    void close() {
        if (spill != null) {
            spill.close();
        }
    }

    private DiskSpill open(SpillSettings settings) {
        return open(SLOT, settings);
    }

    private DiskSpill open(String slotName, SpillSettings settings) {
        spill = DiskSpill.open(slotName, settings);
        return spill;
    }

    /** Each message as {@code <wal position>:<payload length>}. */
    private static List<String> readAll(DiskSpill spill, Xid xid) {
        List<String> messages = new ArrayList<>();
        try (SpillReader reader = spill.read(xid)) {
            for (SpilledMessage message = reader.next(); message != null; message = reader.next()) {
                messages.add(message.walPosition() + ":" + message.payload().remaining());
            }
        }
        return messages;
    }

    private SpillSettings settings(Path directory) {
        return SpillSettings.defaults(SLOT).withDirectory(directory).withMemoryBufferBytes(0);
    }

    @Test
    void defaultDirectoryIsPerSlotUnderTheJvmTemporaryDirectory() {
        assertThat(SpillSettings.defaults("my_slot").directory())
                .isEqualTo(Path.of(System.getProperty("java.io.tmpdir"), "kafka-connect-pgoutput", "my_slot"));
    }

    @Test
    void createsTheDirectoryAndFilesReadableByTheOwnerOnly() throws Exception {
        Path directory = temp.resolve("a/b/spill");
        open(settings(directory)).append(XID, XID, Lsn.of(1), ByteBuffer.wrap(new byte[] {1, 2, 3}));

        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(directory))).isEqualTo("rwx------");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(DiskSpillFormat.fileOf(directory, SLOT, XID))))
                .isEqualTo("rw-------");
    }

    @Test
    void writesOneFileOfVersionedFramesWithACrc32cPerTransaction() throws Exception {
        open(settings(temp)).append(XID, XID, Lsn.of(0x15757F8), ByteBuffer.wrap(new byte[] {'I', 7}));

        byte[] file = Files.readAllBytes(temp.resolve("disk_slot.txn-761.spill"));

        ByteBuffer frame = ByteBuffer.wrap(file);
        assertThat(file).hasSize(DiskSpillFormat.OVERHEAD_BYTES + 2);
        assertThat(frame.get()).isEqualTo((byte) 1);
        assertThat(frame.getLong()).isEqualTo(0x15757F8L);
        assertThat(frame.getInt()).isEqualTo(2);
        assertThat(new byte[] {frame.get(), frame.get()}).containsExactly('I', 7);
        CRC32C crc = new CRC32C();
        crc.update(file, 0, file.length - 4);
        assertThat(frame.getInt()).isEqualTo((int) crc.getValue());
    }

    @Test
    void deletesTheFileWhenTheTransactionIsDiscarded() {
        open(settings(temp)).append(XID, XID, Lsn.of(1), ByteBuffer.allocate(4));

        spill.discard(XID);

        assertThat(temp.resolve("disk_slot.txn-761.spill")).doesNotExist();
    }

    @Test
    void namesEachFileAfterTheSlotAndTheTransaction() {
        open(settings(temp)).append(XID, XID, Lsn.of(1), ByteBuffer.allocate(4));

        assertThat(temp.resolve("disk_slot.txn-761.spill")).isRegularFile();
    }

    @Test
    void clearDeletesTheLeftoversOfItsOwnSlotOnly() throws Exception {
        Files.writeString(temp.resolve("disk_slot.txn-5.spill"), "left over by an earlier run of this slot");
        Files.writeString(temp.resolve("other_slot.txn-5.spill"), "another connector's");
        Files.writeString(temp.resolve("disk_slot_b.txn-5.spill"), "a slot whose name starts like ours");
        Files.writeString(temp.resolve("txn-5.spill"), "no slot name: cannot be told to be ours");
        Files.writeString(temp.resolve("notes.txt"), "not ours");

        open(settings(temp)).clear();

        assertThat(temp.resolve("disk_slot.txn-5.spill")).doesNotExist();
        assertThat(temp.resolve("other_slot.txn-5.spill")).exists();
        assertThat(temp.resolve("disk_slot_b.txn-5.spill")).exists();
        assertThat(temp.resolve("txn-5.spill")).exists();
        assertThat(temp.resolve("notes.txt")).exists();
    }

    @Test
    void connectorsSharingTheDirectoryKeepTheSameXidApartAndSurviveEachOthersStartUp() {
        SpillSettings shared = settings(temp);
        try (DiskSpill first = DiskSpill.open("first_slot", shared)) {
            first.clear();
            first.append(XID, XID, Lsn.of(1), ByteBuffer.wrap(new byte[] {1}));
            try (DiskSpill second = DiskSpill.open("second_slot", shared)) {
                second.clear();
                second.append(XID, XID, Lsn.of(2), ByteBuffer.wrap(new byte[] {2, 2}));

                assertThat(readAll(first, XID)).containsExactly("0/1:1");
                assertThat(readAll(second, XID)).containsExactly("0/2:2");
            }
            assertThat(readAll(first, XID)).as("after the other connector closed").containsExactly("0/1:1");
        }
    }

    @Test
    void closeDeletesOnlyTheFilesOfItsOwnTransactions() {
        DiskSpill earlier = DiskSpill.open(SLOT, settings(temp));
        open(settings(temp)).clear();
        spill.append(XID, XID, Lsn.of(1), ByteBuffer.wrap(new byte[] {1}));

        earlier.close();

        assertThat(readAll(spill, XID)).as("the newer spill of the same slot (a restarted task) keeps its file")
                .containsExactly("0/1:1");
    }

    @Test
    void refusesASlotNameThatIsNoReplicationSlotName() {
        assertThatThrownBy(() -> open("../escape", settings(temp))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("slot.name '../escape'");
    }

    @Test
    void directoryThatCannotBeCreatedFailsNamingThePathAndTheSetting() throws Exception {
        Path regularFile = Files.writeString(temp.resolve("plain-file"), "x");
        Path directory = regularFile.resolve("spill");

        assertThatThrownBy(() -> open(settings(directory))).isInstanceOf(SpillException.class)
                .hasMessageContaining(directory.toString()).hasMessageContaining("spill.directory");
    }

    @Test
    void directoryReplacedByAFileAfterOpeningFailsTheAppendNamingThePath() throws Exception {
        Path directory = temp.resolve("spill");
        open(settings(directory));
        Files.delete(directory);
        Files.writeString(directory, "not a directory");

        assertThatThrownBy(() -> spill.append(XID, XID, Lsn.of(1), ByteBuffer.allocate(4))).isInstanceOf(SpillException.class)
                .hasMessageContaining(DiskSpillFormat.fileOf(directory, SLOT, XID).toString())
                .hasMessageContaining("spill.directory");
        assertThatThrownBy(() -> spill.read(XID)).as("nothing half-written is ever read back").isInstanceOf(SpillException.class);
        Files.delete(directory);
        Files.createDirectory(directory);
    }

    @Test
    void frameLargerThanTheFrontBufferIsWrittenThroughAndReadBack() {
        open(SpillSettings.defaults(SLOT).withDirectory(temp).withMemoryBufferBytes(16));
        byte[] big = new byte[3 * FrameReader.READ_BUFFER_BYTES + 5];
        big[big.length - 1] = 42;
        spill.append(XID, XID, Lsn.of(1), ByteBuffer.allocate(3));
        spill.append(XID, XID, Lsn.of(2), ByteBuffer.wrap(big));
        spill.append(XID, XID, Lsn.of(3), ByteBuffer.allocate(3));

        try (SpillReader reader = spill.read(XID)) {
            assertThat(reader.next().payload().remaining()).isEqualTo(3);
            ByteBuffer payload = reader.next().payload();
            assertThat(payload.remaining()).isEqualTo(big.length);
            assertThat(payload.get(payload.position() + big.length - 1)).isEqualTo((byte) 42);
            assertThat(reader.next().walPosition()).isEqualTo(Lsn.of(3));
            assertThat(reader.next()).isNull();
        }
    }

    @Test
    void framesAcrossManyRefillsOfTheReadBufferComeBackWholeAndReadOnly() {
        open(settings(temp));
        int frames = 8_000;
        for (int i = 0; i < frames; i++) {
            spill.append(XID, XID, Lsn.of(i + 1), ByteBuffer.wrap(payloadOf(i)));
        }

        try (SpillReader reader = spill.read(XID)) {
            for (int i = 0; i < frames; i++) {
                SpilledMessage message = reader.next();
                byte[] read = new byte[message.payload().remaining()];
                message.payload().get(message.payload().position(), read);
                assertThat(message.walPosition()).isEqualTo(Lsn.of(i + 1));
                assertThat(read).as("frame %d", i).isEqualTo(payloadOf(i));
                assertThat(message.payload().isReadOnly()).isTrue();
            }
            assertThat(reader.next()).isNull();
        }
    }

    /** 100 to 1,099 bytes that name their frame: 8,000 of them are some 4.8 MB, several read buffers' worth. */
    private static byte[] payloadOf(int frame) {
        byte[] payload = new byte[100 + (frame * 7919) % 1000];
        for (int j = 0; j < payload.length; j++) {
            payload[j] = (byte) (frame * 31 + j);
        }
        return payload;
    }

    @Test
    void refusesAppendsWhileAReaderOfTheTransactionIsOpen() {
        open(settings(temp)).append(XID, XID, Lsn.of(1), ByteBuffer.allocate(3));

        try (SpillReader reader = spill.read(XID)) {
            assertThat(reader.next()).isNotNull();
            assertThatThrownBy(() -> spill.append(XID, XID, Lsn.of(2), ByteBuffer.allocate(3)))
                    .isInstanceOf(IllegalStateException.class);
        }
    }
}
