package io.github.pgoutput.connect.config;

/**
 * Kafka Connect's own connector keys that this connector reads. Connect declares and checks them (its
 * {@code SourceConnectorConfig}); the connector reads them only to decide how it delivers and to explain a
 * combination that cannot work, so they are not part of {@link PgOutputSourceConnectorConfig}'s ConfigDef.
 */
public final class ConnectKeys {

    /** The number of tasks; the connector checks that it is 1 (one slot is read by one client at a time). */
    public static final String TASKS_MAX_CONFIG = "tasks.max";
    /** {@code required} or {@code requested}: whether the worker must run the connector exactly-once. */
    public static final String EXACTLY_ONCE_SUPPORT_CONFIG = "exactly.once.support";
    /** {@code poll}, {@code interval} or {@code connector}: who defines the Kafka transactions. */
    public static final String TRANSACTION_BOUNDARY_CONFIG = "transaction.boundary";
    /** The connector's override of its producer's {@code transaction.timeout.ms} (Connect's client override prefix). */
    public static final String PRODUCER_TRANSACTION_TIMEOUT_CONFIG = "producer.override.transaction.timeout.ms";

    private ConnectKeys() {
    }
}
