package io.github.pgoutput.soak;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.pgoutput.testing.kafka.ChildProcesses;
import io.github.pgoutput.testing.kafka.ConnectRest;
import io.github.pgoutput.testing.kafka.KafkaProcesses;
import io.github.pgoutput.testing.PostgresCluster;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * kill -9 of a real Connect worker while one large streamed PostgreSQL transaction is being written to Kafka
 * (issue 16): PostgreSQL 17 with {@code logical_decoding_work_mem=64kB} (so the transaction is streamed, protocol 2+,
 * before it commits), a KRaft broker and a distributed worker in JVMs of their own, the packaged plugin on the
 * worker's {@code plugin.path}, the connector with {@code snapshot.mode=no_data}. One run inserts {@code rows} rows in
 * one transaction, kills the worker once a third of them is in the topic's log (committed or not), starts it again
 * at once, and times how long a {@code read_committed} consumer needs from the kill until it has every row, counting
 * rows lost and rows seen twice. Runs of each {@link DeliveryGuarantee} share PostgreSQL and the broker; each has its
 * own table, slot, connector and topic, and each guarantee its own Connect group.
 *
 * <p>Not thread-safe: one run at a time.
 */
final class WorkerKillScenario implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String DATABASE = "kill";

    /**
     * @param workerHeap         the worker's {@code -Xmx}; under connector boundaries Connect keeps the whole open
     *                           transaction's records in heap
     * @param workerOverrides    worker properties on top of the scenario's (which come on top of Connect's defaults)
     * @param connectorOverrides connector properties on top of the scenario's
     * @param timeout            how long a run may wait for the rows after the kill, and for each step before it
     */
    record Settings(String workerHeap, Map<String, String> workerOverrides, Map<String, String> connectorOverrides,
                    Duration timeout) {
    }

    /**
     * One run's figures; times in milliseconds from the kill (all 0 in a run without a kill, whose
     * {@code deliveryMillis} is from the first record in the topic's log to the last row seen by the consumer).
     *
     * @param inLogAtKill        records in the topic's log, committed or not, when the worker was killed
     * @param visibleAtKill      distinct rows the read_committed consumer had when the worker was killed
     * @param workerUpMillis     until the new worker's REST API listened
     * @param taskRunningMillis  until the REST API reported the task RUNNING
     * @param firstRecordMillis  until the read_committed consumer got its first record after the kill
     * @param recoveryMillis     until it had every row (-1: not within the timeout)
     */
    record Result(DeliveryGuarantee guarantee, int rows, boolean killed, long inLogAtKill, long visibleAtKill,
                  long workerUpMillis, long taskRunningMillis, long firstRecordMillis, long recoveryMillis,
                  long deliveryMillis, long lost, long duplicates, long strays, long records, String taskState) {

        boolean exact() {
            return lost == 0 && duplicates == 0 && strays == 0;
        }

        String line() {
            return "worker-kill result mode=" + guarantee.id + " rows=" + rows + " killed=" + killed
                    + " in_log_at_kill=" + inLogAtKill + " visible_at_kill=" + visibleAtKill
                    + " worker_up_ms=" + workerUpMillis + " task_running_ms=" + taskRunningMillis
                    + " first_record_ms=" + firstRecordMillis + " recovery_ms=" + recoveryMillis
                    + " delivery_ms=" + deliveryMillis + " lost=" + lost + " duplicates=" + duplicates
                    + " strays=" + strays + " records=" + records + " task=" + taskState;
        }
    }

    private final Path root;
    private final Settings settings;
    private final Consumer<String> log;
    private final Path workDir;
    private final ScenarioProcesses processes;
    private final ChildProcesses children = new ChildProcesses();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private PostgresCluster postgres;
    private Process worker;
    private DeliveryGuarantee workerGuarantee;
    private int runs;
    private volatile boolean keepFiles;
    private boolean closed;

    WorkerKillScenario(Path projectRoot, Settings settings, Consumer<String> log) throws IOException {
        this.root = projectRoot;
        this.settings = settings;
        this.log = log;
        this.processes = ScenarioProcesses.of(projectRoot);
        this.workDir = Files.createTempDirectory("pgoutput-worker-kill-");
    }

    Path workDir() {
        return workDir;
    }

    /** The number of the next run: each run has its own table, slot, connector and topic names. */
    int nextRun() {
        return ++runs;
    }

    /** Whether the run's folder stays for a look when the scenario closes. */
    void keepFiles(boolean keep) {
        keepFiles = keep;
    }

    /** Starts PostgreSQL 17 and the broker; workers start with the first run of each guarantee. */
    void start() throws IOException, InterruptedException, SQLException {
        postgres = PostgresCluster.start(17, Map.of("logical_decoding_work_mem", "'64kB'", "max_connections", "30",
                "log_min_messages", "warning"));
        postgres.createDatabase(DATABASE);
        KafkaProcesses.startBroker(processes.classPath(), processes.brokerPort(), processes.controllerPort(),
                Map.of("offsets.topic.num.partitions", "1", "log.segment.bytes", "67108864"), workDir, children);
    }

    /**
     * One run: {@code rows} rows in one transaction; with {@code kill}, kill -9 of the worker once a third of them is in
     * the topic's log and a restart right after. Returns when the consumer has every row and the topic has been quiet
     * for 3 s, or after the timeout.
     */
    Result run(DeliveryGuarantee guarantee, int rows, boolean kill) throws Exception {
        return run(guarantee, rows, kill, Map.of());
    }

    /** {@link #run(DeliveryGuarantee, int, boolean)} with {@code connectorOverrides} for this run only. */
    Result run(DeliveryGuarantee guarantee, int rows, boolean kill, Map<String, String> connectorOverrides)
            throws Exception {
        return run(guarantee, rows, kill, connectorOverrides, false);
    }

    /**
     * {@link #run(DeliveryGuarantee, int, boolean, Map)}; with {@code snapshot} the rows are in the table before the
     * connector starts, and it takes them with its snapshot ({@code snapshot.mode=initial}; under exactly-once the
     * resumable snapshot), so the kill lands in the middle of the snapshot instead of a streamed transaction.
     */
    Result run(DeliveryGuarantee guarantee, int rows, boolean kill, Map<String, String> connectorOverrides, boolean snapshot)
            throws Exception {
        return run(guarantee, rows, kill, connectorOverrides, snapshot ? RowSource.INITIAL_SNAPSHOT : RowSource.STREAMED_TRANSACTION);
    }

    /** How a run's rows reach Kafka. */
    enum RowSource {
        /** Inserted in one transaction, which PostgreSQL streams before its commit. */
        STREAMED_TRANSACTION,
        /** In the table before the connector starts, read by its initial snapshot. */
        INITIAL_SNAPSHOT,
        /**
         * In the table before the connector starts, which streams ({@code snapshot.mode=no_data}); an
         * {@code execute-snapshot} row in the run's signal table then has them read by an incremental snapshot.
         */
        INCREMENTAL_SNAPSHOT
    }

    /** {@link #run(DeliveryGuarantee, int, boolean, Map)} with the rows coming from {@code source}. */
    Result run(DeliveryGuarantee guarantee, int rows, boolean kill, Map<String, String> connectorOverrides, RowSource source)
            throws Exception {
        keepFiles = true;
        Result result = runOnce(guarantee, rows, kill, connectorOverrides, source);
        keepFiles = guarantee.exactlyOnce() ? !result.exact() : result.lost() != 0;
        return result;
    }

    private Result runOnce(DeliveryGuarantee guarantee, int rows, boolean kill, Map<String, String> connectorOverrides,
                           RowSource source) throws Exception {
        Names names = begin(guarantee, rows, connectorOverrides, source);
        String name = names.connector();
        String topic = names.topic();
        KeyTally tally = new KeyTally(rows);
        Result result;
        try (ReadCommittedWatcher watcher = new ReadCommittedWatcher(bootstrap(), topic, tally);
             KafkaConsumer<byte[], byte[]> uncommitted = uncommittedReader()) {
            watcher.start();
            if (source == RowSource.STREAMED_TRANSACTION) {
                // ~150 bytes a row: with logical_decoding_work_mem=64kB the server streams the transaction as it runs.
                insertRows(names.table(), rows);
            } else if (source == RowSource.INCREMENTAL_SNAPSHOT) {
                execute("INSERT INTO " + names.signalTable() + " VALUES ('kill-" + names.table() + "', 'execute-snapshot',"
                        + " '{\"data-collections\": [\"public." + names.table() + "\"], \"type\": \"incremental\"}')");
            }
            await("the first record in " + topic + "'s log", () ->
                    ReadCommittedWatcher.endOffsets(uncommitted, topic).values().iterator().next() > 0);
            // Under connector boundaries the Kafka transaction opens here: the delivery time is what must fit in
            // the producer's transaction.timeout.ms.
            long firstInLogNanos = System.nanoTime();
            long inLog = 0;
            long visible = 0;
            long killNanos = 0;
            long workerUp = 0;
            long taskRunning = 0;
            if (kill) {
                long third = rows / 3;
                await("a third of the rows in " + topic + "'s log", () ->
                        ReadCommittedWatcher.endOffsets(uncommitted, topic).values().iterator().next() >= third);
                inLog = ReadCommittedWatcher.endOffsets(uncommitted, topic).values().iterator().next();
                visible = tally.distinct();
                killNanos = System.nanoTime();
                watcher.mark(killNanos);
                killWorker();
                log.accept(name + ": worker killed with " + inLog + " records in the log, " + visible
                        + " rows visible to read_committed");
                startWorker(guarantee);
                workerUp = System.nanoTime();
                await("task of " + name + " RUNNING again", () -> "RUNNING".equals(taskState(name)));
                taskRunning = System.nanoTime();
            }
            long deadline = System.nanoTime() + settings.timeout().toNanos();
            while (!tally.complete() && System.nanoTime() < deadline && !"FAILED".equals(taskState(name))) {
                watcher.check();
                Thread.sleep(50);
            }
            awaitQuiet(tally);
            watcher.check();
            long from = kill ? killNanos : firstInLogNanos;
            long complete = tally.complete() ? tally.completeNanos() : 0;
            result = new Result(guarantee, rows, kill, inLog, visible, millis(workerUp, from),
                    millis(taskRunning, from), millis(watcher.firstAfterMarkNanos(), killNanos),
                    kill && complete != 0 ? millis(complete, from) : -1, kill || complete == 0 ? 0 : millis(complete, from),
                    tally.missing(), tally.duplicates(), tally.strays(), tally.records(), taskStateAndTrace(name));
        }
        end(names);
        return result;
    }

    /**
     * What a run of {@link #timeoutRun} saw.
     *
     * @param taskState        the task's state and the first line of its trace once it stopped
     * @param visibleAfterFail records the read_committed consumer had when the task had failed, and 3 s later
     * @param afterRaise       the same delivery after the timeout was raised and the task restarted by that
     */
    record TimeoutResult(String taskState, long failedAfterMillis, long visibleAfterFail, Result afterRaise) {
    }

    /**
     * A delivery that takes longer than the producer's {@code transaction.timeout.ms} under connector boundaries:
     * {@code rows} rows in one transaction with {@code producer.override.transaction.timeout.ms=shortTimeoutMs}, until
     * the task stops; then the connector reconfigured with {@code longTimeoutMs}, and the same rows counted again.
     */
    TimeoutResult timeoutRun(int rows, long shortTimeoutMs, long longTimeoutMs) throws Exception {
        keepFiles = true;
        TimeoutResult result = timeoutRunOnce(rows, shortTimeoutMs, longTimeoutMs);
        keepFiles = result.visibleAfterFail() != 0 || !result.afterRaise().exact();
        return result;
    }

    private TimeoutResult timeoutRunOnce(int rows, long shortTimeoutMs, long longTimeoutMs) throws Exception {
        DeliveryGuarantee guarantee = DeliveryGuarantee.EXACTLY_ONCE_CONNECTOR;
        Names names = begin(guarantee, rows, Map.of("producer.override.transaction.timeout.ms", Long.toString(shortTimeoutMs)));
        KeyTally tally = new KeyTally(rows);
        TimeoutResult result;
        try (ReadCommittedWatcher watcher = new ReadCommittedWatcher(bootstrap(), names.topic(), tally);
             KafkaConsumer<byte[], byte[]> uncommitted = uncommittedReader()) {
            watcher.start();
            execute("INSERT INTO " + names.table() + " SELECT g, repeat('x', 120) || g FROM generate_series(1, " + rows + ") g");
            await("the first record in " + names.topic() + "'s log", () ->
                    ReadCommittedWatcher.endOffsets(uncommitted, names.topic()).values().iterator().next() > 0);
            long opened = System.nanoTime();
            await("the task of " + names.connector() + " FAILED", () -> "FAILED".equals(taskState(names.connector())));
            long failed = System.nanoTime();
            String state = taskStateAndTrace(names.connector());
            awaitQuiet(tally);
            long visible = tally.records();
            log.accept(names.connector() + ": " + state);

            Map<String, String> raised = new TreeMap<>(Map.of("producer.override.transaction.timeout.ms",
                    Long.toString(longTimeoutMs)));
            send(HttpRequest.newBuilder(URI.create(rest() + "/connectors/" + names.connector() + "/config"))
                    .header("Content-Type", "application/json").PUT(HttpRequest.BodyPublishers.ofString(
                            connectorConfig(guarantee, names.connector(), names.slot(), names.publication(), rows, raised)
                                    .toString())));
            // The failed task stays FAILED until restarted; restarted, it runs with the new configuration.
            send(HttpRequest.newBuilder(URI.create(rest() + "/connectors/" + names.connector()
                    + "/restart?includeTasks=true&onlyFailed=false")).POST(HttpRequest.BodyPublishers.noBody()));
            long restarted = System.nanoTime();
            await("the task of " + names.connector() + " RUNNING again", () -> "RUNNING".equals(taskState(names.connector())));
            long deadline = restarted + settings.timeout().toNanos();
            while (!tally.complete() && System.nanoTime() < deadline && !"FAILED".equals(taskState(names.connector()))) {
                watcher.check();
                Thread.sleep(50);
            }
            awaitQuiet(tally);
            Result after = new Result(guarantee, rows, false, 0, visible, 0, 0, 0, -1,
                    tally.complete() ? millis(tally.completeNanos(), restarted) : 0, tally.missing(), tally.duplicates(),
                    tally.strays(), tally.records(), taskStateAndTrace(names.connector()));
            result = new TimeoutResult(state, millis(failed, opened), visible, after);
        }
        end(names);
        return result;
    }

    /** The names of one run's table, publication, slot, connector and topic. */
    private record Names(String table, String publication, String slot, String connector, String topic, String signalTable) {
    }

    private void insertRows(String table, int rows) throws SQLException {
        execute("INSERT INTO " + table + " SELECT g, repeat('x', 120) || g FROM generate_series(1, " + rows + ") g");
    }

    private Names begin(DeliveryGuarantee guarantee, int rows, Map<String, String> connectorOverrides) throws Exception {
        return begin(guarantee, rows, connectorOverrides, RowSource.STREAMED_TRANSACTION);
    }

    /**
     * Creates the run's table, publication and topic, starts the connector and waits until it streams; for an initial
     * snapshot fills the table first and starts the connector with a snapshot, without waiting (the slot is not
     * active while the snapshot is read); for an incremental snapshot fills the table and creates the signal table
     * (Debezium's columns, in the publication) first.
     */
    private Names begin(DeliveryGuarantee guarantee, int rows, Map<String, String> connectorOverrides, RowSource source)
            throws Exception {
        int index = ++runs;
        String name = "kill-" + guarantee.id + "-" + index;
        String table = "rows_" + guarantee.id + "_" + index;
        Names names = new Names(table, "kill_pub_" + guarantee.id + "_" + index, "kill_" + guarantee.id + "_" + index,
                name, name + ".public." + table, "signals_" + guarantee.id + "_" + index);
        ensureWorker(guarantee);
        execute("CREATE TABLE " + table + " (id bigint PRIMARY KEY, payload text NOT NULL)",
                "CREATE TABLE " + names.signalTable() + " (id varchar(42) PRIMARY KEY, type varchar(32) NOT NULL, data varchar(2048))",
                "CREATE PUBLICATION " + names.publication() + " FOR TABLE " + table + ", " + names.signalTable());
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap()))) {
            // One partition: the read_committed end offset then says how much of the transaction is visible.
            admin.createTopics(List.of(new NewTopic(names.topic(), 1, (short) 1))).all().get(30, TimeUnit.SECONDS);
        }
        if (source == RowSource.INCREMENTAL_SNAPSHOT) {
            insertRows(table, rows);
            Map<String, String> overrides = new TreeMap<>(Map.of("signal.data.collection", "public." + names.signalTable()));
            overrides.putAll(connectorOverrides);
            new ConnectRest(rest()).register(name, connectorConfig(guarantee, name, names.slot(), names.publication(), rows,
                    overrides));
            await("slot " + names.slot() + " active", () -> slotActive(names.slot()));
            return names;
        }
        if (source == RowSource.INITIAL_SNAPSHOT) {
            // Half-full blocks: 100,000 rows take about 4,000 blocks, so a snapshot with snapshot.max.threads above 1
            // reads the table in key ranges at once (a table of 16 MB or more is split).
            execute("ALTER TABLE " + table + " SET (fillfactor = 50)");
            insertRows(table, rows);
            Map<String, String> overrides = new TreeMap<>(Map.of("snapshot.mode", "initial"));
            overrides.putAll(connectorOverrides);
            new ConnectRest(rest()).register(name, connectorConfig(guarantee, name, names.slot(), names.publication(), rows,
                    overrides));
            return names;
        }
        ObjectNode config = connectorConfig(guarantee, name, names.slot(), names.publication(), rows, connectorOverrides);
        new ConnectRest(rest()).register(name, config);
        await("slot " + names.slot() + " active", () -> slotActive(names.slot()));
        return names;
    }

    /** Deletes the run's connector, slot, table and publication (its topic stays). */
    private void end(Names names) throws Exception {
        new ConnectRest(rest()).deleteConnector(names.connector());
        await("slot " + names.slot() + " released", () -> !slotActive(names.slot()));
        execute("SELECT pg_drop_replication_slot('" + names.slot() + "')", "DROP TABLE " + names.table(),
                "DROP TABLE " + names.signalTable(), "DROP PUBLICATION " + names.publication());
    }

    ObjectNode connectorConfig(DeliveryGuarantee guarantee, String name, String slot, String publication,
                                       int rows, Map<String, String> runOverrides) {
        Map<String, String> config = new TreeMap<>();
        config.put("connector.class", "io.github.pgoutput.connect.PgOutputSourceConnector");
        config.put("tasks.max", "1");
        config.put("database.hostname", postgres.host());
        config.put("database.port", Integer.toString(postgres.port()));
        config.put("database.user", PostgresCluster.SUPERUSER);
        config.put("database.dbname", DATABASE);
        config.put("slot.name", slot);
        config.put("publication.name", publication);
        config.put("publication.autocreate.mode", "disabled");
        config.put("topic.prefix", name);
        config.put("snapshot.mode", "no_data");
        config.put("spill.backend", "disk");
        config.put("spill.directory", workDir.resolve("spill").toString());
        config.put("key.converter", "org.apache.kafka.connect.json.JsonConverter");
        config.put("key.converter.schemas.enable", "false");
        config.put("value.converter", "org.apache.kafka.connect.json.JsonConverter");
        config.put("value.converter.schemas.enable", "false");
        // Under connector boundaries the whole transaction is one Kafka transaction, held in the worker's heap.
        config.put("transaction.max.records", Integer.toString(Math.max(rows + 10, 250_000)));
        config.putAll(guarantee.connector);
        config.putAll(settings.connectorOverrides());
        config.putAll(runOverrides);
        ObjectNode json = JSON.createObjectNode();
        config.forEach(json::put);
        return json;
    }

    void ensureWorker(DeliveryGuarantee guarantee) throws IOException, InterruptedException {
        if (guarantee == workerGuarantee && worker != null && worker.isAlive()) {
            return;
        }
        if (worker != null && worker.isAlive()) {
            worker.destroy();
            if (!worker.waitFor(30, TimeUnit.SECONDS)) {
                worker.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }
        startWorker(guarantee);
    }

    void startWorker(DeliveryGuarantee guarantee) throws IOException, InterruptedException {
        Map<String, String> props = new TreeMap<>();
        props.put("group.id", "kill-" + guarantee.id);
        props.put("config.storage.topic", "kill-" + guarantee.id + "-configs");
        props.put("offset.storage.topic", "kill-" + guarantee.id + "-offsets");
        props.put("status.storage.topic", "kill-" + guarantee.id + "-status");
        props.put("offset.storage.partitions", "1");
        props.put("status.storage.partitions", "1");
        // As in the soak: ServiceLoader manifests instead of a reflective scan of the class path (some 20 s a start),
        // and a worker that comes back with a new member id gets the dead member's assignment after 1 s, not 5 min.
        props.put("plugin.discovery", "service_load");
        props.put("scheduled.rebalance.max.delay.ms", "1000");
        props.putAll(guarantee.worker);
        props.putAll(settings.workerOverrides());
        worker = KafkaProcesses.startWorker(processes.classPath(), bootstrap(), new KafkaProcesses.WorkerSettings(processes.restPort(),
                processes.pluginFolder().toString(), settings.workerHeap(),
                List.of("-Dorg.slf4j.simpleLogger.showDateTime=true",
                        "-Dorg.slf4j.simpleLogger.dateTimeFormat=HH:mm:ss.SSS"), props), workDir, children);
        workerGuarantee = guarantee;
    }

    void killWorker() throws InterruptedException {
        worker.destroyForcibly();
        if (!worker.waitFor(30, TimeUnit.SECONDS)) {
            throw new IllegalStateException("worker pid " + worker.pid() + " still alive 30 s after SIGKILL");
        }
    }

    /** Waits until the consumer's record count has not changed for 3 s (late duplicates would still arrive). */
    private void awaitQuiet(KeyTally tally) throws InterruptedException {
        long last = -1;
        long since = System.nanoTime();
        while (System.nanoTime() - since < 3_000_000_000L) {
            long now = tally.records();
            if (now != last) {
                last = now;
                since = System.nanoTime();
            }
            Thread.sleep(200);
        }
    }

    KafkaConsumer<byte[], byte[]> uncommittedReader() {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap());
        props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_uncommitted");
        return new KafkaConsumer<>(props);
    }

    String taskState(String name) throws InterruptedException {
        JsonNode task = taskStatus(name);
        return task == null ? "" : task.path("state").asText();
    }

    String taskStateAndTrace(String name) throws InterruptedException {
        JsonNode task = taskStatus(name);
        if (task == null) {
            return "UNKNOWN";
        }
        String trace = task.path("trace").asText("");
        return task.path("state").asText() + (trace.isEmpty() ? "" : " (" + trace.lines().findFirst().orElse("") + ")");
    }

    private JsonNode taskStatus(String name) throws InterruptedException {
        try {
            HttpResponse<String> response = http.send(HttpRequest.newBuilder(
                    URI.create(rest() + "/connectors/" + name + "/status")).timeout(Duration.ofSeconds(5)).GET().build(),
                    HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                return null;
            }
            JsonNode tasks = JSON.readTree(response.body()).path("tasks");
            return tasks.isEmpty() ? null : tasks.get(0);
        } catch (IOException notAnswering) {
            return null;
        }
    }

    private void send(HttpRequest.Builder request) throws IOException, InterruptedException {
        HttpResponse<String> response = http.send(request.timeout(Duration.ofSeconds(30)).build(),
                HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() >= 300) {
            throw new IllegalStateException(response.request().method() + " " + response.request().uri() + " answered "
                    + response.statusCode() + ": " + response.body());
        }
    }

    boolean slotActive(String slot) throws SQLException {
        try (Connection connection = connect(); Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("SELECT 1 FROM pg_replication_slots WHERE slot_name = '" + slot
                     + "' AND active")) {
            return rows.next();
        }
    }

    void execute(String... sql) throws SQLException {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            for (String one : sql) {
                statement.execute(one);
            }
        }
    }

    Connection connect() throws SQLException {
        Properties properties = new Properties();
        properties.setProperty("user", PostgresCluster.SUPERUSER);
        properties.setProperty("connectTimeout", "10");
        return DriverManager.getConnection(postgres.jdbcUrl(DATABASE), properties);
    }

    interface Check {
        boolean done() throws Exception;
    }

    void await(String what, Check check) throws Exception {
        long deadline = System.nanoTime() + settings.timeout().toNanos();
        while (!check.done()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("waited " + settings.timeout().toSeconds() + " s for " + what + "; see "
                        + workDir.resolve("worker.log"));
            }
            Thread.sleep(50);
        }
    }

    String bootstrap() {
        return processes.bootstrap();
    }

    String rest() {
        return processes.restUrl();
    }

    static long millis(long nanos, long from) {
        return nanos == 0 ? 0 : TimeUnit.NANOSECONDS.toMillis(nanos - from);
    }


    /**
     * Stops the worker, the broker and PostgreSQL. The run's folder (broker and worker logs, Kafka's log directory,
     * the spill) is deleted unless a run failed or lost or repeated a row, when it stays for a look.
     */
    @Override
    public synchronized void close() {
        if (closed) {
            return; // the shutdown hook of WorkerKillRun, after the normal close
        }
        closed = true;
        children.stopAll();
        if (postgres != null) {
            postgres.close();
        }
        if (keepFiles) {
            System.err.println("worker-kill: the run's folder stays: " + workDir);
            return;
        }
        try (Stream<Path> files = Files.walk(workDir)) {
            for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(file);
            }
        } catch (IOException | UncheckedIOException e) {
            System.err.println("could not delete " + workDir + ": " + e.getMessage());
        }
    }
}
