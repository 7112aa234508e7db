package io.github.pgoutput.converters;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.ConnectSchema;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.junit.jupiter.api.Test;

/**
 * box, lseg, path, polygon, circle and line as Debezium 3.7.1 writes them. The well-known binary below is written by
 * hand from the format (see {@link WkbTest} for the doubles' bytes) and is, for the values of the parity workload, the
 * bytes Debezium 3.7.1 wrote in {@code DebeziumParityIT} (its base64 in the comments). The send forms are big-endian,
 * as each type's send function writes them.
 */
class GeometricTypesTest {

    private static final String ZERO = "0000000000000000";
    private static final String ONE = "000000000000F03F";
    private static final String TWO = "0000000000000040";
    private static final String THREE = "0000000000000840";
    private static final String FOUR = "0000000000001040";
    private static final String MINUS_ONE = "000000000000F0BF";
    private static final String MINUS_TWO = "00000000000000C0";

    private final PostgresTypeMapper mapper = new PostgresTypeMapper(ConverterOptions.DEFAULTS);

    private ColumnConverter converter(int oid) {
        return mapper.converterFor(PgColumnType.builtIn(oid, -1));
    }

    private static String wkb(Object geometry) {
        return HexFormat.of().withUpperCase().formatHex(((Struct) geometry).getBytes("wkb"));
    }

    private static byte[] send(String hex) {
        return HexFormat.of().parseHex(hex);
    }

    @Test
    void givesBoxLsegPathAndPolygonDebeziumsGeometrySchemaVersionTwo() {
        Schema expected = SchemaBuilder.struct().name("io.debezium.data.geometry.Geometry").version(2).doc("Geometry")
                .optional()
                .field("wkb", Schema.BYTES_SCHEMA)
                .field("srid", Schema.OPTIONAL_INT32_SCHEMA)
                .field("extensions", SchemaBuilder.map(Schema.STRING_SCHEMA, Schema.STRING_SCHEMA).optional().build())
                .build();
        for (int oid : List.of(BuiltInTypes.BOX, BuiltInTypes.LSEG, BuiltInTypes.PATH, BuiltInTypes.POLYGON)) {
            // Optional also for NOT NULL columns, as Debezium builds it.
            assertThat(converter(oid).schema(false)).as("oid " + oid).isEqualTo(expected);
            assertThat(converter(oid).schema(true)).as("oid " + oid).isEqualTo(expected);
        }
    }

    @Test
    void givesCircleAndLineTheirOwnStructsWithARequiredPointAsCenter() {
        Schema point = SchemaBuilder.struct().name("io.debezium.data.geometry.Point").version(1).doc("Geometry (POINT)")
                .field("x", Schema.FLOAT64_SCHEMA).field("y", Schema.FLOAT64_SCHEMA)
                .field("wkb", Schema.OPTIONAL_BYTES_SCHEMA).field("srid", Schema.OPTIONAL_INT32_SCHEMA).build();
        assertThat(converter(BuiltInTypes.CIRCLE).schema(false)).isEqualTo(SchemaBuilder.struct()
                .name("io.debezium.data.geometry.Circle").version(1).doc("Geometry (CIRCLE)").optional()
                .field("center", point).field("radius", Schema.FLOAT64_SCHEMA).build());
        assertThat(converter(BuiltInTypes.LINE).schema(false)).isEqualTo(SchemaBuilder.struct()
                .name("io.debezium.data.geometry.Line").version(1).doc("Geometry (LINE)").optional()
                .field("a", Schema.FLOAT64_SCHEMA).field("b", Schema.FLOAT64_SCHEMA).field("c", Schema.FLOAT64_SCHEMA).build());
    }

    @Test
    void writesABoxAsTheRingFromItsFirstPrintedCornerRoundAndBack() {
        // PostgreSQL prints the upper right corner first: '((2,2),(-2,-2))' is "(2,2),(-2,-2)". Debezium 3.7.1:
        // AQMAAAABAAAABQAAAAAAAAAAAABAAAAAAAAAAEAAAAAAAAAAQAAAAAAAAADAAAAAAAAAAMAAAAAAAAAAwAAAAAAAAADAAAAAAAAAAEAAAAAAAAAAQAAAAAAAAABA
        String expected = "01" + "03000000" + "01000000" + "05000000"
                + TWO + TWO + TWO + MINUS_TWO + MINUS_TWO + MINUS_TWO + MINUS_TWO + TWO + TWO + TWO;
        ColumnConverter box = converter(BuiltInTypes.BOX);
        Struct fromText = (Struct) box.fromText("(2,2),(-2,-2)");
        assertThat(wkb(fromText)).isEqualTo(expected);
        assertThat(fromText.get("srid")).isNull();
        assertThat(fromText.getMap("extensions")).containsExactly(Map.entry("type", "box"));
        // box_send: upper right x, y, lower left x, y.
        assertThat(wkb(box.fromBinary(send("4000000000000000" + "4000000000000000" + "C000000000000000" + "C000000000000000"))))
                .isEqualTo(expected);
    }

    @Test
    void writesAnLsegAsALineStringOfItsTwoEnds() {
        // Debezium 3.7.1: AQIAAAACAAAAAAAAAAAA8L8AAAAAAADwvwAAAAAAAPA/AAAAAAAA8D8=
        String expected = "01" + "02000000" + "02000000" + MINUS_ONE + MINUS_ONE + ONE + ONE;
        ColumnConverter lseg = converter(BuiltInTypes.LSEG);
        Struct fromText = (Struct) lseg.fromText("[(-1,-1),(1,1)]");
        assertThat(wkb(fromText)).isEqualTo(expected);
        assertThat(fromText.getMap("extensions")).containsExactly(Map.entry("type", "lseg"));
        assertThat(wkb(lseg.fromBinary(send("BFF0000000000000" + "BFF0000000000000" + "3FF0000000000000" + "3FF0000000000000"))))
                .isEqualTo(expected);
    }

    @Test
    void writesAPathAsALineStringAndWhetherItIsClosedAsAnExtensionAfterTheType() {
        // Debezium 3.7.1 for '((0,0),(3,4))': AQIAAAACAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAhAAAAAAAAAEEA=, {"type":"path","closed":"true"}
        String expected = "01" + "02000000" + "02000000" + ZERO + ZERO + THREE + FOUR;
        ColumnConverter path = converter(BuiltInTypes.PATH);
        Struct closed = (Struct) path.fromText("((0,0),(3,4))");
        assertThat(wkb(closed)).isEqualTo(expected);
        assertThat(closed.getMap("extensions")).containsExactly(Map.entry("type", "path"), Map.entry("closed", "true"));
        Struct open = (Struct) path.fromText("[(0,0),(3,4)]");
        assertThat(wkb(open)).isEqualTo(expected);
        assertThat(open.getMap("extensions")).containsExactly(Map.entry("type", "path"), Map.entry("closed", "false"));
        // path_send: closed byte, int32 number of points, the points.
        Struct fromBinary = (Struct) path.fromBinary(send("01" + "00000002" + "0".repeat(32) + "4008000000000000" + "4010000000000000"));
        assertThat(wkb(fromBinary)).isEqualTo(expected);
        assertThat(fromBinary.getMap("extensions")).containsEntry("closed", "true");
        assertThat(((Struct) path.fromBinary(send("00" + "00000002" + "0".repeat(32) + "4008000000000000" + "4010000000000000")))
                .getMap("extensions")).containsEntry("closed", "false");
    }

    @Test
    void writesAPolygonAsOneRingClosedByRepeatingTheFirstVertex() {
        // Debezium 3.7.1 for '((0,0),(2,0),(2,2))':
        // AQMAAAABAAAABAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAQAAAAAAAAAAAAAAAAAAAAEAAAAAAAAAAQAAAAAAAAAAAAAAAAAAAAAA=
        String expected = "01" + "03000000" + "01000000" + "04000000" + ZERO + ZERO + TWO + ZERO + TWO + TWO + ZERO + ZERO;
        ColumnConverter polygon = converter(BuiltInTypes.POLYGON);
        Struct fromText = (Struct) polygon.fromText("((0,0),(2,0),(2,2))");
        assertThat(wkb(fromText)).isEqualTo(expected);
        assertThat(fromText.getMap("extensions")).containsExactly(Map.entry("type", "polygon"));
        // poly_send: int32 number of vertices, the vertices.
        assertThat(wkb(polygon.fromBinary(send("00000003" + "0".repeat(32) + "4000000000000000" + "0".repeat(16)
                + "4000000000000000" + "4000000000000000")))).isEqualTo(expected);
    }

    @Test
    void closesAPolygonRingOnlyWhenItsLastVertexDiffersFromTheFirstAsDoubles() {
        ColumnConverter polygon = converter(BuiltInTypes.POLYGON);
        assertThat(wkb(polygon.fromText("((0,0),(2,0),(0,0))"))).as("already closed")
                .isEqualTo("01" + "03000000" + "01000000" + "03000000" + ZERO + ZERO + TWO + ZERO + ZERO + ZERO);
        assertThat(wkb(polygon.fromText("((1,1))"))).as("a single vertex")
                .isEqualTo("01" + "03000000" + "01000000" + "01000000" + ONE + ONE);
        assertThat(wkb(polygon.fromText("((0,0),(-0,-0))"))).as("-0 equals 0: closed already")
                .isEqualTo("01" + "03000000" + "01000000" + "02000000" + ZERO + ZERO + "0000000000000080" + "0000000000000080");
        assertThat(wkb(polygon.fromText("((NaN,0),(NaN,0))"))).as("NaN equals nothing: closed again")
                .isEqualTo("01" + "03000000" + "01000000" + "03000000" + "000000000000F87F" + ZERO + "000000000000F87F" + ZERO
                        + "000000000000F87F" + ZERO);
    }

    @Test
    void writesACircleAsItsCenterPointAndRadius() {
        // Debezium 3.7.1 for '<(1,1),0.5>': {"center":{"x":1.0,"y":1.0,"wkb":"AQEAAAAAAAAAAADwPwAAAAAAAPA/","srid":null},"radius":0.5}
        ColumnConverter circle = converter(BuiltInTypes.CIRCLE);
        for (Object value : List.of(circle.fromText("<(1,1),0.5>"),
                circle.fromBinary(send("3FF0000000000000" + "3FF0000000000000" + "3FE0000000000000")))) {
            Struct struct = (Struct) value;
            Struct center = struct.getStruct("center");
            assertThat(center.getFloat64("x")).isEqualTo(1.0);
            assertThat(center.getFloat64("y")).isEqualTo(1.0);
            assertThat(wkb(center)).isEqualTo("01" + "01000000" + ONE + ONE);
            assertThat(center.get("srid")).isNull();
            assertThat(struct.getFloat64("radius")).isEqualTo(0.5);
            ConnectSchema.validateValue(circle.schema(false), struct);
        }
    }

    @Test
    void writesALineAsItsThreeCoefficients() {
        ColumnConverter line = converter(BuiltInTypes.LINE);
        for (Object value : List.of(line.fromText("{1,-1,0}"), line.fromBinary(send("3FF0000000000000" + "BFF0000000000000" + ZERO)))) {
            Struct struct = (Struct) value;
            assertThat(struct.schema().fields()).extracting(Field::name).containsExactly("a", "b", "c");
            assertThat(List.of(struct.getFloat64("a"), struct.getFloat64("b"), struct.getFloat64("c"))).containsExactly(1.0, -1.0, 0.0);
        }
    }

    @Test
    void everyValueFitsBothSchemaVariantsAndNoPlaceholderFitsThem() {
        Map<Integer, String> texts = Map.of(BuiltInTypes.BOX, "(1,1),(0,0)", BuiltInTypes.LSEG, "[(0,0),(1,1)]",
                BuiltInTypes.PATH, "[(0,0)]", BuiltInTypes.POLYGON, "((0,0),(1,1),(1,0))", BuiltInTypes.CIRCLE, "<(0,0),1>",
                BuiltInTypes.LINE, "{1,-1,0}");
        texts.forEach((oid, text) -> {
            ColumnConverter converter = converter(oid);
            Object value = converter.fromText(text);
            ConnectSchema.validateValue(converter.schema(false), value);
            ConnectSchema.validateValue(converter.schema(true), value);
            assertThat(converter.unchangedToastValue()).as("oid " + oid).isEmpty();
        });
    }

    @Test
    void readsTheSendFormOfAnyNanAsTheTextFormsNan() {
        ColumnConverter line = converter(BuiltInTypes.LINE);
        Struct fromBinary = (Struct) line.fromBinary(send("7FF8000000000001" + ZERO + ZERO));
        assertThat(Double.doubleToRawLongBits(fromBinary.getFloat64("a"))).isEqualTo(Double.doubleToRawLongBits(Double.NaN));
        ColumnConverter box = converter(BuiltInTypes.BOX);
        assertThat(wkb(box.fromBinary(send("7FF8000000000001" + ZERO + ZERO + ZERO)))).isEqualTo(wkb(box.fromText("(NaN,0),(0,0)")));
    }

    @Test
    void refusesSendFormsWhosePointCountTheBytesCannotHold() {
        assertThatThrownBy(() -> converter(BuiltInTypes.POLYGON).fromBinary(send("7FFFFFFF" + ZERO + ZERO)))
                .isInstanceOf(ValueConversionException.class).hasMessageContaining("2147483647 points announced, 16 bytes left");
        assertThatThrownBy(() -> converter(BuiltInTypes.PATH).fromBinary(send("01" + "FFFFFFFF")))
                .isInstanceOf(ValueConversionException.class).hasMessageContaining("-1 points announced");
        assertThatThrownBy(() -> converter(BuiltInTypes.CIRCLE).fromBinary(send(ZERO + ZERO + ZERO + "00")))
                .isInstanceOf(ValueConversionException.class).hasMessageContaining("trailing");
    }

    @Test
    void namesTheTypeAndValueWhenTheTextIsNotTheTypesOutput() {
        assertThatThrownBy(() -> converter(BuiltInTypes.BOX).fromText("((0,0),(1,1))"))
                .isInstanceOf(ValueConversionException.class)
                .hasMessageContaining("pg_catalog.box (oid 603)")
                .hasMessageContaining("'((0,0),(1,1))'");
    }
}
