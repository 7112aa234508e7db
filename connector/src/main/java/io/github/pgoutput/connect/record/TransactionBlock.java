package io.github.pgoutput.connect.record;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

import io.github.pgoutput.assembly.ChangeEvent;
import io.github.pgoutput.assembly.Delivery;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;

/**
 * Debezium's {@code transaction} block of change and message records ({@code event.block}: id, total_order,
 * data_collection_order), and the per-table counts of the current delivery that its END record reports.
 *
 * <p>The counts belong to one delivery at a time: {@link #startIfNew} resets them when the records of another
 * delivery begin. Not thread-safe: used by the task's poll thread only.
 */
final class TransactionBlock {

    private final Schema schema = SchemaBuilder.struct().name("event.block").version(1).optional()
            .field("id", Schema.STRING_SCHEMA)
            .field("total_order", Schema.INT64_SCHEMA)
            .field("data_collection_order", Schema.INT64_SCHEMA)
            .build();
    private final boolean enabled;
    private final Map<String, Long> perCollectionCounts = new LinkedHashMap<>();
    private Delivery counted;
    /** Data change and message records of the current delivery so far: the block's total_order. */
    private long eventCount;

    /** @param enabled {@code provide.transaction.metadata}: without it every block is null, as Debezium leaves it */
    TransactionBlock(boolean enabled) {
        this.enabled = enabled;
    }

    Schema schema() {
        return schema;
    }

    /**
     * Starts counting for {@code delivery} unless its records are already being counted.
     *
     * @return the delivery counted before, whose records are now all built; null when none or unchanged
     */
    Delivery startIfNew(Delivery delivery) {
        if (delivery == counted) {
            return null;
        }
        Delivery previous = counted;
        counted = delivery;
        perCollectionCounts.clear();
        eventCount = 0;
        return previous;
    }

    /**
     * The block of the next record of {@code dataCollection}, or null without {@code provide.transaction.metadata} or
     * outside a transaction; counts the record when there is a block.
     */
    Struct next(String dataCollection, ChangeEvent event, Delivery delivery) {
        if (!enabled || !delivery.xid().isValid()) {
            return null;
        }
        long perCollection = perCollectionCounts.merge(dataCollection, 1L, Long::sum);
        return new Struct(schema)
                .put("id", TransactionTopicRecords.transactionId(delivery, event.walPosition()))
                .put("total_order", ++eventCount)
                .put("data_collection_order", perCollection);
    }

    /** Records per data collection of {@code delivery}, in first-seen order; empty for another delivery. */
    Map<String, Long> counts(Delivery delivery) {
        return delivery == counted ? Collections.unmodifiableMap(new LinkedHashMap<>(perCollectionCounts)) : Map.of();
    }
}
