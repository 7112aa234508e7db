package io.github.pgoutput.parity;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * The Connect plugin folders the build prepares for this module's tests, each named by a system property that the
 * failsafe configuration sets: Debezium's PostgreSQL connector ({@code -Ddebezium.plugin.path}, built by
 * {@code bench/debezium-plugin}; its jars also hold Debezium's SMTs) and Debezium's JDBC sink
 * ({@code -Djdbc.sink.plugin.path}, its plugin archive unpacked by this module's build).
 */
final class PluginFolders {

    static final String DEBEZIUM_PROPERTY = "debezium.plugin.path";
    static final String JDBC_SINK_PROPERTY = "jdbc.sink.plugin.path";

    private PluginFolders() {
    }

    /** The directory holding {@code debezium-connector-postgres/}. */
    static Path debezium() {
        return folder(DEBEZIUM_PROPERTY, "debezium-connector-postgres",
                "build bench/debezium-plugin (mvn -f bench/debezium-plugin/pom.xml package)");
    }

    /** The directory holding {@code debezium-connector-jdbc/}. */
    static Path jdbcSink() {
        return folder(JDBC_SINK_PROPERTY, "debezium-connector-jdbc",
                "run the parity module's build up to pre-integration-test, which unpacks the sink's plugin archive");
    }

    /** A worker's {@code plugin.path} value listing {@code folders}. */
    static String pluginPath(Path... folders) {
        return Arrays.stream(folders).map(Path::toString).collect(Collectors.joining(","));
    }

    private static Path folder(String property, String plugin, String howToBuild) {
        String value = System.getProperty(property);
        if (value == null || value.isBlank()) {
            throw new IllegalStateException("-D" + property + " is not set; run the test through Maven (parity module)");
        }
        Path path = Paths.get(value).toAbsolutePath().normalize();
        if (!Files.isDirectory(path.resolve(plugin))) {
            throw new UncheckedIOException(new IOException("no plugin folder at " + path.resolve(plugin) + "; " + howToBuild));
        }
        return path;
    }
}
