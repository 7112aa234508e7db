package io.github.pgoutput.converters;

import org.apache.kafka.connect.errors.DataException;

/**
 * A value could not be converted: malformed input, an unsupported binary form, or a value the chosen schema
 * cannot hold. Permanent: retrying gives the same result. The message names the type, shows the offending
 * value (shortened) and says how to fix it.
 */
public class ValueConversionException extends DataException {

    private static final long serialVersionUID = 1L;

    public ValueConversionException(String message) {
        super(message);
    }

    public ValueConversionException(String message, Throwable cause) {
        super(message, cause);
    }

    /** At most 120 characters of {@code value}, for messages. */
    static String shorten(String value) {
        return value.length() <= 120 ? "'" + value + "'" : "'" + value.substring(0, 117) + "...' (" + value.length() + " chars)";
    }

    /** The first bytes of {@code value} in hex, for messages. */
    static String hex(byte[] value) {
        StringBuilder out = new StringBuilder("0x");
        for (int i = 0; i < Math.min(value.length, 48); i++) {
            out.append(Character.forDigit((value[i] >> 4) & 0xF, 16)).append(Character.forDigit(value[i] & 0xF, 16));
        }
        return value.length > 48 ? out + "... (" + value.length + " bytes)" : out.toString();
    }
}
