package io.github.pgoutput.soak;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.pgoutput.testing.kafka.ChildProcesses;
import io.github.pgoutput.testing.kafka.ConnectRest;
import io.github.pgoutput.testing.kafka.KafkaProcesses;
import io.github.pgoutput.testing.PostgresCluster;

/**
 * Everything the soak runs against, and the handles its faults pull: PostgreSQL 17 (two-phase on, large transactions
 * streamed past 64 kB), a KRaft broker and a distributed Connect worker in their own JVMs, and the connector in
 * {@code stage} mode with its disk spill in a directory of this run. Broker and worker restart on their old files, as
 * after a crash. Methods that restart something are called from the fault thread only; the others are thread-safe.
 */
final class SoakServices implements AutoCloseable {

    static final String DATABASE = "soak";
    static final String CONNECTOR = "soak";
    static final String SLOT = "soak_slot";
    static final String TOPIC_PREFIX = "soak";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Path root;
    private final Path workDir;
    private final ScenarioProcesses processes;
    private final ChildProcesses children = new ChildProcesses();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private PostgresCluster postgres;
    private volatile Process broker;
    private volatile Process worker;
    /** Restarts after a kill run here, so the next fault need not wait for a JVM to boot. */
    private final ExecutorService restarts = Executors.newFixedThreadPool(2, runnable -> {
        Thread thread = new Thread(runnable, "soak-restart");
        thread.setDaemon(true);
        return thread;
    });
    private volatile Future<?> brokerRestart = CompletableFuture.completedFuture(null);
    private volatile Future<?> workerRestart = CompletableFuture.completedFuture(null);

    SoakServices(Path projectRoot) throws IOException {
        this.root = projectRoot;
        this.workDir = Files.createTempDirectory("pgoutput-soak-");
        this.processes = ScenarioProcesses.of(projectRoot);
    }

    Path workDir() {
        return workDir;
    }

    Path spillDirectory() {
        return workDir.resolve("spill");
    }

    String bootstrap() {
        return processes.bootstrap();
    }

    /** Starts PostgreSQL with the soak's tables and publication, the broker, the worker, and the connector. */
    void start(Schema schema) throws Exception {
        postgres = PostgresCluster.start(17, Map.of(
                "max_prepared_transactions", "20",
                "logical_decoding_work_mem", "'64kB'",
                "max_connections", "50",
                "log_min_messages", "warning"));
        postgres.createDatabase(DATABASE);
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            schema.create(statement);
        }
        Files.createDirectories(spillDirectory());
        startBroker();
        startWorker();
        ObjectNode config = JSON.createObjectNode();
        config.put("connector.class", "io.github.pgoutput.connect.PgOutputSourceConnector");
        config.put("tasks.max", "1");
        config.put("database.hostname", postgres.host());
        config.put("database.port", Integer.toString(postgres.port()));
        config.put("database.user", PostgresCluster.SUPERUSER);
        config.put("database.dbname", DATABASE);
        config.put("slot.name", SLOT);
        config.put("publication.name", Schema.PUBLICATION);
        config.put("publication.autocreate.mode", "disabled");
        config.put("topic.prefix", TOPIC_PREFIX);
        config.put("prepared.transaction.mode", "stage");
        config.put("provide.transaction.metadata", "true");
        config.put("snapshot.mode", "initial");
        config.put("spill.backend", "disk");
        config.put("spill.directory", spillDirectory().toString());
        // The workload's large transactions are 100-300 kB: with the default 16 MB buffer they would never reach disk.
        config.put("spill.memory.buffer.bytes", "65536");
        config.put("heartbeat.interval.ms", "5000");
        config.put("key.converter", "org.apache.kafka.connect.json.JsonConverter");
        config.put("key.converter.schemas.enable", "false");
        config.put("value.converter", "org.apache.kafka.connect.json.JsonConverter");
        config.put("value.converter.schemas.enable", "false");
        config.put("topic.creation.default.replication.factor", "1");
        config.put("topic.creation.default.partitions", "1");
        new ConnectRest(rest()).register(CONNECTOR, config);
        awaitSlotActive();
    }

    /** The workload starts only once the slot streams: what commits before is in the snapshot, not in the stream. */
    private void awaitSlotActive() throws SQLException, InterruptedException {
        long deadline = System.nanoTime() + 180_000_000_000L;
        while (true) {
            if (slotActive()) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("slot " + SLOT + " not active 180 s after the connector started; see "
                        + workDir.resolve("worker.log"));
            }
            Thread.sleep(500);
        }
    }

    void startBroker() throws IOException, InterruptedException {
        // One partition for the consumer offsets topic and 64 MB segments: less log to recover after each kill -9.
        broker = KafkaProcesses.startBroker(processes.classPath(), processes.brokerPort(), processes.controllerPort(),
                Map.of("offsets.topic.num.partitions", "1", "log.segment.bytes", "67108864"), workDir, children);
    }

    void startWorker() throws IOException, InterruptedException {
        // One worker that comes back with a new member id: without a short delay its lost assignment would wait for
        // the old member for the default 5 minutes. All plugins have ServiceLoader manifests; scanning the class path
        // by reflection instead would add some 20 s to every restart here.
        worker = KafkaProcesses.startWorker(processes.classPath(), bootstrap(), processes.restPort(), processes.pluginFolder(),
                Map.of("scheduled.rebalance.max.delay.ms", "1000", "plugin.discovery", "service_load",
                        "offset.storage.partitions", "1", "status.storage.partitions", "1"), workDir, children);
    }

    /**
     * kill -9 of the worker JVM, and a restart {@code delayMillis} later in the background. A restart still under way
     * from the previous kill is waited for first.
     */
    void killWorker(long delayMillis) throws InterruptedException {
        awaitQuietly(workerRestart);
        kill(worker);
        workerRestart = restarts.submit(() -> {
            Thread.sleep(delayMillis);
            startWorker();
            return null;
        });
    }

    /** Like {@link #killWorker(long)}, for the broker (restarted on the same log directory). */
    void killBroker(long delayMillis) throws InterruptedException {
        awaitQuietly(brokerRestart);
        kill(broker);
        brokerRestart = restarts.submit(() -> {
            Thread.sleep(delayMillis);
            startBroker();
            return null;
        });
    }

    /** Waits for restarts under way; afterwards {@link #workerAlive()} and {@link #brokerAlive()} are the truth. */
    void awaitRestarts() throws InterruptedException {
        awaitQuietly(brokerRestart);
        awaitQuietly(workerRestart);
    }

    boolean restartsUnderWay() {
        return workerRestartUnderWay() || brokerRestartUnderWay();
    }

    boolean workerRestartUnderWay() {
        return !workerRestart.isDone();
    }

    boolean brokerRestartUnderWay() {
        return !brokerRestart.isDone();
    }

    /** True while the worker runs or its restart is under way. */
    boolean workerAlive() {
        return !workerRestart.isDone() || (worker != null && worker.isAlive());
    }

    /** True while the broker runs or its restart is under way. */
    boolean brokerAlive() {
        return !brokerRestart.isDone() || (broker != null && broker.isAlive());
    }

    private static void awaitQuietly(Future<?> restart) throws InterruptedException {
        try {
            restart.get();
        } catch (ExecutionException failed) {
            // the process is not alive then; the fault injector's health check restarts and counts it
            System.err.println(Instant.now() + " restart failed: " + failed.getCause());
        }
    }

    /**
     * pg_ctl stop -m {@code mode}, then start on the same data directory. A fast shutdown waits until the logical
     * walsender has sent all WAL and the connector confirmed it, which may take longer than pg_ctl's 60 s while the
     * connector works through a backlog: it is waited for up to 10 minutes. Returns the number of 60-s waits that
     * ran out.
     */
    int restartPostgres(String mode) {
        int timeouts = 0;
        while (true) {
            try {
                postgres.stop(mode);
                break;
            } catch (IllegalStateException stillStopping) {
                if (timeouts == 0) {
                    System.err.println(Instant.now() + " " + stillStopping.getMessage());
                }
                if (!Files.exists(postgres.dataDirectory().resolve("postmaster.pid"))) {
                    break;
                }
                if (++timeouts == 10) {
                    throw stillStopping;
                }
            }
        }
        postgres.startAgain();
        return timeouts;
    }

    /** Whether a walsender holds the connector's slot: the connector streams. */
    boolean slotActive() throws SQLException {
        try (Connection connection = connect(); Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("SELECT 1 FROM pg_replication_slots WHERE slot_name = '" + SLOT
                     + "' AND active")) {
            return rows.next();
        }
    }

    /** Terminates the walsender serving the connector's slot; false when no walsender holds it right now. */
    boolean terminateWalsender() throws SQLException {
        try (Connection connection = connect(); Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("SELECT pg_terminate_backend(active_pid) FROM "
                     + "pg_replication_slots WHERE slot_name = '" + SLOT + "' AND active_pid IS NOT NULL")) {
            return rows.next() && rows.getBoolean(1);
        }
    }

    Connection connect() throws SQLException {
        Properties properties = new Properties();
        properties.setProperty("user", PostgresCluster.SUPERUSER);
        properties.setProperty("connectTimeout", "10");
        properties.setProperty("socketTimeout", "120");
        return DriverManager.getConnection(postgres.jdbcUrl(DATABASE), properties);
    }

    /** The task's state and, when FAILED, the first line of its trace; empty while the REST API does not answer. */
    Optional<TaskState> taskState() throws InterruptedException {
        try {
            HttpResponse<String> response = http.send(HttpRequest.newBuilder(
                            URI.create(rest() + "/connectors/" + CONNECTOR + "/status"))
                    .timeout(Duration.ofSeconds(5)).GET().build(), HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                return Optional.empty();
            }
            JsonNode tasks = JSON.readTree(response.body()).path("tasks");
            if (tasks.isEmpty()) {
                return Optional.of(new TaskState("UNASSIGNED", ""));
            }
            JsonNode task = tasks.get(0);
            String trace = task.path("trace").asText("");
            return Optional.of(new TaskState(task.path("state").asText(), trace.lines().findFirst().orElse("")));
        } catch (IOException notAnswering) {
            return Optional.empty();
        }
    }

    /** POST /connectors/soak/tasks/0/restart. */
    void restartTask() throws IOException, InterruptedException {
        http.send(HttpRequest.newBuilder(URI.create(rest() + "/connectors/" + CONNECTOR + "/tasks/0/restart"))
                .timeout(Duration.ofSeconds(30)).POST(HttpRequest.BodyPublishers.noBody()).build(),
                HttpResponse.BodyHandlers.discarding());
    }

    record TaskState(String state, String traceFirstLine) {
    }

    /**
     * What the worker's log says happened, counted by line: polls that failed with a retriable error (the task
     * reconnects), spill files that could not be written, and starts the worker gave up (no broker to reach).
     */
    Map<String, Long> workerLogCounts() throws IOException {
        Map<String, String> patterns = new LinkedHashMap<>();
        patterns.put("polls failed with a retriable error, task reconnected", "Will retry operation");
        patterns.put("of them: spill file not writable", "failed: cannot write spill file");
        patterns.put("worker starts given up (broker unreachable)", "Failed to connect to and describe Kafka cluster");
        Map<String, Long> counts = new LinkedHashMap<>();
        patterns.keySet().forEach(k -> counts.put(k, 0L));
        try (Stream<String> lines = Files.lines(workDir.resolve("worker.log"), StandardCharsets.ISO_8859_1)) {
            lines.forEach(line -> patterns.forEach((name, text) -> {
                if (line.contains(text)) {
                    counts.merge(name, 1L, Long::sum);
                }
            }));
        }
        return counts;
    }

    /** Stops the worker, the broker and PostgreSQL; deletes the run's folder when {@code deleteFiles}. */
    void stop(boolean deleteFiles) {
        restarts.shutdownNow();
        try {
            restarts.awaitTermination(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        children.stopAll();
        if (postgres != null) {
            postgres.close();
        }
        if (deleteFiles) {
            try (Stream<Path> files = Files.walk(workDir)) {
                for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(file);
                }
            } catch (IOException | UncheckedIOException e) {
                System.err.println("could not delete " + workDir + ": " + e.getMessage());
            }
        }
    }

    @Override
    public void close() {
        stop(false);
    }

    private String rest() {
        return processes.restUrl();
    }

    private static void kill(Process process) throws InterruptedException {
        if (process == null || !process.isAlive()) {
            return;
        }
        process.destroyForcibly();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            throw new IllegalStateException("pid " + process.pid() + " still alive 30 s after SIGKILL");
        }
    }

}
