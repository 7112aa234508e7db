package io.github.pgoutput.connect;

import static io.github.pgoutput.connect.ConnectWorkerCluster.headerTexts;
import static io.github.pgoutput.connect.ConnectWorkerCluster.valueText;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.connect.util.clusters.WorkerHandle;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The specification of {@link ConnectWorkerCluster}, exercised with a connector that ships with Kafka
 * (FileStreamSourceConnector) so that the harness is proven independently of this project's connector: REST
 * validation and configuration, RUNNING status, reading records with headers, a broker outage and a worker leaving.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class ConnectWorkerClusterIT {

    private static final String FILE_SOURCE = "org.apache.kafka.connect.file.FileStreamSourceConnector";
    private static final Duration WAIT = Duration.ofSeconds(60);

    @RegisterExtension
    static final ConnectWorkerCluster connect = ConnectWorkerCluster.withWorkers(2).exactlyOnceSource();

    @TempDir
    Path dir;

    private static Map<String, String> fileSource(Path file, String topic) {
        Map<String, String> config = new HashMap<>();
        config.put("connector.class", FILE_SOURCE);
        config.put("tasks.max", "1");
        config.put("file", file.toString());
        config.put("topic", topic);
        config.put("transforms", "mark");
        config.put("transforms.mark.type", "org.apache.kafka.connect.transforms.InsertHeader");
        config.put("transforms.mark.header", "harness.origin");
        config.put("transforms.mark.value.literal", "file-source");
        return config;
    }

    private static void append(Path file, String... lines) throws IOException {
        Files.writeString(file, String.join("\n", lines) + "\n", StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                StandardOpenOption.APPEND);
    }

    private static List<String> values(List<ConsumerRecord<byte[], byte[]>> records) {
        return records.stream().map(ConnectWorkerCluster::valueText).toList();
    }

    @Test
    void startsWithinTheCiBudget() {
        // Measured on this 2-core machine: see the report; the bound only catches a pathological regression.
        assertThat(connect.startupTime()).isLessThan(Duration.ofSeconds(90));
        assertThat(connect.workers()).hasSize(2);
    }

    @Test
    void reportsValidationErrorsPerKeyOverRest() {
        Map<String, String> valid = fileSource(dir.resolve("in.txt"), "t");
        valid.put("name", "validated");
        Map<String, String> withoutTopic = new HashMap<>(valid);
        withoutTopic.remove("topic");

        assertThat(connect.validationErrors(FILE_SOURCE, withoutTopic)).containsOnlyKeys("topic");
        assertThat(connect.validationErrors(FILE_SOURCE, valid)).isEmpty();
    }

    @Test
    void runsAConnectorConfiguredOverRestAndReadsItsRecordsWithHeaders() throws IOException {
        Path file = dir.resolve("lines.txt");
        append(file, "alpha", "beta", "gamma");
        connect.createTopic("harness-lines", 1);

        connect.configureConnector("lines", fileSource(file, "harness-lines"));
        connect.awaitRunning("lines", 1, WAIT);
        List<ConsumerRecord<byte[], byte[]>> records = connect.awaitRecords("harness-lines", 3, WAIT);

        assertThat(values(records)).containsExactly("alpha", "beta", "gamma");
        assertThat(headerTexts(records.get(0))).containsEntry("harness.origin", "file-source");
        connect.deleteConnector("lines");
    }

    @Test
    void readsAndAltersStoredSourceOffsetsOverRest() throws IOException {
        Path file = dir.resolve("offsets.txt");
        append(file, "first", "second");
        connect.createTopic("harness-offsets", 1);
        connect.configureConnector("offsets", fileSource(file, "harness-offsets"));
        connect.awaitRunning("offsets", 1, WAIT);
        connect.awaitRecords("harness-offsets", 2, WAIT);
        Map<String, String> partition = Map.of("filename", file.toString());
        long fileSize = Files.size(file);
        ConnectWorkerCluster.awaitCondition(WAIT, "offset of " + file + " at its end (" + fileSize + ")", () -> {
            Map<String, ?> offset = connect.sourceOffsets("offsets").get(partition);
            return offset != null && ((Number) offset.get("position")).longValue() == fileSize;
        });

        connect.stopConnector("offsets");
        connect.awaitStatus("offsets", "STOPPED", status -> "STOPPED".equals(status.connector().state()), WAIT);
        connect.alterSourceOffset("offsets", partition, Map.of("position", 0L));
        connect.resumeConnector("offsets");
        connect.awaitRunning("offsets", 1, WAIT);

        // Rewound to the start of the file, the source reads both lines again.
        assertThat(values(connect.awaitRecords("harness-offsets", 4, WAIT)))
                .containsExactly("first", "second", "first", "second");
        connect.deleteConnector("offsets");
    }

    @Test
    void deliversRecordsWrittenWhileTheBrokerWasDown() throws IOException {
        Path file = dir.resolve("outage.txt");
        append(file, "before");
        connect.createTopic("harness-outage", 1);
        connect.configureConnector("outage", fileSource(file, "harness-outage"));
        connect.awaitRunning("outage", 1, WAIT);
        connect.awaitRecords("harness-outage", 1, WAIT);

        connect.stopBroker();
        append(file, "during");
        connect.startBroker();
        append(file, "after");

        assertThat(values(connect.awaitRecords("harness-outage", 3, WAIT)))
                .containsExactly("before", "during", "after");
        connect.deleteConnector("outage");
    }

    @Test
    void movesTheTaskToAnotherWorkerWhenItsWorkerStops() throws IOException {
        Path file = dir.resolve("failover.txt");
        append(file, "one");
        connect.createTopic("harness-failover", 1);
        connect.configureConnector("failover", fileSource(file, "harness-failover"));
        String firstWorker = connect.awaitRunning("failover", 1, WAIT).tasks().get(0).workerId();
        connect.awaitRecords("harness-failover", 1, WAIT);

        WorkerHandle running = connect.workers().stream()
                .filter(w -> firstWorker.endsWith(":" + w.url().getPort())).findFirst().orElseThrow();
        connect.stopWorker(running);
        WorkerHandle replacement = connect.addWorker();
        connect.awaitStatus("failover", "RUNNING on a worker other than " + firstWorker,
                status -> ConnectWorkerCluster.isRunning(status, 1)
                        && !status.tasks().get(0).workerId().equals(firstWorker), WAIT);
        append(file, "two");

        assertThat(connect.workers()).hasSize(2).contains(replacement).doesNotContain(running);
        // The file source keeps its own offset, so the moved task continues after "one" instead of repeating it.
        assertThat(values(connect.awaitRecords("harness-failover", 2, WAIT))).containsExactly("one", "two");
        connect.deleteConnector("failover");
    }
}
