package io.github.pgoutput.connect;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.pgoutput.testing.Nightly;
import io.github.pgoutput.testing.kafka.ConnectWorkerCluster;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

import io.github.pgoutput.testing.PostgresDatabase;
import io.github.pgoutput.testing.PostgresTest;
import org.apache.kafka.connect.cli.ConnectStandalone;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Issue 5, the bounded-memory test: a 2-million-row table snapshotted by a Connect worker whose heap is capped at
 * 256 MB. The embedded workers share the test JVM, so this one is a standalone worker ({@link ConnectStandalone}) in
 * a forked JVM with {@code -Xmx256m -XX:+ExitOnOutOfMemoryError}, writing to the embedded broker; the table rebuilt
 * from the topic must equal the database and the worker must still be alive.
 */
@Timeout(value = 8, unit = TimeUnit.MINUTES)
@Nightly
class SnapshotHeapIT {

    private static final Logger log = LoggerFactory.getLogger(SnapshotHeapIT.class);
    private static final int ROWS = 2_000_000;

    @RegisterExtension
    static final ConnectWorkerCluster connect = ConnectWorkerCluster.shared();

    @PostgresTest(representative = 18)
    void twoMillionRowsAreSnapshottedByAWorkerWithA256MbHeap(PostgresDatabase db, @TempDir Path dir) throws Exception {
        // In the full matrix (.ci/nightly) one worker cluster serves every version: names per version.
        String name = "heap" + db.majorVersion();
        db.execute("CREATE TABLE big (id bigint PRIMARY KEY, v int NOT NULL)",
                "INSERT INTO big SELECT g, g % 1000 FROM generate_series(1, " + ROWS + ") g", "ANALYZE big");
        Properties worker = new Properties();
        worker.put("bootstrap.servers", connect.bootstrapServers());
        worker.put("key.converter", "org.apache.kafka.connect.json.JsonConverter");
        worker.put("value.converter", "org.apache.kafka.connect.json.JsonConverter");
        worker.put("offset.storage.file.filename", dir.resolve("offsets").toString());
        worker.put("listeners", "http://127.0.0.1:0");
        worker.put("offset.flush.interval.ms", "2000");
        Properties connector = new Properties();
        Map<String, String> config = MixedWorkloadIT.connectorConfig(db, name, "heap_slot");
        config.remove("snapshot.mode"); // the default, initial
        config.put("name", name);
        connector.putAll(config);
        Path workerFile = write(dir.resolve("worker.properties"), worker);
        Path connectorFile = write(dir.resolve("connector.properties"), connector);
        File output = dir.resolve("worker.log").toFile();
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process process = new ProcessBuilder(java, "-Xmx256m", "-XX:+ExitOnOutOfMemoryError", "-cp", System.getProperty("java.class.path"),
                ConnectStandalone.class.getName(), workerFile.toString(), connectorFile.toString())
                .redirectErrorStream(true).redirectOutput(output).start();
        long started = System.nanoTime();
        try (IntTableReplica replica = new IntTableReplica(connect, name + ".public.big", ROWS + 1)) {
            ConnectWorkerCluster.awaitCondition(Duration.ofMinutes(6), "table rebuilt from the topic of the 256 MB worker", () -> {
                assertThat(process.isAlive()).as("the 256 MB worker is alive; its log: %s", tail(output)).isTrue();
                replica.catchUp(Duration.ofSeconds(2));
                return replica.records() >= ROWS && replica.difference(db, "big") == null;
            });
            double seconds = (System.nanoTime() - started) / 1e9;
            log.info("256 MB worker: {} records in {} s ({} rows/s end to end, worker start included)", replica.records(),
                    String.format("%.1f", seconds), String.format("%.0f", replica.records() / seconds));
            assertThat(replica.ops("r")).isEqualTo(ROWS);
            assertThat(replica.markers("last")).isEqualTo(1);
            assertThat(process.isAlive()).as("no OutOfMemoryError").isTrue();
            assertThat(Files.readString(output.toPath())).contains("Snapshot finished: " + ROWS + " row(s)");
        } finally {
            process.destroy();
            process.waitFor(30, TimeUnit.SECONDS);
            process.destroyForcibly();
        }
    }

    private static Path write(Path file, Properties props) throws IOException {
        try (var out = Files.newBufferedWriter(file)) {
            props.store(out, null);
        }
        return file;
    }

    private static String tail(File file) {
        try {
            List<String> lines = Files.readAllLines(file.toPath());
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
        } catch (IOException e) {
            return "(unreadable: " + e.getMessage() + ")";
        }
    }
}
