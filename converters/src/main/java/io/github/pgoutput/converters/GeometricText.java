package io.github.pgoutput.converters;

import java.util.Arrays;

/**
 * The text output of PostgreSQL's geometric types ({@code geo_ops.c}) as numbers. Each coordinate is a float8 as
 * {@code float8out} prints it ({@code 1.5}, {@code -0}, {@code 1e+300}, {@code NaN}, {@code Infinity}); points are
 * {@code (x,y)}, and a type's points are joined by commas inside its own brackets:
 * <ul>
 *   <li>{@code point} {@code (x,y)}; {@code box} {@code (x1,y1),(x2,y2)} with no brackets of its own, the upper right
 *       corner first; {@code lseg} {@code [(x1,y1),(x2,y2)]};</li>
 *   <li>{@code path} {@code [(x1,y1),...]} when open, {@code ((x1,y1),...)} when closed; {@code polygon}
 *       {@code ((x1,y1),...)};</li>
 *   <li>{@code circle} {@code <(x,y),r>}; {@code line} {@code {A,B,C}}, the line {@code Ax + By + C = 0}.</li>
 * </ul>
 * Points come back interleaved, {@code x0, y0, x1, y1, ...}. Anything else fails with an IllegalArgumentException
 * naming the position.
 *
 * <p>Stateless and thread-safe.
 */
final class GeometricText {

    /** A path's points and whether it is closed. */
    record Path(boolean closed, double[] xy) {
    }

    private GeometricText() {
    }

    /** {@code (x,y)}: x, y. */
    static double[] point(String text) {
        Cursor in = new Cursor(text);
        double[] xy = in.point();
        in.end();
        return xy;
    }

    /** {@code (x1,y1),(x2,y2)}: the two corners in the order printed. */
    static double[] box(String text) {
        Cursor in = new Cursor(text);
        double[] corners = in.points(2);
        in.end();
        return corners;
    }

    /** {@code [(x1,y1),(x2,y2)]}: the two end points. */
    static double[] lseg(String text) {
        Cursor in = new Cursor(text);
        in.expect('[');
        double[] ends = in.points(2);
        in.expect(']');
        in.end();
        return ends;
    }

    /** {@code [(x1,y1),...]} (open) or {@code ((x1,y1),...)} (closed). */
    static Path path(String text) {
        Cursor in = new Cursor(text);
        boolean closed = !in.at('[');
        in.expect(closed ? '(' : '[');
        double[] xy = in.points(-1);
        in.expect(closed ? ')' : ']');
        in.end();
        return new Path(closed, xy);
    }

    /** {@code ((x1,y1),...)}: the vertices in order. */
    static double[] polygon(String text) {
        Cursor in = new Cursor(text);
        in.expect('(');
        double[] xy = in.points(-1);
        in.expect(')');
        in.end();
        return xy;
    }

    /** {@code <(x,y),r>}: x, y, r. */
    static double[] circle(String text) {
        Cursor in = new Cursor(text);
        in.expect('<');
        double[] center = in.point();
        in.expect(',');
        double radius = in.number();
        in.expect('>');
        in.end();
        return new double[] {center[0], center[1], radius};
    }

    /** {@code {A,B,C}}: A, B, C. */
    static double[] line(String text) {
        Cursor in = new Cursor(text);
        in.expect('{');
        double a = in.number();
        in.expect(',');
        double b = in.number();
        in.expect(',');
        double c = in.number();
        in.expect('}');
        in.end();
        return new double[] {a, b, c};
    }

    /** A strict left-to-right reader. */
    private static final class Cursor {
        private final String text;
        private int pos;

        Cursor(String text) {
            this.text = text;
        }

        boolean at(char c) {
            return pos < text.length() && text.charAt(pos) == c;
        }

        void expect(char c) {
            if (!at(c)) {
                throw new IllegalArgumentException("expected '" + c + "' at position " + pos);
            }
            pos++;
        }

        void end() {
            if (pos != text.length()) {
                throw new IllegalArgumentException("unexpected '" + text.substring(pos) + "' at position " + pos);
            }
        }

        /** {@code (x,y)}. */
        double[] point() {
            expect('(');
            double x = number();
            expect(',');
            double y = number();
            expect(')');
            return new double[] {x, y};
        }

        /** Comma-separated points: exactly {@code count} of them, or one or more when {@code count} is -1. */
        double[] points(int count) {
            double[] xy = new double[2 * Math.max(count, 4)];
            int n = 0;
            do {
                if (n > 0) {
                    expect(',');
                }
                if (2 * n == xy.length) {
                    xy = Arrays.copyOf(xy, 2 * xy.length);
                }
                double[] point = point();
                xy[2 * n] = point[0];
                xy[2 * n + 1] = point[1];
                n++;
            } while (n != count && at(','));
            if (count >= 0 && n != count) {
                throw new IllegalArgumentException("expected " + count + " points, found " + n);
            }
            return Arrays.copyOf(xy, 2 * n);
        }

        /** A float8 as float8out prints it, up to the punctuation that ends it. */
        double number() {
            int start = pos;
            while (pos < text.length() && ",)]>}".indexOf(text.charAt(pos)) < 0) {
                pos++;
            }
            String number = text.substring(start, pos);
            if (number.isEmpty() || !number.equals(number.strip())) {
                throw new IllegalArgumentException("expected a number at position " + start);
            }
            try {
                return Double.parseDouble(number);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("expected a number at position " + start + ", found '" + number + "'");
            }
        }
    }
}
