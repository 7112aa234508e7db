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
            say(System.err, e.getMessage());
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
            say(out, "stopping everything this run started");
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
                say(System.err, "pgoutput-local failed: " + e.getMessage());
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

        say(out, "run folder: " + workDir + " (deleted when the run stops)");
        LocalPostgres postgres;
        if (options.pgHost().isPresent()) {
            postgres = LocalPostgres.given(options);
            say(out, "postgres: using " + postgres.user + "@" + postgres.host + ":" + postgres.port + "/"
                    + postgres.database);
        } else {
            say(out, "postgres: starting a throwaway server in the run folder");
            postgres = LocalPostgres.start(options, workDir, children);
            say(out, "postgres: 127.0.0.1:" + postgres.port + ", database " + postgres.database
                    + ", user postgres, no password");
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
        String topicPrefix = config.path("topic.prefix").asText();
        say(out, "connector: '" + ConnectorRegistration.NAME + "' RUNNING, slot " + slot + " active");
        say(out, "topics: " + topicPrefix + ".<schema>.<table> on " + bootstrap);
        say(out, "logs: " + workDir + "/{broker,worker}.log");

        TryIt tryIt = tryIt(root, postgres, bootstrap, topicPrefix, rest);
        tryIt.startLines(TerminalLines.WIDTH).forEach(out::println);
        try (LiveView view = new LiveView(bootstrap, topicPrefix, postgres, slot, spillDir, options.plain(), out,
                tryIt::viewLines)) {
            viewOpened = true;
            if (options.demo()) {
                Thread demo = new Thread(() -> {
                    try {
                        // The view indents its notes by two columns.
                        new DemoWorkload(postgres, note -> TerminalLines.prose(note, TerminalLines.WIDTH - 2)
                                .forEach(view::note)).run();
                        tryIt.afterDemo(TerminalLines.WIDTH - 2).forEach(view::note);
                    } catch (Exception e) {
                        TerminalLines.prose("demo: FAILED: " + e.getMessage(), TerminalLines.WIDTH - 2)
                                .forEach(view::note);
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
            say(out, "kafka: starting a KRaft broker on 127.0.0.1:" + ports[0] + ", controller on 127.0.0.1:"
                    + ports[1]);
            try {
                KafkaProcesses.startBroker(classPath, ports[0], ports[1], Map.of(), workDir, children);
                return ports[0];
            } catch (KafkaProcesses.StartFailure e) {
                if (!choose || !e.portInUse() || attempt == PORT_ATTEMPTS) {
                    throw e;
                }
                say(out, "kafka: " + e.getMessage());
                say(out, "kafka: another program took a port first; trying again on other ports");
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
            say(out, "connect: starting a worker, REST on http://127.0.0.1:" + port);
            try {
                KafkaProcesses.startWorker(classPath, bootstrap, port, root.resolve("packaging/target/plugin"), Map.of(),
                        workDir, children);
                return port;
            } catch (KafkaProcesses.StartFailure e) {
                if (!choose || !e.portInUse() || attempt == PORT_ATTEMPTS) {
                    throw e;
                }
                say(out, "connect: " + e.getMessage());
                say(out, "connect: another program took the port first; trying again on another one");
            }
        }
    }

    /**
     * The commands to try, for the demo's orders topic; a consumer command that starts with a {@code cd} to the clone
     * when the run was started elsewhere, so that each runs as printed from where the user is.
     */
    private static TryIt tryIt(Path root, LocalPostgres postgres, String bootstrap, String topicPrefix, String rest) {
        boolean inClone = Path.of("").toAbsolutePath().normalize().equals(root.normalize());
        return TryIt.of(postgres, bootstrap, topicPrefix + ".public.orders", rest, ConnectorRegistration.NAME,
                root.toString(), !onPath("psql"), inClone);
    }

    private static boolean onPath(String program) {
        String path = System.getenv("PATH");
        return path != null && Stream.of(path.split(java.io.File.pathSeparator)).filter(d -> !d.isEmpty())
                .anyMatch(d -> Files.isExecutable(Path.of(d, program)));
    }

    /** Prints {@code text} in lines of at most {@link TerminalLines#WIDTH} columns, broken between words. */
    private static void say(PrintStream stream, String text) {
        TerminalLines.prose(text, TerminalLines.WIDTH).forEach(stream::println);
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
            say(System.err, "pgoutput-local: the logs of this run are kept in " + kept);
        } catch (IOException | RuntimeException e) {
            say(System.err, "could not keep the logs of " + workDir + ": " + e);
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
            say(System.err, "could not delete " + dir + ": " + e);
        }
    }
}
