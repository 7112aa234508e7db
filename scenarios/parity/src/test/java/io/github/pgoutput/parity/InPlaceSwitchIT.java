package io.github.pgoutput.parity;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.pgoutput.connect.PgOutputSourceConnector;
import io.github.pgoutput.testing.Nightly;
import io.github.pgoutput.testing.LoopbackPorts;
import io.github.pgoutput.testing.PostgresCluster;
import io.github.pgoutput.testing.PostgresDatabase;
import io.github.pgoutput.testing.kafka.ChildProcesses;
import io.github.pgoutput.testing.kafka.ConnectRest;
import io.github.pgoutput.testing.kafka.ConnectWorkerCluster;
import io.github.pgoutput.testing.kafka.KafkaProcesses;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A Debezium user's path to this connector: keep the running connector's name, slot and topics and change its
 * {@code connector.class} with one {@code PUT /connectors/<name>/config}, while the application goes on committing
 * ({@link SwitchWorkload}). The configurations are real-world ones ({@code testing}'s {@code debezium-configs}),
 * repointed at the test server; Debezium comes from the plugin folder {@code bench/debezium-plugin} builds, whose
 * version is set there only. A consumer reads the change topics throughout ({@link TopicCollector}), and
 * {@link SwitchTally} counts what it got against what was committed.
 */
@Timeout(value = 8, unit = TimeUnit.MINUTES)
class InPlaceSwitchIT {

    private static final String OURS = PgOutputSourceConnector.class.getName();
    private static final String CONFIGS = "io/github/pgoutput/testing/debezium-configs/";
    private static final Duration WAIT = Duration.ofSeconds(150);
    /** How long each connector streams the workload before the next step: a few hundred transactions. */
    private static final Duration STRETCH = Duration.ofSeconds(6);
    /** How long the tally waits for late records once every committed event has arrived. */
    private static final Duration SETTLE = Duration.ofSeconds(3);
    private static final ObjectMapper JSON = new ObjectMapper();

    private static PostgresCluster postgres;

    @BeforeAll
    static void startPostgres() {
        postgres = PostgresCluster.start(Integer.parseInt(System.getProperty("parity.pg.version", "17")), Map.of());
    }

    @AfterAll
    static void stopPostgres() {
        if (postgres != null) {
            postgres.close();
        }
    }

    /**
     * Debezium, then ours (the switch), then Debezium again (the rollback docs/migrating-from-debezium.md describes),
     * then ours again, one PUT each under a running workload. Debezium stops cleanly at each switch, so nothing may
     * come twice across it; across the rollback Debezium sends again what this connector sent after the position it
     * had confirmed to the slot, which is counted. The switch back to ours uses the configuration of the first switch.
     */
    @Test
    void onePutSwitchesARunningDebeziumConnectorWithNothingMissingAndNothingTwiceAndTheRollbackLosesNothing() throws Exception {
        PostgresDatabase db = database("switch_clean", "inventory");
        Map<String, String> debezium = realWorldConfig("06-dbz-kstreams-pgoutput-publication.json", db);
        Map<String, String> ours = switched(debezium);
        String name = debezium.get("name");
        List<String> topics = topics(debezium, "inventory");
        try (ConnectWorkerCluster connect = jsonWorkers(ConnectWorkerCluster.withWorkers(1)
                .workerProperty("plugin.path", PluginFolders.pluginPath(PluginFolders.debezium())))) {
            connect.start();
            ConnectRest rest = connect.rest();
            put(rest, name, debezium);
            connect.awaitRunning(name, 1, WAIT);
            topics.forEach(topic -> connect.awaitRecords(topic, 1, WAIT));

            try (SwitchWorkload workload = new SwitchWorkload(db, "inventory");
                 TopicCollector consumer = new TopicCollector(connect.bootstrapServers(), topics)) {
                workload.start();
                awaitStreamed(consumer, false);
                Thread.sleep(STRETCH.toMillis());
                Duration toOurs = switchTo(connect, consumer, name, ours, true);
                Map<String, ?> debeziumStopped = connect.sourceOffsets(name).get(Map.of("server", debezium.get("topic.prefix")));
                Thread.sleep(STRETCH.toMillis());
                Duration backToDebezium = switchTo(connect, consumer, name, rolledBack(debezium), false);
                Thread.sleep(STRETCH.toMillis());
                Duration toOursAgain = switchTo(connect, consumer, name, ours, true);
                Thread.sleep(STRETCH.toMillis());
                Set<String> committed = workload.stop();
                SwitchTally tally = awaitEveryEvent(consumer, committed);

                report("clean switch, rollback and switch again (" + workload.transactions() + " transactions)",
                        "Debezium's offset at the switch " + debeziumStopped + "; first record of ours " + toOurs.toMillis()
                                + " ms after the PUT; of Debezium after the rollback "
                                + backToDebezium.toMillis() + " ms; of ours after switching again " + toOursAgain.toMillis() + " ms",
                        tally);
                assertThat(tally.runs()).as("Debezium, ours, Debezium, ours").hasSize(4);
                assertThat(tally.missing()).as("committed events in no record").isEmpty();
                assertThat(tally.unexpected()).isEmpty();
                assertThat(tally.duplicates(0, 1)).as("Debezium's records sent again by ours after the switch").isZero();
                assertThat(tally.duplicates(2, 3)).as("Debezium's records sent again by ours after switching again").isZero();
                assertThat(tally.allDuplicates()).as("duplicates other than across the rollback")
                        .isEqualTo(tally.duplicates(1, 2));
                assertThat(tally.ourSnapshotRows()).as("snapshot rows of ours: the switch takes no snapshot").isZero();
            }
        }
    }

    /**
     * Debezium's worker is killed (SIGKILL, no offset commit, no goodbye to PostgreSQL), then the connector is switched.
     * Debezium confirms to the slot, and Connect stores, only what is behind what it sent; what it sent after its last
     * stored offset may come again, nothing else may, and nothing may be missing. Debezium runs on a worker in a JVM of
     * its own; the worker that takes over the connector has no Debezium, so Debezium cannot run again in between.
     */
    @Test
    @Nightly
    void afterDebeziumsWorkerIsKilledTheSwitchMissesNothingAndRepeatsAtMostWhatDebeziumSentAfterItsStoredOffset() throws Exception {
        PostgresDatabase db = database("switch_crash", "public");
        Map<String, String> debezium = realWorldConfig("32-skipped-truncate-decimal-string.json", db);
        String name = "postgres-connector";
        List<String> topics = topics(debezium, "public");
        String group = "switch-crash";
        Map<String, String> groupSettings = Map.of("group.id", group, "config.storage.topic", group + "-configs",
                "offset.storage.topic", group + "-offsets", "status.storage.topic", group + "-status",
                "scheduled.rebalance.max.delay.ms", "1000");
        ConnectWorkerCluster withoutDebezium = jsonWorkers(ConnectWorkerCluster.withWorkers(0));
        groupSettings.forEach(withoutDebezium::workerProperty);
        ChildProcesses children = new ChildProcesses();
        try (ConnectWorkerCluster connect = withoutDebezium) {
            connect.start();
            int restPort = LoopbackPorts.take();
            Path workDir = Files.createDirectories(DebeziumParityIT.outputDirectory().resolve("in-place-switch").resolve("debezium-worker"));
            Map<String, String> workerSettings = new LinkedHashMap<>(groupSettings);
            // Offsets stored every 5 s, so that Debezium has sent records past its stored offset when it is killed.
            workerSettings.put("offset.flush.interval.ms", "5000");
            Process debeziumWorker = KafkaProcesses.startWorker(kafkaClassPath(), connect.bootstrapServers(), restPort,
                    PluginFolders.debezium(), workerSettings, workDir, children);
            new ConnectRest("http://127.0.0.1:" + restPort).register(name, JSON.valueToTree(debezium), WAIT);
            topics.forEach(topic -> connect.awaitRecords(topic, 1, WAIT));

            try (SwitchWorkload workload = new SwitchWorkload(db, "public");
                 TopicCollector consumer = new TopicCollector(connect.bootstrapServers(), topics)) {
                workload.start();
                awaitStreamed(consumer, false);
                Thread.sleep(STRETCH.toMillis());
                debeziumWorker.destroyForcibly().waitFor();
                long killedAfter = workload.transactions();

                connect.addWorker();
                // The surviving worker takes the connector over and cannot start Debezium's class.
                connect.awaitStatus(name, "FAILED on the worker without Debezium", s -> "FAILED".equals(s.connector().state()), WAIT);
                Duration toOurs = switchTo(connect, consumer, name, switched(debezium), true);
                Thread.sleep(STRETCH.toMillis());
                Set<String> committed = workload.stop();
                SwitchTally tally = awaitEveryEvent(consumer, committed);
                Map<String, ?> stored = connect.sourceOffsets(name).get(Map.of("server", debezium.get("topic.prefix")));
                long sentAfterStoredOffset = consumer.seen().stream().filter(s -> !s.ours() && !s.op().equals("r"))
                        .filter(s -> isAfter(s.source(), stored)).count();

                report("switch after Debezium's worker was killed after transaction " + killedAfter + " (" + workload.transactions()
                                + " transactions)", "first record of ours " + toOurs.toMillis() + " ms after the PUT; Debezium's stored offset "
                                + stored + "; Debezium's records after it: " + sentAfterStoredOffset, tally);
                assertThat(tally.runs()).as("Debezium, ours").hasSize(2);
                assertThat(tally.missing()).as("committed events in no record").isEmpty();
                assertThat(tally.unexpected()).isEmpty();
                assertThat(tally.duplicates(0, 1)).as("Debezium's records sent again by ours")
                        .isLessThanOrEqualTo(sentAfterStoredOffset);
                assertThat(tally.allDuplicates()).isEqualTo(tally.duplicates(0, 1));
                assertThat(tally.ourSnapshotRows()).isZero();
            }
        } finally {
            children.stopAll();
        }
    }

    // ---- Steps -------------------------------------------------------------------------------------------------

    private static PostgresDatabase database(String name, String schema) {
        postgres.createDatabase(name);
        PostgresDatabase db = new PostgresDatabase(postgres, name);
        db.execute(SwitchWorkload.setup(schema).toArray(String[]::new));
        return db;
    }

    /**
     * {@code file}'s configuration, its database coordinates pointed at {@code db}, and topic creation for this broker,
     * which does not create topics on demand. Everything else as its source wrote it.
     */
    static Map<String, String> realWorldConfig(String file, PostgresDatabase db) throws IOException {
        JsonNode config;
        try (InputStream in = InPlaceSwitchIT.class.getClassLoader().getResourceAsStream(CONFIGS + file)) {
            if (in == null) {
                throw new IOException(CONFIGS + file + " is not on the test class path (testing module)");
            }
            config = JSON.readTree(in).get("config");
        }
        Map<String, String> map = new LinkedHashMap<>();
        config.properties().forEach(e -> map.put(e.getKey(), e.getValue().asText()));
        map.put("database.hostname", db.host());
        map.put("database.port", Integer.toString(db.port()));
        map.put("database.user", db.user());
        map.put("database.dbname", db.name());
        map.put("topic.creation.default.replication.factor", "1");
        map.put("topic.creation.default.partitions", "1");
        return map;
    }

    /** The same configuration with this connector's class: the one change a user makes. */
    private static Map<String, String> switched(Map<String, String> config) {
        Map<String, String> switched = new LinkedHashMap<>(config);
        switched.put("connector.class", OURS);
        return switched;
    }

    /**
     * Debezium's configuration for the rollback: with {@code offset.mismatch.strategy=trust_greater_lsn} (Debezium 3.4
     * and later), Debezium streams from the slot's position, which this connector moved past Debezium's stored offset;
     * without it Debezium refuses to start ("no longer available on the server").
     */
    private static Map<String, String> rolledBack(Map<String, String> debezium) {
        Map<String, String> config = new LinkedHashMap<>(debezium);
        config.put("offset.mismatch.strategy", "trust_greater_lsn");
        return config;
    }

    private static List<String> topics(Map<String, String> config, String schema) {
        String prefix = config.get("topic.prefix");
        return List.of(prefix + "." + schema + ".orders", prefix + "." + schema + ".categories");
    }

    /** Workers that write JSON without schemas, as most Debezium deployments do. */
    private static ConnectWorkerCluster jsonWorkers(ConnectWorkerCluster cluster) {
        return cluster.workerProperty("key.converter", "org.apache.kafka.connect.json.JsonConverter")
                .workerProperty("key.converter.schemas.enable", "false")
                .workerProperty("value.converter", "org.apache.kafka.connect.json.JsonConverter")
                .workerProperty("value.converter.schemas.enable", "false");
    }

    /** {@code PUT /connectors/<name>/config}; a rebalance under way (409) is waited out, any other refusal fails. */
    private static void put(ConnectRest rest, String name, Map<String, String> config) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (true) {
            ConnectRest.Response response = rest.put("connectors/" + name + "/config", JSON.valueToTree(config).toString());
            if (response.ok()) {
                return;
            }
            if (response.status() != 409 || System.nanoTime() > deadline) {
                throw new AssertionError("PUT /connectors/" + name + "/config with connector.class " + config.get("connector.class")
                        + " answered " + response.status() + ": " + response.body());
            }
            Thread.sleep(500);
        }
    }

    /**
     * One PUT with {@code config}, then waits until the connector and its task run and a record of the new class
     * ({@code ours} or Debezium's) arrives. Returns the time from the PUT to that record.
     */
    private static Duration switchTo(ConnectWorkerCluster connect, TopicCollector consumer, String name, Map<String, String> config,
                                     boolean ours) throws InterruptedException {
        int before = consumer.seen().size();
        long started = System.nanoTime();
        put(connect.rest(), name, config);
        connect.awaitRunning(name, 1, WAIT);
        long deadline = started + WAIT.toNanos();
        while (true) {
            List<TopicCollector.Seen> seen = consumer.seen();
            for (TopicCollector.Seen record : seen.subList(before, seen.size())) {
                if (record.ours() == ours) {
                    return Duration.ofNanos(record.arrived() - started);
                }
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("no record of " + (ours ? "ours" : "Debezium") + " within " + WAIT.toSeconds()
                        + " s of the PUT; status " + connect.status(name));
            }
            Thread.sleep(100);
        }
    }

    private static void awaitStreamed(TopicCollector consumer, boolean ours) {
        ConnectWorkerCluster.awaitCondition(WAIT, "a streamed record of " + (ours ? "ours" : "Debezium"),
                () -> consumer.seen().stream().anyMatch(s -> s.ours() == ours && !s.op().equals("r")));
    }

    /** Waits until every committed event is in the topics (or the wait ends), then tallies. */
    private static SwitchTally awaitEveryEvent(TopicCollector consumer, Set<String> committed) {
        long deadline = System.nanoTime() + WAIT.toNanos();
        SwitchTally tally = SwitchTally.of(consumer.seen(), committed);
        while (!tally.missing().isEmpty() && System.nanoTime() < deadline) {
            try {
                Thread.sleep(500);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted", e);
            }
            tally = SwitchTally.of(consumer.seen(), committed);
        }
        // Records still on their way once every event is there can only be duplicates: give them time to arrive.
        try {
            Thread.sleep(SETTLE.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
        return SwitchTally.of(consumer.seen(), committed);
    }

    /**
     * Whether Debezium's record (its {@code source} block) lies after Debezium's {@code stored} offset: in a transaction
     * after the last one the offset shows complete ({@code source.sequence} names the last commit before the record), or
     * in the transaction the offset stopped inside, past its {@code lsn}.
     */
    static boolean isAfter(JsonNode source, Map<String, ?> stored) {
        long lastCommit = ((Number) stored.get("lsn_commit")).longValue();
        long lsn = ((Number) stored.get("lsn")).longValue();
        long txId = ((Number) stored.get("txId")).longValue();
        JsonNode sequence;
        try {
            sequence = JSON.readTree(source.path("sequence").asText());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        long recordLastCommit = sequence.get(0).isNull() ? -1 : Long.parseLong(sequence.get(0).asText());
        if (recordLastCommit != lastCommit) {
            return recordLastCommit > lastCommit;
        }
        return source.path("txId").asLong() != txId || source.path("lsn").asLong() > lsn;
    }

    private static String kafkaClassPath() throws IOException {
        String file = System.getProperty("kafka.classpath.file");
        if (file == null || file.isBlank()) {
            throw new IllegalStateException("-Dkafka.classpath.file is not set; run the test through Maven (parity module)");
        }
        return Files.readString(Paths.get(file)).strip();
    }

    private static void report(String scenario, String figures, SwitchTally tally) {
        System.out.println("in-place switch, " + scenario + ": " + figures + "; " + tally.summary());
    }
}
