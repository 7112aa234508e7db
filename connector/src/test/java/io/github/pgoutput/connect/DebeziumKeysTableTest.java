package io.github.pgoutput.connect;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.pgoutput.connect.config.ConfigWarnings;
import io.github.pgoutput.connect.config.MinimalConfig;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.kafka.common.config.ConfigValue;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The table of docs/debezium-configuration.md (every key and value of Debezium 3.7's PostgreSQL connector, with what
 * it does here) is what the connector does: each row's settings, added to a minimal configuration, are implemented
 * (no error, no WARN), accepted with a WARN naming the key, or refused with the error on the key (or on the key the
 * row names).
 */
class DebeziumKeysTableTest {

    private static final Path DOC = Path.of(System.getProperty("basedir", "."), "..", "docs", "debezium-configuration.md")
            .toAbsolutePath().normalize();
    private static final Pattern SETTING = Pattern.compile("`([^`]*)`");
    private static final Pattern REFUSED_ON = Pattern.compile("refused on `([^`]+)`");

    /** One row: its settings (key=value, or -key for a key left out) and its treatment. */
    record Row(List<String> settings, String treatment) {

        String key() {
            String first = settings.get(0);
            return first.startsWith("-") ? first.substring(1) : first.substring(0, first.indexOf('='));
        }

        Map<String, String> config() {
            Map<String, String> config = MinimalConfig.props();
            for (String setting : settings) {
                if (setting.startsWith("-")) {
                    config.remove(setting.substring(1));
                } else {
                    int eq = setting.indexOf('=');
                    config.put(setting.substring(0, eq), setting.substring(eq + 1));
                }
            }
            return config;
        }

        @Override
        public String toString() {
            return String.join(" ", settings) + " -> " + treatment;
        }
    }

    static Stream<Row> rows() throws IOException {
        String doc = Files.readString(DOC, StandardCharsets.UTF_8);
        String table = doc.substring(doc.indexOf("<!-- keys:start -->"), doc.indexOf("<!-- keys:end -->"));
        List<Row> rows = new ArrayList<>();
        for (String line : table.split("\n")) {
            if (!line.startsWith("| `")) {
                continue;
            }
            String[] cells = line.split(" \\| ");
            List<String> settings = new ArrayList<>();
            Matcher m = SETTING.matcher(cells[0]);
            while (m.find()) {
                settings.add(m.group(1));
            }
            rows.add(new Row(settings, cells[1].trim()));
        }
        assertThat(rows).as("rows of %s", DOC).hasSizeGreaterThan(150);
        return rows.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void eachRowIsWhatTheConnectorDoes(Row row) {
        Map<String, String> config = row.config();
        Map<String, List<String>> errors = new java.util.TreeMap<>();
        for (ConfigValue value : new PgOutputSourceConnector(null).validate(config).configValues()) {
            if (!value.errorMessages().isEmpty()) {
                errors.put(value.name(), value.errorMessages());
            }
        }
        List<String> warnings = ConfigWarnings.of(config);
        List<String> aboutKey = warnings.stream().filter(w -> w.startsWith(row.key())).toList();
        Matcher on = REFUSED_ON.matcher(row.treatment());
        switch (on.find() ? "refused" : row.treatment()) {
            case "implemented" -> {
                assertThat(errors).isEmpty();
                assertThat(aboutKey).isEmpty();
            }
            case "accepted, WARN" -> {
                assertThat(errors).isEmpty();
                assertThat(aboutKey).as("a WARN about %s among %s", row.key(), warnings).isNotEmpty();
            }
            case "refused" -> {
                String key = on.find(0) ? on.group(1) : row.key();
                assertThat(errors).containsOnlyKeys(key);
                assertThat(errors.get(key)).allSatisfy(message -> assertThat(message).contains(key));
            }
            default -> throw new AssertionError("unknown treatment '" + row.treatment() + "' in " + DOC);
        }
    }
}
