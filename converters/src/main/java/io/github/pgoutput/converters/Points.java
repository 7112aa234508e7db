package io.github.pgoutput.converters;

import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;

/**
 * point as Debezium writes it: struct {@code io.debezium.data.geometry.Point} version 1 with {@code x},
 * {@code y}, {@code wkb} (the point as little-endian 2D well-known binary, 21 bytes, see {@link Wkb}) and {@code srid}
 * (null).
 *
 * <p>As with {@link VariableScaleDecimal}, the column's struct schema is optional in both variants: one value must fit
 * nullable and NOT NULL columns alike. The center of Debezium's {@code Circle} is the same struct, required there.
 */
final class Points {

    /** The schema of a point column. */
    static final Schema SCHEMA = builder().optional().build();
    /** The schema of a circle's {@code center}: Debezium's Point schema as it builds it, required. */
    static final Schema REQUIRED_SCHEMA = builder().build();

    private Points() {
    }

    private static SchemaBuilder builder() {
        return SchemaBuilder.struct().name(SchemaNames.POINT).version(SchemaNames.VERSION).doc("Geometry (POINT)")
                .field("x", Schema.FLOAT64_SCHEMA)
                .field("y", Schema.FLOAT64_SCHEMA)
                .field("wkb", Schema.OPTIONAL_BYTES_SCHEMA)
                .field("srid", Schema.OPTIONAL_INT32_SCHEMA);
    }

    static ColumnConverter converter(PgColumnType type) {
        return new ScalarConverter(type, () -> builder().optional(), text -> {
                    double[] xy = GeometricText.point(text);
                    return toStruct(xy[0], xy[1]);
                },
                in -> {
                    double x = in.float8();
                    double y = in.float8();
                    in.expectEnd();
                    return toStruct(x, y);
                }, null);
    }

    static Struct toStruct(double x, double y) {
        return toStruct(SCHEMA, x, y);
    }

    /** A point of {@code schema}: {@link #SCHEMA} or {@link #REQUIRED_SCHEMA}. */
    static Struct toStruct(Schema schema, double x, double y) {
        return new Struct(schema).put("x", x).put("y", y).put("wkb", Wkb.point(x, y));
    }
}
