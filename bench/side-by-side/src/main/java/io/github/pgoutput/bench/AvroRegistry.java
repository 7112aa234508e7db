package io.github.pgoutput.bench;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.github.pgoutput.testing.kafka.ChildProcesses;

/**
 * Apicurio Registry 2.6.13 (in-memory storage) in its own JVM, for {@code --converter avro}: unpacked by
 * {@code bench/apicurio-plugin} into its {@code target/apicurio-registry}, whose {@code target/plugin} holds the Avro
 * converter the workers load. The converters write Confluent's wire format through the registry.
 */
final class AvroRegistry {

    static final String CONVERTER = "io.apicurio.registry.utils.converter.AvroConverter";

    private final int port;

    private AvroRegistry(int port) {
        this.port = port;
    }

    /** Starts the registry on {@code port} and returns once its Confluent API answers (up to 3 minutes). */
    static AvroRegistry start(Path root, Path workDir, ChildProcesses children, int port) throws IOException,
            InterruptedException {
        Path home = root.resolve("bench/apicurio-plugin/target/apicurio-registry");
        Path runner = home.resolve("apicurio-registry-app-2.6.13.Final-runner.jar");
        if (!Files.isRegularFile(runner)) {
            throw new IllegalStateException(runner + " is missing: build bench/apicurio-plugin first"
                    + " (mvn -f bench/apicurio-plugin/pom.xml package; bench/side-by-side.sh does so for --converter avro)");
        }
        Process process = children.start("schema registry", List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-Xmx384m", "-Dquarkus.http.port=" + port, "-Dquarkus.http.host=127.0.0.1", "-jar",
                runner.toString()), workDir.resolve("registry.log"));
        AvroRegistry registry = new AvroRegistry(port);
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
        HttpClient http = HttpClient.newHttpClient();
        while (true) {
            if (!process.isAlive()) {
                throw new IllegalStateException("the registry exited with " + process.exitValue() + "; see "
                        + workDir.resolve("registry.log"));
            }
            try {
                HttpResponse<Void> answer = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                        + "/apis/ccompat/v7/subjects")).GET().build(), HttpResponse.BodyHandlers.discarding());
                if (answer.statusCode() == 200) {
                    return registry;
                }
            } catch (IOException e) {
                // not listening yet
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the registry did not answer on port " + port + " within 3 minutes");
            }
            Thread.sleep(500);
        }
    }

    /** The plugin folder holding the Avro converter, for {@code plugin.path}. */
    static Path pluginPath(Path root) {
        return root.resolve("bench/apicurio-plugin/target/plugin");
    }

    /** A connector's key and value converter settings: Avro in Confluent's wire format through this registry. */
    Map<String, String> connectorConverters() {
        Map<String, String> config = new LinkedHashMap<>();
        for (String side : List.of("key", "value")) {
            config.put(side + ".converter", CONVERTER);
            config.put(side + ".converter.apicurio.registry.url", "http://127.0.0.1:" + port + "/apis/registry/v2");
            config.put(side + ".converter.apicurio.registry.auto-register", "true");
            config.put(side + ".converter.apicurio.registry.as-confluent", "true");
            config.put(side + ".converter.apicurio.registry.use-id", "contentId");
            config.put(side + ".converter.apicurio.registry.headers.enabled", "false");
        }
        return config;
    }
}
