package io.github.pgoutput.converters;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Two-dimensional geometries as OGC well-known binary (Simple Features Access 1.2.1, section 8.2), the form Debezium's
 * {@code io.debezium.data.geometry} structs carry in their {@code wkb} field.
 *
 * <p>The layout: one byte for the byte order (1, little-endian, as Debezium writes it: every number after it is in
 * that order), a uint32 geometry type (1 Point, 2 LineString, 3 Polygon), then the geometry: a Point is its x and y as
 * IEEE doubles; a LineString a uint32 number of points and each point's x and y; a Polygon a uint32 number of rings and
 * each ring as a LineString's body (its count, then its points). No SRID (that would be PostGIS's extended form), no Z
 * or M coordinate.
 *
 * <p>Coordinates come interleaved, {@code x0, y0, x1, y1, ...}, and are written bit for bit ({@code -0}, NaN and the
 * infinities included).
 *
 * <p>Stateless and thread-safe.
 */
final class Wkb {

    static final int POINT = 1;
    static final int LINE_STRING = 2;
    static final int POLYGON = 3;

    private static final byte LITTLE_ENDIAN = 1;
    private static final int HEADER_BYTES = 1 + 4;
    private static final int COUNT_BYTES = 4;
    private static final int POINT_BYTES = 2 * 8;

    private Wkb() {
    }

    /** A Point: 21 bytes. */
    static byte[] point(double x, double y) {
        return header(HEADER_BYTES + POINT_BYTES, POINT).putDouble(x).putDouble(y).array();
    }

    /** A LineString through the points of {@code xy}, in order. */
    static byte[] lineString(double[] xy) {
        ByteBuffer out = header(HEADER_BYTES + COUNT_BYTES + xy.length / 2 * POINT_BYTES, LINE_STRING);
        return points(out, xy).array();
    }

    /** A Polygon of one ring, the points of {@code ring} in order (closing the ring is the caller's choice). */
    static byte[] polygon(double[] ring) {
        ByteBuffer out = header(HEADER_BYTES + COUNT_BYTES + COUNT_BYTES + ring.length / 2 * POINT_BYTES, POLYGON);
        out.putInt(1);
        return points(out, ring).array();
    }

    private static ByteBuffer header(int size, int type) {
        ByteBuffer out = ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
        return out.put(LITTLE_ENDIAN).putInt(type);
    }

    private static ByteBuffer points(ByteBuffer out, double[] xy) {
        if (xy.length % 2 != 0) {
            throw new IllegalArgumentException("coordinates come in x, y pairs; got " + xy.length + " numbers");
        }
        out.putInt(xy.length / 2);
        for (double coordinate : xy) {
            out.putDouble(coordinate);
        }
        return out;
    }
}
