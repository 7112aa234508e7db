package io.github.pgoutput.packaging;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.pgoutput.testing.LoopbackPorts;
import io.github.pgoutput.testing.PostgresCluster;
import io.github.pgoutput.testing.kafka.ChildProcesses;
import io.github.pgoutput.testing.kafka.ConnectRest;
import io.github.pgoutput.testing.kafka.KafkaProcesses;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The Confluent Hub archive is complete: unpacked into a directory on a real worker's {@code plugin.path}, with no
 * class of ours on the worker's class path, the connector registers over REST from {@code config/pgoutput-source.json}
 * and streams inserts into two tables of {@code config/postgres-init.sql} from real PostgreSQL 17 into Kafka.
 *
 * <p>The broker and the worker run in JVMs of their own (the testing module's {@link KafkaProcesses}, class path
 * {@code testing/target/kafka.classpath}: Kafka's jars and their dependencies only).
 */
class PluginArchiveSmokeIT {

    private static final String CONNECTOR_CLASS = "io.github.pgoutput.connect.PgOutputSourceConnector";
    private static final Path ARCHIVE = Path.of(System.getProperty("component.archive"));
    private static final Path CONFIG_DIR = Path.of(System.getProperty("config.dir"));
    private static final ObjectMapper JSON = new ObjectMapper();

    private final List<AutoCloseable> started = new ArrayList<>();
    private Path workDir;
    private Process worker;

    @Test
    @Timeout(300)
    void connectorFromTheUnpackedArchiveStreamsChangesIntoKafka() throws Exception {
        workDir = Files.createTempDirectory("pgoutput-smoke-");
        Path pluginPath = Files.createDirectories(workDir.resolve("plugins"));
        unzip(ARCHIVE, pluginPath);

        String classPath = Files.readString(Path.of(System.getProperty("kafka.classpath.file"))).strip();
        assertThat(classPath.split(java.io.File.pathSeparator)).as("the worker's class path")
                .noneMatch(entry -> entry.contains("pgoutput") || entry.contains("postgresql"))
                .anyMatch(entry -> entry.contains("connect-runtime"));

        PostgresCluster postgres = PostgresCluster.start(17, Map.of());
        started.add(postgres);
        postgres.createDatabase("shop");
        try (var connection = postgres.connect("shop"); var statement = connection.createStatement()) {
            statement.execute(Files.readString(CONFIG_DIR.resolve("postgres-init.sql"), StandardCharsets.UTF_8));
        }

        ChildProcesses children = new ChildProcesses();
        started.add(children::stopAll);
        int[] brokerPorts = LoopbackPorts.take(2);
        KafkaProcesses.startBroker(classPath, brokerPorts[0], brokerPorts[1], Map.of(), workDir, children);
        String bootstrap = "127.0.0.1:" + brokerPorts[0];
        int restPort = LoopbackPorts.take();
        worker = KafkaProcesses.startWorker(classPath, bootstrap, restPort, pluginPath, Map.of(), workDir, children);
        ConnectRest rest = new ConnectRest("http://127.0.0.1:" + restPort);
        awaitWorker("the plugin listed by GET /connector-plugins", Duration.ofSeconds(120),
                () -> rest.get("/connector-plugins").body().contains(CONNECTOR_CLASS));

        ObjectNode config = (ObjectNode) JSON.readTree(CONFIG_DIR.resolve("pgoutput-source.json").toFile());
        config.put("database.hostname", postgres.host());
        config.put("database.port", String.valueOf(postgres.port()));
        config.put("database.user", PostgresCluster.SUPERUSER);
        config.remove("database.password");
        config.put("spill.directory", workDir.resolve("spill").toString());
        ConnectRest.Response put = rest.put("/connectors/shop/config", JSON.writeValueAsString(config));
        assertThat(put.status()).as("PUT /connectors/shop/config: %s", put.body()).isIn(200, 201);
        awaitWorker("connector and task RUNNING", Duration.ofSeconds(60), () -> rest.isRunning("shop"));

        // Changes made before the task has created its slot would not be decoded: wait for the slot in use.
        awaitWorker("replication slot shop_connector active", Duration.ofSeconds(60),
                () -> "t".equals(slotActive(postgres)));
        String marker = "smoke-" + UUID.randomUUID();
        postgres.execute("shop",
                "INSERT INTO public.customers (name, email) VALUES ('" + marker + "', '" + marker + "@example.com')",
                "INSERT INTO public.orders (customer_id, status, total) VALUES (2, '" + marker + "', 7.00)");

        Map<String, List<String>> values = new HashMap<>();
        List<String> topics = List.of("shop.public.customers", "shop.public.orders");
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap, ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                ConsumerConfig.GROUP_ID_CONFIG, "smoke-" + UUID.randomUUID()),
                new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            consumer.subscribe(topics);
            long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
            while (System.nanoTime() < deadline
                    && !topics.stream().allMatch(t -> values.getOrDefault(t, List.of()).stream().anyMatch(v -> v.contains(marker)))) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(500))) {
                    String value = record.value() == null ? "" : new String(record.value(), StandardCharsets.UTF_8);
                    values.computeIfAbsent(record.topic(), t -> new ArrayList<>()).add(value);
                }
                assertThat(worker.isAlive()).as("worker alive; log:%n%s", workerLogTail()).isTrue();
            }
        }
        for (String topic : topics) {
            assertThat(values.getOrDefault(topic, List.of())).as("records of %s; worker log:%n%s", topic,
                    workerLogTail()).anyMatch(v -> v.contains(marker));
        }
    }

    @AfterEach
    void stopEverything() throws Exception {
        Collections.reverse(started);
        for (AutoCloseable resource : started) {
            resource.close();
        }
        if (workDir != null) {
            // Kept for a look after a failure; the failure message shows its tail only.
            Path log = workDir.resolve("worker.log");
            if (Files.exists(log)) {
                Files.copy(log, Path.of(System.getProperty("basedir", "."), "target", "smoke-worker.log"),
                        java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            }
            try (Stream<Path> files = Files.walk(workDir)) {
                files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
            }
        }
    }

    private void awaitWorker(String what, Duration timeout, BooleanSupplier done) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!done.getAsBoolean()) {
            assertThat(worker.isAlive()).as("worker process alive while waiting for %s; log:%n%s", what,
                    workerLogTail()).isTrue();
            assertThat(System.nanoTime()).as("waited %s for %s; worker log:%n%s", timeout, what, workerLogTail())
                    .isLessThan(deadline);
            Thread.sleep(500);
        }
    }

    /** The last 80 lines of the worker's log, for failure messages. */
    private String workerLogTail() {
        try {
            List<String> lines = Files.readAllLines(workDir.resolve("worker.log"), StandardCharsets.UTF_8);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 80), lines.size()));
        } catch (IOException | java.io.UncheckedIOException e) {
            return "(worker log unreadable: " + e + ")";
        }
    }

    private static String slotActive(PostgresCluster postgres) {
        try (var connection = postgres.connect("shop"); var statement = connection.createStatement();
                var rows = statement.executeQuery(
                        "SELECT active FROM pg_replication_slots WHERE slot_name = 'shop_connector'")) {
            return rows.next() ? rows.getString(1) : null;
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException("reading pg_replication_slots failed", e);
        }
    }

    private static void unzip(Path archive, Path into) throws IOException {
        try (ZipFile zip = new ZipFile(archive.toFile())) {
            for (ZipEntry entry : Collections.list(zip.entries())) {
                Path target = into.resolve(entry.getName()).normalize();
                assertThat(target.startsWith(into)).as("entry %s stays inside %s", entry.getName(), into).isTrue();
                if (entry.isDirectory()) {
                    Files.createDirectories(target);
                } else {
                    Files.createDirectories(target.getParent());
                    try (InputStream in = zip.getInputStream(entry)) {
                        Files.copy(in, target);
                    }
                }
            }
        }
    }
}
