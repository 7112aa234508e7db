package io.github.pgoutput.pgoutput;

/**
 * A PostgreSQL transaction id: an unsigned 32-bit number, held in a {@code long} so it never prints negative.
 *
 * <p>{@link #INVALID} (0) is PostgreSQL's {@code InvalidTransactionId}; the decoder uses it for the
 * xid prefix of messages that were not sent inside a stream block.
 */
public record Xid(long value) implements Comparable<Xid> {

    public static final Xid INVALID = new Xid(0L);

    public Xid {
        if (value < 0 || value > 0xFFFFFFFFL) {
            throw new IllegalArgumentException("xid " + value + " is outside the unsigned 32-bit range");
        }
    }

    /** Reads an xid from the signed {@code Int32} it travels as on the wire. */
    public static Xid fromWire(int wire) {
        return wire == 0 ? INVALID : new Xid(Integer.toUnsignedLong(wire));
    }

    public static Xid of(long value) {
        return value == 0 ? INVALID : new Xid(value);
    }

    public boolean isValid() {
        return value != 0L;
    }

    @Override
    public int compareTo(Xid other) {
        return Long.compare(value, other.value);
    }

    @Override
    public String toString() {
        return Long.toString(value);
    }
}
