package io.github.pgoutput.converters;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;

/**
 * point as Debezium writes it: struct {@code io.debezium.data.geometry.Point} version 1 with {@code x},
 * {@code y}, {@code wkb} (the point as little-endian 2D well-known binary, 21 bytes) and {@code srid} (null).
 *
 * <p>As with {@link VariableScaleDecimal}, the struct schema is optional in both variants: one value must fit
 * nullable and NOT NULL columns alike.
 */
final class Points {

    static final Schema SCHEMA = builder().build();

    private static final int WKB_POINT = 1;

    private Points() {
    }

    private static SchemaBuilder builder() {
        return SchemaBuilder.struct().name(SchemaNames.POINT).version(SchemaNames.VERSION).doc("Geometry (POINT)")
                .optional()
                .field("x", Schema.FLOAT64_SCHEMA)
                .field("y", Schema.FLOAT64_SCHEMA)
                .field("wkb", Schema.OPTIONAL_BYTES_SCHEMA)
                .field("srid", Schema.OPTIONAL_INT32_SCHEMA);
    }

    static ColumnConverter converter(PgColumnType type) {
        return new ScalarConverter(type, Points::builder, Points::fromText,
                in -> {
                    double x = Double.longBitsToDouble(in.int64());
                    double y = Double.longBitsToDouble(in.int64());
                    in.expectEnd();
                    return toStruct(x, y);
                }, null);
    }

    /** point_out: {@code (x,y)}, each as float8 output prints it. */
    private static Struct fromText(String text) {
        if (!text.startsWith("(") || !text.endsWith(")")) {
            throw new IllegalArgumentException("a point is written (x,y)");
        }
        String[] parts = text.substring(1, text.length() - 1).split(",", -1);
        if (parts.length != 2) {
            throw new IllegalArgumentException("a point has two coordinates");
        }
        return toStruct(Double.parseDouble(parts[0]), Double.parseDouble(parts[1]));
    }

    static Struct toStruct(double x, double y) {
        byte[] wkb = ByteBuffer.allocate(21).put((byte) 1).order(ByteOrder.LITTLE_ENDIAN)
                .putInt(WKB_POINT).putDouble(x).putDouble(y).array();
        return new Struct(SCHEMA).put("x", x).put("y", y).put("wkb", wkb);
    }
}
