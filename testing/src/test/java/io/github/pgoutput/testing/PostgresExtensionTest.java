package io.github.pgoutput.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(120)
class PostgresExtensionTest {

    @PostgresTest
    void startsAServerOfTheRequestedMajorVersionWithLogicalReplicationSettings(PostgresDatabase database) {
        assertThat(Integer.parseInt(database.queryValue("SHOW server_version_num")) / 10000).isEqualTo(database.majorVersion());
        assertThat(database.queryValue("SHOW wal_level")).isEqualTo("logical");
        assertThat(database.queryValue("SHOW max_prepared_transactions")).isEqualTo("10");
        assertThat(Integer.parseInt(database.queryValue("SHOW max_wal_senders"))).isGreaterThanOrEqualTo(10);
        assertThat(Integer.parseInt(database.queryValue("SHOW max_replication_slots"))).isGreaterThanOrEqualTo(10);
        assertThat(database.queryValue("SELECT current_database()")).isEqualTo(database.name());
    }

    @PostgresTest(logicalDecodingWorkMem = "64kB")
    void appliesTheTestsLogicalDecodingWorkMemToWalsenderSessionsToo(PostgresDatabase database) throws Exception {
        Properties properties = new Properties();
        properties.setProperty("user", database.user());
        properties.setProperty("replication", "database");
        properties.setProperty("assumeMinServerVersion", "9.4");
        properties.setProperty("preferQueryMode", "simple");
        try (Connection walsender = DriverManager.getConnection(database.jdbcUrl(), properties);
             Statement statement = walsender.createStatement();
             ResultSet rows = statement.executeQuery("SHOW logical_decoding_work_mem")) {
            assertThat(rows.next()).isTrue();
            assertThat(rows.getString(1)).isEqualTo("64kB");
        }
    }

    @PostgresTest
    void givesEveryInvocationItsOwnEmptyDatabase(PostgresDatabase database) {
        assertThat(database.queryValue("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'")).isEqualTo("0");
        database.execute("CREATE TABLE leftover (id int)");
    }

    @Test
    void stopsTheServerAndDeletesItsFilesOnClose() throws Exception {
        int version = PostgresExtension.selectedVersions().get(0);
        PostgresCluster cluster = PostgresCluster.start(version, Map.of());
        Path dataDirectory = cluster.dataDirectory();
        int port = cluster.port();
        assertThat(Files.isDirectory(dataDirectory)).isTrue();

        cluster.close();

        assertThat(Files.exists(dataDirectory)).isFalse();
        assertThatThrownBy(() -> new Socket(PostgresCluster.HOST, port).close()).isInstanceOf(java.io.IOException.class);
    }

    @Test
    void aServerThatCannotStartSaysWhyWithTheLogTail() {
        int version = PostgresExtension.selectedVersions().get(0);
        assertThatThrownBy(() -> PostgresCluster.start(version, Map.of("shared_buffers", "'not-a-size'")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("PostgreSQL " + version + " did not start")
                .hasMessageContaining("server log tail")
                .hasMessageContaining("shared_buffers");
    }

    @Test
    void restartsKeepTheDataOfTheServer() throws Exception {
        int version = PostgresExtension.selectedVersions().get(0);
        try (PostgresCluster cluster = PostgresCluster.start(version, Map.of())) {
            cluster.execute("postgres", "CREATE TABLE kept (id int)", "INSERT INTO kept VALUES (42)");
            cluster.restart("immediate");
            try (Connection connection = cluster.connect("postgres"); Statement statement = connection.createStatement();
                 ResultSet rows = statement.executeQuery("SELECT id FROM kept")) {
                assertThat(rows.next()).isTrue();
                assertThat(rows.getInt(1)).isEqualTo(42);
            }
        }
    }
}
