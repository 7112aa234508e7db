package io.github.pgoutput.connect.record;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.github.pgoutput.converters.BuiltInTypes;
import io.github.pgoutput.converters.ColumnConverter;
import io.github.pgoutput.converters.PgColumnType;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;

/**
 * The schema of one column's field, and the value a required field takes when a change carries none, both as
 * Debezium's {@code TableSchemaBuilder} and value converters make them.
 *
 * <p>A field is required when the column is NOT NULL in the catalog, and carries the column's default
 * ({@link ColumnDefaults}) whether required or not. When a change has no value for a required field (the columns a
 * key-only old tuple leaves out, or a NULL written before the column became NOT NULL), the field takes its default,
 * else its type's zero: 0, false, the empty string or bytes, the epoch for dates and times ({@code 1970-01-01T00:00:00Z}
 * for {@code timestamptz}), {@code {}} for JSON, an empty array. That is what Debezium writes in the same place, so a
 * delete's {@code before} under REPLICA IDENTITY DEFAULT shows zeros, not nulls, in its NOT NULL non-key columns. A
 * type with no such zero (a composite or other Struct-valued type) fails the change with a message naming the column.
 *
 * <p>Stateless.
 */
public final class ColumnFields {

    /** {@code point}, which converts to a Struct whose zero is the origin. */
    private static final int POINT_OID = 600;

    private ColumnFields() {
    }

    /** The field schema: the converter's, made required or optional, with {@code defaultValue} when present. */
    static Schema schema(ColumnConverter converter, boolean optional, Optional<Object> defaultValue) {
        Schema base = converter.schema(optional);
        if (defaultValue.isEmpty()) {
            return base;
        }
        SchemaBuilder builder = new SchemaBuilder(base.type());
        if (base.name() != null) {
            builder.name(base.name());
        }
        if (base.version() != null) {
            builder.version(base.version());
        }
        if (base.doc() != null) {
            builder.doc(base.doc());
        }
        if (base.parameters() != null && !base.parameters().isEmpty()) {
            builder.parameters(base.parameters());
        }
        if (optional) {
            builder.optional();
        }
        return builder.defaultValue(defaultValue.get()).build();
    }

    /**
     * The value of a required field for which a change carries none: the field's default, else the type's zero;
     * empty when the type has none.
     */
    static Optional<Object> missing(ColumnConverter converter, Schema field) {
        if (field.defaultValue() != null) {
            return Optional.of(field.defaultValue());
        }
        String zeroText = zeroText(converter.type());
        if (zeroText != null) {
            try {
                Object value = converter.fromText(zeroText);
                if (value instanceof BigDecimal decimal && Decimal.LOGICAL_NAME.equals(field.name())) {
                    value = decimal.setScale(Integer.parseInt(field.parameters().get(Decimal.SCALE_FIELD)));
                }
                return Optional.ofNullable(value);
            } catch (RuntimeException e) {
                // fall through to the schema's zero
            }
        }
        return zeroOf(field);
    }

    /** The zero of types whose schema alone does not say it (a timestamp as an ISO string, a decimal as a Struct). */
    private static String zeroText(PgColumnType type) {
        PgColumnType base = type;
        while (base.kind() instanceof PgColumnType.Domain domain) {
            base = domain.baseType();
        }
        if (!(base.kind() instanceof PgColumnType.Base)) {
            return null;
        }
        switch (base.oid()) {
            case BuiltInTypes.NUMERIC:
                return "0";
            case BuiltInTypes.DATE:
                return "1970-01-01";
            case BuiltInTypes.TIME:
            case BuiltInTypes.INTERVAL:
                return "00:00:00";
            case BuiltInTypes.TIMETZ:
                return "00:00:00+00";
            case BuiltInTypes.TIMESTAMP:
                return "1970-01-01 00:00:00";
            case BuiltInTypes.TIMESTAMPTZ:
                return "1970-01-01 00:00:00+00";
            case BuiltInTypes.JSON:
            case BuiltInTypes.JSONB:
                return "{}";
            case POINT_OID:
                return "(0,0)";
            default:
                return null;
        }
    }

    private static Optional<Object> zeroOf(Schema field) {
        if (Decimal.LOGICAL_NAME.equals(field.name())) {
            return Optional.of(BigDecimal.ZERO.setScale(Integer.parseInt(field.parameters().get(Decimal.SCALE_FIELD))));
        }
        if (org.apache.kafka.connect.data.Date.LOGICAL_NAME.equals(field.name())
                || org.apache.kafka.connect.data.Time.LOGICAL_NAME.equals(field.name())
                || org.apache.kafka.connect.data.Timestamp.LOGICAL_NAME.equals(field.name())) {
            return Optional.of(new java.util.Date(0));
        }
        switch (field.type()) {
            case INT8:
                return Optional.of((byte) 0);
            case INT16:
                return Optional.of((short) 0);
            case INT32:
                return Optional.of(0);
            case INT64:
                return Optional.of(0L);
            case FLOAT32:
                return Optional.of(0f);
            case FLOAT64:
                return Optional.of(0d);
            case BOOLEAN:
                return Optional.of(false);
            case STRING:
                return Optional.of("");
            case BYTES:
                return Optional.of(new byte[0]);
            case ARRAY:
                return Optional.of(List.of());
            case MAP:
                return Optional.of(Map.of());
            default:
                return Optional.empty();
        }
    }
}
