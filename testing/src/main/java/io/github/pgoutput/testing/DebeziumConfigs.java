package io.github.pgoutput.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.FileSystem;
import java.nio.file.FileSystemAlreadyExistsException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The real-world Debezium PostgreSQL connector configurations under {@code debezium-configs/} (see its README: where
 * each comes from and what was substituted), as test data: each file's {@code config} is the map of keys and values a
 * user would PUT to Kafka Connect, every value a string, as written in its source.
 */
public final class DebeziumConfigs {

    /** The resource directory, next to this class. */
    static final String DIRECTORY = "debezium-configs";
    private static final ObjectMapper JSON = new ObjectMapper();

    private DebeziumConfigs() {
    }

    /**
     * One configuration.
     *
     * @param file   the file name, for example {@code 01-dbz-tutorial-0x-schema-whitelist.json}
     * @param source where it was found (repository:path@commit, or a URL)
     * @param era    the Debezium versions it was written for, as the file says
     * @param notes  what was substituted
     * @param config the connector configuration, in the file's order
     */
    public record DebeziumConfig(String file, String source, String era, String notes, Map<String, String> config) {

        public DebeziumConfig {
            Objects.requireNonNull(file, "file");
            config = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(config));
        }

        /** The file name without its extension. */
        public String name() {
            return file.endsWith(".json") ? file.substring(0, file.length() - ".json".length()) : file;
        }
    }

    /** Every configuration, ordered by file name. */
    public static List<DebeziumConfig> all() {
        List<DebeziumConfig> configs = new ArrayList<>();
        forEachFile(file -> configs.add(read(file)));
        configs.sort((a, b) -> a.file().compareTo(b.file()));
        return configs;
    }

    private static DebeziumConfig read(Path file) {
        try (InputStream in = Files.newInputStream(file)) {
            JsonNode root = JSON.readTree(in);
            Map<String, String> config = new LinkedHashMap<>();
            Iterator<Map.Entry<String, JsonNode>> fields = root.path("config").fields();
            while (fields.hasNext()) {
                Map.Entry<String, JsonNode> field = fields.next();
                if (!field.getValue().isTextual()) {
                    throw new IllegalStateException(file.getFileName() + ": config value of " + field.getKey() + " is not a string");
                }
                config.put(field.getKey(), field.getValue().asText());
            }
            if (config.isEmpty()) {
                throw new IllegalStateException(file.getFileName() + " has no config object");
            }
            return new DebeziumConfig(file.getFileName().toString(), root.path("source").asText(), root.path("era").asText(),
                    root.path("notes").asText(), config);
        } catch (IOException e) {
            throw new UncheckedIOException("reading " + file, e);
        }
    }

    /** The files, whether the resources are a directory (a build's classes) or inside a jar. */
    private static void forEachFile(java.util.function.Consumer<Path> action) {
        URL url = DebeziumConfigs.class.getResource(DIRECTORY);
        if (url == null) {
            throw new IllegalStateException(DIRECTORY + " is missing next to " + DebeziumConfigs.class);
        }
        try {
            URI uri = url.toURI();
            if ("jar".equals(uri.getScheme())) {
                FileSystem jar;
                try {
                    jar = FileSystems.newFileSystem(uri, Map.of());
                } catch (FileSystemAlreadyExistsException e) {
                    jar = FileSystems.getFileSystem(uri);
                }
                list(jar.provider().getPath(uri), action);
            } else {
                list(Path.of(uri), action);
            }
        } catch (URISyntaxException e) {
            throw new IllegalStateException(url + " is not a URI", e);
        } catch (IOException e) {
            throw new UncheckedIOException("opening " + url, e);
        }
    }

    private static void list(Path directory, java.util.function.Consumer<Path> action) {
        try (Stream<Path> files = Files.list(directory)) {
            files.filter(f -> f.getFileName().toString().endsWith(".json")).forEach(action);
        } catch (IOException e) {
            throw new UncheckedIOException("listing " + directory, e);
        }
    }
}
