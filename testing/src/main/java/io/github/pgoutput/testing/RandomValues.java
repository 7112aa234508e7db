package io.github.pgoutput.testing;

import java.util.Random;

/**
 * Values for properties run by {@link SeededProperty}, drawn so that small values and boundaries come up often, not
 * only uniform noise: a uniform {@code long} almost never has a zero upper half, and a uniform {@code char} is
 * almost never ASCII.
 *
 * <p>Stateless and thread-safe; all randomness comes from the {@link Random} passed in.
 */
public final class RandomValues {

    private RandomValues() {
    }

    /**
     * Any {@code long}, with a bit length drawn uniformly from 0 to 64: zero, small values, values below 2^32 and
     * values with the sign bit set are all common.
     */
    public static long anyLong(Random random) {
        int bits = random.nextInt(65);
        return bits == 0 ? 0 : random.nextLong() >>> (64 - bits);
    }

    /**
     * A {@code long} in {@code [min, max]}, both inclusive, {@code 0 <= min <= max}: {@code min} plus an offset whose
     * bit length is drawn uniformly, so values near {@code min} are common and {@code max} is possible.
     */
    public static long between(Random random, long min, long max) {
        if (min < 0 || min > max) {
            throw new IllegalArgumentException("expected 0 <= min <= max, got [" + min + ", " + max + "]");
        }
        long span = max - min;
        int bits = random.nextInt(64 - Long.numberOfLeadingZeros(span) + 1);
        long limit = bits == 0 ? 0 : Math.min(span, -1L >>> (64 - bits));
        long offset = limit == Long.MAX_VALUE ? random.nextLong() & Long.MAX_VALUE : random.nextLong(limit + 1);
        return min + offset;
    }

    /**
     * A string of 0 to {@code maxLength} code points (short ones more often), mixing printable ASCII, ASCII control
     * characters, other BMP characters, unpaired surrogates and supplementary characters such as emoji.
     */
    public static String string(Random random, int maxLength) {
        int length = random.nextInt(4) == 0 ? random.nextInt(maxLength + 1) : random.nextInt(Math.min(maxLength, 12) + 1);
        StringBuilder out = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            out.appendCodePoint(switch (random.nextInt(8)) {
                case 0 -> random.nextInt(0x20);
                case 1 -> 0x80 + random.nextInt(0xD800 - 0x80);
                case 2 -> 0xD800 + random.nextInt(0x800);
                case 3 -> 0xE000 + random.nextInt(0x10000 - 0xE000);
                case 4 -> 0x10000 + random.nextInt(0x110000 - 0x10000);
                default -> 0x20 + random.nextInt(0x7F - 0x20);
            });
        }
        return out.toString();
    }
}
