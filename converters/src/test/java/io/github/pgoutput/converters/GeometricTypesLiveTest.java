package io.github.pgoutput.converters;

import static io.github.pgoutput.converters.TypeCase.nullOf;
import static io.github.pgoutput.converters.TypeCase.of;

import io.github.pgoutput.testing.PostgresDatabase;
import io.github.pgoutput.testing.PostgresTest;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Struct;
import org.junit.jupiter.api.Timeout;

/**
 * box, lseg, path, polygon, circle and line as a live server prints and sends them, converted from both forms to the
 * structs Debezium 3.7.1 writes (GeometricTypesTest has the layout byte by byte). The expected well-known binary is
 * spelled out here, coordinate by coordinate, in the order the server prints them.
 */
@Timeout(120)
class GeometricTypesLiveTest {

    private static final PostgresTypeMapper MAPPER = new PostgresTypeMapper(ConverterOptions.DEFAULTS);

    @PostgresTest
    void boxesLsegsPathsAndPolygonsAreGeometriesOfTheirPointsInPrintedOrder(PostgresDatabase database) throws Exception {
        List<TypeCase> cases = List.of(
                nullOf("box"),
                // The server keeps the upper right corner first: ((0,0),(1,1)) prints (1,1),(0,0).
                of("box", "'((0,0),(1,1))'", geometry(polygon(1, 1, 1, 0, 0, 0, 0, 1, 1, 1), "box", null)),
                of("box", "'((-1,2),(3,-4))'", geometry(polygon(3, 2, 3, -4, -1, -4, -1, 2, 3, 2), "box", null)),
                nullOf("lseg"),
                of("lseg", "'[(1.5,2),(0,-1e300)]'", geometry(lineString(1.5, 2, 0, -1e300), "lseg", null)),
                nullOf("path"),
                of("path", "'[(0,0),(1,1),(2,0)]'", geometry(lineString(0, 0, 1, 1, 2, 0), "path", "false")),
                of("path", "'((0,0),(3,4))'", geometry(lineString(0, 0, 3, 4), "path", "true")),
                of("path", "'((7,8))'", geometry(lineString(7, 8), "path", "true")),
                nullOf("polygon"),
                of("polygon", "'((0,0),(1,1),(1,0))'", geometry(polygon(0, 0, 1, 1, 1, 0, 0, 0), "polygon", null)),
                of("polygon", "'((0,0),(2,0),(0,0))'", geometry(polygon(0, 0, 2, 0, 0, 0), "polygon", null)),
                of("polygon", "'((5,5))'", geometry(polygon(5, 5), "polygon", null)),
                of("polygon", "(SELECT '(' || string_agg('(' || g || ',' || -g || ')', ',') || ')' FROM generate_series(1, 1000) g)",
                        geometry(polygon(thousandVerticesClosed()), "polygon", null)));
        ConversionChecks.assertConversions(MAPPER, LiveValues.observe(database, cases));
    }

    @PostgresTest
    void circlesAndLinesAreTheirOwnStructs(PostgresDatabase database) throws Exception {
        List<TypeCase> cases = List.of(
                nullOf("circle"), of("circle", "'<(1,-2),3.5>'", circle(1, -2, 3.5)), of("circle", "'<(0,0),0>'", circle(0, 0, 0)),
                of("circle", "'<(1e300,-1e-300),Infinity>'", circle(1e300, -1e-300, Double.POSITIVE_INFINITY)),
                nullOf("line"), of("line", "'{2,3,4}'", line(2, 3, 4)), of("line", "'{0,-1,NaN}'", line(0, -1, Double.NaN)),
                // A line through two points: the server stores its equation, x - y + 0 = 0 here.
                of("line", "'[(0,0),(1,1)]'", line(1, -1, 0)));
        ConversionChecks.assertConversions(MAPPER, LiveValues.observe(database, cases));
    }

    private static double[] thousandVerticesClosed() {
        double[] ring = new double[2 * 1001];
        for (int i = 0; i < 1000; i++) {
            ring[2 * i] = i + 1;
            ring[2 * i + 1] = -(i + 1);
        }
        ring[2000] = 1;
        ring[2001] = -1;
        return ring;
    }

    /** Little-endian WKB LineString: 01, type 2, the point count, the coordinates. */
    private static byte[] lineString(double... xy) {
        ByteBuffer out = ByteBuffer.allocate(9 + 8 * xy.length).order(ByteOrder.LITTLE_ENDIAN);
        out.put((byte) 1).putInt(2).putInt(xy.length / 2);
        for (double v : xy) {
            out.putDouble(v);
        }
        return out.array();
    }

    /** Little-endian WKB Polygon of one ring: 01, type 3, one ring, its point count, the coordinates. */
    private static byte[] polygon(double... ring) {
        ByteBuffer out = ByteBuffer.allocate(13 + 8 * ring.length).order(ByteOrder.LITTLE_ENDIAN);
        out.put((byte) 1).putInt(3).putInt(1).putInt(ring.length / 2);
        for (double v : ring) {
            out.putDouble(v);
        }
        return out.array();
    }

    private static Struct geometry(byte[] wkb, String type, String closed) {
        Map<String, String> extensions = closed == null ? Map.of("type", type) : Map.of("type", type, "closed", closed);
        return new Struct(GeometricTypes.GEOMETRY_SCHEMA).put("wkb", wkb).put("extensions", extensions);
    }

    private static Struct circle(double x, double y, double radius) {
        byte[] wkb = HexFormat.of().parseHex("0101000000");
        byte[] point = ByteBuffer.allocate(21).order(ByteOrder.LITTLE_ENDIAN).put(wkb).putDouble(x).putDouble(y).array();
        Struct center = new Struct(Points.REQUIRED_SCHEMA).put("x", x).put("y", y).put("wkb", point);
        return new Struct(GeometricTypes.CIRCLE_SCHEMA).put("center", center).put("radius", radius);
    }

    private static Struct line(double a, double b, double c) {
        return new Struct(GeometricTypes.LINE_SCHEMA).put("a", a).put("b", b).put("c", c);
    }
}
