package io.github.pgoutput.testing.kafka;

import static io.github.pgoutput.testing.kafka.ConnectWorkerCluster.headerTexts;
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

import io.github.pgoutput.testing.Nightly;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.connect.util.clusters.WorkerHandle;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The faults {@link ConnectWorkerCluster} drives, on a cluster of its own with Kafka's FileStreamSourceConnector: a
 * broker outage and a worker leaving. Nightly: the connector's own ITs that stop a broker or a worker exercise the
 * same calls in every build.
 */
@Nightly
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class ConnectWorkerClusterFaultsIT {

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
