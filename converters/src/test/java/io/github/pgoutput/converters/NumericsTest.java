package io.github.pgoutput.converters;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import io.github.pgoutput.testing.SeededProperty;
import org.junit.jupiter.api.Test;

class NumericsTest {

    private static Numerics.Value send(String hex) {
        return Numerics.parseSend(new BinaryReader(HexFormat.of().parseHex(hex)));
    }

    @Test
    void decodesSendFormsCapturedFromPostgres15() {
        // PostgreSQL 15.18: SELECT numeric_send(1.50), numeric_send('NaN'), numeric_send('-Infinity'),
        //                          numeric_send(-0.000), numeric_send(12345::numeric(3,-2))
        assertThat(send("000200000000000200011388").decimal()).isEqualTo(new BigDecimal("1.50"));
        assertThat(send("00000000c0000000").special()).isEqualTo("NaN");
        assertThat(send("00000000f0000020").special()).isEqualTo("-Infinity");
        assertThat(send("0000000000000003").decimal()).isEqualTo(new BigDecimal("0.000"));
        assertThat(send("0002000100000000000108fc").decimal()).isEqualTo(new BigDecimal("12300"));
    }

    @Test
    void readsTheElevenBitSignedScaleOfPostgres15TypeModifiers() {
        // atttypmod of numeric(3,-2) is 198658, of numeric(5,2) 327686, of numeric(2,5) 131081.
        assertThat(Numerics.precision(198658)).isEqualTo(3);
        assertThat(Numerics.scale(198658)).isEqualTo(-2);
        assertThat(Numerics.scale(327686)).isEqualTo(2);
        assertThat(Numerics.scale(131081)).isEqualTo(5);
        assertThat(Numerics.precision(-1)).isEqualTo(-1);
    }

    @Test
    void refusesUnknownSignWordsAndOutOfRangeDigits() {
        assertThatThrownBy(() -> send("0000000080000000")).hasMessageContaining("sign word 0x8000");
        assertThatThrownBy(() -> send("00010000000000000001ff")).hasMessageContaining("trailing");
        assertThatThrownBy(() -> send("00010000000000002710")).hasMessageContaining("not in 0..9999");
    }

    @Test
    void refusesAnExponentInTheTextForm() {
        assertThatThrownBy(() -> Numerics.parseText("1e5")).isInstanceOf(IllegalArgumentException.class);
    }

    /** numeric_send written independently of the decoder, the way PostgreSQL lays out base-10000 digits. */
    private static byte[] encode(BigDecimal value) {
        int dscale = Math.max(value.scale(), 0);
        BigDecimal abs = value.abs().setScale(dscale);
        // Align the fraction to whole base-10000 digits.
        int fractionGroups = (dscale + 3) / 4;
        BigInteger scaled = abs.movePointRight(fractionGroups * 4).toBigIntegerExact();
        List<Integer> digits = new ArrayList<>();
        BigInteger base = BigInteger.valueOf(10_000);
        while (scaled.signum() > 0) {
            BigInteger[] qr = scaled.divideAndRemainder(base);
            digits.add(0, qr[1].intValue());
            scaled = qr[0];
        }
        int weight = digits.size() - fractionGroups - 1;
        while (!digits.isEmpty() && digits.get(digits.size() - 1) == 0) {
            digits.remove(digits.size() - 1);
        }
        while (!digits.isEmpty() && digits.get(0) == 0) {
            digits.remove(0);
            weight--;
        }
        if (digits.isEmpty()) {
            weight = 0;
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        short[] header = {(short) digits.size(), (short) weight, (short) (value.signum() < 0 ? 0x4000 : 0), (short) dscale};
        for (short s : header) {
            out.write(s >> 8);
            out.write(s);
        }
        for (int d : digits) {
            out.write(d >> 8);
            out.write(d);
        }
        return out.toByteArray();
    }

    /** The largest unscaled value drawn: 10^40, beyond what a long or a double holds exactly. */
    private static final BigInteger LIMIT = BigInteger.TEN.pow(40);

    @Test
    void decodesEverySendFormBackToTheSameDecimal() {
        List<BigInteger> unscaledEdges = List.of(BigInteger.ZERO, BigInteger.ONE, BigInteger.valueOf(9_999),
                BigInteger.valueOf(10_000), BigInteger.valueOf(10_001), BigInteger.valueOf(Long.MAX_VALUE), LIMIT.subtract(BigInteger.ONE),
                LIMIT);
        for (BigInteger unscaled : unscaledEdges) {
            for (int scale : new int[] {0, 1, 3, 4, 5, 8, 59, 60}) {
                assertRoundTrips(unscaled, scale);
                assertRoundTrips(unscaled.negate(), scale);
            }
        }
        SeededProperty.check(500, random -> assertRoundTrips(unscaled(random), random.nextInt(61)));
    }

    /** An unscaled value in [-10^40, 10^40] of random bit length, so that short and long digit runs are both common. */
    private static BigInteger unscaled(Random random) {
        BigInteger magnitude = new BigInteger(random.nextInt(LIMIT.bitLength() + 1), random);
        if (magnitude.compareTo(LIMIT) > 0) {
            magnitude = magnitude.mod(LIMIT.add(BigInteger.ONE));
        }
        return random.nextBoolean() ? magnitude.negate() : magnitude;
    }

    private static void assertRoundTrips(BigInteger unscaled, int scale) {
        BigDecimal value = new BigDecimal(unscaled, scale);
        Numerics.Value decoded = Numerics.parseSend(new BinaryReader(encode(value)));
        assertThat(decoded.decimal()).isEqualTo(value);
        assertThat(decoded.toPlainString()).isEqualTo(value.toPlainString());
    }
}
