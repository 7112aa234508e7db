package io.github.pgoutput.connect.config;

import java.util.List;
import java.util.Set;

/**
 * Kafka Connect's own connector keys, in one place: those this connector reads (to decide how it delivers and to
 * explain a combination that cannot work) and those it knows to be the framework's, so that validation does not call
 * them unknown. Connect declares and checks them (its {@code ConnectorConfig} and {@code SourceConnectorConfig}), so
 * they are not part of {@link PgOutputSourceConnectorConfig}'s ConfigDef.
 */
public final class ConnectKeys {

    /** The connector's name, which Connect also passes to its tasks. */
    public static final String NAME_CONFIG = "name";
    /** The number of tasks; the connector checks that it is 1 (one slot is read by one client at a time). */
    public static final String TASKS_MAX_CONFIG = "tasks.max";
    /** {@code required} or {@code requested}: whether the worker must run the connector exactly-once. */
    public static final String EXACTLY_ONCE_SUPPORT_CONFIG = "exactly.once.support";
    /** {@code poll}, {@code interval} or {@code connector}: who defines the Kafka transactions. */
    public static final String TRANSACTION_BOUNDARY_CONFIG = "transaction.boundary";
    /** The connector's override of its producer's {@code transaction.timeout.ms} (Connect's client override prefix). */
    public static final String PRODUCER_TRANSACTION_TIMEOUT_CONFIG = "producer.override.transaction.timeout.ms";

    /** Connect's keys of a connector's own converters. */
    static final String KEY_CONVERTER = "key.converter";
    static final String VALUE_CONVERTER = "value.converter";
    /** Connect's key of a connector's transform aliases. */
    static final String TRANSFORMS = "transforms";

    /** Connect's own connector keys (ConnectorConfig, SourceConnectorConfig), read by the worker, not by us. */
    static final Set<String> FRAMEWORK_KEYS = Set.of(NAME_CONFIG, "connector.class", TASKS_MAX_CONFIG,
            "tasks.max.enforce", KEY_CONVERTER, VALUE_CONVERTER, "header.converter", TRANSFORMS, "predicates",
            "config.action.reload", EXACTLY_ONCE_SUPPORT_CONFIG,
            TRANSACTION_BOUNDARY_CONFIG, "transaction.boundary.interval.ms", "offsets.storage.topic",
            "connector.plugin.version");

    /** Families of Connect's keys: converter and transform settings, error handling, topic creation, client overrides. */
    static final List<String> FRAMEWORK_PREFIXES = List.of(KEY_CONVERTER + ".", VALUE_CONVERTER + ".",
            "header.converter.", TRANSFORMS + ".", "predicates.", "errors.", "topic.creation.", "producer.override.",
            "consumer.override.", "admin.override.");

    private ConnectKeys() {
    }
}
