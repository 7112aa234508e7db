package io.github.pgoutput.pgoutput;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;

/** An immutable byte string with value equality, for column values and logical message contents. */
public final class Bytes {

    private static final Bytes EMPTY = new Bytes(new byte[0]);

    private final byte[] bytes;

    private Bytes(byte[] bytes) {
        this.bytes = bytes;
    }

    /** Copies {@code bytes}. */
    public static Bytes copyOf(byte[] bytes) {
        return bytes.length == 0 ? EMPTY : new Bytes(bytes.clone());
    }

    /** Takes ownership of {@code bytes}; the caller must not change the array afterwards. */
    static Bytes wrap(byte[] bytes) {
        return bytes.length == 0 ? EMPTY : new Bytes(bytes);
    }

    public static Bytes utf8(String text) {
        return wrap(text.getBytes(StandardCharsets.UTF_8));
    }

    public int length() {
        return bytes.length;
    }

    public byte byteAt(int index) {
        return bytes[index];
    }

    public byte[] toByteArray() {
        return bytes.clone();
    }

    public String toUtf8() {
        return new String(bytes, StandardCharsets.UTF_8);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Bytes that && Arrays.equals(bytes, that.bytes);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(bytes);
    }

    @Override
    public String toString() {
        return bytes.length <= 64 ? HexFormat.of().formatHex(bytes) : HexFormat.of().formatHex(bytes, 0, 64) + "…(" + bytes.length + " bytes)";
    }
}
