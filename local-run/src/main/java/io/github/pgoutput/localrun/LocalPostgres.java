package io.github.pgoutput.localrun;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.stream.Stream;

import io.github.pgoutput.testing.PostgresInstallation;

/**
 * The PostgreSQL server of the run: either the one given ({@code PG*} variables or flags), or a throwaway one started
 * here with the settings the connector and the demo need. PostgreSQL refuses to run as root, so as root every server
 * command runs as the OS user {@code postgres}. Public for the side-by-side benchmark, which starts its server here too.
 */
public final class LocalPostgres {

    /** Server settings of a started server: logical decoding, two-phase, and streaming of transactions over 64 kB. */
    private static final List<String> SETTINGS = List.of("wal_level=logical", "max_replication_slots=10",
            "max_wal_senders=10", "max_prepared_transactions=10", "logical_decoding_work_mem=64kB", "fsync=off");

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

    /** initdb + pg_ctl start in {@code workDir/postgres} on a free loopback port; registers pg_ctl stop. */
    static LocalPostgres start(Options options, Path workDir, ChildProcesses children, int port)
            throws IOException, InterruptedException {
        return start(binaries(options.projectRoot()), SETTINGS, options.pgDatabase(), workDir, children, port);
    }

    /**
     * initdb + pg_ctl start of the server in {@code bin} in {@code workDir/postgres} on {@code port} (127.0.0.1), with
     * {@code settings} ({@code name=value}, passed as {@code -c}), and {@code database} created; registers pg_ctl stop.
     */
    public static LocalPostgres start(Path bin, List<String> settings, String database, Path workDir,
                                      ChildProcesses children, int port) throws IOException, InterruptedException {
        Path dir = Files.createDirectories(workDir.resolve("postgres"));
        boolean root = "root".equals(System.getProperty("user.name"));
        if (root) {
            // The server's OS user must be able to reach its directory.
            run(List.of("chown", "postgres", dir.toString()), false);
            run(List.of("chmod", "755", workDir.toString()), false);
        }
        Path data = dir.resolve("data");
        run(List.of(bin.resolve("initdb").toString(), "-D", data.toString(), "-U", "postgres", "-A", "trust",
                "-E", "UTF8", "--locale=C", "--no-sync"), root);
        List<String> serverOptions = new ArrayList<>(List.of("-p", String.valueOf(port), "-k", dir.toString(),
                "-c", "listen_addresses=127.0.0.1"));
        settings.forEach(s -> serverOptions.addAll(List.of("-c", s)));
        children.onStop(() -> {
            // Ctrl-C in a terminal signals the whole foreground process group: the server may be stopping already.
            if (!Files.exists(data.resolve("postmaster.pid"))) {
                return;
            }
            try {
                long started = System.nanoTime();
                run(List.of(bin.resolve("pg_ctl").toString(), "-D", data.toString(), "-m", "fast", "-w", "-t", "15", "stop"),
                        root);
                System.out.printf("stopped PostgreSQL in %.1f s%n", (System.nanoTime() - started) / 1e9);
            } catch (IOException | InterruptedException e) {
                throw new IllegalStateException("pg_ctl stop failed: " + e.getMessage(), e);
            }
        });
        run(List.of(bin.resolve("pg_ctl").toString(), "-D", data.toString(), "-l", dir.resolve("server.log").toString(),
                "-w", "-o", String.join(" ", serverOptions), "start"), root);
        LocalPostgres server = new LocalPostgres("127.0.0.1", port, "postgres", Optional.empty(), database);
        try (Connection connection = server.connect("postgres"); Statement statement = connection.createStatement()) {
            statement.execute("CREATE DATABASE " + database);
        } catch (SQLException e) {
            throw new IllegalStateException("creating database " + database + " failed: " + e.getMessage(), e);
        }
        return server;
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
     * $PG_BIN, else Debian's PostgreSQL 15, else the newest server in {@code testing/target/postgres} (unpacked there
     * by the tests, or now, by the testing module, from the bundles that every build of it, {@code package -DskipTests}
     * included, copies into {@code testing/target/postgres-bundles}).
     */
    private static Path binaries(Path projectRoot) throws IOException {
        String fromEnv = System.getenv("PG_BIN");
        if (fromEnv != null && !fromEnv.isBlank()) {
            return Path.of(fromEnv);
        }
        Path debian = Path.of("/usr/lib/postgresql/15/bin");
        if (Files.isExecutable(debian.resolve("initdb"))) {
            return debian;
        }
        Path unpacked = projectRoot.resolve("testing/target/postgres");
        Path bundles = projectRoot.resolve("testing/target/postgres-bundles");
        if (!Files.isDirectory(unpacked) && Files.isDirectory(bundles)) {
            Optional<Path> fromBundle = unpackNewestBundle(unpacked, bundles);
            if (fromBundle.isPresent()) {
                return fromBundle.get();
            }
        }
        if (Files.isDirectory(unpacked)) {
            try (Stream<Path> versions = Files.list(unpacked)) {
                Optional<Path> newest = versions.map(v -> v.resolve("bin"))
                        .filter(b -> Files.isExecutable(b.resolve("initdb")))
                        .max(Comparator.comparing(b -> Integer.parseInt(b.getParent().getFileName().toString())));
                if (newest.isPresent()) {
                    return newest.get();
                }
            }
        }
        throw new IllegalStateException("no PostgreSQL binaries found: looked at $PG_BIN, " + debian + ", "
                + unpacked + "/<major>/bin and the bundles in " + bundles + ". Install PostgreSQL (apt-get install postgresql-15), set PG_BIN to a "
                + "directory holding initdb and pg_ctl, or point PGHOST/PGPORT/PGUSER at a running server "
                + "with wal_level=logical");
    }

    /** The newest major whose bundle the build copied, unpacked by the testing module (the one place that does). */
    private static Optional<Path> unpackNewestBundle(Path installDir, Path bundles) {
        System.setProperty("pg.install.dir", installDir.toString());
        System.setProperty("pg.bundles.dir", bundles.toString());
        for (int major : List.of(18, 17, 16)) {
            try {
                System.out.println("postgres: unpacking PostgreSQL " + major + " from " + bundles + " (first run only)");
                return Optional.of(PostgresInstallation.of(major).binDirectory());
            } catch (IllegalStateException noBundle) {
                System.out.println("postgres: " + noBundle.getMessage());
            }
        }
        return Optional.empty();
    }

    private static void run(List<String> command, boolean asPostgres) throws IOException, InterruptedException {
        List<String> full = new ArrayList<>();
        if (asPostgres) {
            full.addAll(List.of("runuser", "-u", "postgres", "--"));
        }
        full.addAll(command);
        Process process = new ProcessBuilder(full).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (process.waitFor() != 0) {
            throw new IllegalStateException(String.join(" ", full) + " failed (exit " + process.exitValue() + "):\n"
                    + output);
        }
    }
}
