package io.github.pgoutput.connect;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Every example in the repository's config/ directory is a valid configuration that uses only known keys. */
class ExampleConfigsTest {

    private static final Path CONFIG_DIR =
            Path.of(System.getProperty("basedir", "."), "..", "config").toAbsolutePath().normalize();

    /** Keys Kafka Connect itself reads from a connector configuration. */
    private static final Set<String> CONNECT_KEYS = Set.of("name", "connector.class", "tasks.max", "key.converter",
            "value.converter", "header.converter", "transforms", "predicates", "errors.tolerance",
            "exactly.once.support", "transaction.boundary", "offsets.storage.topic");

    static Stream<Path> examples() throws IOException {
        try (Stream<Path> files = Files.list(CONFIG_DIR)) {
            List<Path> examples = files.filter(f -> f.toString().endsWith(".properties")).sorted().toList();
            assertThat(examples).as("example configurations in %s", CONFIG_DIR).isNotEmpty();
            return examples.stream();
        }
    }

    @ParameterizedTest
    @MethodSource("examples")
    void exampleIsValidAndUsesOnlyKnownKeys(Path example) throws IOException {
        Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(example, StandardCharsets.UTF_8)) {
            properties.load(reader);
        }
        Map<String, String> config = new HashMap<>();
        properties.stringPropertyNames().forEach(key -> config.put(key, properties.getProperty(key)));

        assertThat(config.keySet()).allSatisfy(key -> assertThat(
                PgOutputSourceConnectorConfig.CONFIG_DEF.names().contains(key) || CONNECT_KEYS.contains(key)
                        || key.startsWith("transforms.") || key.startsWith("predicates."))
                .as("%s in %s is neither a connector key nor a Connect key", key, example.getFileName()).isTrue());
        assertThat(new PgOutputSourceConnector(null).validate(config).configValues())
                .allSatisfy(value -> assertThat(value.errorMessages()).as(value.name()).isEmpty());
        assertThat(config.get("connector.class")).isEqualTo(PgOutputSourceConnector.class.getName());
    }
}
