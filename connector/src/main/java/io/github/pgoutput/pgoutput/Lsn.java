package io.github.pgoutput.pgoutput;

import java.nio.charset.StandardCharsets;

/**
 * A PostgreSQL WAL position ({@code XLogRecPtr}): an unsigned 64-bit byte offset into the WAL,
 * printed the way PostgreSQL prints it ({@code 16/B374D848}).
 *
 * <p>Ordering is unsigned. {@link #INVALID} (0/0) is PostgreSQL's {@code InvalidXLogRecPtr}; it is the
 * smallest value and means "no position" (for example the header LSN of Relation and Type frames).
 */
public record Lsn(long value) implements Comparable<Lsn> {

    public static final Lsn INVALID = new Lsn(0L);

    private static final byte[] HEX_DIGITS = "0123456789ABCDEF".getBytes(StandardCharsets.ISO_8859_1);

    public static Lsn of(long value) {
        return value == 0L ? INVALID : new Lsn(value);
    }

    /**
     * Parses PostgreSQL's text form {@code X/Y} (two hexadecimal halves of at most 8 digits each).
     *
     * @throws IllegalArgumentException naming the text when it is not of that form
     */
    public static Lsn parse(String text) {
        int slash = text == null ? -1 : text.indexOf('/');
        if (slash < 1 || slash == text.length() - 1 || slash > 8 || text.length() - slash - 1 > 8) {
            throw new IllegalArgumentException("'" + text + "' is not an LSN; expected PostgreSQL's form X/Y in hexadecimal, e.g. 16/B374D848");
        }
        try {
            long high = Long.parseLong(text.substring(0, slash), 16);
            long low = Long.parseLong(text.substring(slash + 1), 16);
            return of((high << 32) | low);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + text + "' is not an LSN; expected PostgreSQL's form X/Y in hexadecimal, e.g. 16/B374D848", e);
        }
    }

    public boolean isValid() {
        return value != 0L;
    }

    public boolean isAfter(Lsn other) {
        return compareTo(other) > 0;
    }

    public boolean isBefore(Lsn other) {
        return compareTo(other) < 0;
    }

    public static Lsn max(Lsn a, Lsn b) {
        return a.compareTo(b) >= 0 ? a : b;
    }

    @Override
    public int compareTo(Lsn other) {
        return Long.compareUnsigned(value, other.value);
    }

    /**
     * PostgreSQL's text form, upper-case hexadecimal halves without leading zeros. Written digit by digit: a change
     * record carries several LSNs as text (offset, headers, source block), so this runs a few times per record.
     */
    @Override
    public String toString() {
        // ASCII bytes: a String made from them is stored as they are, where one made from chars is compressed first.
        byte[] text = new byte[17];
        int start = appendHexBackwards(text, text.length, value & 0xFFFFFFFFL);
        text[--start] = '/';
        start = appendHexBackwards(text, start, value >>> 32);
        return new String(text, start, text.length - start, StandardCharsets.ISO_8859_1);
    }

    /** Writes {@code half} in hexadecimal ending just before {@code end}; returns where it starts. */
    private static int appendHexBackwards(byte[] text, int end, long half) {
        int at = end;
        do {
            text[--at] = HEX_DIGITS[(int) (half & 0xF)];
            half >>>= 4;
        } while (half != 0);
        return at;
    }
}
