package io.github.pgoutput.converters;

import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;

/**
 * box, lseg, path, polygon, circle and line as Debezium 3.7 writes them (point is {@link Points}):
 * <ul>
 *   <li>box, lseg, path and polygon: struct {@code io.debezium.data.geometry.Geometry} version 2, doc {@code Geometry},
 *       with {@code wkb} (well-known binary, see {@link Wkb}), {@code srid} (null) and {@code extensions}, a map that
 *       names the PostgreSQL type ({@code type}) and, for a path, whether it is closed ({@code closed},
 *       {@code "true"}/{@code "false"}), which WKB cannot say. A box is the Polygon of its corners' ring, from the
 *       corner PostgreSQL prints first (upper right) through the other three back to it: {@code (x1,y1), (x1,y2),
 *       (x2,y2), (x2,y1), (x1,y1)}; an lseg is a LineString of its two end points; a path a LineString of its points,
 *       open or closed; a polygon a Polygon of one ring, its vertices, closed by repeating the first unless the last
 *       already equals it (compared as doubles, as Debezium compares them: {@code -0} equals {@code 0}, NaN equals
 *       nothing).</li>
 *   <li>circle: struct {@code io.debezium.data.geometry.Circle} version 1, doc {@code Geometry (CIRCLE)}:
 *       {@code center} (a required {@code Point} struct) and {@code radius}.</li>
 *   <li>line: struct {@code io.debezium.data.geometry.Line} version 1, doc {@code Geometry (LINE)}: the coefficients
 *       {@code a}, {@code b}, {@code c} of {@code ax + by + c = 0}.</li>
 * </ul>
 * Every one of these schemas is optional, as Debezium builds them, so NOT NULL columns get an optional struct too.
 * The text and the send forms give the same value. An unchanged TOAST value (a large path or polygon) has no
 * placeholder in these schemas: see {@link ColumnConverter#unchangedToastValue()}.
 */
final class GeometricTypes {

    static final Schema GEOMETRY_SCHEMA = geometryBuilder().build();
    static final Schema CIRCLE_SCHEMA = circleBuilder().build();
    static final Schema LINE_SCHEMA = lineBuilder().build();

    /*
     * The extensions, in Debezium's order (a JSON object's keys come out in map order). Shared by every value: they
     * are read-only.
     */
    private static final Map<String, String> BOX = extensions("box", null);
    private static final Map<String, String> LSEG = extensions("lseg", null);
    private static final Map<String, String> POLYGON = extensions("polygon", null);
    private static final Map<String, String> OPEN_PATH = extensions("path", "false");
    private static final Map<String, String> CLOSED_PATH = extensions("path", "true");

    private static final int COORDINATE_BYTES = 8;

    private GeometricTypes() {
    }

    private static Map<String, String> extensions(String type, String closed) {
        Map<String, String> extensions = new LinkedHashMap<>();
        extensions.put("type", type);
        if (closed != null) {
            extensions.put("closed", closed);
        }
        return Collections.unmodifiableMap(extensions);
    }

    static ColumnConverter converter(PgColumnType type) {
        return switch (type.oid()) {
            case BuiltInTypes.BOX -> new ScalarConverter(type, GeometricTypes::geometryBuilder,
                    text -> box(GeometricText.box(text)), in -> box(coordinates(in, 4)), null);
            case BuiltInTypes.LSEG -> new ScalarConverter(type, GeometricTypes::geometryBuilder,
                    text -> lseg(GeometricText.lseg(text)), in -> lseg(coordinates(in, 4)), null);
            case BuiltInTypes.PATH -> new ScalarConverter(type, GeometricTypes::geometryBuilder,
                    text -> path(GeometricText.path(text)), GeometricTypes::pathFromSend, null);
            case BuiltInTypes.POLYGON -> new ScalarConverter(type, GeometricTypes::geometryBuilder,
                    text -> polygon(GeometricText.polygon(text)), GeometricTypes::polygonFromSend, null);
            case BuiltInTypes.CIRCLE -> new ScalarConverter(type, GeometricTypes::circleBuilder,
                    text -> circle(GeometricText.circle(text)), in -> circle(coordinates(in, 3)), null);
            case BuiltInTypes.LINE -> new ScalarConverter(type, GeometricTypes::lineBuilder,
                    text -> line(GeometricText.line(text)), in -> line(coordinates(in, 3)), null);
            default -> throw new IllegalArgumentException(type.describe() + " is not a geometric type");
        };
    }

    private static SchemaBuilder geometryBuilder() {
        return SchemaBuilder.struct().name(SchemaNames.GEOMETRY).version(SchemaNames.GEOMETRY_VERSION).doc("Geometry")
                .optional()
                .field("wkb", Schema.BYTES_SCHEMA)
                .field("srid", Schema.OPTIONAL_INT32_SCHEMA)
                .field("extensions", SchemaBuilder.map(Schema.STRING_SCHEMA, Schema.STRING_SCHEMA).optional().build());
    }

    private static SchemaBuilder circleBuilder() {
        return SchemaBuilder.struct().name(SchemaNames.CIRCLE).version(SchemaNames.VERSION).doc("Geometry (CIRCLE)")
                .optional()
                .field("center", Points.REQUIRED_SCHEMA)
                .field("radius", Schema.FLOAT64_SCHEMA);
    }

    private static SchemaBuilder lineBuilder() {
        return SchemaBuilder.struct().name(SchemaNames.LINE).version(SchemaNames.VERSION).doc("Geometry (LINE)")
                .optional()
                .field("a", Schema.FLOAT64_SCHEMA)
                .field("b", Schema.FLOAT64_SCHEMA)
                .field("c", Schema.FLOAT64_SCHEMA);
    }

    /** x1, y1, x2, y2: the Polygon of the ring from the first corner round the box back to it. */
    static Struct box(double[] corners) {
        double x1 = corners[0];
        double y1 = corners[1];
        double x2 = corners[2];
        double y2 = corners[3];
        return geometry(Wkb.polygon(new double[] {x1, y1, x1, y2, x2, y2, x2, y1, x1, y1}), BOX);
    }

    static Struct lseg(double[] ends) {
        return geometry(Wkb.lineString(ends), LSEG);
    }

    static Struct path(GeometricText.Path path) {
        return geometry(Wkb.lineString(path.xy()), path.closed() ? CLOSED_PATH : OPEN_PATH);
    }

    /** The vertices as one ring, closed unless it is a single point or its last vertex equals the first. */
    static Struct polygon(double[] vertices) {
        int n = vertices.length;
        boolean open = n >= 4 && (vertices[0] != vertices[n - 2] || vertices[1] != vertices[n - 1]);
        double[] ring = vertices;
        if (open) {
            ring = Arrays.copyOf(vertices, n + 2);
            ring[n] = vertices[0];
            ring[n + 1] = vertices[1];
        }
        return geometry(Wkb.polygon(ring), POLYGON);
    }

    /** x, y, r. */
    static Struct circle(double[] circle) {
        return new Struct(CIRCLE_SCHEMA).put("center", Points.toStruct(Points.REQUIRED_SCHEMA, circle[0], circle[1]))
                .put("radius", circle[2]);
    }

    /** a, b, c. */
    static Struct line(double[] coefficients) {
        return new Struct(LINE_SCHEMA).put("a", coefficients[0]).put("b", coefficients[1]).put("c", coefficients[2]);
    }

    private static Struct geometry(byte[] wkb, Map<String, String> extensions) {
        return new Struct(GEOMETRY_SCHEMA).put("wkb", wkb).put("extensions", extensions);
    }

    /** path_send: a byte, 1 when closed, then the int32 number of points and each point's x and y. */
    private static Struct pathFromSend(BinaryReader in) {
        boolean closed = in.uint8() != 0;
        return path(new GeometricText.Path(closed, coordinates(in, 2 * count(in))));
    }

    /** poly_send: the int32 number of vertices, then each one's x and y. */
    private static Struct polygonFromSend(BinaryReader in) {
        return polygon(coordinates(in, 2 * count(in)));
    }

    /** A number of points that the bytes left can hold, so a misread count cannot allocate beyond the value. */
    private static int count(BinaryReader in) {
        int points = in.int32();
        if (points < 0 || points > in.remaining() / (2 * COORDINATE_BYTES)) {
            throw new IllegalArgumentException(points + " points announced, " + in.remaining() + " bytes left");
        }
        return points;
    }

    /** Exactly {@code count} float8s and nothing after them. */
    private static double[] coordinates(BinaryReader in, int count) {
        double[] values = new double[count];
        for (int i = 0; i < count; i++) {
            values[i] = in.float8();
        }
        in.expectEnd();
        return values;
    }
}
