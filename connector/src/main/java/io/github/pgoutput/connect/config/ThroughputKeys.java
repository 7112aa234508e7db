package io.github.pgoutput.connect.config;

import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Width;
import org.apache.kafka.common.config.ConfigDef;

/**
 * The keys of the configuration group "Throughput": batch, queue and Kafka transaction sizes. Each key is declared
 * here once, with its documentation, default, order and single-key validator; {@link PgOutputSourceConnectorConfig}
 * reads it.
 */
public final class ThroughputKeys {

    /** The group the keys are listed under in the documentation and in Connect's configuration forms. */
    static final String GROUP = "Throughput";

    public static final String MAX_BATCH_SIZE_CONFIG = "max.batch.size";
    private static final String MAX_BATCH_SIZE_DOC = "Most records one poll() returns.";
    private static final int MAX_BATCH_SIZE_DEFAULT = 2048;
    private static final String MAX_BATCH_SIZE_DISPLAY = "Max batch size";

    public static final String MAX_QUEUE_SIZE_CONFIG = "max.queue.size";
    private static final String MAX_QUEUE_SIZE_DOC = "Most records waiting between the replication stream and poll(); "
            + "when full, reading from PostgreSQL pauses. Must be larger than max.batch.size.";
    private static final int MAX_QUEUE_SIZE_DEFAULT = 8192;
    private static final String MAX_QUEUE_SIZE_DISPLAY = "Max queue size";

    public static final String TRANSACTION_MAX_RECORDS_CONFIG = "transaction.max.records";
    private static final String TRANSACTION_MAX_RECORDS_DOC = "With transaction.boundary=connector: the most records one "
            + "delivery may hold in its open Kafka transaction. Connect keeps every record of the open transaction in "
            + "worker heap until it commits, so a larger delivery fails the task, naming this key, instead of exhausting "
            + "the heap; its transaction aborts and it comes again once the task is restarted. Raise it together with "
            + "the worker's heap (roughly the record size times this number) and producer.override.transaction.timeout.ms, "
            + "or use transaction.boundary=poll. Without connector boundaries it has no effect on streaming. In a "
            + "resumable snapshot (exactly.once.support=required, or snapshot.resumable=true) it is also the most identical "
            + "rows a table without a unique key may hold: they go into one poll, and so one Kafka transaction, since a "
            + "resumed read cannot tell them apart; a table with more fails the task, naming this key.";
    private static final int TRANSACTION_MAX_RECORDS_DEFAULT = 250_000;
    private static final String TRANSACTION_MAX_RECORDS_DISPLAY = "Max records per Kafka transaction";

    public static final String TRANSACTION_BATCH_MAX_DELIVERIES_CONFIG = "transaction.batch.max.deliveries";
    private static final String TRANSACTION_BATCH_MAX_DELIVERIES_DOC = "With transaction.boundary=connector: the most "
            + "whole deliveries (PostgreSQL transactions, outcomes, messages, heartbeats) that end in the same poll and "
            + "share one Kafka transaction. 1 (the default): every delivery is its own Kafka transaction. Higher values "
            + "save the per-transaction cost on streams of small transactions: a read_committed consumer still never "
            + "sees part of a delivery, but sees up to this many appear in one step. A delivery is never split, and a "
            + "poll's last finished delivery is always committed with that poll. Without connector boundaries it has no "
            + "effect.";
    private static final int TRANSACTION_BATCH_MAX_DELIVERIES_DEFAULT = 1;
    private static final String TRANSACTION_BATCH_MAX_DELIVERIES_DISPLAY = "Max deliveries per Kafka transaction";

    private ThroughputKeys() {
    }

    /** Declares the keys of the group in {@code def}, in the order the documentation lists them. */
    static void define(ConfigDef def) {
        int order = 0;
        def.define(MAX_BATCH_SIZE_CONFIG, Type.INT, MAX_BATCH_SIZE_DEFAULT, ConfigDef.Range.atLeast(1),
                Importance.LOW, MAX_BATCH_SIZE_DOC, GROUP, ++order, Width.SHORT, MAX_BATCH_SIZE_DISPLAY);
        def.define(MAX_QUEUE_SIZE_CONFIG, Type.INT, MAX_QUEUE_SIZE_DEFAULT, ConfigDef.Range.atLeast(2),
                Importance.LOW, MAX_QUEUE_SIZE_DOC, GROUP, ++order, Width.SHORT, MAX_QUEUE_SIZE_DISPLAY);
        def.define(TRANSACTION_MAX_RECORDS_CONFIG, Type.INT, TRANSACTION_MAX_RECORDS_DEFAULT, ConfigDef.Range.atLeast(1),
                Importance.LOW, TRANSACTION_MAX_RECORDS_DOC, GROUP, ++order, Width.SHORT,
                TRANSACTION_MAX_RECORDS_DISPLAY);
        def.define(TRANSACTION_BATCH_MAX_DELIVERIES_CONFIG, Type.INT, TRANSACTION_BATCH_MAX_DELIVERIES_DEFAULT,
                ConfigDef.Range.atLeast(1), Importance.LOW, TRANSACTION_BATCH_MAX_DELIVERIES_DOC, GROUP, ++order,
                Width.SHORT, TRANSACTION_BATCH_MAX_DELIVERIES_DISPLAY);
    }
}
