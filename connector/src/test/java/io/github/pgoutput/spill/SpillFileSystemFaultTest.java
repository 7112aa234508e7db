package io.github.pgoutput.spill;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.github.pgoutput.pgoutput.Lsn;
import io.github.pgoutput.pgoutput.Xid;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Real file-system failures under the spill directory: a 1 MiB tmpfs that fills up ("No space left on device"), and
 * the same tmpfs remounted read-only ("Read-only file system", which stops root too). Mounting needs root
 * (CAP_SYS_ADMIN); where that is not available the tests are reported as skipped, not passed.
 */
class SpillFileSystemFaultTest {

    @TempDir
    Path temp;

    private Path mountPoint;
    private boolean mounted;

    @BeforeEach
    void mountTinyFileSystem() throws Exception {
        mountPoint = Files.createDirectory(temp.resolve("tiny"));
        mounted = run("mount", "-t", "tmpfs", "-o", "size=1m,mode=0700", "tmpfs", mountPoint.toString()) == 0;
        assumeTrue(mounted, "mounting a 1 MiB tmpfs needs root; run as root to check real ENOSPC handling");
    }

    @AfterEach
    void unmount() throws Exception {
        if (mounted) {
            run("umount", mountPoint.toString());
        }
    }

    @Test
    void fullFileSystemFailsTheAppendNamingThePathAndTheLimitAndNothingIsReadBack() {
        Xid xid = Xid.of(761);
        DiskSpill spill = DiskSpill.open("full_slot",
                SpillSettings.defaults("full_slot").withDirectory(mountPoint).withMemoryBufferBytes(64 * 1024));
        ByteBuffer change = ByteBuffer.allocate(32 * 1024);

        assertThatThrownBy(() -> {
            for (int i = 0; i < 64; i++) {
                spill.append(xid, xid, Lsn.of(i + 1), change);
            }
        }).isInstanceOf(SpillException.class)
                .hasMessageContaining("No space left on device")
                .hasMessageContaining(DiskSpillFormat.fileOf(mountPoint, "full_slot", xid).toString())
                .hasMessageContaining("spill.max.total.bytes");
        assertThatThrownBy(() -> spill.read(xid)).isInstanceOf(SpillException.class);
        spill.close();
        assertThat(mountPoint.resolve("full_slot.txn-761.spill")).doesNotExist();
    }

    @Test
    void readOnlyFileSystemFailsTheAppendNamingThePathAndNothingIsReadBack() throws Exception {
        Xid xid = Xid.of(762);
        DiskSpill spill = DiskSpill.open("ro_slot", SpillSettings.defaults("ro_slot").withDirectory(mountPoint).withMemoryBufferBytes(0));
        assertThat(run("mount", "-o", "remount,ro", mountPoint.toString())).isZero();

        assertThatThrownBy(() -> spill.append(xid, xid, Lsn.of(1), ByteBuffer.allocate(16))).isInstanceOf(SpillException.class)
                .hasMessageContaining("Read-only file system")
                .hasMessageContaining(DiskSpillFormat.fileOf(mountPoint, "ro_slot", xid).toString())
                .hasMessageContaining("spill.directory");
        assertThatThrownBy(() -> spill.read(xid)).isInstanceOf(SpillException.class);
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
