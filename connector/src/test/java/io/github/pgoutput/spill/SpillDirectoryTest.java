package io.github.pgoutput.spill;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.github.pgoutput.pgoutput.Lsn;
import io.github.pgoutput.pgoutput.Xid;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.nio.file.attribute.UserPrincipalNotFoundException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The disk spill trusts what it reads back, so it refuses a directory someone else could write or swap, and never
 * reads a file it did not create itself. "Owned by another user" needs root to set up (chown to the {@code postgres}
 * OS user); without root those tests are reported as skipped.
 */
class SpillDirectoryTest {

    private static final String SLOT = "dir_slot";
    private static final Xid XID = Xid.of(761);
    private static final String OTHER_USER = "postgres";
    private static final FileAttribute<?> OWNER_ONLY =
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------"));

    @TempDir
    Path temp;

    private DiskSpill spill;

    @AfterEach
    void close() {
        if (spill != null) {
            spill.close();
        }
    }

    private DiskSpill open(Path directory) {
        spill = DiskSpill.open(SLOT, SpillSettings.defaults(SLOT).withDirectory(directory).withMemoryBufferBytes(0));
        return spill;
    }

    private Path ownerOnlyDirectory(String name) throws IOException {
        return Files.createDirectory(temp.resolve(name), OWNER_ONLY);
    }

    @Test
    void acceptsAnOwnerOnlyDirectoryOfTheWorkersUser() throws Exception {
        Path directory = ownerOnlyDirectory("spill");

        assertThat(open(directory).directory()).isEqualTo(directory);
    }

    @Test
    void createsMissingParentsOwnerOnlyToo() {
        Path directory = temp.resolve("parent/spill");

        open(directory);

        assertThat(permissions(directory.getParent())).isEqualTo("rwx------");
        assertThat(permissions(directory)).isEqualTo("rwx------");
    }

    @Test
    void refusesADirectoryThatIsASymbolicLink() throws Exception {
        Path real = ownerOnlyDirectory("real");
        Path link = Files.createSymbolicLink(temp.resolve("link"), real);

        assertThatThrownBy(() -> open(link)).isInstanceOf(SpillException.class)
                .hasMessageContaining("spill.directory " + link).hasMessageContaining("is a symbolic link")
                .hasMessageContaining(real.toString());
    }

    @Test
    void refusesADirectoryOtherUsersMayWrite() throws Exception {
        Path directory = ownerOnlyDirectory("shared");
        Files.setPosixFilePermissions(directory, PosixFilePermissions.fromString("rwxrwxrwx"));

        assertThatThrownBy(() -> open(directory)).isInstanceOf(SpillException.class)
                .hasMessageContaining("spill.directory " + directory)
                .hasMessageContaining("writable by its group or by other users (rwxrwxrwx)")
                .hasMessageContaining("chmod 700 " + directory);
    }

    @Test
    void refusesADirectoryItsGroupMayWrite() throws Exception {
        Path directory = ownerOnlyDirectory("group");
        Files.setPosixFilePermissions(directory, PosixFilePermissions.fromString("rwxrwx---"));

        assertThatThrownBy(() -> open(directory)).isInstanceOf(SpillException.class)
                .hasMessageContaining("spill.directory " + directory).hasMessageContaining("(rwxrwx---)");
    }

    @Test
    void refusesADirectoryOwnedByAnotherUser() throws Exception {
        UserPrincipal other = otherUserAsRoot();
        Path directory = ownerOnlyDirectory("theirs");
        Files.setOwner(directory, other);

        assertThatThrownBy(() -> open(directory)).isInstanceOf(SpillException.class)
                .hasMessageContaining("spill.directory " + directory)
                .hasMessageContaining("is owned by " + OTHER_USER + ", not by root")
                .hasMessageContaining("chown it to root");
    }

    @Test
    void refusesADirectoryWhoseParentIsOwnedByAnotherUser() throws Exception {
        UserPrincipal other = otherUserAsRoot();
        Path parent = ownerOnlyDirectory("their_parent");
        Path directory = Files.createDirectory(parent.resolve("spill"));
        Files.setOwner(parent, other);

        assertThatThrownBy(() -> open(directory)).isInstanceOf(SpillException.class)
                .hasMessageContaining("spill.directory " + directory)
                .hasMessageContaining("lies in " + parent + ", which is owned by another user (" + OTHER_USER + ")");
    }

    @Test
    void refusesADirectoryWhoseParentOtherUsersMayWriteWithoutTheStickyBit() throws Exception {
        Path parent = ownerOnlyDirectory("open_parent");
        Path directory = Files.createDirectory(parent.resolve("spill"));
        Files.setPosixFilePermissions(parent, PosixFilePermissions.fromString("rwxrwxrwx"));

        assertThatThrownBy(() -> open(directory)).isInstanceOf(SpillException.class)
                .hasMessageContaining("spill.directory " + directory)
                .hasMessageContaining("lies in " + parent + ", which other users may write (mode 777, no sticky bit)");
    }

    @Test
    void acceptsADirectoryInAWorldWritableParentWithTheStickyBitLikeTmp() throws Exception {
        Path parent = ownerOnlyDirectory("tmp_like");
        assertThat(run("chmod", "1777", parent.toString())).isZero();

        open(parent.resolve("spill"));

        assertThat(permissions(parent.resolve("spill"))).isEqualTo("rwx------");
    }

    @Test
    void aFileSwappedInUnderAnOpenTransactionsNameIsNeverRead() throws Exception {
        Path directory = ownerOnlyDirectory("spill");
        open(directory).append(XID, XID, Lsn.of(1), ByteBuffer.wrap("real".getBytes()));
        Path file = DiskSpillFormat.fileOf(directory, SLOT, XID);
        Files.delete(file);
        Files.write(file, plantedFrame("fake"));

        assertThatThrownBy(() -> spill.read(XID)).isInstanceOf(SpillException.class)
                .hasMessageContaining(file.toString()).hasMessageContaining("replaced");
    }

    @Test
    void aLinkPlantedUnderATransactionsNameIsNeitherFollowedNorWritten() throws Exception {
        Path directory = ownerOnlyDirectory("spill");
        Path target = Files.writeString(temp.resolve("target"), "untouched");
        open(directory).clear();
        Files.createSymbolicLink(DiskSpillFormat.fileOf(directory, SLOT, XID), target);

        assertThatThrownBy(() -> spill.append(XID, XID, Lsn.of(1), ByteBuffer.wrap("real".getBytes())))
                .isInstanceOf(SpillException.class)
                .hasMessageContaining(DiskSpillFormat.fileOf(directory, SLOT, XID).toString());
        assertThat(target).hasContent("untouched");
        assertThatThrownBy(() -> spill.read(XID)).isInstanceOf(SpillException.class);
    }

    /** One well-formed frame, CRC and all, as a local attacker could write it. */
    private static byte[] plantedFrame(String payload) {
        ByteBuffer frame = ByteBuffer.allocate((int) DiskSpillFormat.frameBytes(payload.length()));
        DiskSpillFormat.putFrame(frame, 0, 1, ByteBuffer.wrap(payload.getBytes()));
        return frame.array();
    }

    private static UserPrincipal otherUserAsRoot() throws IOException {
        assumeTrue("root".equals(System.getProperty("user.name")), "chown to another user needs root");
        try {
            return FileSystems.getDefault().getUserPrincipalLookupService().lookupPrincipalByName(OTHER_USER);
        } catch (UserPrincipalNotFoundException e) {
            assumeTrue(false, "no OS user " + OTHER_USER + " to own the directory");
            throw e;
        }
    }

    private static String permissions(Path path) {
        try {
            return PosixFilePermissions.toString(Files.getPosixFilePermissions(path));
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    private static int run(String... command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        process.getInputStream().readAllBytes();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            return -1;
        }
        return process.exitValue();
    }
}
