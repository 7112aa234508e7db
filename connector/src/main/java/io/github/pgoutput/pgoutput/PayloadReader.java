package io.github.pgoutput.pgoutput;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;

/**
 * A cursor over one pgoutput payload that checks every read against the end of the message before it happens,
 * so malformed input ends in a {@link PgOutputDecodingException} naming the field, never in an
 * IndexOutOfBounds or BufferUnderflow exception.
 *
 * <p>It reads the buffer's backing array directly (big-endian, whatever order the buffer is set to) and only
 * copies a payload when the buffer has no accessible array. Not thread-safe; one instance per decoder, reset per
 * message.
 */
final class PayloadReader {

    private static final VarHandle INT16 = MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle INT32 = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle INT64 = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

    // Strict: a name that is not valid UTF-8 means the stream is corrupt or not in the client encoding we asked for.
    private final CharsetDecoder utf8 = StandardCharsets.UTF_8.newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT);

    /** The largest payload whose copy (from a buffer without array) is kept for the next one. */
    private static final int MAX_KEPT_COPY_BYTES = 64 * 1024;

    private byte[] bytes;
    /** The array that payloads of buffers without one are copied into, reused; null until the first. */
    private byte[] copy;
    private int start;
    private int end;
    private int pos;
    private char tag;
    private Lsn walPosition;

    /** Points the reader at {@code payload}'s remaining bytes; the type byte is at its position. */
    void reset(ByteBuffer payload, Lsn walPosition) {
        if (payload.hasArray()) {
            bytes = payload.array();
            start = payload.arrayOffset() + payload.position();
            end = payload.arrayOffset() + payload.limit();
        } else {
            int length = payload.remaining();
            // Every read copies out what it keeps, so one array serves message after message; a big one is not kept.
            bytes = length <= MAX_KEPT_COPY_BYTES ? copyArray(length) : new byte[length];
            payload.get(payload.position(), bytes, 0, length);
            start = 0;
            end = length;
        }
        pos = start;
        this.walPosition = walPosition;
        tag = PgOutputDecodingException.NO_TAG;
    }

    private byte[] copyArray(int length) {
        if (copy == null || copy.length < length) {
            copy = new byte[Math.max(length, copy == null ? 256 : Math.min(MAX_KEPT_COPY_BYTES, copy.length * 2))];
        }
        return copy;
    }

    boolean isEmpty() {
        return end == start;
    }

    /** Reads the type byte and remembers it for error messages. */
    char readTag() {
        tag = (char) (bytes[pos++] & 0xFF);
        return tag;
    }

    char tag() {
        return tag;
    }

    int offset() {
        return pos - start;
    }

    int remaining() {
        return end - pos;
    }

    PgOutputDecodingException failure(String problem) {
        return PgOutputDecodingException.at(tag, offset(), walPosition, problem);
    }

    PgOutputDecodingException failureAt(int offset, String problem) {
        return PgOutputDecodingException.at(tag, offset, walPosition, problem);
    }

    private void require(int count, String field) {
        if (end - pos < count) {
            throw failure("message ends before " + field + ": it needs " + count + " byte(s) but only " + (end - pos)
                    + " remain (the payload is truncated or a length field is wrong)");
        }
    }

    byte int8(String field) {
        require(1, field);
        return bytes[pos++];
    }

    short int16(String field) {
        require(2, field);
        short value = (short) INT16.get(bytes, pos);
        pos += 2;
        return value;
    }

    int int32(String field) {
        require(4, field);
        int value = (int) INT32.get(bytes, pos);
        pos += 4;
        return value;
    }

    long int64(String field) {
        require(8, field);
        long value = (long) INT64.get(bytes, pos);
        pos += 8;
        return value;
    }

    Lsn lsn(String field) {
        return Lsn.of(int64(field));
    }

    Xid xid(String field) {
        return Xid.fromWire(int32(field));
    }

    Instant timestamp(String field) {
        return PgTimestamps.toInstant(int64(field));
    }

    /** An unsigned 32-bit OID. */
    long oid(String field) {
        return Integer.toUnsignedLong(int32(field));
    }

    /** A count or length that PostgreSQL writes as a signed integer and that may not be negative. */
    int nonNegativeInt16(String field) {
        int at = offset();
        short value = int16(field);
        if (value < 0) {
            throw failureAt(at, field + " is negative (" + value + ")");
        }
        return value;
    }

    int nonNegativeInt32(String field) {
        int at = offset();
        int value = int32(field);
        if (value < 0) {
            throw failureAt(at, field + " is negative (" + value + ")");
        }
        return value;
    }

    /**
     * Fails unless at least {@code count × minBytesEach} bytes remain, so a corrupt count cannot make the caller
     * allocate a huge list before running out of bytes.
     */
    void requireRoomFor(int count, int minBytesEach, String what) {
        if ((long) count * minBytesEach > end - pos) {
            throw failure(count + " " + what + " need at least " + ((long) count * minBytesEach) + " bytes but only "
                    + (end - pos) + " remain (the count is corrupt or the payload is truncated)");
        }
    }

    /** A NUL-terminated UTF-8 string. */
    String string(String field) {
        int at = pos;
        boolean ascii = true;
        int i = pos;
        while (i < end) {
            byte b = bytes[i];
            if (b == 0) {
                break;
            }
            if (b < 0) {
                ascii = false;
            }
            i++;
        }
        if (i == end) {
            throw failure(field + " has no NUL terminator before the end of the message");
        }
        String value;
        if (ascii) {
            value = new String(bytes, at, i - at, StandardCharsets.ISO_8859_1);
        } else {
            try {
                CharBuffer chars = utf8.reset().decode(ByteBuffer.wrap(bytes, at, i - at));
                value = chars.toString();
            } catch (CharacterCodingException e) {
                throw failure(field + " is not valid UTF-8; the replication connection must use client_encoding UTF8");
            }
        }
        pos = i + 1;
        return value;
    }

    /** {@code length} raw bytes, copied once into an owned array. */
    Bytes bytes(int length, String field) {
        require(length, field);
        byte[] copy = Arrays.copyOfRange(bytes, pos, pos + length);
        pos += length;
        return Bytes.wrap(copy);
    }

    /** Fails when bytes are left over after the last field of the message. */
    void requireFullyConsumed() {
        if (pos != end) {
            throw failure((end - pos) + " unexpected trailing byte(s) after the last field of the message");
        }
    }
}
