package io.github.pgoutput.pgoutput;

/**
 * A pgoutput payload that cannot be decoded: truncated, malformed, of an unknown type, or not allowed by the
 * negotiated protocol settings or at this point of the stream. The message names the type byte (as character and
 * hex), the byte offset within the payload where the problem was found, and the WAL position of the frame.
 *
 * <p>This is a permanent error for the data at hand: decoding the same bytes again gives the same result.
 */
public final class PgOutputDecodingException extends RuntimeException {

    /** Stands for "no type byte" when the payload was empty. */
    public static final char NO_TAG = '\0';

    private final char tag;
    private final int offset;
    private final transient Lsn walPosition;

    private PgOutputDecodingException(String message, char tag, int offset, Lsn walPosition) {
        super(message);
        this.tag = tag;
        this.offset = offset;
        this.walPosition = walPosition;
    }

    static PgOutputDecodingException at(char tag, int offset, Lsn walPosition, String problem) {
        return new PgOutputDecodingException(describe(tag) + " at byte offset " + offset + " (WAL position " + walPosition + "): "
                + problem, tag, offset, walPosition);
    }

    static PgOutputDecodingException emptyPayload(Lsn walPosition) {
        return new PgOutputDecodingException("empty pgoutput payload (WAL position " + walPosition
                + "): expected at least the one-byte message type", NO_TAG, 0, walPosition);
    }

    /** The type byte of the offending message, or {@link #NO_TAG} when the payload was empty. */
    public char tag() {
        return tag;
    }

    /** Byte offset within the payload (0 = the type byte) where decoding failed. */
    public int offset() {
        return offset;
    }

    /** The WAL position the caller gave for the frame; may be {@link Lsn#INVALID}. */
    public Lsn walPosition() {
        return walPosition;
    }

    static String describe(char tag) {
        String hex = String.format("0x%02X", (int) tag);
        if (tag >= 0x20 && tag < 0x7F) {
            return "pgoutput message '" + tag + "' (" + hex + ")";
        }
        return "pgoutput message with type byte " + hex;
    }
}
