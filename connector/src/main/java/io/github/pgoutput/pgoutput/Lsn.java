package io.github.pgoutput.pgoutput;

/**
 * A PostgreSQL WAL position ({@code XLogRecPtr}): an unsigned 64-bit byte offset into the WAL,
 * printed the way PostgreSQL prints it ({@code 16/B374D848}).
 *
 * <p>Ordering is unsigned. {@link #INVALID} (0/0) is PostgreSQL's {@code InvalidXLogRecPtr}; it is the
 * smallest value and means "no position" (for example the header LSN of Relation and Type frames).
 */
public record Lsn(long value) implements Comparable<Lsn> {

    public static final Lsn INVALID = new Lsn(0L);

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

    @Override
    public String toString() {
        return Long.toHexString(value >>> 32).toUpperCase() + "/" + Long.toHexString(value & 0xFFFFFFFFL).toUpperCase();
    }
}
