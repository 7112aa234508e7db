package io.github.pgoutput.converters;

import org.apache.kafka.connect.data.SchemaBuilder;

/**
 * bit and bit varying as Debezium writes them: a column of length 1 is a BOOLEAN; any other is
 * {@code io.debezium.data.Bits} bytes with the declared length as parameter {@code length}. The bytes are
 * {@link java.util.BitSet#toByteArray()} of the bit string read as a binary number: least significant byte
 * first, the last bit written being bit 0, and no bytes for leading zeros ({@code B'0000'} is empty).
 */
final class Bits {

    /** Debezium's length of a bit varying column without a declared length. */
    static final int UNBOUNDED_LENGTH = Integer.MAX_VALUE;

    private Bits() {
    }

    static ColumnConverter converter(PgColumnType type, String placeholder) {
        int length = type.typmod() < 0 ? UNBOUNDED_LENGTH : type.typmod();
        if (length == 1) {
            return new ScalarConverter(type, SchemaBuilder::bool, text -> toBoolean(checked(text)),
                    in -> toBoolean(TextForms.bitsFromSend(in)), null);
        }
        return new ScalarConverter(type, () -> SchemaBuilder.bytes().name(SchemaNames.BITS).version(SchemaNames.VERSION)
                .parameter(SchemaNames.BITS_LENGTH_PARAMETER, Integer.toString(length)),
                text -> toBytes(checked(text)), in -> toBytes(TextForms.bitsFromSend(in)), null);
    }

    private static Boolean toBoolean(String bits) {
        return bits.indexOf('1') >= 0;
    }

    /** The bit string, last character least significant, as little-endian bytes without trailing zero bytes. */
    static byte[] toBytes(String bits) {
        int length = bits.length();
        int highest = bits.indexOf('1');
        if (highest < 0) {
            return new byte[0];
        }
        int significant = length - highest;
        byte[] out = new byte[(significant + 7) / 8];
        for (int i = 0; i < significant; i++) {
            if (bits.charAt(length - 1 - i) == '1') {
                out[i / 8] |= (byte) (1 << (i % 8));
            }
        }
        return out;
    }

    private static String checked(String text) {
        for (int i = 0; i < text.length(); i++) {
            if (text.charAt(i) != '0' && text.charAt(i) != '1') {
                throw new IllegalArgumentException("bit strings hold only '0' and '1'");
            }
        }
        return text;
    }
}
