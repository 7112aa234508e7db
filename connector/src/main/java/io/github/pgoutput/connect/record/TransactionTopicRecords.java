package io.github.pgoutput.connect.record;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.github.pgoutput.assembly.Delivery;
import io.github.pgoutput.pgoutput.Lsn;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;

/**
 * The records of {@code <topic.prefix>.transaction}: Debezium's transaction metadata
 * ({@code io.debezium.connector.common.TransactionMetadataKey} / {@code TransactionMetadataValue}, version 1:
 * {@code status} BEGIN/END, {@code id}, {@code event_count}, {@code data_collections} of {@code event.collection}
 * {@code {data_collection, event_count}} with {@code schema.table} names, {@code ts_ms}) extended with optional fields
 * for the lifecycle of the delivery, which prepared-transaction staging needs and Debezium's consumers ignore:
 * {@code outcome} (COMMITTED, PREPARED, ROLLED_BACK), {@code two_phase}, {@code xid}, {@code gid}, {@code tx_lsn}
 * (start of the record that completed the delivery: PostgreSQL's commit_lsn or prepare_lsn, for ROLLED_BACK the
 * prepare_end_lsn naming the PREPARE undone; the offset's {@code tx_lsn}) and {@code end_lsn} (the end of that
 * record, the same as the {@code pg.commit_lsn} header).
 *
 * <p>The id is Debezium's PostgreSQL one, {@code <xid>:<lsn>} with the LSN of the record it is written on: for a
 * change its own WAL position, for END the end of the commit record; for BEGIN the position of the transaction's
 * first change, which is where Debezium's Begin message is (pgoutput's Begin does not carry it; a transaction
 * without changes: its commit LSN). A two-phase transaction's records use its GID instead.
 *
 * <p>A delivery with changes gets a BEGIN record before them and an END record after them. A two-phase COMMITTED
 * (COMMIT PREPARED) or ROLLED_BACK delivery has no changes and gets one record, with {@code status} equal to its
 * outcome. Records of a two-phase transaction are keyed by its GID, so its PREPARED, COMMITTED or ROLLED_BACK
 * records share a partition; others by the transaction id.
 *
 * <p>Immutable and thread-safe.
 */
public final class TransactionTopicRecords {

    static final String STATUS_BEGIN = "BEGIN";
    static final String STATUS_END = "END";

    private final String topic;
    private final Schema keySchema;
    private final Schema valueSchema;
    private final Schema collectionSchema;

    public TransactionTopicRecords(TopicNames topics) {
        topic = topics.transaction();
        keySchema = SchemaBuilder.struct().name("io.debezium.connector.common.TransactionMetadataKey").version(1)
                .field("id", Schema.STRING_SCHEMA).build();
        collectionSchema = SchemaBuilder.struct().name("event.collection").version(1).optional()
                .field("data_collection", Schema.STRING_SCHEMA)
                .field("event_count", Schema.INT64_SCHEMA).build();
        valueSchema = SchemaBuilder.struct().name("io.debezium.connector.common.TransactionMetadataValue").version(1)
                .field("status", Schema.STRING_SCHEMA)
                .field("id", Schema.STRING_SCHEMA)
                .field("event_count", Schema.OPTIONAL_INT64_SCHEMA)
                .field("data_collections", SchemaBuilder.array(collectionSchema).optional().build())
                .field("ts_ms", Schema.INT64_SCHEMA)
                .field("outcome", Schema.OPTIONAL_STRING_SCHEMA)
                .field("two_phase", Schema.OPTIONAL_BOOLEAN_SCHEMA)
                .field("xid", Schema.OPTIONAL_INT64_SCHEMA)
                .field("gid", Schema.OPTIONAL_STRING_SCHEMA)
                .field("tx_lsn", Schema.OPTIONAL_STRING_SCHEMA)
                .field("end_lsn", Schema.OPTIONAL_STRING_SCHEMA)
                .build();
    }

    /** Debezium's transaction id on a record at {@code lsn}: {@code <xid>:<lsn>}, or the GID of a two-phase transaction. */
    static String transactionId(Delivery delivery, Lsn lsn) {
        return delivery.gid().orElse(delivery.xid().value() + ":" + Long.toUnsignedString(lsn.value()));
    }

    /** True when the delivery gets BEGIN and END records: it is a transaction that may carry changes. */
    public static boolean hasBeginAndEnd(Delivery delivery) {
        return delivery.xid().isValid() && !(delivery.twoPhase() || delivery.kind() == Delivery.Kind.ROLLED_BACK);
    }

    /** @param firstChange the WAL position of the transaction's first change, for the id */
    public ChangeRecordBuilder.Draft begin(Delivery delivery, Lsn firstChange) {
        return draft(delivery, STATUS_BEGIN, firstChange, null);
    }

    /** @param countsPerDataCollection records per data collection ({@code schema.table}) of the delivery */
    public ChangeRecordBuilder.Draft end(Delivery delivery, Map<String, Long> countsPerDataCollection) {
        return draft(delivery, STATUS_END, delivery.endLsn(), countsPerDataCollection);
    }

    /** The one record of a two-phase COMMITTED or ROLLED_BACK delivery. */
    public ChangeRecordBuilder.Draft outcome(Delivery delivery) {
        return draft(delivery, LifecycleHeaders.outcome(delivery.kind()), delivery.endLsn(), null);
    }

    private ChangeRecordBuilder.Draft draft(Delivery delivery, String status, Lsn lsn, Map<String, Long> counts) {
        String id = transactionId(delivery, lsn);
        long time = delivery.time() == null ? System.currentTimeMillis() : delivery.time().toEpochMilli();
        Struct value = new Struct(valueSchema)
                .put("status", status)
                .put("id", id)
                .put("ts_ms", time)
                .put("outcome", LifecycleHeaders.outcome(delivery.kind()))
                .put("two_phase", delivery.twoPhase() || delivery.gid().isPresent())
                .put("xid", delivery.xid().value())
                .put("gid", delivery.gid().orElse(null))
                .put("tx_lsn", delivery.lsn().toString())
                .put("end_lsn", delivery.endLsn().toString());
        if (counts != null) {
            List<Struct> collections = new ArrayList<>(counts.size());
            long total = 0;
            for (Map.Entry<String, Long> entry : counts.entrySet()) {
                collections.add(new Struct(collectionSchema).put("data_collection", entry.getKey()).put("event_count", entry.getValue()));
                total += entry.getValue();
            }
            value.put("event_count", total).put("data_collections", collections);
        }
        return new ChangeRecordBuilder.Draft(topic, keySchema, new Struct(keySchema).put("id", id), valueSchema, value, time);
    }
}
