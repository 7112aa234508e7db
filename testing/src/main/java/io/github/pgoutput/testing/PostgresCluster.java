package io.github.pgoutput.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * A throwaway PostgreSQL server for tests: {@code initdb} into a fresh temporary directory, a free loopback port,
 * logical replication settings, trust authentication for the superuser {@code postgres}. {@link #close()} stops it
 * and deletes its data directory.
 *
 * <p>Tests normally get one through {@link PostgresTest}; start one directly only when a test needs settings the
 * shared servers must not have (for example {@code wal_level=replica}). {@link #start(Setup)} is the start for the
 * programs that are not tests (the local run, the side-by-side benchmark, {@link ThrowawayPostgres} for the benchmark
 * scripts): their own directory and settings. Not thread-safe.
 */
public final class PostgresCluster implements AutoCloseable {

    public static final String SUPERUSER = "postgres";
    public static final String HOST = "127.0.0.1";

    /** Settings every test server gets; {@link #start(int, Map)} can override each. */
    public static final Map<String, String> DEFAULT_SETTINGS = defaults();

    private final PostgresInstallation installation;
    private final Path baseDirectory;
    private final Path dataDirectory;
    private final Path logFile;
    private final int port;
    private boolean running;

    private PostgresCluster(PostgresInstallation installation, Path baseDirectory, int port) {
        this.installation = installation;
        this.baseDirectory = baseDirectory;
        this.dataDirectory = baseDirectory.resolve("data");
        this.logFile = baseDirectory.resolve("server.log");
        this.port = port;
    }

    /** Starts a server of {@code majorVersion} with {@link #DEFAULT_SETTINGS} overridden by {@code settings}. */
    public static PostgresCluster start(int majorVersion, Map<String, String> settings) {
        Map<String, String> merged = new LinkedHashMap<>(DEFAULT_SETTINGS);
        merged.putAll(settings);
        return start(new Setup(PostgresInstallation.of(majorVersion), null, merged, true));
    }

    /**
     * How {@link #start(Setup)} starts a server.
     *
     * @param installation  the server binaries
     * @param baseDirectory where the data directory ({@code data}), the server log ({@code server.log}) and the Unix
     *                      socket go, created if missing; {@code null}: a fresh temporary directory
     * @param settings      the postgresql.conf settings, exactly these ({@link #DEFAULT_SETTINGS} are not added); the
     *                      port and the socket directory are set here
     * @param throwaway     stop the server and delete its files when the JVM exits; a caller that stops its servers
     *                      in an order of its own (the local run) passes false and calls {@link #stop(String, int)}
     */
    public record Setup(PostgresInstallation installation, Path baseDirectory, Map<String, String> settings,
                        boolean throwaway) {

        public Setup {
            settings = Map.copyOf(settings);
        }
    }

    /**
     * initdb and start as {@code setup} says, on a free loopback port: a start that loses its port to another
     * program between the choice and the bind is tried again, from initdb, on a fresh port.
     */
    public static PostgresCluster start(Setup setup) {
        requireReachable(setup);
        IOException lastFailure = null;
        for (int attempt = 1; attempt <= 3; attempt++) {
            PostgresCluster cluster = null;
            try {
                Path base = setup.baseDirectory() == null
                        ? Files.createTempDirectory("kcpg-pg" + setup.installation().majorVersion() + "-")
                        : Files.createDirectories(setup.baseDirectory());
                OsCommands.giveToServerUser(base);
                cluster = new PostgresCluster(setup.installation(), base, LoopbackPorts.take());
                cluster.initdb(setup.settings());
                cluster.startServer();
                if (setup.throwaway()) {
                    cluster.registerShutdownHook();
                }
                return cluster;
            } catch (IOException e) {
                lastFailure = e;
                if (cluster != null) {
                    cluster.deleteFiles();
                }
                if (!String.valueOf(e.getMessage()).contains("could not bind")) {
                    break;
                }
            }
        }
        throw new IllegalStateException("PostgreSQL " + setup.installation().majorVersion() + " did not start: "
                + lastFailure.getMessage(), lastFailure);
    }

    /**
     * Checks, before initdb fails with a bare "Permission denied", that the server's OS user can run the binaries and
     * reach the directory the server's files go to: under root that user is {@code postgres}, which cannot pass a
     * directory only root may enter (a clone in {@code /root}, a {@code mktemp -d} folder).
     */
    private static void requireReachable(Setup setup) {
        Path place = setup.baseDirectory() == null ? Path.of(System.getProperty("java.io.tmpdir"))
                : setup.baseDirectory().toAbsolutePath();
        while (!Files.exists(place) && place.getParent() != null) {
            place = place.getParent();
        }
        try {
            OsCommands.requireReachableByServerUser(setup.installation().executable("postgres"),
                    "use binaries it can reach (PG_BIN, or -Dpg.install.dir=DIR for the unpacked bundles)");
            OsCommands.requireReachableByServerUser(place, setup.baseDirectory() == null
                    ? "choose a temporary directory it can reach (-Djava.io.tmpdir=DIR)"
                    : "choose a directory for the server it can reach");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot check that the OS user " + OsCommands.SERVER_OS_USER
                    + " can reach the PostgreSQL binaries and " + place, e);
        }
    }

    /**
     * Starts a hot standby of this running server, streaming from it on the physical slot {@code physicalSlot}
     * (created here, with its WAL reserved before the base backup starts, unless it exists): a base backup through
     * {@link BaseBackup}, {@code standby.signal}, {@code primary_conninfo} (with {@code dbname}, which slot
     * synchronisation needs), {@code hot_standby_feedback=on} and, on PostgreSQL 17+, {@code sync_replication_slots=on}
     * so failover slots are synchronised. The standby settings and {@code settings} go into the copy's
     * {@code postgresql.auto.conf}, read after everything copied from this server. {@link #close()} on the result
     * stops it and deletes its files, as for any server.
     */
    public PostgresCluster startStandby(String physicalSlot, Map<String, String> settings) {
        String slot = physicalSlot.replace("'", "''");
        execute("postgres", "SELECT pg_create_physical_replication_slot('" + slot + "', true) WHERE NOT EXISTS "
                + "(SELECT 1 FROM pg_replication_slots WHERE slot_name = '" + slot + "')");
        IOException lastFailure = null;
        for (int attempt = 1; attempt <= 3; attempt++) {
            PostgresCluster standby = null;
            try {
                Path base = Files.createTempDirectory("kcpg-pg" + majorVersion() + "-standby-");
                OsCommands.giveToServerUser(base);
                standby = new PostgresCluster(installation, base, LoopbackPorts.take());
                standby.registerShutdownHook();
                BaseBackup.take(this, standby.dataDirectory);
                Files.write(standby.dataDirectory.resolve("postgresql.auto.conf"),
                        standby.standbySettings(this, physicalSlot, settings), StandardOpenOption.APPEND);
                Path signal = Files.createFile(standby.dataDirectory.resolve("standby.signal"));
                OsCommands.giveToServerUser(signal);
                standby.startServer();
                return standby;
            } catch (IOException e) {
                lastFailure = e;
                if (standby != null) {
                    standby.close();
                }
                if (!String.valueOf(e.getMessage()).contains("could not bind")) {
                    break;
                }
            }
        }
        throw new IllegalStateException("a standby of " + this + " did not start: " + lastFailure.getMessage(), lastFailure);
    }

    private List<String> standbySettings(PostgresCluster primary, String physicalSlot, Map<String, String> given) {
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("port", Integer.toString(port));
        settings.put("unix_socket_directories", "'" + baseDirectory + "'");
        settings.put("primary_conninfo", "'host=" + HOST + " port=" + primary.port() + " user=" + SUPERUSER
                + " dbname=postgres application_name=" + physicalSlot + "'");
        settings.put("primary_slot_name", "'" + physicalSlot + "'");
        settings.put("hot_standby", "on");
        settings.put("hot_standby_feedback", "on");
        if (majorVersion() >= 17) {
            settings.put("sync_replication_slots", "on");
            // A list copied from the primary would name slots this server does not have once it is promoted.
            settings.put("synchronized_standby_slots", "''");
        }
        settings.putAll(given);
        List<String> lines = new ArrayList<>();
        lines.add("# kafka-connect-pgoutput test standby of " + primary);
        settings.forEach((name, value) -> lines.add(name + " = " + value));
        return lines;
    }

    /** Promotes this standby and waits until it accepts writes ({@code pg_ctl promote -w}). */
    public void promote() {
        try {
            pgCtl(List.of("promote", "-w", "-t", "60"));
        } catch (IOException e) {
            throw new IllegalStateException("pg_ctl promote of " + this + " failed: " + e.getMessage()
                    + "\n--- server log tail ---\n" + logTail(30), e);
        }
    }

    /** Whether this server is a standby ({@code pg_is_in_recovery()}). */
    public boolean inRecovery() {
        return "t".equals(queryValue("postgres", "SELECT pg_is_in_recovery()"));
    }

    /** This primary's current WAL write position ({@code pg_current_wal_lsn()}), as PostgreSQL prints it. */
    public String currentWalLsn() {
        return queryValue("postgres", "SELECT pg_current_wal_lsn()");
    }

    /** Waits until this standby has replayed WAL up to {@code lsn} (as PostgreSQL prints it). */
    public void awaitReplayed(String lsn, java.time.Duration timeout) {
        String literal = "'" + lsn.replace("'", "''") + "'::pg_lsn";
        await(timeout, "replayed WAL up to " + lsn,
                "SELECT coalesce(pg_last_wal_replay_lsn() >= " + literal + ", false)");
    }

    /**
     * Waits until this standby (PostgreSQL 17+) holds the logical slot {@code slot} synchronised from its primary and
     * ready for use after a promotion: {@code synced} and no longer {@code temporary} (a synced slot stays temporary
     * until the primary's slot has moved past where the standby could reserve WAL, and a promotion drops it then).
     */
    public void awaitSyncedSlot(String slot, java.time.Duration timeout) {
        await(timeout, "synchronised the failover slot " + slot,
                "SELECT EXISTS (SELECT 1 FROM pg_replication_slots WHERE slot_name = '" + slot.replace("'", "''")
                        + "' AND synced AND NOT temporary)");
    }

    /** Runs a query on {@code database} that yields exactly one value, as text. */
    public String queryValue(String database, String sql) {
        try (Connection connection = connect(database); Statement statement = connection.createStatement();
             java.sql.ResultSet rows = statement.executeQuery(sql)) {
            if (!rows.next()) {
                throw new IllegalStateException("no row from " + sql + " on " + this);
            }
            return rows.getString(1);
        } catch (SQLException e) {
            throw new IllegalStateException("query failed on " + this + ": " + sql + ": " + e.getMessage(), e);
        }
    }

    private void await(java.time.Duration timeout, String what, String condition) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!"t".equals(queryValue("postgres", condition))) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(this + " has not " + what + " within " + timeout
                        + "\n--- server log tail ---\n" + logTail(30));
            }
            sleep(100);
        }
    }

    public int majorVersion() {
        return installation.majorVersion();
    }

    public PostgresInstallation installation() {
        return installation;
    }

    public String host() {
        return HOST;
    }

    public int port() {
        return port;
    }

    public Path dataDirectory() {
        return dataDirectory;
    }

    /** Where the data directory, the server log and the Unix socket are. */
    public Path baseDirectory() {
        return baseDirectory;
    }

    public String jdbcUrl(String database) {
        return "jdbc:postgresql://" + HOST + ":" + port + "/" + database;
    }

    /** A superuser connection to {@code database}. */
    public Connection connect(String database) throws SQLException {
        Properties properties = new Properties();
        properties.setProperty("user", SUPERUSER);
        return DriverManager.getConnection(jdbcUrl(database), properties);
    }

    /** Runs each statement in its own autocommit transaction as the superuser. */
    public void execute(String database, String... statements) {
        try (Connection connection = connect(database); Statement statement = connection.createStatement()) {
            for (String sql : statements) {
                statement.execute(sql);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("SQL failed on PostgreSQL " + majorVersion() + " database " + database + ": " + e.getMessage(), e);
        }
    }

    /**
     * Changes a server setting with ALTER SYSTEM and reloads the configuration. Close the result to put the
     * setting back (the servers are shared between tests).
     */
    public AutoCloseable withSystemSetting(String name, String value) {
        execute("postgres", "ALTER SYSTEM SET " + name + " = '" + value.replace("'", "''") + "'", "SELECT pg_reload_conf()");
        return () -> execute("postgres", "ALTER SYSTEM RESET " + name, "SELECT pg_reload_conf()");
    }

    /**
     * Copies {@code source} into the data directory as {@code name}, owned by the server's OS user and readable by it
     * only (0600): PostgreSQL refuses a TLS key that others can read. Settings name it relative to the data directory.
     */
    public Path installFile(Path source, String name) {
        try {
            Path target = dataDirectory.resolve(name);
            Files.copy(source, target, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            Files.setPosixFilePermissions(target, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
            OsCommands.giveToServerUser(target);
            return target;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public void createDatabase(String name) {
        execute("postgres", "CREATE DATABASE " + name);
    }

    /** Drops {@code name} with its replication slots, ending every session that uses it. */
    public void dropDatabase(String name) {
        String literal = "'" + name.replace("'", "''") + "'";
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (true) {
            try (Connection connection = connect("postgres"); Statement statement = connection.createStatement()) {
                statement.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = " + literal + " AND pid <> pg_backend_pid()");
                statement.execute("SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots WHERE database = " + literal + " AND NOT active");
                statement.execute("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
                return;
            } catch (SQLException e) {
                // A walsender that was just terminated can hold its slot for a moment (SQLSTATE 55006); try again.
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("cannot drop test database " + name + " on PostgreSQL " + majorVersion() + ": " + e.getMessage(), e);
                }
                sleep(100);
            }
        }
    }

    /** Restarts the server; {@code mode} is {@code pg_ctl}'s shutdown mode ({@code fast}, {@code immediate}). */
    public void restart(String mode) {
        stop(mode);
        try {
            startServer();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public void stop(String mode) {
        stop(mode, 60);
    }

    /** Stops the server with {@code pg_ctl}'s shutdown {@code mode}, waiting at most {@code timeoutSeconds}. */
    public void stop(String mode, int timeoutSeconds) {
        if (!running) {
            return;
        }
        try {
            pgCtl(List.of("stop", "-m", mode, "-t", Integer.toString(timeoutSeconds)));
            running = false;
        } catch (IOException e) {
            throw new IllegalStateException("pg_ctl stop -m " + mode + " failed: " + e.getMessage() + "\n--- server log tail ---\n" + logTail(30), e);
        }
    }

    public void startAgain() {
        try {
            startServer();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public boolean isRunning() {
        return running;
    }

    public String logTail(int lines) {
        return TestFiles.tail(logFile, lines);
    }

    /** Stops the server at once and deletes its files. */
    @Override
    public void close() {
        try {
            if (running) {
                pgCtl(List.of("stop", "-m", "immediate", "-t", "60"));
                running = false;
            }
        } catch (IOException e) {
            // Deleting the files below makes a hung postmaster exit too; report nothing more useful than that.
        } finally {
            deleteFiles();
        }
    }

    @Override
    public String toString() {
        return "PostgreSQL " + majorVersion() + " on port " + port;
    }

    private void initdb(Map<String, String> given) throws IOException {
        OsCommands.run(OsCommands.asServerUser(List.of(installation.executable("initdb").toString(),
                "-D", dataDirectory.toString(), "-U", SUPERUSER, "--auth=trust", "-E", "UTF8", "--locale=C", "--no-sync")), baseDirectory, 120);
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("port", Integer.toString(port));
        settings.put("unix_socket_directories", "'" + baseDirectory + "'");
        settings.putAll(given);
        List<String> lines = new ArrayList<>();
        lines.add("");
        lines.add("# kafka-connect-pgoutput test server");
        settings.forEach((name, value) -> lines.add(name + " = " + value));
        Files.write(dataDirectory.resolve("postgresql.conf"), lines, StandardOpenOption.APPEND);
    }

    private void startServer() throws IOException {
        try {
            pgCtl(List.of("start", "-w", "-t", "60", "-l", logFile.toString()));
            running = true;
        } catch (IOException e) {
            throw new IOException(e.getMessage() + "\n--- server log tail (" + logFile + ") ---\n" + logTail(30), e);
        }
    }

    private void pgCtl(List<String> arguments) throws IOException {
        List<String> command = new ArrayList<>(List.of(installation.executable("pg_ctl").toString(), "-D", dataDirectory.toString()));
        command.addAll(arguments);
        OsCommands.run(OsCommands.asServerUser(command), baseDirectory, 120);
    }

    private void registerShutdownHook() {
        // Stops the server if the JVM exits without closing the extension store (e.g. a killed fork).
        Runtime.getRuntime().addShutdownHook(new Thread(this::close, "stop-" + this));
    }

    private void deleteFiles() {
        try {
            TestFiles.deleteRecursively(baseDirectory);
        } catch (IOException e) {
            // Temporary files only; the OS cleans them eventually.
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static Map<String, String> defaults() {
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("listen_addresses", "'" + HOST + "'");
        settings.put("wal_level", "logical");
        settings.put("max_prepared_transactions", "10");
        settings.put("max_wal_senders", "20");
        settings.put("max_replication_slots", "20");
        settings.put("max_connections", "100");
        settings.put("fsync", "off");
        settings.put("shared_buffers", "64MB");
        settings.put("log_min_messages", "warning");
        return Map.copyOf(settings);
    }
}
