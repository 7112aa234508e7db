package io.github.pgoutput.parity;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.HashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.pgoutput.testing.DebeziumConfigDatabase;
import io.github.pgoutput.testing.DebeziumConfigs;
import io.github.pgoutput.testing.DebeziumConfigs.DebeziumConfig;
import io.github.pgoutput.testing.Nightly;
import io.github.pgoutput.testing.PostgresCluster;
import io.github.pgoutput.testing.PostgresDatabase;
import io.github.pgoutput.testing.PostgresTest;
import io.github.pgoutput.testing.kafka.ConnectWorkerCluster;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.runtime.rest.entities.ConnectorStateInfo;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The 52 real-world Debezium configurations of the testing module, deployed on a real worker as their users would
 * switch them: {@code connector.class} ours, the database coordinates pointed at a database that holds what the
 * configuration names ({@link DebeziumConfigDatabase}; an outbox table for the outbox router), classes the worker lacks
 * replaced ({@link ConfigSubstitutions}). Each configuration our validation (on the worker's REST API) accepts is
 * deployed with its transforms, converters and predicates as written: the connector must run, and rows written to its
 * tables must arrive as records in its topics (after its transforms). Debezium 3.7.1's validation of the same
 * configurations on the same worker gives the side-by-side count. The report is
 * {@code target/debezium-configs-deploy-report.md}.
 *
 * <p>On PostgreSQL 17 only, in the nightly matrix too: what is compared does not depend on the server's version,
 * and its connectors' names, whose offsets Connect keeps after they are deleted, are not per version.
 */
@Nightly
@Timeout(value = 25, unit = TimeUnit.MINUTES)
class DebeziumConfigsDeployNightlyIT {

    private static final Duration WAIT = Duration.ofSeconds(40);
    private static final ObjectMapper JSON = new ObjectMapper();

    @RegisterExtension
    static final ConnectWorkerCluster connect = ConnectWorkerCluster.withWorkers(1)
            .workerProperty("plugin.path", PluginFolders.pluginPath(PluginFolders.debezium()))
            // The converters of a stock worker (connect-distributed.properties), for the configurations that name none.
            .workerProperty("key.converter", ConfigSubstitutions.JSON_CONVERTER)
            .workerProperty("value.converter", ConfigSubstitutions.JSON_CONVERTER);

    /** What happened to one configuration. */
    record Deployment(String file, boolean oursValid, boolean oursValidAfterFix, List<String> oursErrors, boolean debeziumValid, List<String> debeziumErrors,
                      List<String> substitutions, String state, Map<String, Long> recordsByTopic, String defaultTopic) {

        boolean deployedWithRecords() {
            return "RUNNING".equals(state) && !recordsByTopic.isEmpty();
        }
    }

    @PostgresTest(minVersion = 17, maxVersion = 17)
    void everyConfigurationOurValidationAcceptsRunsAndDeliversRecordsWhereItSays(PostgresDatabase db) throws IOException {
        Set<String> available = pluginClasses();
        List<Deployment> deployments = new ArrayList<>();
        long started = System.nanoTime();
        for (DebeziumConfig config : DebeziumConfigs.all()) {
            deployments.add(deploy(db.cluster(), db.name() + "_d" + config.file().substring(0, 2), config, available));
        }
        Duration took = Duration.ofNanos(System.nanoTime() - started);
        Path report = writeReport(deployments, took);
        long oursValid = deployments.stream().filter(Deployment::oursValid).count();
        long debeziumValid = deployments.stream().filter(Deployment::debeziumValid).count();
        long deployed = deployments.stream().filter(Deployment::deployedWithRecords).count();
        long afterFix = deployments.stream().filter(Deployment::oursValidAfterFix).count();
        System.out.println("Real-world configurations: ours validates " + oursValid + " as written and " + afterFix
                + " after the fixes its refusals name, Debezium 3.7.1 " + debeziumValid + " of "
                + deployments.size() + "; deployed with records " + deployed + " in " + took.toSeconds() + " s; report " + report);

        assertThat(deployments).hasSize(52);
        assertThat(deployed).as("configurations deployed with records (report %s)", report).isGreaterThanOrEqualTo(30);
        assertThat(deployments.stream().filter(Deployment::oursValidAfterFix).filter(d -> !d.deployedWithRecords()).map(Deployment::file))
                .as("validated but not running with records (report %s)", report).isEmpty();
        assertThat(deployments.stream().filter(d -> d.deployedWithRecords() && d.defaultTopic() != null
                && !d.recordsByTopic().containsKey(d.defaultTopic())).map(Deployment::file))
                .as("configurations without routing transforms whose records are not in <prefix>.<schema>.<table> (report %s)", report)
                .isEmpty();
    }

    private Deployment deploy(PostgresCluster cluster, String database, DebeziumConfig original, Set<String> available) {
        cluster.createDatabase(database);
        List<String> substitutions = new ArrayList<>();
        String name = "deploy-" + original.name();
        try {
            Map<String, String> config = ConfigSubstitutions.apply(DebeziumConfigDatabase.prepare(cluster, database,
                    PostgresCluster.SUPERUSER, SourceConfigs.OURS, original.config(), substitutions), available,
                    connect.bootstrapServers(), substitutions);
            List<DebeziumConfigDatabase.TableName> tables = new ArrayList<>(DebeziumConfigDatabase.tablesFor(original.config()));
            String signal = original.config().getOrDefault("signal.data.collection", "").trim();
            tables.removeIf(t -> t.toString().equals(signal));
            OutboxShape outbox = OutboxShape.of(config);
            List<String> fieldsNamed = fieldsTheTransformsName(config);
            if (outbox == null && !fieldsNamed.isEmpty()) {
                for (DebeziumConfigDatabase.TableName table : tables) {
                    for (String field : fieldsNamed) {
                        cluster.execute(database, "ALTER TABLE " + table.quoted() + " ADD COLUMN IF NOT EXISTS \"" + field + "\" text");
                    }
                }
                substitutions.add("columns " + fieldsNamed + " added to " + tables + " (its transforms read them)");
            }
            if (outbox != null) {
                for (DebeziumConfigDatabase.TableName table : tables) {
                    cluster.execute(database, "DROP TABLE " + table.quoted(), outbox.createTable(table.quoted()));
                }
                substitutions.add("tables " + tables + " created as outbox tables with the columns the router reads: " + outbox.columns());
            }
            String written = config.put("name", name);
            if (written != null && !written.equals(name)) {
                substitutions.add("name=" + written + " -> " + name + " (one worker runs every configuration; Connect keeps a"
                        + " deleted connector's offsets under its name)");
            }
            // The test broker creates no topic on demand (a stock broker does): Connect's topic creation stands in, on one broker.
            String replication = config.get("topic.creation.default.replication.factor");
            if (replication == null || !(replication.trim().equals("1") || replication.trim().equals("-1"))) {
                config.put("topic.creation.default.replication.factor", "1");
                config.putIfAbsent("topic.creation.default.partitions", "1");
                substitutions.add("topic.creation.default.replication.factor=" + replication + " -> 1 (one test broker, which"
                        + " creates no topic on demand)");
            }
            List<String> oursErrors = errors(connect.validationErrors(SourceConfigs.OURS, config));
            Map<String, String> debeziumConfig = new LinkedHashMap<>(config);
            debeziumConfig.put("connector.class", SourceConfigs.DEBEZIUM);
            List<String> debeziumErrors = errors(connect.validationErrors(SourceConfigs.DEBEZIUM, debeziumConfig));
            boolean validAsWritten = oursErrors.isEmpty();
            if (!validAsWritten) {
                // What a user does next: write what each refusal's message says to write, and validate again.
                Map<String, String> fixed = FixesFromMessages.apply(config, connect.validationErrors(SourceConfigs.OURS, config));
                if (fixed.equals(config) || !connect.validationErrors(SourceConfigs.OURS, fixed).isEmpty()) {
                    return new Deployment(original.file(), false, false, oursErrors, debeziumErrors.isEmpty(), debeziumErrors,
                            substitutions, "not deployed", Map.of(), null);
                }
                fixed.forEach((key, value) -> {
                    if (!value.equals(config.get(key))) {
                        substitutions.add("as the refusal says: " + key + "=" + value);
                    }
                });
                config.keySet().stream().filter(k -> !fixed.containsKey(k))
                        .forEach(k -> substitutions.add("as the refusal says: " + k + " removed"));
                config.clear();
                config.putAll(fixed);
            }
            String slot = config.getOrDefault("slot.name", "debezium").trim();
            Map<String, Long> before = topicEnds();
            try {
                connect.configureConnector(name, config);
            } catch (RuntimeException refused) {
                return new Deployment(original.file(), validAsWritten, true, oursErrors, debeziumErrors.isEmpty(), debeziumErrors,
                        substitutions, "PUT refused: " + refused.getMessage(), Map.of(), null);
            }
            String state = awaitRunningOrFailed(name);
            Map<String, Long> records = Map.of();
            if (state.equals("RUNNING")) {
                awaitSlotActive(cluster, database, slot);
                for (DebeziumConfigDatabase.TableName table : tables) {
                    cluster.execute(database, outbox != null ? outbox.rows(table.quoted()) : plainRows(table));
                }
                records = awaitNewRecords(before, name);
                state = awaitRunningOrFailed(name);
            }
            return new Deployment(original.file(), validAsWritten, true, oursErrors, debeziumErrors.isEmpty(), debeziumErrors,
                    substitutions, state,
                    records, outbox != null || hasTransforms(config) ? null : defaultTopic(config, tables));
        } finally {
            try {
                connect.deleteConnector(name);
            } catch (RuntimeException notDeployed) {
                // nothing to delete
            }
            dropSlotsOf(cluster, database);
            cluster.dropDatabase(database);
        }
    }

    // ---- Steps ---------------------------------------------------------------------------------------------

    private static String[] plainRows(DebeziumConfigDatabase.TableName table) {
        return new String[] {"INSERT INTO " + table.quoted() + " VALUES (1, 'one'), (2, 'two')",
            "UPDATE " + table.quoted() + " SET note = 'one, updated' WHERE id = 1"};
    }

    private String awaitRunningOrFailed(String name) {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (System.nanoTime() < deadline) {
            try {
                ConnectorStateInfo status = connect.status(name);
                if (ConnectWorkerCluster.isRunning(status, 1)) {
                    return "RUNNING";
                }
                if ("FAILED".equals(status.connector().state())) {
                    return "FAILED: " + JdbcSink.causes(status.connector().trace());
                }
                for (ConnectorStateInfo.TaskState task : status.tasks()) {
                    if ("FAILED".equals(task.state())) {
                        return "task FAILED: " + JdbcSink.causes(task.trace());
                    }
                }
            } catch (RuntimeException notThereYet) {
                // not created yet
            }
            pause(300);
        }
        return "not RUNNING after " + WAIT.toSeconds() + " s";
    }

    private static void awaitSlotActive(PostgresCluster cluster, String database, String slot) {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!"t".equals(cluster.queryValue(database, "SELECT coalesce(bool_or(active), false) FROM pg_replication_slots"
                + " WHERE slot_name = '" + slot.replace("'", "''") + "'"))) {
            if (System.nanoTime() > deadline) {
                return;
            }
            pause(200);
        }
    }

    /** Topic to records written since {@code before}, heartbeat, transaction and internal topics left out. */
    private Map<String, Long> awaitNewRecords(Map<String, Long> before, String name) {
        long deadline = System.nanoTime() + WAIT.toNanos();
        Map<String, Long> grown = Map.of();
        while (System.nanoTime() < deadline) {
            Map<String, Long> now = topicEnds();
            Map<String, Long> delta = new TreeMap<>();
            now.forEach((topic, end) -> {
                long added = end - before.getOrDefault(topic, 0L);
                if (added > 0 && !topic.startsWith("_") && !topic.startsWith("connect-") && !topic.contains("heartbeat")
                        && !topic.endsWith(".transaction")) {
                    delta.put(topic, added);
                }
            });
            if (!delta.isEmpty() && delta.equals(grown)) {
                return delta;
            }
            grown = delta;
            pause(1500);
        }
        return grown;
    }

    /** Topic to records in all its partitions. */
    private Map<String, Long> topicEnds() {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, connect.bootstrapServers()))) {
            Set<String> names = admin.listTopics().names().get();
            Map<TopicPartition, OffsetSpec> request = new HashMap<>();
            admin.describeTopics(names).allTopicNames().get().values().forEach(d -> d.partitions()
                    .forEach(p -> request.put(new TopicPartition(d.name(), p.partition()), OffsetSpec.latest())));
            Map<String, Long> ends = new TreeMap<>();
            admin.listOffsets(request).all().get().forEach((partition, info) -> ends.merge(partition.topic(), info.offset(), Long::sum));
            return ends;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        } catch (ExecutionException e) {
            throw new AssertionError("cannot read the end offsets: " + e.getCause().getMessage(), e.getCause());
        }
    }

    private static void dropSlotsOf(PostgresCluster cluster, String database) {
        for (int attempt = 0; attempt < 50; attempt++) {
            String active = cluster.queryValue(database, "SELECT count(*) FROM pg_replication_slots WHERE database = '" + database
                    + "' AND active");
            if ("0".equals(active)) {
                break;
            }
            pause(200);
        }
        cluster.execute(database, "SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots WHERE database = '"
                + database + "' AND NOT active");
    }

    // ---- Reading -------------------------------------------------------------------------------------------

    private static Set<String> pluginClasses() throws IOException {
        Set<String> classes = new HashSet<>();
        for (JsonNode plugin : JSON.readTree(connect.restGet("connector-plugins?connectorsOnly=false"))) {
            classes.add(plugin.path("class").asText());
        }
        return classes;
    }

    private static List<String> errors(Map<String, List<String>> errors) {
        return errors.entrySet().stream().map(e -> e.getKey() + ": " + String.join(" / ", e.getValue())).toList();
    }

    /** The value fields the transforms name ({@code fields}, {@code field}, {@code blacklist}, {@code exclude}, ...). */
    private static List<String> fieldsTheTransformsName(Map<String, String> config) {
        List<String> fields = new ArrayList<>();
        for (String alias : config.getOrDefault("transforms", "").split(",")) {
            for (String option : List.of("fields", "field", "blacklist", "exclude", "whitelist", "include")) {
                String value = config.get("transforms." + alias.trim() + "." + option);
                if (value != null && config.getOrDefault("transforms." + alias.trim() + ".type", "").startsWith("org.apache.kafka")) {
                    for (String field : value.split(",")) {
                        String name = field.trim();
                        if (!name.isEmpty() && name.matches("[a-z_][a-z0-9_]*") && !name.equals("id") && !name.equals("note")
                                && !fields.contains(name)) {
                            fields.add(name);
                        }
                    }
                }
            }
        }
        return fields;
    }

    private static boolean hasTransforms(Map<String, String> config) {
        return !config.getOrDefault("transforms", "").isBlank();
    }

    /** {@code <prefix>.<schema>.<table>} of the first table, the topic a configuration without transforms writes. */
    private static String defaultTopic(Map<String, String> config, List<DebeziumConfigDatabase.TableName> tables) {
        String prefix = config.getOrDefault("topic.prefix", config.getOrDefault("database.server.name", "")).trim();
        return tables.isEmpty() || prefix.isEmpty() ? null : prefix + "." + tables.get(0);
    }

    private static Path writeReport(List<Deployment> deployments, Duration took) throws IOException {
        StringBuilder out = new StringBuilder("# Real-world Debezium configurations deployed on a worker\n\n");
        out.append("Ours validates ").append(deployments.stream().filter(Deployment::oursValid).count())
                .append(" as written and ").append(deployments.stream().filter(Deployment::oursValidAfterFix).count())
                .append(" after writing what its refusals say (each change listed below), Debezium 3.7.1 ")
                .append(deployments.stream().filter(Deployment::debeziumValid).count()).append(" of ").append(deployments.size())
                .append(" (same worker, same substituted configurations); deployed with records: ")
                .append(deployments.stream().filter(Deployment::deployedWithRecords).count()).append("; ").append(took.toSeconds())
                .append(" s.\n\n| Config | Ours valid (after fix) | Debezium valid | State | Records (topic: count) | Substitutions |\n|---|---|---|---|---|---|\n");
        for (Deployment d : deployments) {
            out.append("| `").append(d.file()).append("` | ").append(d.oursValid() ? "yes" : d.oursValidAfterFix() ? "after fix" : "no")
                    .append(" | ")
                    .append(d.debeziumValid() ? "yes" : "no").append(" | ").append(d.state().replace("|", "/")).append(" | ")
                    .append(d.recordsByTopic().entrySet().stream().map(e -> e.getKey() + ": " + e.getValue()).collect(Collectors.joining(", ")))
                    .append(" | ").append(String.join("; ", d.substitutions()).replace("|", "/")).append(" |\n");
        }
        out.append("\n## Validation errors\n\n");
        for (Deployment d : deployments) {
            if (!d.oursErrors().isEmpty() || !d.debeziumErrors().isEmpty()) {
                out.append("### ").append(d.file()).append("\n\n");
                d.oursErrors().forEach(e -> out.append("- ours: ").append(e).append('\n'));
                d.debeziumErrors().forEach(e -> out.append("- Debezium: ").append(e).append('\n'));
                out.append('\n');
            }
        }
        Path file = DebeziumParityIT.outputDirectory().resolve("debezium-configs-deploy-report.md");
        Files.createDirectories(file.getParent());
        Files.writeString(file, out.toString());
        return file.toAbsolutePath();
    }

    private static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }
}
