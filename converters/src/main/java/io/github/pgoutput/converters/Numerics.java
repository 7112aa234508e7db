package io.github.pgoutput.converters;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;

/**
 * The {@code numeric} type's text and send forms. A value is either a {@link BigDecimal} or one of the
 * special values NaN, Infinity and -Infinity (PostgreSQL 14+), which no decimal can hold.
 */
final class Numerics {

    /** A numeric value: exactly one of {@code decimal} and {@code special} is non-null. */
    record Value(BigDecimal decimal, String special) {
        static Value of(BigDecimal decimal) {
            return new Value(decimal, null);
        }

        static Value special(String text) {
            return new Value(null, text);
        }

        double toDouble() {
            return decimal != null ? decimal.doubleValue() : Double.parseDouble(special);
        }

        /**
         * decimal.handling.mode=string: the exact value in plain notation, never an exponent; the special values
         * as Debezium names them: {@code NAN}, {@code POSITIVE_INFINITY}, {@code NEGATIVE_INFINITY}.
         */
        String toPlainString() {
            if (decimal != null) {
                return decimal.toPlainString();
            }
            return switch (special) {
                case "NaN" -> "NAN";
                case "Infinity" -> "POSITIVE_INFINITY";
                default -> "NEGATIVE_INFINITY";
            };
        }
    }

    private static final int SIGN_POSITIVE = 0x0000;
    private static final int SIGN_NEGATIVE = 0x4000;
    private static final int SIGN_NAN = 0xC000;
    private static final int SIGN_PLUS_INFINITY = 0xD000;
    private static final int SIGN_MINUS_INFINITY = 0xF000;
    private static final BigInteger NBASE = BigInteger.valueOf(10_000);

    private Numerics() {
    }

    /** Declared precision of a numeric typmod, or -1 when the column has none. */
    static int precision(int typmod) {
        return typmod < 4 ? -1 : ((typmod - 4) >> 16) & 0xFFFF;
    }

    /**
     * Declared scale of a numeric typmod. It is an 11-bit signed field: PostgreSQL 15+ accepts scales from
     * -1000 to 1000, including negative ones ({@code numeric(3,-2)} rounds to hundreds).
     */
    static int scale(int typmod) {
        return ((((typmod - 4) & 0x7FF) ^ 1024) - 1024);
    }

    static Value parseText(String text) {
        return switch (text) {
            case "NaN", "Infinity", "-Infinity" -> Value.special(text);
            default -> {
                if (text.indexOf('e') >= 0 || text.indexOf('E') >= 0) {
                    throw new IllegalArgumentException("numeric output never has an exponent");
                }
                yield Value.of(new BigDecimal(text));
            }
        };
    }

    /**
     * numeric_send: int16 ndigits, int16 weight, int16 sign, int16 dscale, then ndigits base-10000 digits, the
     * first worth 10000^weight.
     */
    static Value parseSend(BinaryReader in) {
        int ndigits = in.int16();
        int weight = in.int16();
        int sign = in.int16() & 0xFFFF;
        int dscale = in.int16();
        switch (sign) {
            case SIGN_NAN -> {
                return Value.special("NaN");
            }
            case SIGN_PLUS_INFINITY -> {
                return Value.special("Infinity");
            }
            case SIGN_MINUS_INFINITY -> {
                return Value.special("-Infinity");
            }
            case SIGN_POSITIVE, SIGN_NEGATIVE -> {
                // handled below
            }
            default -> throw new IllegalArgumentException("numeric sign word 0x" + Integer.toHexString(sign) + " is unknown");
        }
        if (ndigits < 0 || dscale < 0) {
            throw new IllegalArgumentException("negative digit count " + ndigits + " or display scale " + dscale);
        }
        BigInteger unscaled = BigInteger.ZERO;
        for (int i = 0; i < ndigits; i++) {
            int digit = in.int16();
            if (digit < 0 || digit >= 10_000) {
                throw new IllegalArgumentException("numeric digit " + digit + " is not in 0..9999");
            }
            unscaled = unscaled.multiply(NBASE).add(BigInteger.valueOf(digit));
        }
        in.expectEnd();
        // The last digit read is worth 10000^(weight - ndigits + 1), i.e. 10^(4 * that).
        BigDecimal value = new BigDecimal(unscaled, -4 * (weight - ndigits + 1));
        if (sign == SIGN_NEGATIVE) {
            value = value.negate();
        }
        // dscale is the number of fraction digits PostgreSQL prints; the digits never go beyond it.
        return Value.of(value.setScale(dscale, RoundingMode.UNNECESSARY));
    }
}
