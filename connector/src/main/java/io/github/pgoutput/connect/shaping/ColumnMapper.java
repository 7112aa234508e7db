package io.github.pgoutput.connect.shaping;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Locale;
import java.util.function.UnaryOperator;

import org.apache.kafka.connect.data.SchemaBuilder;

/**
 * What one of Debezium's column keys does to the columns it matches: a parameter on the field's schema, and maybe a
 * function over the field's values, applied after the value is converted (by the connector or a custom converter).
 * The key of a record is never mapped, as in Debezium. Each implementation reproduces Debezium's mapper of the same
 * key, including what it does to columns it cannot change (the schema parameter is still written).
 *
 * <p>Implementations are immutable and thread-safe; the functions of {@link #values} are for one thread each.
 */
public sealed interface ColumnMapper permits ColumnMapper.Mask, ColumnMapper.Truncate, ColumnMapper.PropagateSourceType,
        HashMask {

    /** Debezium's parameter on masked fields, with value {@code true}. */
    String MASKED_PARAMETER = "masked";
    /** Debezium's parameter on truncated fields: the maximum length. */
    String TRUNCATE_LENGTH_PARAMETER = "truncateLength";

    /** Adds the parameters Debezium's mapper adds to the field schema of {@code column}. */
    void alterSchema(SourceColumn column, SchemaBuilder schema);

    /** The function over the values of {@code column}, or null when they pass unchanged. */
    UnaryOperator<Object> values(SourceColumn column);

    /**
     * {@code column.mask.with.N.chars}: every value of a character column becomes {@code mask}, NULL included (as
     * Debezium writes it); other columns keep their values but get the {@code masked} parameter too.
     */
    record Mask(String mask) implements ColumnMapper {

        /** A mask of {@code chars} asterisks. */
        public static Mask ofLength(int chars) {
            return new Mask("*".repeat(chars));
        }

        @Override
        public void alterSchema(SourceColumn column, SchemaBuilder schema) {
            schema.parameter(MASKED_PARAMETER, "true");
        }

        @Override
        public UnaryOperator<Object> values(SourceColumn column) {
            return column.isCharacterType() ? value -> mask : null;
        }
    }

    /**
     * {@code column.truncate.to.N.chars}: string values longer than {@code maxLength} UTF-16 units, and byte values
     * longer than {@code maxLength} bytes, are cut to it, whatever the column's type; columns whose declared length is
     * at most {@code maxLength} are left alone and get no parameter.
     */
    record Truncate(int maxLength) implements ColumnMapper {

        @Override
        public void alterSchema(SourceColumn column, SchemaBuilder schema) {
            if (applies(column)) {
                schema.parameter(TRUNCATE_LENGTH_PARAMETER, Integer.toString(maxLength));
            }
        }

        @Override
        public UnaryOperator<Object> values(SourceColumn column) {
            return applies(column) ? this::truncate : null;
        }

        private boolean applies(SourceColumn column) {
            return column.length() < 0 || column.length() > maxLength;
        }

        Object truncate(Object value) {
            if (value instanceof String text) {
                return text.length() > maxLength ? text.substring(0, maxLength) : text;
            }
            if (value instanceof byte[] bytes) {
                return bytes.length > maxLength ? Arrays.copyOf(bytes, maxLength) : bytes;
            }
            if (value instanceof ByteBuffer buffer && buffer.limit() > maxLength) {
                return ByteBuffer.wrap(Arrays.copyOfRange(buffer.array(), 0, maxLength));
            }
            return value;
        }
    }

    /**
     * {@code column.propagate.source.type} and {@code datatype.propagate.source.type}: the column's source type in the
     * field's parameters, {@code __debezium.source.column.type} (upper case), {@code .length}, {@code .scale} and
     * {@code .name}.
     */
    record PropagateSourceType() implements ColumnMapper {

        public static final String TYPE_PARAMETER = "__debezium.source.column.type";
        public static final String LENGTH_PARAMETER = "__debezium.source.column.length";
        public static final String SCALE_PARAMETER = "__debezium.source.column.scale";
        public static final String NAME_PARAMETER = "__debezium.source.column.name";

        @Override
        public void alterSchema(SourceColumn column, SchemaBuilder schema) {
            schema.parameter(TYPE_PARAMETER, column.typeName().toUpperCase(Locale.ENGLISH));
            if (column.length() != -1) {
                schema.parameter(LENGTH_PARAMETER, Integer.toString(column.length()));
            }
            schema.parameter(SCALE_PARAMETER, Integer.toString(column.scale()));
            // Debezium writes a comment parameter here when the column has one; its PostgreSQL connector reads none.
            schema.parameter(NAME_PARAMETER, column.name());
        }

        @Override
        public UnaryOperator<Object> values(SourceColumn column) {
            return null;
        }
    }
}
