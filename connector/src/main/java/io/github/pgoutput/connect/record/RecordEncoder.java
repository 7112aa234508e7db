package io.github.pgoutput.connect.record;

import java.util.Map;

import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.header.Header;
import org.apache.kafka.connect.source.SourceRecord;

/**
 * Makes the task's source records, with the key and value as Structs or, under a {@link DirectEncoding} other than
 * {@code NONE}, as the JSON bytes of {@link ConnectJsonWriter} with schema {@link Schema#OPTIONAL_BYTES_SCHEMA}, which
 * {@code ByteArrayConverter} passes on unchanged. A null key or value (a keyless table, a tombstone) stays null with no
 * schema, so tombstones remain tombstones. Headers are never encoded here: the header converter writes them.
 *
 * <p>Thread-safe.
 */
public final class RecordEncoder {

    /** Records carry Structs: {@code direct.encoding=none}. */
    public static final RecordEncoder STRUCTS = new RecordEncoder(null);

    private final ConnectJsonWriter json;

    private RecordEncoder(ConnectJsonWriter json) {
        this.json = json;
    }

    public static RecordEncoder of(DirectEncoding encoding) {
        return switch (encoding) {
            case NONE -> STRUCTS;
            case JSON -> new RecordEncoder(new ConnectJsonWriter(false));
            case JSON_WITH_SCHEMAS -> new RecordEncoder(new ConnectJsonWriter(true));
        };
    }

    public SourceRecord record(Map<String, ?> partition, Map<String, ?> offset, String topic, Integer kafkaPartition,
            Schema keySchema, Object key, Schema valueSchema, Object value, Long timestampMs, Iterable<Header> headers) {
        if (json == null) {
            return new SourceRecord(partition, offset, topic, kafkaPartition, keySchema, key, valueSchema, value,
                    timestampMs, headers);
        }
        byte[] keyBytes = json.write(keySchema, key);
        byte[] valueBytes = json.write(valueSchema, value);
        return new SourceRecord(partition, offset, topic, kafkaPartition,
                keyBytes == null ? null : Schema.OPTIONAL_BYTES_SCHEMA, keyBytes,
                valueBytes == null ? null : Schema.OPTIONAL_BYTES_SCHEMA, valueBytes, timestampMs, headers);
    }
}
