package io.github.pgoutput.connect.record;

import io.github.pgoutput.converters.BinaryHandlingMode;

import java.util.Base64;
import java.util.HexFormat;

import io.github.pgoutput.pgoutput.PgOutputMessage.LogicalMessage;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;

/**
 * The records of logical decoding messages ({@code pg_logical_emit_message}) on {@code <prefix>.message}: op
 * {@code m}, Debezium's {@code MessageKey} (the prefix) and {@code MessageValue} with the nested {@code message} block,
 * whose content has the form {@code binary.handling.mode} gives bytea values.
 */
final class LogicalMessageRecords {

    static final String OP_MESSAGE = "m";

    private final BinaryHandlingMode contentForm;
    private final Schema keySchema;
    private final Schema blockSchema;
    private final Schema valueSchema;

    LogicalMessageRecords(BinaryHandlingMode contentForm, Schema sourceSchema, Schema transactionSchema) {
        this.contentForm = contentForm;
        Schema contentSchema = contentForm == BinaryHandlingMode.BYTES ? Schema.OPTIONAL_BYTES_SCHEMA
                : Schema.OPTIONAL_STRING_SCHEMA;
        keySchema = SchemaBuilder.struct().name("io.debezium.connector.postgresql.MessageKey").version(1)
                .field("prefix", Schema.OPTIONAL_STRING_SCHEMA).build();
        blockSchema = SchemaBuilder.struct().name("io.debezium.connector.postgresql.Message").version(1)
                .field("prefix", Schema.OPTIONAL_STRING_SCHEMA)
                .field("content", contentSchema)
                .build();
        valueSchema = SchemaBuilder.struct().name("io.debezium.connector.postgresql.MessageValue").version(1)
                .field(TableSchema.Envelope.OP, Schema.STRING_SCHEMA)
                .field(TableSchema.Envelope.TS_MS, Schema.OPTIONAL_INT64_SCHEMA)
                .field(TableSchema.Envelope.SOURCE, sourceSchema)
                .field(TableSchema.Envelope.TRANSACTION, transactionSchema)
                .field("message", blockSchema)
                .build();
    }

    /**
     * @param source      the record's {@code source} block
     * @param transaction its {@code transaction} block, or null
     */
    ChangeRecordBuilder.Draft draft(String topic, LogicalMessage logical, Struct source, Struct transaction, Long timestampMs) {
        Struct value = new Struct(valueSchema)
                .put(TableSchema.Envelope.OP, OP_MESSAGE)
                .put(TableSchema.Envelope.TS_MS, System.currentTimeMillis())
                .put(TableSchema.Envelope.SOURCE, source)
                .put(TableSchema.Envelope.TRANSACTION, transaction)
                .put("message", new Struct(blockSchema)
                        .put("prefix", logical.prefix())
                        .put("content", content(logical.content().toByteArray())));
        return new ChangeRecordBuilder.Draft(topic, keySchema, new Struct(keySchema).put("prefix", logical.prefix()),
                valueSchema, value, timestampMs);
    }

    /** A message's content as {@code binary.handling.mode} has bytea values: bytes or a string encoding them. */
    private Object content(byte[] content) {
        if (contentForm == BinaryHandlingMode.BASE64) {
            return Base64.getEncoder().encodeToString(content);
        }
        if (contentForm == BinaryHandlingMode.BASE64_URL_SAFE) {
            return Base64.getUrlEncoder().encodeToString(content);
        }
        if (contentForm == BinaryHandlingMode.HEX) {
            return HexFormat.of().formatHex(content);
        }
        return content;
    }
}
