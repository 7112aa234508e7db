package io.github.pgoutput.parity;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.pgoutput.connect.PgOutputSourceConnector;
import io.github.pgoutput.testing.kafka.ConnectWorkerCluster;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import io.github.pgoutput.testing.PostgresCluster;
import io.github.pgoutput.testing.PostgresDatabase;
import org.apache.kafka.connect.runtime.rest.entities.ConnectorStateInfo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Debezium 3.7.1 and our connector on one Connect worker, capturing the same tables through the same workload
 * ({@code workload.sql}) with the same Debezium-style configuration in every {@link ParityMode}, all modes'
 * connectors at once (each pair on its own prefix, slot and publication). Their records are written to
 * {@code target/parity/<mode>/{debezium,ours}.jsonl} and compared field by field ({@link RecordComparison});
 * {@code target/parity-report.md} lists every difference, and the test fails on any difference
 * {@code known-differences.txt} does not accept.
 *
 * <p>The worker is the testing module's {@link ConnectWorkerCluster} with a {@code plugin.path} of its own. Debezium
 * comes from the plugin folder named by {@code -Ddebezium.plugin.path} (built by
 * {@code bench/debezium-plugin}); our connector from the class path.
 */
@Timeout(value = 6, unit = TimeUnit.MINUTES)
class DebeziumParityIT {

    static final String DEBEZIUM_CLASS = "io.debezium.connector.postgresql.PostgresConnector";
    private static final Duration WAIT = Duration.ofSeconds(150);

    @RegisterExtension
    static final ConnectWorkerCluster connect = ConnectWorkerCluster.withWorkers(1)
            .workerProperty("plugin.path", PluginFolders.pluginPath(PluginFolders.debezium()));

    /** One connector of one mode. */
    record Contender(ParityMode mode, String kind, String prefix) {
        String name() {
            return prefix;
        }

        String heartbeatTopic() {
            return "__debezium-heartbeat." + prefix;
        }

        boolean owns(String topic) {
            return topic.startsWith(prefix + ".") || topic.equals(heartbeatTopic());
        }
    }

    /**
     * One server of {@code -Dparity.pg.version} (default 17), whatever {@code -Dpg.versions} selects for the other
     * ITs: the comparison is between connectors, not servers, and its allow-list is for one version.
     */
    @Test
    void debeziumAndOursWriteTheSameRecordsExceptTheKnownDifferences() throws Exception {
        int version = Integer.parseInt(System.getProperty("parity.pg.version", "17"));
        try (PostgresCluster cluster = PostgresCluster.start(version, Map.of())) {
            cluster.createDatabase("parity");
            compare(new PostgresDatabase(cluster, "parity"));
        }
    }

    private void compare(PostgresDatabase db) throws Exception {
        long started = System.nanoTime();
        ParityWorkload workload = ParityWorkload.load();
        runAll(db, workload.setup());
        Map<String, Integer> snapshotRows = new LinkedHashMap<>();
        for (String table : List.of("pt_types", "pt_arrays", "pt_defaults", "pt_full", "pt_uidx", "pt_nokey", "pt_toast",
                "pt_keychange", "pt_trunc", "ps_special")) {
            snapshotRows.put(table, Integer.parseInt(db.queryValue("SELECT count(*) FROM public." + table)));
        }

        List<Contender> contenders = new ArrayList<>();
        for (ParityMode mode : ParityMode.all()) {
            contenders.add(new Contender(mode, "debezium", "dbz_" + mode.name()));
            contenders.add(new Contender(mode, "ours", "our_" + mode.name()));
        }
        Map<String, List<String>> unknownKeys = new LinkedHashMap<>();
        for (Contender contender : contenders) {
            Map<String, String> config = connectorConfig(db, contender);
            unknownKeys.put(contender.name(), unknownKeys(config));
            connect.configureConnector(contender.name(), config);
        }
        Map<String, String> failures = new LinkedHashMap<>();
        try (TopicReader topics = new TopicReader(connect.bootstrapServers())) {
            awaitEach(contenders, failures, topics, "its snapshot", (c, ends) -> snapshotRows.entrySet().stream()
                    .filter(e -> e.getValue() > 0 && (c.mode().specialValues() || !e.getKey().startsWith("ps_")))
                    .allMatch(e -> ends.getOrDefault(c.prefix() + ".public." + e.getKey(), 0L) >= e.getValue()));
            log("snapshots done", started);

            runAll(db, workload.stream());
            awaitEach(contenders, failures, topics, "the end of the workload (pt_end) and a heartbeat", (c, ends) ->
                    ends.getOrDefault(c.prefix() + ".public.pt_end", 0L) > 0 && ends.getOrDefault(c.heartbeatTopic(), 0L) > 0);
            log("workload streamed", started);

            Map<String, List<CapturedRecord>> byTopic = topics.readAll(t -> contenders.stream().anyMatch(c -> c.owns(t)));
            log("records read", started);
            List<ParityReport.ModeOutcome> outcomes = new ArrayList<>();
            for (ParityMode mode : ParityMode.all()) {
                outcomes.add(outcome(mode, contenders, byTopic, failures, unknownKeys));
            }
            KnownDifferences known = KnownDifferences.parse(resource("known-differences.txt"));
            ParityReport report = new ParityReport(outcomes, known);
            Path reportFile = outputDirectory().resolve("parity-report.md");
            Files.writeString(reportFile, report.markdown());
            Map<String, List<Difference>> everything = new LinkedHashMap<>();
            outcomes.forEach(o -> everything.put(o.mode().name(), ParityReport.all(o)));
            Files.writeString(outputDirectory().resolve("known-differences.suggested.txt"), KnownDifferences.suggest(everything));
            System.out.println(report.summary());
            System.out.println("Parity report: " + reportFile.toAbsolutePath());
            log("compared", started);

            for (Contender contender : contenders) {
                connect.deleteConnector(contender.name());
            }
            for (ParityReport.ModeOutcome outcome : outcomes) {
                assertThat(report.unaccepted(outcome))
                        .as("differences in mode %s that scenarios/parity/src/test/resources/known-differences.txt does not list"
                                + " (report: %s)", outcome.mode().name(), reportFile.toAbsolutePath())
                        .isEmpty();
            }
        }
    }

    /** Writes the mode's records to {@code target/parity/<mode>/} and compares them. */
    private static ParityReport.ModeOutcome outcome(ParityMode mode, List<Contender> contenders,
            Map<String, List<CapturedRecord>> byTopic, Map<String, String> failures,
            Map<String, List<String>> unknownKeys) throws IOException {
        Contender debezium = contender(contenders, mode, "debezium");
        Contender ours = contender(contenders, mode, "ours");
        List<CapturedRecord> debeziumRecords = recordsOf(debezium, byTopic);
        List<CapturedRecord> ourRecords = recordsOf(ours, byTopic);
        Path out = outputDirectory().resolve("parity").resolve(mode.name());
        write(out.resolve("debezium.jsonl"), debeziumRecords);
        write(out.resolve("ours.jsonl"), ourRecords);
        Map<String, String> modeFailures = new LinkedHashMap<>();
        Map<String, List<String>> modeUnknownKeys = new LinkedHashMap<>();
        for (Contender contender : List.of(debezium, ours)) {
            if (failures.containsKey(contender.name())) {
                modeFailures.put(contender.name(), failures.get(contender.name()));
            }
            modeUnknownKeys.put(contender.name(), unknownKeys.get(contender.name()));
        }
        return new ParityReport.ModeOutcome(mode, RecordComparison.compare(debeziumRecords, debezium.prefix(), ourRecords,
                ours.prefix()), modeFailures, modeUnknownKeys);
    }

    private static Contender contender(List<Contender> contenders, ParityMode mode, String kind) {
        return contenders.stream().filter(c -> c.mode().equals(mode) && c.kind().equals(kind)).findFirst().orElseThrow();
    }

    private static List<CapturedRecord> recordsOf(Contender contender, Map<String, List<CapturedRecord>> byTopic) {
        List<CapturedRecord> records = new ArrayList<>();
        byTopic.forEach((topic, list) -> {
            if (contender.owns(topic)) {
                records.addAll(list);
            }
        });
        return records;
    }

    private static void write(Path file, List<CapturedRecord> records) throws IOException {
        Files.createDirectories(file.getParent());
        Files.write(file, records.stream().map(CapturedRecord::toJsonLine).toList());
    }

    private static void log(String what, long started) {
        System.out.println("parity: " + what + " after " + Duration.ofNanos(System.nanoTime() - started).toSeconds() + " s");
    }

    // ---- Connectors ----------------------------------------------------------------------------------------

    /** The common Debezium-style configuration, the mode's keys, and what differs per connector. */
    static Map<String, String> connectorConfig(PostgresDatabase db, Contender contender) {
        Map<String, String> config = new LinkedHashMap<>();
        config.put("connector.class", contender.kind().equals("debezium") ? DEBEZIUM_CLASS
                : PgOutputSourceConnector.class.getName());
        config.put("tasks.max", "1");
        config.put("plugin.name", "pgoutput");
        config.put("database.hostname", db.host());
        config.put("database.port", Integer.toString(db.port()));
        config.put("database.user", db.user());
        config.put("database.dbname", db.name());
        config.put("topic.prefix", contender.prefix());
        config.put("slot.name", contender.prefix());
        config.put("publication.name", contender.prefix() + "_pub");
        config.put("publication.autocreate.mode", "filtered");
        config.put("table.include.list", contender.mode().tableIncludeList());
        config.put("provide.transaction.metadata", "true");
        config.put("heartbeat.interval.ms", "1000");
        // Debezium skips truncates by default (skipped.operations=t); the workload has one to compare.
        config.put("skipped.operations", "none");
        config.put("key.converter", "org.apache.kafka.connect.json.JsonConverter");
        config.put("key.converter.schemas.enable", "true");
        config.put("value.converter", "org.apache.kafka.connect.json.JsonConverter");
        config.put("value.converter.schemas.enable", "true");
        config.put("topic.creation.default.replication.factor", "1");
        config.put("topic.creation.default.partitions", "1");
        config.putAll(contender.mode().settings());
        if (contender.mode().unwrap()) {
            config.put("transforms", "unwrap");
            config.put("transforms.unwrap.type", ParityMode.UNWRAP_TRANSFORM);
        }
        return config;
    }

    /**
     * The keys of {@code config} that the connector's validation ({@code PUT /connector-plugins/.../config/validate})
     * does not list, so the connector ignores them; converter and topic-creation sub-keys are the worker's.
     */
    private static List<String> unknownKeys(Map<String, String> config) {
        Set<String> known = connect.validate(config.get("connector.class"), config).values().stream()
                .map(info -> info.configKey() != null ? info.configKey().name() : info.configValue().name())
                .collect(Collectors.toSet());
        return config.keySet().stream().filter(key -> !known.contains(key))
                .filter(key -> !key.startsWith("key.converter.") && !key.startsWith("value.converter.")
                        && !key.startsWith("topic.creation.") && !key.startsWith("transforms."))
                .toList();
    }

    /** Waits until every contender not failed yet passes {@code done}; a FAILED one is noted and left out. */
    private static void awaitEach(List<Contender> contenders, Map<String, String> failures, TopicReader topics,
            String what, java.util.function.BiPredicate<Contender, Map<String, Long>> done) {
        Set<String> finished = new java.util.HashSet<>();
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (finished.size() + failures.size() < contenders.size()) {
            Map<String, Long> ends = topics.endOffsets();
            for (Contender contender : contenders) {
                if (finished.contains(contender.name()) || failures.containsKey(contender.name())) {
                    continue;
                }
                String failure = failure(contender);
                if (failure != null) {
                    failures.put(contender.name(), failure);
                } else if (done.test(contender, ends)) {
                    finished.add(contender.name());
                }
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out after " + WAIT.toSeconds() + " s waiting for every connector to reach "
                        + what + "; not yet: " + contenders.stream().map(Contender::name)
                        .filter(n -> !finished.contains(n) && !failures.containsKey(n)).toList());
            }
            sleep(Duration.ofMillis(500));
        }
    }

    private static void sleep(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }

    private static String failure(Contender contender) {
        ConnectorStateInfo status;
        try {
            status = connect.status(contender.name());
        } catch (RuntimeException notThereYet) {
            return null;
        }
        if ("FAILED".equals(status.connector().state())) {
            return "connector FAILED: " + firstLine(status.connector().trace());
        }
        for (ConnectorStateInfo.TaskState task : status.tasks()) {
            if ("FAILED".equals(task.state())) {
                return "task FAILED: " + firstLine(task.trace());
            }
        }
        return null;
    }

    private static String firstLine(String trace) {
        if (trace == null) {
            return "(no trace)";
        }
        // The cause's message is what names the problem; keep the first lines of each "Caused by".
        return trace.lines().filter(l -> !l.startsWith("\tat ") && !l.startsWith("\t...")).limit(6)
                .collect(Collectors.joining(" | "));
    }

    // ---- Helpers -------------------------------------------------------------------------------------------

    private static void runAll(PostgresDatabase db, List<String> statements) throws SQLException {
        try (Connection connection = db.connect(); Statement statement = connection.createStatement()) {
            for (String sql : statements) {
                try {
                    statement.execute(sql);
                } catch (SQLException e) {
                    throw new SQLException("workload statement failed: " + sql + ": " + e.getMessage(), e);
                }
            }
        }
    }

    private static String resource(String name) throws IOException {
        try (var in = DebeziumParityIT.class.getClassLoader().getResourceAsStream(name)) {
            if (in == null) {
                throw new IOException(name + " is not on the test class path");
            }
            return new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        }
    }

    static Path outputDirectory() {
        return Paths.get(System.getProperty("parity.output.dir", "target"));
    }
}
