package io.github.pgoutput.parity;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import io.github.pgoutput.connect.PgOutputSourceConnector;
import io.github.pgoutput.testing.PostgresDatabase;

/**
 * The Debezium-style source configuration that both Debezium's PostgreSQL connector and ours get in the downstream
 * tests: pgoutput, a slot and publication named after the topic prefix, truncates not skipped (a sink applies
 * them), the JSON converter with schemas (what Debezium's JDBC sink reads), single-partition topics.
 */
final class SourceConfigs {

    static final String OURS = PgOutputSourceConnector.class.getName();
    static final String DEBEZIUM = DebeziumParityIT.DEBEZIUM_CLASS;
    private static final String JSON_CONVERTER = "org.apache.kafka.connect.json.JsonConverter";

    private SourceConfigs() {
    }

    /** {@code connectorClass} capturing {@code tables} (a table.include.list) of {@code db} under {@code prefix}. */
    static Map<String, String> of(String connectorClass, PostgresDatabase db, String prefix, String tables) {
        Map<String, String> config = new LinkedHashMap<>();
        config.put("connector.class", connectorClass);
        config.put("tasks.max", "1");
        config.put("plugin.name", "pgoutput");
        config.put("database.hostname", db.host());
        config.put("database.port", Integer.toString(db.port()));
        config.put("database.user", db.user());
        config.put("database.dbname", db.name());
        config.put("topic.prefix", prefix);
        config.put("slot.name", prefix);
        config.put("publication.name", prefix + "_pub");
        config.put("publication.autocreate.mode", "filtered");
        config.put("table.include.list", tables);
        config.put("skipped.operations", "none");
        config.put("key.converter", JSON_CONVERTER);
        config.put("key.converter.schemas.enable", "true");
        config.put("value.converter", JSON_CONVERTER);
        config.put("value.converter.schemas.enable", "true");
        config.put("topic.creation.default.replication.factor", "1");
        config.put("topic.creation.default.partitions", "1");
        return config;
    }

    /** Waits until the connector's slot ({@code slot.name} = {@code prefix}) is held by a walsender: it streams. */
    static void awaitStreaming(PostgresDatabase db, String prefix, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!"t".equals(db.queryValue("SELECT coalesce(bool_or(active), false) FROM pg_replication_slots WHERE slot_name = '"
                + prefix + "'"))) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("slot " + prefix + " not active after " + timeout);
            }
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted", e);
            }
        }
    }
}
