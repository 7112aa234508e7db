package io.github.pgoutput.testing.kafka;

import static io.github.pgoutput.testing.kafka.ConnectWorkerCluster.headerTexts;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.pgoutput.testing.Nightly;
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
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The specification of {@link ConnectWorkerCluster}'s shared cluster, exercised with a connector that ships with
 * Kafka (FileStreamSourceConnector) so that the harness is proven independently of this project's connector: REST
 * validation and configuration, RUNNING status, reading records with headers, stored offsets, and the rule that
 * each test uses connector names of its own ({@link ConnectWorkerClusterFaultsIT}: a broker outage and a worker
 * leaving, on a cluster of its own).
 */
@Nightly
@Timeout(value = 5, unit = TimeUnit.MINUTES)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ConnectWorkerClusterIT {

    private static final String FILE_SOURCE = "org.apache.kafka.connect.file.FileStreamSourceConnector";
    private static final Duration WAIT = Duration.ofSeconds(60);

    @RegisterExtension
    static final ConnectWorkerCluster connect = ConnectWorkerCluster.shared();

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
        assertThat(connect.workers()).hasSize(1);
    }

    @Test
    @Order(1)
    void aTestConfiguresAConnectorOfItsOwn() throws IOException {
        Path file = dir.resolve("claim.txt");
        append(file, "x");
        connect.createTopic("harness-claim", 1);
        connect.configureConnector("claimed", fileSource(file, "harness-claim"));
        connect.awaitRunning("claimed", 1, WAIT);
    }

    @Test
    @Order(2)
    void theConnectorsOfAnEarlierTestAreDeletedAndTheirNamesStayTaken() throws IOException {
        assertThat(connect.restGet("connectors")).as("connectors left after the earlier test").doesNotContain("claimed");
        Path file = dir.resolve("reuse.txt");
        append(file, "y");

        assertThatThrownBy(() -> connect.configureConnector("claimed", fileSource(file, "harness-claim")))
                .isInstanceOf(AssertionError.class).hasMessageContaining("connector name 'claimed' was already used by")
                .hasMessageContaining("aTestConfiguresAConnectorOfItsOwn");
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
}
