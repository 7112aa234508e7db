package io.github.pgoutput.packaging;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

/**
 * A distributed Kafka Connect worker ({@code ConnectDistributed}) in its own JVM, so that the only way it can find a
 * plugin is its {@code plugin.path}: its class path is given by the caller and must hold Kafka's jars only. JSON
 * converters without schemas; REST on a free loopback port. Not thread-safe.
 */
final class ConnectWorkerProcess implements AutoCloseable {

    private final Process process;
    private final Path log;
    private final URI rest;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private ConnectWorkerProcess(Process process, Path log, URI rest) {
        this.process = process;
        this.log = log;
        this.rest = rest;
    }

    /**
     * Starts a worker; returns at once (the REST API comes up some seconds later, see {@link #get}).
     *
     * @param classPath  the worker JVM's class path: Kafka Connect's runtime and its dependencies
     * @param pluginPath the worker's {@code plugin.path}
     * @param workDir    receives the worker's properties file and its log ({@code worker.log})
     */
    static ConnectWorkerProcess start(String classPath, Path pluginPath, String bootstrapServers, Path workDir)
            throws IOException {
        int port = freePort();
        Properties props = new Properties();
        props.put("bootstrap.servers", bootstrapServers);
        props.put("group.id", "pgoutput-smoke");
        props.put("config.storage.topic", "smoke-configs");
        props.put("offset.storage.topic", "smoke-offsets");
        props.put("status.storage.topic", "smoke-status");
        props.put("config.storage.replication.factor", "1");
        props.put("offset.storage.replication.factor", "1");
        props.put("status.storage.replication.factor", "1");
        props.put("offset.flush.interval.ms", "1000");
        props.put("key.converter", "org.apache.kafka.connect.json.JsonConverter");
        props.put("key.converter.schemas.enable", "false");
        props.put("value.converter", "org.apache.kafka.connect.json.JsonConverter");
        props.put("value.converter.schemas.enable", "false");
        props.put("listeners", "http://127.0.0.1:" + port);
        props.put("rest.advertised.host.name", "127.0.0.1");
        props.put("plugin.path", pluginPath.toString());
        Path workerProperties = workDir.resolve("worker.properties");
        try (var out = Files.newBufferedWriter(workerProperties, StandardCharsets.UTF_8)) {
            props.store(out, "smoke test worker");
        }
        Path log = workDir.resolve("worker.log");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        // The REST access log (one line per status poll) would bury the lines that explain a failure.
        Process process = new ProcessBuilder(List.of(java, "-Xmx512m", "-cp", classPath,
                "-Dorg.slf4j.simpleLogger.log.org.apache.kafka.connect.runtime.rest.RestServer=warn",
                "org.apache.kafka.connect.cli.ConnectDistributed", workerProperties.toString()))
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        return new ConnectWorkerProcess(process, log, URI.create("http://127.0.0.1:" + port));
    }

    /** GET {@code path}; status and body, or status -1 while the REST API is not reachable yet. */
    Response get(String path) {
        return send(HttpRequest.newBuilder(rest.resolve(path)).GET());
    }

    /** PUT {@code json} to {@code path}. */
    Response put(String path, String json) {
        return send(HttpRequest.newBuilder(rest.resolve(path)).header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString(json)));
    }

    boolean isAlive() {
        return process.isAlive();
    }

    /** The last {@code lines} lines of the worker's output, for failure messages. */
    String logTail(int lines) {
        try {
            List<String> all = Files.readAllLines(log, StandardCharsets.UTF_8);
            return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException | UncheckedIOException e) {
            return "(worker log " + log + " unreadable: " + e + ")";
        }
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }

    private Response send(HttpRequest.Builder request) {
        try {
            HttpResponse<String> response = http.send(request.timeout(Duration.ofSeconds(30)).build(),
                    HttpResponse.BodyHandlers.ofString());
            return new Response(response.statusCode(), response.body());
        } catch (IOException e) {
            return new Response(-1, e.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while calling the worker's REST API", e);
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    /** An HTTP response: status (-1: no connection) and body. */
    record Response(int status, String body) {
    }
}
