package io.github.pgoutput.localrun;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;

import io.github.pgoutput.testing.PostgresCluster;
import io.github.pgoutput.testing.kafka.ChildProcesses;
import io.github.pgoutput.testing.PostgresInstallation;

/**
 * The PostgreSQL server of the run: either the one given ({@code PG*} variables or flags), or a throwaway one started
 * by the testing module ({@link PostgresCluster}, which runs the server as the OS user {@code postgres} when this runs
 * as root) with the settings the connector and the demo need. Public for the side-by-side benchmark, which starts its
 * server here too.
 */
public final class LocalPostgres {

    /** Server settings of a started server: logical decoding, two-phase, and streaming of transactions over 64 kB. */
    private static final Map<String, String> SETTINGS = settings("wal_level", "logical", "max_replication_slots", "10",
            "max_wal_senders", "10", "max_prepared_transactions", "10", "logical_decoding_work_mem", "64kB",
            "fsync", "off");

    private static final Path DEBIAN_15 = Path.of("/usr/lib/postgresql/15/bin");

    public final String host;
    public final int port;
    public final String user;
    public final Optional<String> password;
    public final String database;

    private LocalPostgres(String host, int port, String user, Optional<String> password, String database) {
        this.host = host;
        this.port = port;
        this.user = user;
        this.password = password;
        this.database = database;
    }

    static LocalPostgres given(Options options) {
        return new LocalPostgres(options.pgHost().orElseThrow(), options.pgPort(), options.pgUser(),
                options.pgPassword(), options.pgDatabase());
    }

    /** A server started in {@code workDir/postgres} on a free loopback port; its stop is registered with children. */
    static LocalPostgres start(Options options, Path workDir, ChildProcesses children) throws IOException {
        PostgresInstallation installation = binaries(options.projectRoot(), Optional.ofNullable(System.getenv("PG_BIN")),
                DEBIAN_15);
        return start(installation, SETTINGS, options.pgDatabase(), workDir, children);
    }

    /**
     * The server of {@code installation} started by the testing module's {@link PostgresCluster} in
     * {@code workDir/postgres} (data directory, {@code server.log} and Unix socket there) on a free port of 127.0.0.1,
     * with exactly {@code settings} (postgresql.conf syntax) and {@code database} created. Its {@code pg_ctl stop -m
     * fast} is registered with {@code children}; the files stay for the caller, which deletes its run folder.
     */
    public static LocalPostgres start(PostgresInstallation installation, Map<String, String> settings, String database,
                                      Path workDir, ChildProcesses children) throws IOException {
        if ("root".equals(System.getProperty("user.name"))) {
            // The server's OS user must be able to reach its directory inside the run folder.
            Files.setPosixFilePermissions(workDir, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
        Map<String, String> all = new LinkedHashMap<>(settings);
        all.put("listen_addresses", "'" + PostgresCluster.HOST + "'");
        PostgresCluster cluster = PostgresCluster.start(
                new PostgresCluster.Setup(installation, workDir.resolve("postgres"), all, false));
        children.onStop(() -> {
            // Ctrl-C in a terminal signals the whole foreground process group: the server may be stopping already.
            if (!Files.exists(cluster.dataDirectory().resolve("postmaster.pid"))) {
                return;
            }
            long started = System.nanoTime();
            cluster.stop("fast", 15);
            System.out.printf("stopped PostgreSQL in %.1f s%n", (System.nanoTime() - started) / 1e9);
        });
        LocalPostgres server = new LocalPostgres(PostgresCluster.HOST, cluster.port(), PostgresCluster.SUPERUSER,
                Optional.empty(), database);
        try (Connection connection = server.connect("postgres"); Statement statement = connection.createStatement()) {
            statement.execute("CREATE DATABASE " + database);
        } catch (SQLException e) {
            throw new IllegalStateException("creating database " + database + " failed: " + e.getMessage(), e);
        }
        return server;
    }

    /** {@code name, value, name, value, ...} as an ordered map. */
    public static Map<String, String> settings(String... namesAndValues) {
        Map<String, String> settings = new LinkedHashMap<>();
        for (int i = 0; i < namesAndValues.length; i += 2) {
            settings.put(namesAndValues[i], namesAndValues[i + 1]);
        }
        return settings;
    }

    /** Runs {@code config/postgres-init.sql} unless its publication exists already. */
    void initialize(Path initSql) throws IOException, SQLException {
        try (Connection connection = connect(database); Statement statement = connection.createStatement()) {
            var rows = statement.executeQuery("SELECT 1 FROM pg_publication WHERE pubname = 'shop_publication'");
            if (!rows.next()) {
                statement.execute(Files.readString(initSql, StandardCharsets.UTF_8));
            }
        }
    }

    public Connection connect(String db) throws SQLException {
        Properties props = new Properties();
        props.put("user", user);
        password.ifPresent(p -> props.put("password", p));
        return DriverManager.getConnection("jdbc:postgresql://" + host + ":" + port + "/" + db, props);
    }

    public Connection connect() throws SQLException {
        return connect(database);
    }

    /**
     * $PG_BIN, else Debian's PostgreSQL 15, else the newest server whose bundle the build copied into
     * {@code testing/target/postgres-bundles} (every build of the testing module copies them, {@code package
     * -DskipTests} included), unpacked once per machine by the testing module outside the clone, so that the OS user
     * {@code postgres} can run it wherever the clone is.
     */
    static PostgresInstallation binaries(Path projectRoot, Optional<String> pgBin, Path debian15) {
        if (pgBin.isPresent() && !pgBin.get().isBlank()) {
            return PostgresInstallation.inDirectory(Path.of(pgBin.get()));
        }
        if (Files.isExecutable(debian15.resolve("initdb"))) {
            return PostgresInstallation.inDirectory(debian15);
        }
        Path bundles = projectRoot.resolve("testing/target/postgres-bundles");
        return PostgresInstallation.newestBundled(bundles).orElseThrow(() -> new IllegalStateException(
                "no PostgreSQL binaries found: looked at $PG_BIN, " + debian15 + " and the bundles in " + bundles
                        + ". Install PostgreSQL (apt-get install postgresql-15), set PG_BIN to a directory holding "
                        + "initdb and pg_ctl, build once (mvn -B package -DskipTests copies the bundles), or point "
                        + "PGHOST/PGPORT/PGUSER at a running server with wal_level=logical"));
    }
}
