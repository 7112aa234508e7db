package io.github.pgoutput.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The start that the local run and the benchmark scripts use: a directory of the caller's, exactly the settings it
 * gives (none of the test defaults), and files left for the caller after a stop.
 */
@Timeout(120)
class PostgresClusterSetupTest {

    @TempDir
    Path folder;

    @Test
    void startsInTheGivenDirectoryWithExactlyTheGivenSettingsAndLeavesTheFilesAfterAStop() throws Exception {
        PostgresInstallation installation = PostgresInstallation.of(PostgresExtension.selectedVersions().get(0));
        if (OsCommands.runningAsRoot()) {
            // The server's OS user must reach the directory inside the test's private temporary folder.
            Files.setPosixFilePermissions(folder, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
        }
        Path base = folder.resolve("postgres");
        PostgresCluster cluster = PostgresCluster.start(new PostgresCluster.Setup(installation, base,
                Map.of("listen_addresses", "'127.0.0.1'", "wal_level", "logical", "shared_buffers", "32MB"), false));
        try {
            assertThat(cluster.baseDirectory()).isEqualTo(base);
            assertThat(cluster.dataDirectory()).isEqualTo(base.resolve("data"));
            assertThat(base.resolve("server.log")).isRegularFile();
            assertThat(show(cluster, "wal_level")).isEqualTo("logical");
            assertThat(show(cluster, "shared_buffers")).isEqualTo("32MB");
            assertThat(show(cluster, "max_prepared_transactions")).as("a test default, not given").isEqualTo("0");
            assertThat(show(cluster, "unix_socket_directories")).isEqualTo(base.toString());

            cluster.stop("fast", 15);

            assertThat(cluster.isRunning()).isFalse();
            assertThat(base.resolve("data")).as("left for the caller").isDirectory();
        } finally {
            cluster.close();
        }
        assertThat(base).doesNotExist();
    }

    @Test
    void readsTheMajorVersionOfBinariesFoundByDirectory() {
        PostgresInstallation installation = PostgresInstallation.of(PostgresExtension.selectedVersions().get(0));

        assertThat(PostgresInstallation.inDirectory(installation.binDirectory())).isEqualTo(installation);
    }

    private static String show(PostgresCluster cluster, String setting) throws Exception {
        try (Connection connection = cluster.connect("postgres"); Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("SHOW " + setting)) {
            rows.next();
            return rows.getString(1);
        }
    }
}
