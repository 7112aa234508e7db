package io.github.pgoutput.connect;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.pgoutput.connect.config.IgnoredKeys;
import io.github.pgoutput.testing.PostgresDatabase;
import io.github.pgoutput.testing.PostgresTest;
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
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every example in the repository's config/ directory is a valid configuration that uses only known keys, agrees with
 * {@code pgoutput-source.json} on every key but those of its own purpose, points at a server a user without Docker has
 * ({@code localhost}) while the registration command of {@code docker-compose.yml} points it at the Compose services,
 * and the example database script runs on real PostgreSQL and sets up what the examples name.
 */
class ExampleConfigsTest {

    private static final Path CONFIG_DIR =
            Path.of(System.getProperty("basedir", "."), "..", "config").toAbsolutePath().normalize();
    private static final String BASE_EXAMPLE = "pgoutput-source.json";
    private static final String JSON_CONVERTER = "org.apache.kafka.connect.json.JsonConverter";

    /**
     * What each example is for: the keys (or key prefixes) in which it may differ from {@value #BASE_EXAMPLE}. Every
     * other key has the same value in both, or is in neither.
     */
    private static final Map<String, List<String>> OWN_KEYS = Map.of(
            BASE_EXAMPLE, List.of(),
            // A standalone worker's connector file names its connector; a REST body does not.
            "pgoutput-source.properties", List.of("name"),
            // Avro carries a decimal's scale in its schema: precise (Debezium's default) stays readable there.
            "pgoutput-source-avro.json", List.of("key.converter", "value.converter", "decimal.handling.mode"),
            "pgoutput-source-apicurio.json", List.of("key.converter", "value.converter", "decimal.handling.mode"),
            "pgoutput-source-direct-json.json", List.of("direct.encoding", "key.converter", "value.converter"),
            // Its own slot and publication (which holds the signal table), so it can run next to the others.
            "pgoutput-source-signals.json", List.of("slot.name", "publication.name", "table.include.list",
                    "spill.directory", "signal.", "incremental.snapshot.", "snapshot.new.tables"));

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
        Map<String, String> config = load(example);

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
        // The Avro variants differ from the plain example in their converters and decimal mode only.
        for (Map<String, String> variant : List.of(confluent, apicurio)) {
            assertThat(withoutConverters(variant)).isEqualTo(withoutConverters(plain));
        }
    }

    @ParameterizedTest
    @MethodSource("examples")
    void exampleAgreesWithTheBaseExampleOnEveryKeyButThoseOfItsOwnPurpose(Path example) throws IOException {
        String name = example.getFileName().toString();
        assertThat(OWN_KEYS).as("what %s is for (its keys that may differ from %s)", name, BASE_EXAMPLE)
                .containsKey(name);
        Map<String, String> config = load(example);
        Map<String, String> base = loadJson(CONFIG_DIR.resolve(BASE_EXAMPLE));

        Set<String> keys = new TreeSet<>(config.keySet());
        keys.addAll(base.keySet());
        keys.removeIf(key -> OWN_KEYS.get(name).stream().anyMatch(own -> key.equals(own) || key.startsWith(own)));
        for (String key : keys) {
            assertThat(config.get(key)).as("%s in %s against %s", key, name, BASE_EXAMPLE).isEqualTo(base.get(key));
        }
    }

    @ParameterizedTest
    @MethodSource("examples")
    void examplePointsAtLocalhostAndUsesThePublicationAnAdminMade(Path example) throws IOException {
        Map<String, String> config = load(example);

        assertThat(config).containsEntry("database.hostname", "localhost").containsEntry("database.port", "5432")
                .containsEntry("publication.autocreate.mode", "disabled");
        config.forEach((key, value) -> {
            if (key.endsWith(".url") || key.endsWith("bootstrap.servers")) {
                assertThat(value).as("%s in %s", key, example.getFileName()).matches("(http://)?localhost:\\d+(/.*)?");
            }
        });
    }

    @ParameterizedTest
    @MethodSource("examples")
    void exampleWritingJsonWithoutSchemasShowsDecimalsAsText(Path example) throws IOException {
        Map<String, String> config = load(example);
        boolean schemalessJson = "json".equals(config.get("direct.encoding"))
                || JSON_CONVERTER.equals(config.get("value.converter"))
                && "false".equals(config.get("value.converter.schemas.enable"));

        // Debezium's default, precise, writes base64 bytes whose scale only the schema holds.
        assertThat(config.getOrDefault("decimal.handling.mode", "precise")).as("decimal.handling.mode of %s",
                example.getFileName()).isEqualTo(schemalessJson ? "string" : "precise");
    }

    @Test
    void theDockerRegistrationCommandPointsTheAvroExampleAtTheComposeServices() throws Exception {
        Path root = CONFIG_DIR.getParent();
        List<String> compose = Files.readAllLines(root.resolve("docker-compose.yml"), StandardCharsets.UTF_8);
        int sed = indexOf(compose, "#   sed ");
        int json = indexOf(compose, ".json \\");
        String command = String.join("\n", compose.subList(sed, json + 1)).replace("#   ", "").replaceFirst(" \\\\$", "");
        Process shell = new ProcessBuilder("bash", "-c", command).directory(root.toFile()).start();
        byte[] output = shell.getInputStream().readAllBytes();
        assertThat(shell.waitFor()).as("exit of %s", command).isZero();

        Map<String, String> registered = jsonObject(new ObjectMapper().readTree(output), "sed's output");
        Map<String, String> example = loadJson(CONFIG_DIR.resolve("pgoutput-source-avro.json"));
        Set<String> services = composeServices(compose);
        assertThat(registered).containsEntry("database.hostname", "postgres")
                .containsEntry("key.converter.schema.registry.url", "http://schema-registry:8081")
                .containsEntry("value.converter.schema.registry.url", "http://schema-registry:8081");
        assertThat(services).contains("postgres", "schema-registry");
        Map<String, String> rest = new HashMap<>(registered);
        rest.keySet().removeAll(List.of("database.hostname", "key.converter.schema.registry.url",
                "value.converter.schema.registry.url"));
        example.keySet().removeAll(List.of("database.hostname", "key.converter.schema.registry.url",
                "value.converter.schema.registry.url"));
        assertThat(rest).as("everything else as in the example").isEqualTo(example);
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

    private static Map<String, String> load(Path example) throws IOException {
        return example.toString().endsWith(".json") ? loadJson(example) : loadProperties(example);
    }

    private static int indexOf(List<String> lines, String part) {
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).contains(part)) {
                return i;
            }
        }
        throw new AssertionError("no line of docker-compose.yml contains '" + part + "'");
    }

    /** The names of docker-compose.yml's services: the keys indented by two under {@code services:}. */
    private static Set<String> composeServices(List<String> compose) {
        Set<String> services = new TreeSet<>();
        boolean inServices = false;
        for (String line : compose) {
            if (!line.startsWith(" ") && !line.isBlank()) {
                inServices = line.equals("services:");
            } else if (inServices && line.matches("  [a-z][a-z0-9-]*:")) {
                services.add(line.strip().replace(":", ""));
            }
        }
        return services;
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
        return jsonObject(new ObjectMapper().readTree(example.toFile()), example.getFileName().toString());
    }

    private static Map<String, String> jsonObject(JsonNode root, String what) {
        assertThat(root.isObject()).as("%s is a JSON object", what).isTrue();
        Map<String, String> config = new HashMap<>();
        root.fields().forEachRemaining(field -> {
            assertThat(field.getValue().isTextual()).as("%s in %s is a JSON string", field.getKey(), what).isTrue();
            config.put(field.getKey(), field.getValue().textValue());
        });
        return config;
    }

    private static Map<String, String> withoutConverters(Map<String, String> config) {
        Map<String, String> rest = new HashMap<>(config);
        rest.keySet().removeIf(key -> key.startsWith("key.converter") || key.startsWith("value.converter")
                || key.equals("decimal.handling.mode"));
        return rest;
    }
}
