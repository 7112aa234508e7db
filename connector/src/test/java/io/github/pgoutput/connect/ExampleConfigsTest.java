package io.github.pgoutput.connect;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.pgoutput.testing.PostgresDatabase;
import io.github.pgoutput.testing.PostgresTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every example in the repository's config/ directory is a valid configuration that uses only known keys, and the
 * example database script runs on real PostgreSQL and sets up what the examples name.
 */
class ExampleConfigsTest {

    private static final Path CONFIG_DIR =
            Path.of(System.getProperty("basedir", "."), "..", "config").toAbsolutePath().normalize();

    static Stream<Path> examples() throws IOException {
        try (Stream<Path> files = Files.list(CONFIG_DIR)) {
            List<Path> examples = files.filter(f -> f.toString().endsWith(".properties") || f.toString().endsWith(".json"))
                    .sorted().toList();
            assertThat(examples).as("example configurations in %s", CONFIG_DIR).isNotEmpty();
            return examples.stream();
        }
    }

    @ParameterizedTest
    @MethodSource("examples")
    void exampleIsValidAndUsesOnlyKnownKeys(Path example) throws IOException {
        Map<String, String> config = example.toString().endsWith(".json") ? loadJson(example) : loadProperties(example);

        assertThat(IgnoredKeys.of(config)).as("keys of %s that nothing reads", example.getFileName()).isEmpty();
        assertThat(new PgOutputSourceConnector(null).validate(config).configValues())
                .allSatisfy(value -> assertThat(value.errorMessages()).as(value.name()).isEmpty());
        assertThat(config.get("connector.class")).isEqualTo(PgOutputSourceConnector.class.getName());
    }

    @Test
    void jsonExamplesAreRestBodiesOfStringsAndAvroOnesNameARegistry() throws IOException {
        Map<String, String> plain = loadJson(CONFIG_DIR.resolve("pgoutput-source.json"));
        Map<String, String> confluent = loadJson(CONFIG_DIR.resolve("pgoutput-source-avro.json"));
        Map<String, String> apicurio = loadJson(CONFIG_DIR.resolve("pgoutput-source-apicurio.json"));

        assertThat(confluent).containsEntry("value.converter", "io.confluent.connect.avro.AvroConverter")
                .containsEntry("key.converter", "io.confluent.connect.avro.AvroConverter")
                .containsKeys("value.converter.schema.registry.url", "key.converter.schema.registry.url");
        assertThat(apicurio).containsEntry("value.converter", "io.apicurio.registry.utils.converter.AvroConverter")
                .containsEntry("value.converter.apicurio.registry.as-confluent", "true")
                .containsKey("value.converter.apicurio.registry.url");
        // The Avro variants differ from the plain example in their converters only.
        for (Map<String, String> variant : List.of(confluent, apicurio)) {
            assertThat(withoutConverters(variant)).isEqualTo(withoutConverters(plain));
        }
    }

    @PostgresTest
    @Timeout(60)
    void databaseScriptRunsAndCreatesWhatTheExamplesName(PostgresDatabase db) throws IOException, SQLException {
        String script = Files.readString(CONFIG_DIR.resolve("postgres-init.sql"), StandardCharsets.UTF_8);
        try (Connection connection = db.connect(); Statement statement = connection.createStatement()) {
            statement.execute(script);
        }

        Map<String, String> example = loadJson(CONFIG_DIR.resolve("pgoutput-source.json"));
        assertThat(db.queryValue("SELECT rolreplication FROM pg_roles WHERE rolname = '"
                + example.get("database.user") + "'")).isEqualTo("t");
        assertThat(db.query("SELECT schemaname || '.' || tablename FROM pg_publication_tables WHERE pubname = '"
                + example.get("publication.name") + "' ORDER BY 1"))
                .extracting(row -> row.get(0))
                .containsExactly("public.customers", "public.order_lines", "public.orders")
                .allSatisfy(table -> assertThat(List.of(example.get("table.include.list").split(",")))
                        .anyMatch(table::matches));
        assertThat(db.queryValue("SELECT relreplident FROM pg_class WHERE oid = 'public.customers'::regclass"))
                .isEqualTo("f");
        Map<String, String> signals = loadJson(CONFIG_DIR.resolve("pgoutput-source-signals.json"));
        assertThat(db.query("SELECT schemaname || '.' || tablename FROM pg_publication_tables WHERE pubname = '"
                + signals.get("publication.name") + "' ORDER BY 1")).extracting(row -> row.get(0))
                .contains(signals.get("signal.data.collection"));
        assertThat(db.queryValue("SELECT has_table_privilege('" + example.get("database.user")
                + "', 'public.order_lines', 'SELECT')")).isEqualTo("t");
        // The script's role is docs/setup-postgresql.md's snapshot role: enough for what each example does, as the
        // live checks of validation see it.
        for (Map<String, String> config : List.of(example, signals)) {
            Map<String, String> pointed = new HashMap<>(config);
            pointed.put("database.hostname", db.host());
            pointed.put("database.port", Integer.toString(db.port()));
            pointed.put("database.dbname", db.name());
            assertThat(new PgOutputSourceConnector().validate(pointed).configValues())
                    .allSatisfy(value -> assertThat(value.errorMessages()).as(value.name()).isEmpty());
        }
    }

    private static Map<String, String> loadProperties(Path example) throws IOException {
        Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(example, StandardCharsets.UTF_8)) {
            properties.load(reader);
        }
        Map<String, String> config = new HashMap<>();
        properties.stringPropertyNames().forEach(key -> config.put(key, properties.getProperty(key)));
        return config;
    }

    /** A body for {@code PUT /connectors/<name>/config}: one JSON object whose values are all strings. */
    private static Map<String, String> loadJson(Path example) throws IOException {
        JsonNode root = new ObjectMapper().readTree(example.toFile());
        assertThat(root.isObject()).as("%s is a JSON object", example.getFileName()).isTrue();
        Map<String, String> config = new HashMap<>();
        root.fields().forEachRemaining(field -> {
            assertThat(field.getValue().isTextual()).as("%s in %s is a JSON string", field.getKey(),
                    example.getFileName()).isTrue();
            config.put(field.getKey(), field.getValue().textValue());
        });
        return config;
    }

    private static Map<String, String> withoutConverters(Map<String, String> config) {
        Map<String, String> rest = new HashMap<>(config);
        rest.keySet().removeIf(key -> key.startsWith("key.converter") || key.startsWith("value.converter"));
        return rest;
    }
}
