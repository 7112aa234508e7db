package io.github.pgoutput.converters;

import java.math.BigDecimal;
import java.math.BigInteger;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;

/**
 * numeric without a declared scale, in precise mode: each value keeps its own scale, which Connect's Decimal
 * (one scale per schema) cannot. The value is a struct {@code {scale: int32, value: bytes}} named
 * {@link SchemaNames#VARIABLE_SCALE_DECIMAL}, {@code value} being the unscaled two's-complement big-endian
 * integer (as {@link BigInteger#toByteArray()}), so {@code new BigDecimal(new BigInteger(value), scale)} is the
 * number. A plain Avro record: no logical type, valid names. Like Debezium, the value carries the smallest scale
 * that holds it exactly ({@code 1.50} is scale 1).
 *
 * <p>The schema is optional in both of {@link ColumnConverter#schema}'s variants: Connect checks that a struct
 * value's schema equals its field's, and one value must fit nullable and NOT NULL columns alike.
 */
public final class VariableScaleDecimal {

    public static final Schema SCHEMA = builder().build();
    private static final Field SCALE = SCHEMA.field("scale");
    private static final Field VALUE = SCHEMA.field("value");

    private VariableScaleDecimal() {
    }

    private static SchemaBuilder builder() {
        return SchemaBuilder.struct().name(SchemaNames.VARIABLE_SCALE_DECIMAL).version(SchemaNames.VERSION)
                .doc("Variable scaled decimal").optional()
                .field("scale", Schema.INT32_SCHEMA).field("value", Schema.BYTES_SCHEMA);
    }

    public static Struct toStruct(BigDecimal value) {
        Struct struct = new Struct(SCHEMA);
        StructFields.put(struct, SCALE, value.scale());
        return StructFields.put(struct, VALUE, value.unscaledValue().toByteArray());
    }

    public static BigDecimal toDecimal(Struct struct) {
        return new BigDecimal(new BigInteger(struct.getBytes("value")), struct.getInt32("scale"));
    }

    static ColumnConverter converter(PgColumnType type) {
        return new ScalarConverter(type, VariableScaleDecimal::builder,
                text -> toStruct(value(type, Numerics.parseText(text))),
                in -> toStruct(value(type, Numerics.parseSend(in))), null);
    }

    private static BigDecimal value(PgColumnType type, Numerics.Value value) {
        if (value.decimal() == null) {
            throw ScalarConverters.specialInPreciseMode(type, value.special());
        }
        // As Debezium: the smallest scale that keeps the value exactly, never negative (1.50 has scale 1, 100 scale 0).
        BigDecimal stripped = value.decimal().stripTrailingZeros();
        return stripped.scale() < 0 ? stripped.setScale(0) : stripped;
    }
}
