package io.github.pgoutput.connect.shaping;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.nio.charset.Charset;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Objects;
import java.util.function.UnaryOperator;

import org.apache.kafka.connect.data.SchemaBuilder;

/**
 * {@code column.mask.hash.ALGORITHM.with.salt.SALT} and {@code column.mask.hash.v2.ALGORITHM.with.salt.SALT}: each
 * value of a character column becomes the lower-case hex digest of the salt followed by the value's bytes, cut to the
 * column's declared length when it has one, byte for byte as Debezium writes it:
 * <ul>
 *   <li>v1 (the plain key) hashes the value as Java serialization writes it ({@code ObjectOutputStream}: its stream
 *       header, then the object), so a string's digest is not that of its characters;</li>
 *   <li>v2 hashes {@code value.toString()}'s bytes.</li>
 * </ul>
 * The salt and v2's text are encoded with the JVM's default charset, as Debezium does (UTF-8 on any recent JVM; the
 * worker running Debezium and this connector uses the same). NULL stays NULL; other columns keep their values and get
 * the {@code masked} parameter, as with {@link ColumnMapper.Mask}.
 *
 * @param algorithm a {@link MessageDigest} algorithm name ({@code SHA-256}, {@code MD5}, ...)
 * @param salt      the salt as configured
 * @param v2        whether the v2 form hashes the value's text instead of its serialization
 */
public record HashMask(String algorithm, String salt, boolean v2) implements ColumnMapper {

    private static final char[] HEX = "0123456789abcdef".toCharArray();

    /**
     * @throws IllegalArgumentException when the JVM has no such digest algorithm
     */
    public HashMask {
        Objects.requireNonNull(algorithm, "algorithm");
        Objects.requireNonNull(salt, "salt");
        digest(algorithm);
    }

    private static MessageDigest digest(String algorithm) {
        try {
            return MessageDigest.getInstance(algorithm);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalArgumentException("'" + algorithm + "' is not a hash algorithm of this JVM (MessageDigest);"
                    + " use one of " + String.join(", ", new java.util.TreeSet<>(java.security.Security.getAlgorithms(
                    "MessageDigest"))), e);
        }
    }

    @Override
    public void alterSchema(SourceColumn column, SchemaBuilder schema) {
        schema.parameter(MASKED_PARAMETER, "true");
    }

    @Override
    public UnaryOperator<Object> values(SourceColumn column) {
        if (!column.isCharacterType()) {
            return null;
        }
        // One digest per column of a table schema: the schema is used by one thread, and getInstance is not cheap.
        MessageDigest digest = digest(algorithm);
        byte[] saltBytes = salt.getBytes(Charset.defaultCharset());
        int length = column.length();
        return value -> {
            if (!(value instanceof Serializable serializable)) {
                return null;
            }
            digest.reset();
            digest.update(saltBytes);
            String hex = hex(digest.digest(bytesOf(serializable)));
            return length > 0 && hex.length() > length ? hex.substring(0, length) : hex;
        };
    }

    /** The bytes hashed for {@code value}: its Java serialization (v1) or its text (v2). */
    byte[] bytesOf(Serializable value) {
        if (v2) {
            return value.toString().getBytes(Charset.defaultCharset());
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(value);
        } catch (IOException e) {
            throw new UncheckedIOException("serializing a value to hash it failed", e);
        }
        return bytes.toByteArray();
    }

    private static String hex(byte[] bytes) {
        char[] out = new char[bytes.length * 2];
        for (int i = 0; i < bytes.length; i++) {
            out[2 * i] = HEX[(bytes[i] >> 4) & 0xF];
            out[2 * i + 1] = HEX[bytes[i] & 0xF];
        }
        return new String(out);
    }
}
