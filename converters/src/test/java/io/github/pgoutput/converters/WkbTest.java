package io.github.pgoutput.converters;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/**
 * Well-known binary written by hand from the format (OGC Simple Features Access 1.2.1, 8.2): the byte order 01
 * (little-endian), the uint32 type, counts as uint32, coordinates as IEEE doubles, every number least significant byte
 * first. 1.0 is 0x3FF0000000000000, so {@code 000000000000F03F}; 1.5 {@code 000000000000F83F}; 2.0
 * {@code 0000000000000040}; -1.0 {@code 000000000000F0BF}; -2.0 {@code 00000000000000C0}; 0.0 sixteen zeros.
 */
class WkbTest {

    private static final String ZERO = "0000000000000000";
    private static final String ONE = "000000000000F03F";
    private static final String TWO = "0000000000000040";
    private static final String MINUS_ONE = "000000000000F0BF";
    private static final String MINUS_TWO = "00000000000000C0";

    private static String hex(byte[] bytes) {
        return HexFormat.of().withUpperCase().formatHex(bytes);
    }

    @Test
    void writesAPointAsByteOrderTypeOneAndItsTwoCoordinates() {
        assertThat(hex(Wkb.point(1.5, -2))).isEqualTo("01" + "01000000" + "000000000000F83F" + MINUS_TWO);
    }

    @Test
    void writesALineStringAsTypeTwoThePointCountAndThePoints() {
        assertThat(hex(Wkb.lineString(new double[] {-1, -1, 1, 1})))
                .isEqualTo("01" + "02000000" + "02000000" + MINUS_ONE + MINUS_ONE + ONE + ONE);
        assertThat(hex(Wkb.lineString(new double[] {0, 0}))).isEqualTo("01" + "02000000" + "01000000" + ZERO + ZERO);
    }

    @Test
    void writesAPolygonAsTypeThreeOneRingAndTheRingsPointsAsGiven() {
        double[] ring = {2, 2, 2, -2, -2, -2, -2, 2, 2, 2};
        assertThat(hex(Wkb.polygon(ring))).isEqualTo("01" + "03000000" + "01000000" + "05000000"
                + TWO + TWO + TWO + MINUS_TWO + MINUS_TWO + MINUS_TWO + MINUS_TWO + TWO + TWO + TWO);
    }

    @Test
    void keepsTheBitsOfNegativeZeroNanAndTheInfinities() {
        assertThat(hex(Wkb.point(-0.0, Double.NaN))).isEqualTo("01" + "01000000" + "0000000000000080" + "000000000000F87F");
        assertThat(hex(Wkb.point(Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY)))
                .isEqualTo("01" + "01000000" + "000000000000F07F" + "000000000000F0FF");
    }

    @Test
    void refusesCoordinatesThatAreNotPairs() {
        assertThatThrownBy(() -> Wkb.lineString(new double[] {1, 2, 3})).hasMessageContaining("x, y pairs");
    }
}
