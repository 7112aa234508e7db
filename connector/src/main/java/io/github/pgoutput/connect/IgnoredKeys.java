package io.github.pgoutput.connect;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The keys of a connector configuration that nothing reads: neither this connector (its own keys, and the Debezium
 * keys {@link UnsupportedDebeziumKeys} refuses) nor Kafka Connect (the framework's connector keys and client
 * overrides). Connect hands such keys to the connector without a word, so a misspelt key, or a Debezium feature this
 * connector does not have, would otherwise be accepted silently; validation and the connector start log a WARN that
 * names each of them.
 *
 * <p>They stay warnings, not errors: a Debezium user's configuration that sets, say, {@code signal.data.collection}
 * or {@code incremental.snapshot.chunk.size} still yields the same records here, so refusing it would only stop the
 * switch. The WARN says that the feature is not implemented, so the user does not rely on it.
 *
 * <p>Stateless.
 */
final class IgnoredKeys {

    private IgnoredKeys() {
    }

    /** Connect's own connector keys (ConnectorConfig, SourceConnectorConfig), read by the worker, not by us. */
    private static final Set<String> FRAMEWORK_KEYS = Set.of("name", "connector.class", PgOutputSourceConnectorConfig.TASKS_MAX_CONFIG,
            "tasks.max.enforce", CrossKeyRules.KEY_CONVERTER, CrossKeyRules.VALUE_CONVERTER, "header.converter", CrossKeyRules.TRANSFORMS, "predicates",
            "config.action.reload", PgOutputSourceConnector.EXACTLY_ONCE_SUPPORT_CONFIG,
            PgOutputSourceConnector.TRANSACTION_BOUNDARY_CONFIG, "transaction.boundary.interval.ms", "offsets.storage.topic",
            "connector.plugin.version");

    /** Families of Connect's keys: converter and transform settings, error handling, topic creation, client overrides. */
    private static final List<String> FRAMEWORK_PREFIXES = List.of(CrossKeyRules.KEY_CONVERTER + ".", CrossKeyRules.VALUE_CONVERTER + ".",
            "header.converter.", CrossKeyRules.TRANSFORMS + ".", "predicates.", "errors.", "topic.creation.", "producer.override.",
            "consumer.override.", "admin.override.");

    /**
     * Debezium features with keys of their own that this connector has not built; the WARN names the feature.
     *
     * @param prefix  the start of the feature's keys
     * @param feature what Debezium does with them
     */
    record DebeziumFeature(String prefix, String feature) {
    }

    static final List<DebeziumFeature> DEBEZIUM_FEATURES = List.of(
            // The signal and incremental snapshot keys this connector has are its own (CONFIG_DEF); these are the rest.
            new DebeziumFeature("signal.", "signals through Debezium's file, jmx and in-process channels, or a signal"
                    + " setting this connector lacks (it reads signal.enabled.channels source and kafka, signal.data.collection,"
                    + " signal.kafka.topic, signal.kafka.bootstrap.servers, signal.kafka.groupId, signal.kafka.poll.timeout.ms"
                    + " and signal.consumer.*)"),
            new DebeziumFeature("incremental.snapshot.", "incremental snapshots beyond their chunk size (this connector reads"
                    + " incremental.snapshot.chunk.size; it writes no watermarks and needs no schema-change setting)"),
            new DebeziumFeature("notification.", "notifications"),
            new DebeziumFeature("heartbeat.action.query", "heartbeat action queries"),
            new DebeziumFeature("schema.history.internal", "schema history"),
            new DebeziumFeature("custom.metric.tags", "custom metric tags"));

    /**
     * One key nothing reads, and the WARN for it.
     *
     * @param key     the key as given
     * @param message what the WARN says: that the key has no effect, and why
     */
    record IgnoredKey(String key, String message) {
    }

    /** The keys of {@code props} nothing reads, sorted by key. */
    static List<IgnoredKey> of(Map<String, ?> props) {
        List<IgnoredKey> ignored = new ArrayList<>();
        for (String key : props.keySet()) {
            if (PgOutputSourceConnectorConfig.CONFIG_DEF.configKeys().containsKey(key)
                    || key.startsWith(PgOutputSourceConnectorConfig.SIGNAL_CONSUMER_PREFIX)
                    || UnsupportedDebeziumKeys.rule(key) != null || isFrameworkKey(key)
                    || ColumnShapingKeys.reads(key, props)) {
                continue;
            }
            ignored.add(new IgnoredKey(key, message(key)));
        }
        ignored.sort((a, b) -> a.key().compareTo(b.key()));
        return ignored;
    }

    private static boolean isFrameworkKey(String key) {
        return FRAMEWORK_KEYS.contains(key) || FRAMEWORK_PREFIXES.stream().anyMatch(key::startsWith);
    }

    private static String message(String key) {
        for (DebeziumFeature feature : DEBEZIUM_FEATURES) {
            if (key.startsWith(feature.prefix())) {
                return key + " is a Debezium setting for " + feature.feature() + ", which this connector does not"
                        + " implement: the key has no effect; remove it, and do not rely on the feature";
            }
        }
        return key + " is not a setting of this connector nor of Kafka Connect, so it has no effect: if it is a"
                + " Debezium setting, this connector does not implement what it does; otherwise correct its name (the"
                + " connector's settings are listed in its README)";
    }
}
