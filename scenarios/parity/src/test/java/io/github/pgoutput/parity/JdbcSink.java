package io.github.pgoutput.parity;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import io.github.pgoutput.testing.PostgresCluster;
import io.github.pgoutput.testing.PostgresDatabase;
import io.github.pgoutput.testing.kafka.ConnectWorkerCluster;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.runtime.rest.entities.ConnectorStateInfo;

/**
 * Debezium's JDBC sink ({@code io.debezium.connector.jdbc.JdbcSinkConnector}, from its plugin archive) writing a
 * source connector's table topics into a replica database, configured as its documentation recommends for Debezium
 * sources: upserts keyed by the record key, deletes and truncates applied, tables created and columns added from the
 * record schemas, one replica table per source table ({@code collection.name.format=${source.table}}).
 */
final class JdbcSink {

    static final String CONNECTOR_CLASS = "io.debezium.connector.jdbc.JdbcSinkConnector";
    private static final String JSON_CONVERTER = "org.apache.kafka.connect.json.JsonConverter";
    static final String HEADERS_AS_TEXT = "org.apache.kafka.connect.storage.StringConverter";

    private JdbcSink() {
    }

    /** The sink's configuration: {@code topicPrefix}'s tables of schema public into {@code replica}. */
    static Map<String, String> config(PostgresDatabase replica, String topicPrefix) {
        Map<String, String> config = new LinkedHashMap<>();
        config.put("connector.class", CONNECTOR_CLASS);
        config.put("tasks.max", "1");
        config.put("connection.url", replica.jdbcUrl());
        config.put("connection.username", PostgresCluster.SUPERUSER);
        config.put("connection.password", "unused-by-trust-authentication");
        config.put("insert.mode", "upsert");
        config.put("primary.key.mode", "record_key");
        config.put("delete.enabled", "true");
        config.put("truncate.enabled", "true");
        config.put("schema.evolution", "basic");
        config.put("database.time_zone", "UTC");
        config.put("topics.regex", topicsRegex(topicPrefix));
        config.put("collection.name.format", "${source.table}");
        config.put("key.converter", JSON_CONVERTER);
        config.put("key.converter.schemas.enable", "true");
        config.put("value.converter", JSON_CONVERTER);
        config.put("value.converter.schemas.enable", "true");
        // The sink reads every record's headers into a Struct (KafkaDebeziumSinkRecord.getRecordHeaders), which fails
        // on a header without a schema: with the worker's default SimpleHeaderConverter, the __debezium.newkey and
        // __debezium.oldkey headers of a primary-key change come back as schemaless maps, and the task fails ("No
        // schema defined for value of map field"), with Debezium's records as with ours. Headers read as strings have
        // a schema; the sink uses none of them with primary.key.mode=record_key.
        config.put("header.converter", HEADERS_AS_TEXT);
        // topics.regex subscribes to topics that exist when the consumer refreshes its metadata, by default every 5
        // minutes: a table topic created by its first change would wait that long.
        config.put("consumer.override.metadata.max.age.ms", "1000");
        return config;
    }

    /** A second database on the same server as {@code db}, for the sink to write. */
    static PostgresDatabase replicaOf(PostgresDatabase db) {
        return replicaOf(db, "replica");
    }

    /** Another second database, {@code <db>_<suffix>}. */
    static PostgresDatabase replicaOf(PostgresDatabase db, String suffix) {
        PostgresDatabase replica = new PostgresDatabase(db.cluster(), db.name() + "_" + suffix);
        db.cluster().createDatabase(replica.name());
        return replica;
    }

    /**
     * Starts the source connector {@code source} (named after its {@code topic.prefix}), waits until it is RUNNING and
     * its slot streams, then starts the sink {@code <prefix>_sink} into {@code replica}.
     */
    static void startWithSource(ConnectWorkerCluster connect, Map<String, String> source, PostgresDatabase db,
                                PostgresDatabase replica, Duration timeout) {
        String prefix = source.get("topic.prefix");
        connect.configureConnector(prefix, source);
        connect.awaitRunning(prefix, 1, timeout);
        SourceConfigs.awaitStreaming(db, prefix, timeout);
        connect.configureConnector(prefix + "_sink", config(replica, prefix));
        connect.awaitRunning(prefix + "_sink", 1, timeout);
    }

    /** The table topics of {@code topicPrefix} in schema public (not its transaction, heartbeat or message topics). */
    static String topicsRegex(String topicPrefix) {
        return Pattern.quote(topicPrefix) + "\\.public\\..*";
    }

    /**
     * Waits until the sink has written everything its topics hold now: its consumer group's committed offsets reach
     * the end of every topic {@code topicsRegex} matches (Connect commits a sink's offsets only after the sink flushed
     * the records before them).
     *
     * @throws AssertionError when the sink's task FAILED (with its trace) or after {@code timeout}
     */
    static void awaitCaughtUp(ConnectWorkerCluster connect, String sinkName, String topicsRegex, Duration timeout) {
        Pattern topics = Pattern.compile(topicsRegex);
        long deadline = System.nanoTime() + timeout.toNanos();
        String lag = "not measured";
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, connect.bootstrapServers()))) {
            while (true) {
                failIfFailed(connect, sinkName);
                Set<String> names = admin.listTopics().names().get().stream().filter(t -> topics.matcher(t).matches())
                        .collect(Collectors.toSet());
                Map<TopicPartition, OffsetSpec> request = admin.describeTopics(names).allTopicNames().get().values().stream()
                        .flatMap(d -> d.partitions().stream().map(p -> new TopicPartition(d.name(), p.partition())))
                        .collect(Collectors.toMap(p -> p, p -> OffsetSpec.latest()));
                Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> ends = admin.listOffsets(request).all().get();
                Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets("connect-" + sinkName)
                        .partitionsToOffsetAndMetadata().get();
                lag = ends.entrySet().stream()
                        .filter(e -> e.getValue().offset() > offset(committed.get(e.getKey())))
                        .map(e -> e.getKey() + " at " + offset(committed.get(e.getKey())) + " of " + e.getValue().offset())
                        .collect(Collectors.joining(", "));
                if (lag.isEmpty()) {
                    return;
                }
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("the JDBC sink " + sinkName + " did not catch up within " + timeout + ": " + lag);
                }
                Thread.sleep(250);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while waiting for the sink", e);
        } catch (ExecutionException e) {
            throw new AssertionError("cannot read the sink's progress: " + e.getCause().getMessage(), e.getCause());
        }
    }

    /**
     * Waits until the replica holds the workload's last row ({@code public.<markerTable>} with {@code id = markerId},
     * written in the source's last transaction), then until the sink caught up with its topics, then compares
     * {@code tables}; a comparison that differs is taken again after the sink caught up again, a few times, in case
     * a record was still on its way to Kafka when the marker arrived (topics are written independently).
     */
    static ReplicaComparison.Result awaitReplicated(ConnectWorkerCluster connect, String sinkName, String sourceName,
            String topicPrefix, PostgresDatabase source, PostgresDatabase replica, List<String> tables,
            String markerTable, int markerId, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!hasRow(replica, markerTable, markerId)) {
            failIfFailed(connect, sourceName);
            failIfFailed(connect, sinkName);
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the replica has no row " + markerId + " in " + markerTable + " after " + timeout
                        + "; what it has so far:\n" + ReplicaComparison.compare(source, replica, tables).describe());
            }
            pause(Duration.ofMillis(250));
        }
        ReplicaComparison.Result result = null;
        for (int attempt = 0; attempt < 5; attempt++) {
            awaitCaughtUp(connect, sinkName, topicsRegex(topicPrefix), Duration.ofNanos(Math.max(deadline - System.nanoTime(),
                    Duration.ofSeconds(10).toNanos())));
            result = ReplicaComparison.compare(source, replica, tables);
            if (result.equal()) {
                return result;
            }
            pause(Duration.ofSeconds(1));
        }
        return result;
    }

    private static boolean hasRow(PostgresDatabase replica, String table, int id) {
        try {
            return "1".equals(replica.queryValue("SELECT count(*) FROM public." + table + " WHERE id = " + id));
        } catch (IllegalStateException noTableYet) {
            return false;
        }
    }

    private static void pause(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }

    private static long offset(OffsetAndMetadata committed) {
        return committed == null ? 0 : committed.offset();
    }

    /** Throws when the connector or a task of {@code name} FAILED, with the trace's first lines. */
    static void failIfFailed(ConnectWorkerCluster connect, String name) {
        ConnectorStateInfo status;
        try {
            status = connect.status(name);
        } catch (RuntimeException notThereYet) {
            return;
        }
        List<String> traces = new java.util.ArrayList<>();
        if ("FAILED".equals(status.connector().state())) {
            traces.add(status.connector().trace());
        }
        status.tasks().stream().filter(t -> "FAILED".equals(t.state())).forEach(t -> traces.add(t.trace()));
        if (!traces.isEmpty()) {
            throw new AssertionError(name + " FAILED: " + traces.stream().map(JdbcSink::causes).collect(Collectors.joining(" || ")));
        }
    }

    /** The lines of a trace that name a problem (the exception and each "Caused by"), without the stack frames. */
    static String causes(String trace) {
        if (trace == null) {
            return "(no trace)";
        }
        return trace.lines().filter(l -> !l.startsWith("\tat ") && !l.startsWith("\t..."))
                .map(l -> l.length() > 400 ? l.substring(0, 400) + "..." : l).limit(8).collect(Collectors.joining(" | "));
    }
}
