package io.github.pgoutput.localrun;

import java.io.IOException;
import java.io.PrintStream;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.pgoutput.testing.LoopbackPorts;
import io.github.pgoutput.testing.kafka.ChildProcesses;
import io.github.pgoutput.testing.kafka.KafkaProcesses;

/**
 * {@code bin/pgoutput-local}: PostgreSQL (given or started), a KRaft broker, a Connect worker with the plugin on its
 * {@code plugin.path}, the connector registered from {@code config/pgoutput-source.json}, optionally the demo workload,
 * and the live view until Ctrl-C or {@code --duration}. Whatever it started is stopped by the shutdown hook, which
 * SIGINT, SIGTERM and the end of {@code --duration} all run; the run's folder is deleted then.
 */
public final class LocalRun {

    /** Set by the shutdown hook: the view stops redrawing while the services go down. */
    private static volatile boolean stopping;
    /** Set once the view (a Kafka and a PostgreSQL client) is open; the latch is counted down when it is closed. */
    private static volatile boolean viewOpened;
    private static final CountDownLatch viewClosed = new CountDownLatch(1);

    private LocalRun() {
    }

    public static void main(String[] args) throws Exception {
        Path root = Path.of(System.getProperty("pgoutput.root")).toAbsolutePath();
        Options options;
        try {
            options = Options.parse(root, args, System.getenv(), System.console() != null);
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.exit(2);
            return;
        }
        PrintStream out = System.out;
        Path workDir = Files.createTempDirectory("pgoutput-local-");
        ChildProcesses children = new ChildProcesses();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            long started = System.nanoTime();
            stopping = true;
            // In dependency order: the view's clients first, then (ChildProcesses, last started first) the Connect
            // worker while its broker still runs, the broker, PostgreSQL. Every step is bounded.
            out.println();
            out.println("stopping: everything this run started (run folder " + workDir + ")");
            out.flush();
            try {
                if (viewOpened && viewClosed.await(5, TimeUnit.SECONDS)) {
                    out.printf("closed the view in %.1f s%n", (System.nanoTime() - started) / 1e9);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            children.stopAll();
            long deleting = System.nanoTime();
            delete(workDir);
            out.printf("deleted the run folder in %.1f s%n", (System.nanoTime() - deleting) / 1e9);
            out.printf("stopped in %.1f s%n", (System.nanoTime() - started) / 1e9);
            out.flush();
        }, "pgoutput-local-stop"));
        try {
            run(options, root, workDir, children, out);
        } catch (Exception | Error e) {
            viewClosed.countDown();
            if (!stopping) {
                // While stopping, a start that fails because its process was stopped is no failure to report.
                System.err.println("pgoutput-local failed: " + e.getMessage());
                keepLogs(workDir);
            }
            System.exit(1);
        }
        System.exit(0);
    }

    private static void run(Options options, Path root, Path workDir, ChildProcesses children, PrintStream out)
            throws Exception {
        requireFree(options.kafkaPort(), "--kafka-port");
        requireFree(options.controllerPort(), "--kafka-port (its controller uses the next port)");
        requireFree(options.connectPort(), "--connect-port");
        String kafkaClassPath = Files.readString(Path.of(System.getProperty("pgoutput.kafka.classpath.file"))).strip();

        LocalPostgres postgres;
        if (options.pgHost().isPresent()) {
            postgres = LocalPostgres.given(options);
            out.println("postgres: using " + postgres.user + "@" + postgres.host + ":" + postgres.port + "/"
                    + postgres.database);
        } else {
            out.println("postgres: starting a throwaway server in " + workDir.resolve("postgres"));
            postgres = LocalPostgres.start(options, workDir, children);
            out.println("postgres: 127.0.0.1:" + postgres.port + " database " + postgres.database
                    + " (user postgres, no password)");
        }
        postgres.initialize(root.resolve("config/postgres-init.sql"));

        int kafkaPort = startBroker(options, kafkaClassPath, workDir, children, out);
        String bootstrap = "127.0.0.1:" + kafkaPort;
        int connectPort = startWorker(options, kafkaClassPath, bootstrap, root, workDir, children, out);
        String rest = "http://127.0.0.1:" + connectPort;

        Path spillDir = workDir.resolve("spill");
        ObjectNode config = ConnectorRegistration.config(root.resolve("config/pgoutput-source.json"), postgres,
                spillDir);
        if (options.demo()) {
            // The demo's large transaction is a few hundred kB: with the default 16 MB heap buffer it would never
            // reach the disk, and the view's spill figure would stay 0.
            config.put("spill.memory.buffer.bytes", "65536");
        }
        ConnectorRegistration.register(rest, config);
        String slot = config.path("slot.name").asText();
        awaitSlotActive(postgres, slot);
        out.println("connector: '" + ConnectorRegistration.NAME + "' RUNNING, slot " + slot + " active");

        String psql = "psql -h " + postgres.host + " -p " + postgres.port + " -U " + postgres.user + " " + postgres.database;
        out.println("query it:  " + psql);
        out.println("topics:    " + config.path("topic.prefix").asText() + ".* on " + bootstrap
                + " (README, Quick start: a console consumer command); status: curl -s " + rest + "/connectors/"
                + ConnectorRegistration.NAME + "/status");
        List<String> endpoints = List.of(
                "PostgreSQL   " + psql,
                "Kafka " + bootstrap + "   Connect REST " + rest,
                "logs " + workDir + "/{broker,worker}.log");
        try (LiveView view = new LiveView(bootstrap, config.path("topic.prefix").asText(), postgres, slot, spillDir,
                options.plain(), out, endpoints)) {
            viewOpened = true;
            if (options.demo()) {
                Thread demo = new Thread(() -> {
                    try {
                        new DemoWorkload(postgres, view::note).run();
                    } catch (Exception e) {
                        view.note("demo: FAILED: " + e.getMessage());
                    }
                }, "pgoutput-local-demo");
                demo.setDaemon(true);
                demo.start();
            }
            long end = options.durationSeconds().map(s -> System.nanoTime() + s * 1_000_000_000L)
                    .orElse(Long.MAX_VALUE);
            while (!stopping && System.nanoTime() < end) {
                view.refresh(() -> !stopping);
            }
        } finally {
            viewClosed.countDown();
        }
    }

    /** How often a start on ports chosen here is tried when another program takes one of them before it binds. */
    private static final int PORT_ATTEMPTS = 3;

    /**
     * The broker on the ports given, or (--kafka-port 0) on free ones ({@link LoopbackPorts}, below the range from which
     * the kernel picks ports itself); should another program still take one before the broker binds it, a start that
     * fails on a port in use is tried again on new ones.
     */
    private static int startBroker(Options options, String classPath, Path workDir, ChildProcesses children,
                                   PrintStream out) throws IOException, InterruptedException {
        boolean choose = options.kafkaPort() == 0;
        for (int attempt = 1; ; attempt++) {
            int[] ports = choose ? LoopbackPorts.take(2) : new int[] {options.kafkaPort(), options.controllerPort()};
            out.println("kafka: starting a KRaft broker on 127.0.0.1:" + ports[0] + " (controller on 127.0.0.1:"
                    + ports[1] + ")");
            try {
                KafkaProcesses.startBroker(classPath, ports[0], ports[1], Map.of(), workDir, children);
                return ports[0];
            } catch (KafkaProcesses.StartFailure e) {
                if (!choose || !e.portInUse() || attempt == PORT_ATTEMPTS) {
                    throw e;
                }
                out.println("kafka: " + e.getMessage());
                out.println("kafka: another program took a port first; trying again on other ports");
                // A broker that never ran: start the next one on a freshly formatted log directory.
                delete(workDir.resolve("kafka-logs"), true);
            }
        }
    }

    /** The Connect worker on the REST port given, or (--connect-port 0) on a free one, tried again as the broker. */
    private static int startWorker(Options options, String classPath, String bootstrap, Path root, Path workDir,
                                   ChildProcesses children, PrintStream out) throws IOException, InterruptedException {
        boolean choose = options.connectPort() == 0;
        for (int attempt = 1; ; attempt++) {
            int port = choose ? LoopbackPorts.take() : options.connectPort();
            out.println("connect: starting a worker, REST on http://127.0.0.1:" + port);
            try {
                KafkaProcesses.startWorker(classPath, bootstrap, port, root.resolve("packaging/target/plugin"), Map.of(),
                        workDir, children);
                return port;
            } catch (KafkaProcesses.StartFailure e) {
                if (!choose || !e.portInUse() || attempt == PORT_ATTEMPTS) {
                    throw e;
                }
                out.println("connect: " + e.getMessage());
                out.println("connect: another program took the port first; trying again on another one");
            }
        }
    }

    private static void awaitSlotActive(LocalPostgres postgres, String slot) throws SQLException, InterruptedException {
        long deadline = System.nanoTime() + 120_000_000_000L;
        try (Connection connection = postgres.connect(); Statement statement = connection.createStatement()) {
            while (true) {
                try (ResultSet rows = statement.executeQuery(
                        "SELECT active FROM pg_replication_slots WHERE slot_name = '" + slot + "'")) {
                    if (rows.next() && rows.getBoolean(1)) {
                        return;
                    }
                }
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("slot " + slot + " not active 120 s after the task started; "
                            + "see worker.log");
                }
                Thread.sleep(500);
            }
        }
    }

    /** Port 0 is chosen at start. */
    private static void requireFree(int port, String flag) {
        if (port == 0) {
            return;
        }
        try (Socket ignored = new Socket("127.0.0.1", port)) {
            throw new IllegalStateException("port " + port + " on 127.0.0.1 is in use by another program; "
                    + "choose another with " + flag);
        } catch (IOException free) {
            // nothing listens there: ours to use
        }
    }

    /**
     * Copies the logs of a failed run (broker, worker, PostgreSQL) out of the run folder, which the shutdown hook
     * deletes, so that the cause of the failure is still there to read.
     */
    private static void keepLogs(Path workDir) {
        try (Stream<Path> files = Files.walk(workDir)) {
            List<Path> logs = files.filter(f -> f.getFileName().toString().endsWith(".log") && Files.isRegularFile(f)
                    && !f.startsWith(workDir.resolve("kafka-logs"))).toList();
            if (logs.isEmpty()) {
                return;
            }
            Path kept = Files.createTempDirectory("pgoutput-local-failed-");
            for (Path log : logs) {
                Files.copy(log, kept.resolve(workDir.relativize(log).toString().replace('/', '-')));
            }
            System.err.println("pgoutput-local: the logs of this run are kept in " + kept);
        } catch (IOException | RuntimeException e) {
            System.err.println("could not keep the logs of " + workDir + ": " + e);
        }
    }

    private static void delete(Path dir) {
        delete(dir, System.getenv("PGOUTPUT_LOCAL_KEEP") == null);
    }

    private static void delete(Path dir, boolean really) {
        if (!really || !Files.exists(dir)) {
            return;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        } catch (IOException | RuntimeException e) {
            System.err.println("could not delete " + dir + ": " + e);
        }
    }
}
