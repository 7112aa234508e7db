package io.github.pgoutput.testing.kafka;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;
import java.util.function.Supplier;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.quota.ClientQuotaAlteration;
import org.apache.kafka.common.quota.ClientQuotaEntity;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.connect.runtime.rest.entities.ConfigInfo;
import org.apache.kafka.connect.runtime.rest.entities.ConfigInfos;
import org.apache.kafka.connect.runtime.rest.entities.ConnectorStateInfo;
import org.apache.kafka.connect.util.clusters.EmbeddedConnectCluster;
import org.apache.kafka.connect.util.clusters.WorkerHandle;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real Kafka Connect cluster in the test JVM: one KRaft broker and N distributed-mode workers (Kafka's own
 * {@link EmbeddedConnectCluster}), driven over the workers' REST API like a user would.
 *
 * <p>Register it as a static JUnit 5 extension. Most tests share one cluster per test JVM, started by the first
 * class that asks for it and stopped when the run ends:
 * <pre>{@code
 * @RegisterExtension
 * static final ConnectWorkerCluster connect = ConnectWorkerCluster.shared();
 *
 * @Test
 * void streams() {
 *     connect.configureConnector("orders", Map.of("connector.class", "...", "tasks.max", "1", ...));
 *     connect.awaitRunning("orders", 1, Duration.ofSeconds(60));
 *     List<ConsumerRecord<byte[], byte[]>> records = connect.awaitRecords("shop.public.orders", 3, Duration.ofSeconds(30));
 * }
 * }</pre>
 * On the shared cluster each test uses connector names and topic prefixes of its own (a name or prefix another test
 * of the JVM used fails the test at once, because Connect keeps a deleted connector's offsets and the topics stay),
 * and the connectors a test created are deleted after it. A class that stops a broker or a worker, needs several
 * workers or worker settings of its own ({@link #exactlyOnceSource()}, a {@code plugin.path}) starts a cluster of its
 * own with {@link #withWorkers}, which starts before its first test and stops after its last.
 *
 * <p>The broker always allows transactions on a single node ({@code transaction.state.log.replication.factor=1},
 * {@code transaction.state.log.min.isr=1}), so {@link #exactlyOnceSource()} workers can start. Workers use
 * {@code StringConverter} for keys and values unless {@link #workerProperty} says otherwise (on the shared cluster,
 * set converters in the connector's configuration). The broker does not create topics on demand: create them with
 * {@link #createTopic} or let Connect's topic creation do it. Starting one took 1.5 s on an idle 2-core machine and
 * 9-34 s on a loaded one.
 *
 * <p>Not thread-safe: drive it from the test thread.
 */
public final class ConnectWorkerCluster
        implements BeforeAllCallback, AfterAllCallback, BeforeEachCallback, AfterEachCallback, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ConnectWorkerCluster.class);
    private static final Duration POLL_INTERVAL = Duration.ofMillis(200);
    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(ConnectWorkerCluster.class);

    private final int initialWorkers;
    private final boolean shared;
    private final Map<String, String> workerProps = new HashMap<>();
    private EmbeddedConnectCluster cluster;
    private Duration startupTime;
    /** On the shared cluster: the names in use, and the test that runs now. */
    private SharedNames sharedNames;
    private String currentTest;

    private ConnectWorkerCluster(int initialWorkers, boolean shared) {
        this.initialWorkers = initialWorkers;
        this.shared = shared;
        // Plugins are found through their META-INF/services manifests only, so a test proves the manifest is right.
        workerProps.put("plugin.discovery", "service_load");
        workerProps.put("offset.flush.interval.ms", "500");
        // Reassign the tasks of a worker that left after one second instead of Connect's default 5 minutes.
        workerProps.put("scheduled.rebalance.max.delay.ms", "1000");
        // Connectors may override their clients' settings (producer.override.*), as Kafka's default allows.
        workerProps.put("connector.client.config.override.policy", "All");
    }

    /** A cluster of one broker and {@code workers} Connect workers of this class's own (not started yet). */
    public static ConnectWorkerCluster withWorkers(int workers) {
        return new ConnectWorkerCluster(workers, false);
    }

    /**
     * The test JVM's shared cluster of one broker and one worker with the default settings: for tests that neither
     * stop a broker or worker nor need worker settings of their own.
     */
    public static ConnectWorkerCluster shared() {
        return new ConnectWorkerCluster(1, true);
    }

    /** Workers with {@code exactly.once.source.support=enabled}: source records and offsets in one transaction. */
    public ConnectWorkerCluster exactlyOnceSource() {
        return workerProperty("exactly.once.source.support", "enabled");
    }

    /** Any worker property, e.g. a converter; not on the shared cluster, whose workers every test shares. */
    public ConnectWorkerCluster workerProperty(String key, String value) {
        if (shared) {
            throw new IllegalStateException("the shared cluster's workers serve every test of the JVM, so " + key
                    + " cannot be set on them: set it in the connector's configuration, or use withWorkers(n)");
        }
        workerProps.put(key, value);
        return this;
    }

    // ---- Lifecycle -----------------------------------------------------------------------------------------

    /** Starts the broker and the workers, and waits until every worker answers REST requests. */
    public void start() {
        Properties brokerProps = new Properties();
        brokerProps.put("transaction.state.log.replication.factor", "1");
        brokerProps.put("transaction.state.log.min.isr", "1");
        brokerProps.put("auto.create.topics.enable", "false");
        long started = System.nanoTime();
        cluster = new EmbeddedConnectCluster.Builder()
                .name(shared ? "pgoutput-shared" : "pgoutput-it")
                .numWorkers(initialWorkers)
                .numBrokers(1)
                .brokerProps(brokerProps)
                .workerProps(workerProps)
                .build();
        cluster.start();
        awaitCondition(Duration.ofSeconds(60), "all " + initialWorkers + " workers healthy",
                cluster::allWorkersHealthy);
        startupTime = Duration.ofNanos(System.nanoTime() - started);
        log.info("Connect cluster with 1 broker and {} worker(s) started in {} ms{}", initialWorkers,
                startupTime.toMillis(), shared ? " (shared by the test JVM)" : "");
    }

    /** How long {@link #start()} took, from nothing to every worker answering REST. */
    public Duration startupTime() {
        return startupTime;
    }

    @Override
    public void close() {
        if (cluster != null) {
            cluster.stop();
            cluster = null;
        }
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        if (!shared) {
            start();
            return;
        }
        // The root store closes the cluster when the whole run ends, after the last class that shares it.
        SharedCluster instance = context.getRoot().getStore(NAMESPACE).getOrComputeIfAbsent(SharedCluster.class,
                key -> new SharedCluster(new ConnectWorkerCluster(1, false)), SharedCluster.class);
        cluster = instance.cluster.cluster;
        startupTime = instance.cluster.startupTime;
        sharedNames = instance.names;
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (!shared) {
            close();
        }
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        currentTest = context.getUniqueId();
    }

    /** On the shared cluster: deletes the connectors the test created, so that they do not run on into the next. */
    @Override
    public void afterEach(ExtensionContext context) {
        if (shared) {
            for (String clientId : sharedNames.quotasOf(currentTest)) {
                limitProduceRate(clientId, null);
            }
            for (String name : sharedNames.connectorsOf(currentTest)) {
                try {
                    cluster.deleteConnector(name);
                } catch (RuntimeException alreadyGone) {
                    log.debug("connector {} was gone already: {}", name, alreadyGone.toString());
                }
            }
        }
        currentTest = null;
    }

    /** The shared cluster, held in the root store so that it is stopped once, at the end of the run. */
    private static final class SharedCluster implements AutoCloseable {
        private final ConnectWorkerCluster cluster;
        private final SharedNames names = new SharedNames();

        SharedCluster(ConnectWorkerCluster cluster) {
            this.cluster = cluster;
            cluster.start();
        }

        @Override
        public void close() {
            cluster.close();
        }
    }

    /**
     * Which test of the JVM first used each connector name and topic prefix on the shared cluster. Connect keeps the
     * offsets of a deleted connector and the broker keeps its topics, so a second test under the same name would
     * resume from the first one's offsets or read its records.
     */
    private static final class SharedNames {
        private final Map<String, String> connectorOwners = new HashMap<>();
        private final Map<String, String> prefixOwners = new HashMap<>();
        private final Map<String, List<String>> quotas = new HashMap<>();

        void quotaSet(String test, String clientId) {
            quotas.computeIfAbsent(test, t -> new ArrayList<>()).add(clientId);
        }

        List<String> quotasOf(String test) {
            List<String> set = quotas.remove(test);
            return set == null ? List.of() : set;
        }

        void claim(String test, String connector, String topicPrefix) {
            claim(connectorOwners, "connector name", connector, test);
            if (topicPrefix != null) {
                claim(prefixOwners, "topic.prefix", topicPrefix, test);
            }
        }

        private static void claim(Map<String, String> owners, String what, String name, String test) {
            String owner = owners.putIfAbsent(name, test);
            if (owner != null && !owner.equals(test)) {
                throw new AssertionError(what + " '" + name + "' was already used by " + owner + " on the shared Connect"
                        + " cluster of this test JVM; give each test names of its own (" + test + ")");
            }
        }

        List<String> connectorsOf(String test) {
            return connectorOwners.entrySet().stream().filter(e -> e.getValue().equals(test)).map(Map.Entry::getKey)
                    .toList();
        }
    }

    /** The underlying Kafka harness, for whatever this class does not wrap. */
    public EmbeddedConnectCluster embedded() {
        return cluster;
    }

    public String bootstrapServers() {
        return cluster.kafka().bootstrapServers();
    }

    // ---- Broker and workers --------------------------------------------------------------------------------

    /** Stops the broker (its data stays); workers stay up and see a broker outage. */
    public void stopBroker() {
        requireOwnCluster("stopBroker");
        cluster.kafka().stopOnlyBrokers();
    }

    /** Starts the stopped broker again on the same listeners and waits until it serves requests. */
    public void startBroker() {
        requireOwnCluster("startBroker");
        cluster.kafka().restartOnlyBrokers();
        cluster.kafka().verifyClusterReadiness();
    }

    /**
     * Caps the produce rate of one Kafka client ({@code null} removes the cap) with a broker-side client quota, so a
     * test can hold a connector in a phase (a snapshot, say) for as long as it needs without depending on how fast
     * the machine is. A source task's producer has the client id {@code connector-producer-<connector>-<task>}.
     */
    public void limitProduceRate(String clientId, Long bytesPerSecond) {
        if (shared && bytesPerSecond != null) {
            sharedNames.quotaSet(currentTest, clientId);
        }
        ClientQuotaEntity entity = new ClientQuotaEntity(Map.of(ClientQuotaEntity.CLIENT_ID, clientId));
        ClientQuotaAlteration.Op op = new ClientQuotaAlteration.Op("producer_byte_rate",
                bytesPerSecond == null ? null : bytesPerSecond.doubleValue());
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers()))) {
            admin.alterClientQuotas(List.of(new ClientQuotaAlteration(entity, List.of(op)))).all().get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while setting the quota of " + clientId, e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("could not set the produce quota of " + clientId, e.getCause());
        }
    }

    private void requireOwnCluster(String action) {
        if (shared) {
            throw new IllegalStateException(action + " would disturb every test on the shared cluster: give the class a"
                    + " cluster of its own (ConnectWorkerCluster.withWorkers(n))");
        }
    }

    /** The running workers. */
    public List<WorkerHandle> workers() {
        return new ArrayList<>(cluster.workers());
    }

    /** Stops one worker; its connectors and tasks move to the others after the rebalance delay. */
    public void stopWorker(WorkerHandle worker) {
        requireOwnCluster("stopWorker");
        cluster.removeWorker(worker);
    }

    /** Starts one more worker in the same group and waits until it answers REST requests. */
    public WorkerHandle addWorker() {
        requireOwnCluster("addWorker");
        WorkerHandle worker = cluster.addWorker();
        awaitCondition(Duration.ofSeconds(60), "new worker " + worker + " healthy", () -> cluster.isHealthy(worker));
        return worker;
    }

    /**
     * Starts workers until the cluster has as many as it started with: an earlier test of the class (in the full
     * matrix, the same test on another PostgreSQL version) may have stopped some.
     */
    public void restoreWorkers() {
        while (cluster.workers().size() < initialWorkers) {
            addWorker();
        }
    }

    // ---- REST ----------------------------------------------------------------------------------------------

    /**
     * {@code GET <path>} on a running worker, e.g. {@code connector-plugins}; returns the JSON body.
     *
     * @throws AssertionError when the answer is not 200 OK
     */
    public String restGet(String path) {
        ConnectRest.Response response = rest().get(path);
        if (response.status() != 200) {
            throw new AssertionError("GET " + path + " answered " + response.status() + ": " + response.body());
        }
        return response.body();
    }

    /** A REST client of a running worker, for calls this class does not wrap. */
    public ConnectRest rest() {
        return new ConnectRest(cluster.endpointForResource(""));
    }

    /**
     * {@code PUT /connectors/<name>/config}: creates or reconfigures a connector. On the shared cluster the name and
     * the config's {@code topic.prefix} must be the test's own.
     */
    public void configureConnector(String name, Map<String, String> config) {
        if (shared) {
            if (currentTest == null) {
                throw new IllegalStateException("connectors on the shared cluster are configured from within a test");
            }
            sharedNames.claim(currentTest, name, config.get("topic.prefix"));
        }
        cluster.configureConnector(name, config);
    }

    public void deleteConnector(String name) {
        cluster.deleteConnector(name);
    }

    /** {@code GET /connectors/<name>/status}. */
    public ConnectorStateInfo status(String name) {
        return cluster.connectorStatus(name);
    }

    /**
     * Waits until the connector and exactly {@code tasks} tasks are RUNNING.
     *
     * @throws AssertionError after {@code timeout}, with the last status seen (including task traces)
     */
    public ConnectorStateInfo awaitRunning(String name, int tasks, Duration timeout) {
        return awaitStatus(name, "RUNNING with " + tasks + " RUNNING task(s)", status -> isRunning(status, tasks),
                timeout);
    }

    /** Whether the connector and exactly {@code tasks} tasks are RUNNING. */
    public static boolean isRunning(ConnectorStateInfo status, int tasks) {
        return "RUNNING".equals(status.connector().state()) && status.tasks().size() == tasks
                && status.tasks().stream().allMatch(t -> "RUNNING".equals(t.state()));
    }

    /**
     * Polls {@code GET /connectors/<name>/status} until {@code condition} holds. The status is eventually consistent
     * (it lags rebalances), so wait for the state you need rather than reading it once.
     *
     * @throws AssertionError after {@code timeout}, naming {@code expected} and the last status seen
     */
    public ConnectorStateInfo awaitStatus(String name, String expected, Predicate<ConnectorStateInfo> condition,
            Duration timeout) {
        ConnectorStateInfo[] last = new ConnectorStateInfo[1];
        awaitCondition(timeout, () -> "connector " + name + " " + expected + "; last status: " + describe(last[0]),
                () -> {
                    try {
                        last[0] = cluster.connectorStatus(name);
                    } catch (RuntimeException notThereYet) {
                        return false;
                    }
                    return condition.test(last[0]);
                });
        return last[0];
    }

    /** {@code POST /connectors/<name>/tasks/<task>/restart}: stops the task and starts it again. */
    public void restartTask(String name, int task) {
        cluster.restartTask(name, task);
    }

    /** {@code PUT /connectors/<name>/stop}: stops connector and tasks but keeps the configuration and offsets. */
    public void stopConnector(String name) {
        cluster.stopConnector(name);
    }

    /** {@code PUT /connectors/<name>/resume}: runs a stopped or paused connector again. */
    public void resumeConnector(String name) {
        cluster.resumeConnector(name);
    }

    /** {@code GET /connectors/<name>/offsets}: the stored source offset of each source partition. */
    public Map<Map<String, ?>, Map<String, ?>> sourceOffsets(String name) {
        return cluster.connectorOffsets(name).toMap();
    }

    /**
     * {@code PATCH /connectors/<name>/offsets} for one source partition; the connector must be STOPPED (see
     * {@link #stopConnector}). A null {@code offset} deletes the partition's offset.
     */
    public void alterSourceOffset(String name, Map<String, ?> partition, Map<String, ?> offset) {
        cluster.alterSourceConnectorOffset(name, partition, offset);
    }

    /**
     * {@code PUT /connector-plugins/<class>/config/validate}. Returns the error messages per key, only for keys that
     * have errors; an empty map means the configuration is valid.
     */
    public Map<String, List<String>> validationErrors(String connectorClass, Map<String, String> config) {
        ConfigInfos infos = validate(connectorClass, config);
        Map<String, List<String>> errors = new LinkedHashMap<>();
        for (ConfigInfo info : infos.values()) {
            if (info.configValue() != null && !info.configValue().errors().isEmpty()) {
                errors.computeIfAbsent(info.configValue().name(), k -> new ArrayList<>())
                        .addAll(info.configValue().errors());
            }
        }
        return errors;
    }

    /** The raw answer of {@code PUT /connector-plugins/<class>/config/validate}. */
    public ConfigInfos validate(String connectorClass, Map<String, String> config) {
        return cluster.validateConnectorConfig(connectorClass, config);
    }

    // ---- Topics --------------------------------------------------------------------------------------------

    public void createTopic(String topic, int partitions) {
        cluster.kafka().createTopic(topic, partitions);
    }

    /** Every record in {@code topic} up to its end offsets at the time of the call, with headers. */
    public List<ConsumerRecord<byte[], byte[]>> readAll(String topic, Duration timeout) {
        try {
            List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
            cluster.kafka().consumeAll(timeout.toMillis(), Map.of("isolation.level", "read_committed"), Map.of(), topic)
                    .forEach(records::add);
            return records;
        } catch (TimeoutException | ExecutionException e) {
            throw new AssertionError("could not read all records of " + topic + " within " + timeout, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while reading " + topic, e);
        }
    }

    /** Like {@link #readAll}, but an empty list while the topic does not exist yet. */
    public List<ConsumerRecord<byte[], byte[]>> readAllIfExists(String topic, Duration timeout) {
        try {
            if (!cluster.kafka().describeTopics(topic).get(topic).isPresent()) {
                return List.of();
            }
        } catch (RuntimeException e) {
            return List.of();
        }
        return readAll(topic, timeout);
    }

    /**
     * Waits until {@code topic} holds at least {@code count} committed records, then returns all of them (possibly
     * more than {@code count}) with headers.
     */
    public List<ConsumerRecord<byte[], byte[]>> awaitRecords(String topic, int count, Duration timeout) {
        List<ConsumerRecord<byte[], byte[]>> seen = new ArrayList<>();
        awaitCondition(timeout, () -> count + " records in " + topic + ", saw " + seen.size(), () -> {
            seen.clear();
            if (!cluster.kafka().describeTopics(topic).get(topic).isPresent()) {
                return false;
            }
            seen.addAll(readAll(topic, Duration.ofSeconds(10)));
            return seen.size() >= count;
        });
        return seen;
    }

    /** A record's value as UTF-8 text (null for a tombstone). */
    public static String valueText(ConsumerRecord<byte[], byte[]> record) {
        return record.value() == null ? null : new String(record.value(), StandardCharsets.UTF_8);
    }

    /** A record's headers as key to UTF-8 text (last value wins for repeated keys). */
    public static Map<String, String> headerTexts(ConsumerRecord<byte[], byte[]> record) {
        Map<String, String> headers = new LinkedHashMap<>();
        for (Header header : record.headers()) {
            headers.put(header.key(), header.value() == null ? null
                    : new String(header.value(), StandardCharsets.UTF_8));
        }
        return headers;
    }

    // ---- Waiting -------------------------------------------------------------------------------------------

    /**
     * Polls {@code condition} every 200 ms until it holds.
     *
     * @throws AssertionError after {@code timeout}, naming {@code what} was awaited
     */
    public static void awaitCondition(Duration timeout, String what, BooleanSupplier condition) {
        awaitCondition(timeout, () -> what, condition);
    }

    private static void awaitCondition(Duration timeout, Supplier<String> what,
            BooleanSupplier condition) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out after " + timeout.toMillis() + " ms waiting for " + what.get());
            }
            try {
                Thread.sleep(POLL_INTERVAL.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted while waiting for " + what.get(), e);
            }
        }
    }

    private static String describe(ConnectorStateInfo status) {
        if (status == null) {
            return "none (connector unknown)";
        }
        StringBuilder out = new StringBuilder("connector ").append(status.connector().state());
        if (status.connector().trace() != null) {
            out.append(" (").append(status.connector().trace()).append(')');
        }
        status.tasks().forEach(t -> {
            out.append(", task ").append(t.id()).append(' ').append(t.state());
            if (t.trace() != null) {
                out.append(" (").append(t.trace()).append(')');
            }
        });
        return out.toString();
    }
}
