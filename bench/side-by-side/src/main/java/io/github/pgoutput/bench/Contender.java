package io.github.pgoutput.bench;

import java.nio.file.Path;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.github.pgoutput.localrun.LocalPostgres;

/**
 * The two connectors compared, each configured for the same table, publication and topic naming, with the settings
 * that differ between their defaults made equal: no transaction metadata records (Debezium's default; ours defaults
 * to true), max.batch.size/max.queue.size left at both defaults (2048/8192), tombstones at both defaults (only W7
 * deletes rows), snapshot only for W5.
 *
 * <p>The two exactly-once variants of ours (issue 16) run on a worker with {@code exactly.once.source.support=enabled}
 * and {@code exactly.once.support=required}, which our connector accepts only with {@code snapshot.mode=no_data}: so
 * they suit the streaming workloads W1–W4, not W5.
 */
enum Contender {
    OURS("ours"),
    DEBEZIUM("dbz"),
    /** Ours, exactly-once, Connect's default {@code transaction.boundary=poll}: one Kafka transaction per poll. */
    OURS_EOS_POLL("ours_eos_poll"),
    /** Ours, exactly-once, {@code transaction.boundary=connector}: one Kafka transaction per delivery. */
    OURS_EOS_CONNECTOR("ours_eos_connector"),
    /**
     * As {@link #OURS_EOS_CONNECTOR}, with {@code transaction.batch.max.deliveries}={@value #BATCH_DELIVERIES}: whole
     * deliveries ending in one poll share a Kafka transaction.
     */
    OURS_EOS_BATCHED("ours_eos_batched"),
    /**
     * The Connect ceiling (issue 19): {@code bench/connect-ceiling}'s connector, which reads nothing and emits our own
     * records of the bench table, built once, as fast as the worker takes them: what the worker, the JSON converter
     * and the producer allow for these records. Runs from a copy of our plugin folder with its jar added.
     */
    CEILING("ceiling"),
    /**
     * Ours with {@code direct.encoding=json} (issue 19): the connector writes JsonConverter's bytes (schemas off, as
     * the worker's converters are set) and the connector's own converters are ByteArrayConverter.
     */
    OURS_DIRECT("ours_direct"),
    /**
     * The ceiling of {@link #OURS_DIRECT}: the {@link #CEILING}'s records with the key and value bytes our
     * {@code direct.encoding=json} writes, through ByteArrayConverter; what the worker and the producer alone allow.
     */
    CEILING_DIRECT("ceiling_direct");

    static final int BATCH_DELIVERIES = 1000;

    private static final ObjectMapper JSON = new ObjectMapper();

    final String prefix;

    Contender(String prefix) {
        this.prefix = prefix;
    }

    /** Whether the leg's worker needs {@code exactly.once.source.support=enabled}. */
    boolean exactlyOnce() {
        return this == OURS_EOS_POLL || this == OURS_EOS_CONNECTOR || this == OURS_EOS_BATCHED;
    }

    /** Records in the table topic once the leg is complete: one per row for both (neither snapshot writes a truncate). */
    long expectedRecords(Workload workload, int rows) {
        return rows;
    }

    /** The Kafka signal topic of a W6 or W7 leg. */
    static String signalTopic(String name) {
        return name + "-signal";
    }

    /** @param bootstrap the brokers, for the signal topic of W6 and W7 */
    ObjectNode config(LocalPostgres pg, Workload workload, int rows, String name, Path spillDir, String bootstrap) {
        ObjectNode config = JSON.createObjectNode();
        config.put("tasks.max", "1");
        if (isCeiling()) {
            config.put("connector.class", "io.github.pgoutput.bench.ceiling.ConnectCeilingConnector");
            config.put("ceiling.records", String.valueOf(expectedRecords(workload, rows)));
            config.put("topic.prefix", name);
            // The streaming workloads' records carry our streamed changes' headers, the snapshots' (initial and
            // incremental) their own.
            config.put("ceiling.streamed", String.valueOf(!workload.readsTable()));
            if (this == CEILING_DIRECT) {
                config.put("ceiling.direct", "true");
                byteArrayConverters(config);
            }
            return config;
        }
        config.put("database.hostname", pg.host);
        config.put("database.port", String.valueOf(pg.port));
        config.put("database.user", pg.user);
        config.put("database.dbname", pg.database);
        config.put("slot.name", name);
        config.put("publication.name", Workload.PUBLICATION);
        config.put("publication.autocreate.mode", "disabled");
        config.put("table.include.list", "public\\.bench");
        config.put("topic.prefix", name);
        config.put("snapshot.mode", workload.snapshot() ? "initial" : "no_data");
        config.put("provide.transaction.metadata", "false");
        if (workload.signalled()) {
            // The same keys for both: Debezium's read-only incremental snapshot through its Kafka signal channel, at
            // both defaults' chunk size.
            config.put("signal.enabled.channels", "kafka");
            config.put("signal.kafka.topic", signalTopic(name));
            config.put("signal.kafka.bootstrap.servers", bootstrap);
            config.put("signal.kafka.groupId", name);
            config.put("read.only", "true");
            config.put("incremental.snapshot.chunk.size", "1024");
        }
        switch (this) {
            case OURS, OURS_EOS_POLL, OURS_EOS_CONNECTOR, OURS_EOS_BATCHED, OURS_DIRECT -> {
                config.put("connector.class", "io.github.pgoutput.connect.PgOutputSourceConnector");
                config.put("spill.directory", spillDir.toString());
            }
            case DEBEZIUM -> {
                config.put("connector.class", "io.debezium.connector.postgresql.PostgresConnector");
                config.put("plugin.name", "pgoutput");
            }
            case CEILING, CEILING_DIRECT -> throw new IllegalStateException("configured above");
        }
        if (exactlyOnce()) {
            config.put("exactly.once.support", "required");
        }
        if (this == OURS_DIRECT) {
            config.put("direct.encoding", "json");
            byteArrayConverters(config);
        }
        if (this == OURS_EOS_CONNECTOR || this == OURS_EOS_BATCHED) {
            config.put("transaction.boundary", "connector");
            // W1 and W4 are one delivery each: its whole transaction stays open (and in the worker's heap) until the
            // last row is written, so the record bound and the producer's transaction timeout must both cover it.
            config.put("transaction.max.records", String.valueOf(Math.max(rows, 250_000)));
            config.put("producer.override.transaction.timeout.ms", "600000");
        }
        if (this == OURS_EOS_BATCHED) {
            config.put("transaction.batch.max.deliveries", String.valueOf(BATCH_DELIVERIES));
        }
        return config;
    }

    /** Whether its records carry the bytes of {@code direct.encoding=json}, through ByteArrayConverter. */
    boolean direct() {
        return this == OURS_DIRECT || this == CEILING_DIRECT;
    }

    /** Whether this is one of the Connect ceilings, which read nothing and run from their own plugin folder. */
    boolean isCeiling() {
        return this == CEILING || this == CEILING_DIRECT;
    }

    private static void byteArrayConverters(ObjectNode config) {
        config.put("key.converter", "org.apache.kafka.connect.converters.ByteArrayConverter");
        config.put("value.converter", "org.apache.kafka.connect.converters.ByteArrayConverter");
    }

    static Contender parse(String name) {
        return switch (name) {
            case "ours" -> OURS;
            case "dbz", "debezium" -> DEBEZIUM;
            case "ours-eos-poll" -> OURS_EOS_POLL;
            case "ours-eos-connector" -> OURS_EOS_CONNECTOR;
            case "ours-eos-batched" -> OURS_EOS_BATCHED;
            case "ceiling" -> CEILING;
            case "ours-direct" -> OURS_DIRECT;
            case "ceiling-direct" -> CEILING_DIRECT;
            default -> throw new IllegalArgumentException("unknown contender '" + name
                    + "' (ours, dbz, ceiling, ours-direct, ceiling-direct, ours-eos-poll, ours-eos-connector, ours-eos-batched)");
        };
    }
}
