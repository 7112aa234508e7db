package io.github.pgoutput.connect;

import io.github.pgoutput.testing.LoopbackPorts;
import io.github.pgoutput.testing.kafka.ConnectWorkerCluster;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A real Schema Registry with Confluent's API for the Avro ITs: Apicurio Registry 2.6.13.Final (in-memory storage),
 * unpacked into {@code target/apicurio-registry} by the build (pre-integration-test) and run in its own JVM on a free
 * localhost port. Its Confluent-compatible API is under {@code /apis/ccompat/v7}.
 */
final class ApicurioRegistry implements BeforeAllCallback, AfterAllCallback {

    private static final Path HOME = Path.of(System.getProperty("basedir", "."), "target", "apicurio-registry");
    private static final Path RUNNER = HOME.resolve("apicurio-registry-app-2.6.13.Final-runner.jar");
    private static final Duration STARTUP = Duration.ofSeconds(180);

    private final HttpClient http = HttpClient.newHttpClient();
    private Process process;
    private int port;

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        if (!Files.isRegularFile(RUNNER)) {
            throw new IllegalStateException(RUNNER + " is missing; run the ITs through 'mvn verify', whose"
                    + " pre-integration-test phase unpacks io.apicurio:apicurio-registry-app:2.6.13.Final:all:tar.gz there");
        }
        port = LoopbackPorts.take();
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        ProcessBuilder builder = new ProcessBuilder(List.of(java.toString(), "-Xmx384m", "-jar", RUNNER.toString()))
                .directory(HOME.toFile())
                .redirectErrorStream(true)
                .redirectOutput(HOME.resolve("registry-" + port + ".log").toFile());
        builder.environment().put("QUARKUS_HTTP_PORT", Integer.toString(port));
        builder.environment().put("QUARKUS_HTTP_HOST", "127.0.0.1");
        process = builder.start();
        ConnectWorkerCluster.awaitCondition(STARTUP, "Apicurio registry answering on port " + port, () -> {
            if (!process.isAlive()) {
                throw new IllegalStateException("the registry exited with " + process.exitValue() + "; see "
                        + HOME.resolve("registry-" + port + ".log"));
            }
            try {
                return get("/apis/ccompat/v7/subjects").statusCode() == 200;
            } catch (IOException e) {
                return false;
            }
        });
    }

    @Override
    public void afterAll(ExtensionContext context) throws Exception {
        if (process != null) {
            process.destroy();
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        }
    }

    /** The Confluent-compatible API's base URL. */
    String ccompatUrl() {
        return "http://127.0.0.1:" + port + "/apis/ccompat/v7";
    }

    /** Converter settings writing Confluent's wire format (magic byte 0, 4-byte id) through this registry. */
    Map<String, String> converterConfig() {
        Map<String, String> config = new HashMap<>();
        config.put("apicurio.registry.url", "http://127.0.0.1:" + port + "/apis/registry/v2");
        config.put("apicurio.registry.auto-register", "true");
        config.put("apicurio.registry.as-confluent", "true");
        config.put("apicurio.registry.use-id", "contentId");
        config.put("apicurio.registry.headers.enabled", "false");
        return config;
    }

    HttpResponse<String> get(String path) throws IOException {
        try {
            return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).GET().build(),
                    HttpResponse.BodyHandlers.ofString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        }
    }

    HttpResponse<String> put(String path, String json) throws IOException {
        try {
            return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                    .header("Content-Type", "application/json").PUT(HttpRequest.BodyPublishers.ofString(json)).build(),
                    HttpResponse.BodyHandlers.ofString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        }
    }
}
