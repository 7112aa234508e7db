package io.github.pgoutput.converters;

/** Big-endian reads over a send-form value, failing with the offset when the bytes run out. */
final class BinaryReader {

    private final byte[] bytes;
    private int offset;

    BinaryReader(byte[] bytes) {
        this.bytes = bytes;
    }

    int remaining() {
        return bytes.length - offset;
    }

    int uint8() {
        need(1);
        return bytes[offset++] & 0xFF;
    }

    short int16() {
        need(2);
        short value = (short) (((bytes[offset] & 0xFF) << 8) | (bytes[offset + 1] & 0xFF));
        offset += 2;
        return value;
    }

    int int32() {
        need(4);
        int value = 0;
        for (int i = 0; i < 4; i++) {
            value = (value << 8) | (bytes[offset++] & 0xFF);
        }
        return value;
    }

    long int64() {
        need(8);
        long value = 0;
        for (int i = 0; i < 8; i++) {
            value = (value << 8) | (bytes[offset++] & 0xFF);
        }
        return value;
    }

    /**
     * A float8; any NaN as Java's one NaN, which is what the text form {@code NaN} reads as, so that both forms of a
     * value give the same bits (in well-known binary, for one).
     */
    double float8() {
        double value = Double.longBitsToDouble(int64());
        return Double.isNaN(value) ? Double.NaN : value;
    }

    byte[] bytes(int length) {
        if (length < 0) {
            throw new IllegalArgumentException("negative length " + length + " at offset " + offset);
        }
        need(length);
        byte[] out = java.util.Arrays.copyOfRange(bytes, offset, offset + length);
        offset += length;
        return out;
    }

    /** Fails unless every byte was read: trailing bytes mean the layout was misread. */
    void expectEnd() {
        if (offset != bytes.length) {
            throw new IllegalArgumentException((bytes.length - offset) + " unexpected trailing bytes at offset " + offset
                    + " of " + bytes.length);
        }
    }

    private void need(int count) {
        if (bytes.length - offset < count) {
            throw new IllegalArgumentException("value ends at offset " + bytes.length + " but " + count
                    + " more bytes were expected at offset " + offset);
        }
    }
}
