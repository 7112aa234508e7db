package io.github.pgoutput.connect;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.pgoutput.connect.config.ConfigWarnings;
import io.github.pgoutput.testing.DebeziumConfigDatabase;
import io.github.pgoutput.testing.DebeziumConfigs.DebeziumConfig;
import io.github.pgoutput.testing.DebeziumConfigs;
import io.github.pgoutput.testing.PostgresCluster;
import io.github.pgoutput.testing.PostgresDatabase;
import io.github.pgoutput.testing.PostgresTest;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.apache.kafka.common.config.ConfigValue;
import org.junit.jupiter.api.Timeout;

/**
 * The 52 real-world Debezium PostgreSQL configurations of the testing module (debezium-configs/), each as its user
 * would move it here: {@code connector.class} switched, the database coordinates pointed at a fresh database of a
 * real server holding the schemas and tables its lists name, then {@link PgOutputSourceConnector#validate} with the
 * real live checks, as {@code PUT /connector-plugins/.../config/validate} runs it. Every configuration is accepted
 * but the expected refusals of {@code debezium-config-refusals.tsv}, each on its key and with what to write instead.
 * The result is written to {@code target/debezium-configs-report.md}.
 *
 * <p>As a superuser, which {@code publication.autocreate.mode=all_tables} (the default) needs to create its
 * publication; and a few as a role with REPLICATION only, which is told what to write instead.
 */
@Timeout(300)
class DebeziumConfigsLiveTest {

    /**
     * One expected refusal: the configuration, the key, what the message must say, and why; on the PostgreSQL versions
     * below {@code belowVersion} only (a feature a newer server has), or on all ({@code belowVersion} 0).
     */
    record Refusal(String file, String key, String says, String reason, int belowVersion) {

        boolean appliesTo(int majorVersion) {
            return belowVersion == 0 || majorVersion < belowVersion;
        }
    }

    @PostgresTest(representative = 17)
    void everyConfigurationIsAcceptedButTheExpectedRefusalsEachOnItsKeyWithWhatToWrite(PostgresDatabase db) throws IOException {
        List<DebeziumConfig> configs = DebeziumConfigs.all();
        Map<String, Map<String, List<String>>> errorsByFile = new TreeMap<>();
        StringBuilder report = new StringBuilder();
        for (DebeziumConfig config : configs) {
            List<String> substitutions = new ArrayList<>();
            Map<String, List<String>> errors = validate(db.cluster(), db.name() + "_" + config.file().substring(0, 2),
                    PostgresCluster.SUPERUSER, config.config(), substitutions);
            errorsByFile.put(config.file(), errors);
            report(report, config, errors, substitutions);
        }
        List<Refusal> expected = expectedRefusals().stream().filter(r -> r.appliesTo(db.majorVersion())).toList();
        long accepted = errorsByFile.values().stream().filter(Map::isEmpty).count();
        Path written = writeReport(db.majorVersion(), configs.size(), accepted, report);

        assertThat(configs).hasSize(52);
        Map<String, List<String>> refused = new TreeMap<>();
        errorsByFile.forEach((file, errors) -> errors.keySet().forEach(key -> refused.computeIfAbsent(file, f -> new ArrayList<>()).add(key)));
        Map<String, List<String>> expectedKeys = new TreeMap<>();
        expected.forEach(r -> expectedKeys.computeIfAbsent(r.file(), f -> new ArrayList<>()).add(r.key()));
        refused.values().forEach(keys -> keys.sort(null));
        expectedKeys.values().forEach(keys -> keys.sort(null));
        assertThat(refused).as("the keys refused per configuration (report: %s)", written).isEqualTo(expectedKeys);
        for (Refusal refusal : expected) {
            assertThat(errorsByFile.get(refusal.file()).get(refusal.key())).as("%s: %s", refusal.file(), refusal.key())
                    .anySatisfy(message -> assertThat(message).contains(refusal.key()).contains(refusal.says()));
        }
    }

    @PostgresTest(representative = 17)
    void aRoleWithoutSuperuserIsToldToCreateThePublicationOrWriteFiltered(PostgresDatabase db) {
        String role = "cfg_" + db.name();
        db.execute("CREATE ROLE " + role + " LOGIN REPLICATION");
        try {
            for (String file : List.of("03-dbz-outbox-eventrouter.json", "12-dbz-plain-kafka-3x.json", "39-streamnative-kcctl-quickstart.json")) {
                DebeziumConfig config = DebeziumConfigs.all().stream().filter(c -> c.file().equals(file)).findFirst().orElseThrow();

                Map<String, List<String>> errors = validate(db.cluster(), db.name() + "_r" + file.substring(0, 2), role, config.config(),
                        new ArrayList<>());

                // The role has no SELECT either, which the snapshot (Debezium's default initial) needs: said on its key.
                assertThat(errors.keySet()).as(file).contains("publication.autocreate.mode")
                        .isSubsetOf("publication.autocreate.mode", "snapshot.mode");
                if (errors.containsKey("snapshot.mode")) {
                    assertThat(errors.get("snapshot.mode")).singleElement().asString().contains("GRANT SELECT ON").contains(role);
                }
                assertThat(errors.get("publication.autocreate.mode")).singleElement().asString().contains("needs a superuser")
                        .contains("CREATE PUBLICATION \"dbz_publication\" FOR ALL TABLES")
                        .contains("write publication.autocreate.mode=filtered");
            }
        } finally {
            db.execute("DROP ROLE " + role);
        }
    }

    /** Validates {@code config} against a database of its own, created for it and dropped afterwards. */
    private static Map<String, List<String>> validate(PostgresCluster cluster, String database, String user, Map<String, String> config,
                                                      List<String> substitutions) {
        cluster.createDatabase(database);
        try {
            Map<String, String> pointed = DebeziumConfigDatabase.prepare(cluster, database, user,
                    PgOutputSourceConnector.class.getName(), config, substitutions);
            Map<String, List<String>> errors = new TreeMap<>();
            for (ConfigValue value : new PgOutputSourceConnector().validate(pointed).configValues()) {
                if (!value.errorMessages().isEmpty()) {
                    errors.put(value.name(), value.errorMessages());
                }
            }
            return errors;
        } finally {
            cluster.dropDatabase(database);
        }
    }

    static List<Refusal> expectedRefusals() throws IOException {
        List<Refusal> refusals = new ArrayList<>();
        try (InputStream in = DebeziumConfigsLiveTest.class.getResourceAsStream("debezium-config-refusals.tsv");
             BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            String line;
            while ((line = reader.readLine()) != null) {
                if (line.isBlank() || line.startsWith("#")) {
                    continue;
                }
                String[] fields = line.split("\t");
                int below = fields.length > 4 ? Integer.parseInt(fields[4].trim().substring("below PostgreSQL ".length())) : 0;
                refusals.add(new Refusal(fields[0].trim(), fields[1].trim(), fields[2].trim(), fields[3].trim(), below));
            }
        }
        return refusals;
    }

    private static void report(StringBuilder report, DebeziumConfig config, Map<String, List<String>> errors, List<String> substitutions) {
        report.append("### ").append(config.file()).append("\n\n").append("Source: ").append(config.source()).append(" (")
                .append(config.era()).append(")\n\n");
        substitutions.forEach(s -> report.append("Substituted: ").append(s).append("\n\n"));
        if (errors.isEmpty()) {
            report.append("**Accepted**.");
        } else {
            report.append("**Refused**:\n");
            errors.forEach((key, messages) -> messages.forEach(m -> report.append("- `").append(key).append("`: ").append(m).append('\n')));
        }
        List<String> warnings = ConfigWarnings.of(config.config());
        if (!warnings.isEmpty()) {
            report.append("\nWARN (").append(warnings.size()).append("):\n")
                    .append(warnings.stream().map(w -> "- " + w).collect(Collectors.joining("\n")));
        }
        report.append("\n\n");
    }

    private static Path writeReport(int majorVersion, int total, long accepted, StringBuilder body) throws IOException {
        Path file = Path.of(System.getProperty("basedir", "."), "target", "debezium-configs-report.md");
        Files.createDirectories(file.getParent());
        Files.writeString(file, "# Real-world Debezium configurations validated by this connector\n\nPostgreSQL " + majorVersion
                + ": " + accepted + " of " + total + " accepted; the others are refused on the keys below, each with what to write"
                + " instead.\n\n" + body,
                StandardCharsets.UTF_8);
        return file;
    }
}
