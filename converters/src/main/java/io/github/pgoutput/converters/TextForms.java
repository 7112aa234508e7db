package io.github.pgoutput.converters;

import java.io.ByteArrayOutputStream;
import java.math.BigDecimal;
import java.math.BigInteger;

/** Small parsers and printers for bytea, "char", bit strings and money. */
final class TextForms {

    private TextForms() {
    }

    /**
     * bytea text output: hex ({@code \x0102}, the default {@code bytea_output}) or the older escape format
     * ({@code \\} for a backslash, {@code \ooo} octal for other non-printables).
     */
    static byte[] byteaFromText(String text) {
        if (text.startsWith("\\x")) {
            int digits = text.length() - 2;
            if (digits % 2 != 0) {
                throw new IllegalArgumentException("odd number of hex digits");
            }
            byte[] out = new byte[digits / 2];
            for (int i = 0; i < out.length; i++) {
                out[i] = (byte) ((hexDigit(text.charAt(2 + 2 * i)) << 4) | hexDigit(text.charAt(3 + 2 * i)));
            }
            return out;
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(text.length());
        int i = 0;
        while (i < text.length()) {
            char c = text.charAt(i);
            if (c != '\\') {
                if (c > 0x7E) {
                    throw new IllegalArgumentException("escape-format bytea holds only ASCII, found U+" + Integer.toHexString(c));
                }
                out.write(c);
                i++;
            } else if (text.startsWith("\\\\", i)) {
                out.write('\\');
                i += 2;
            } else if (isOctal(text, i + 1)) {
                out.write(Integer.parseInt(text.substring(i + 1, i + 4), 8));
                i += 4;
            } else {
                throw new IllegalArgumentException("bad escape at position " + i);
            }
        }
        return out.toByteArray();
    }

    private static boolean isOctal(String text, int from) {
        for (int i = from; i < from + 3; i++) {
            if (i >= text.length() || text.charAt(i) < '0' || text.charAt(i) > '7') {
                return false;
            }
        }
        return true;
    }

    private static int hexDigit(char c) {
        int value = Character.digit(c, 16);
        if (value < 0) {
            throw new IllegalArgumentException("'" + c + "' is not a hex digit");
        }
        return value;
    }

    /** Lower-case hexadecimal, two digits per byte (Debezium's binary.handling.mode=hex). */
    static String hex(byte[] bytes) {
        StringBuilder out = new StringBuilder(bytes.length * 2);
        for (byte b : bytes) {
            out.append(Character.forDigit((b >> 4) & 0xF, 16)).append(Character.forDigit(b & 0xF, 16));
        }
        return out.toString();
    }

    /** The "char" type's send form (one byte) as charout prints it: empty for 0, {@code \ooo} for bytes above 127. */
    static String charFromSend(BinaryReader in) {
        int value = in.uint8();
        in.expectEnd();
        if (value == 0) {
            return "";
        }
        if (value >= 0x80) {
            return "\\" + Integer.toOctalString(value);
        }
        return String.valueOf((char) value);
    }

    /** bit_send/varbit_send: int32 bit length, then the bits, most significant first, padded to whole bytes. */
    static String bitsFromSend(BinaryReader in) {
        int length = in.int32();
        if (length < 0) {
            throw new IllegalArgumentException("negative bit length " + length);
        }
        byte[] bytes = in.bytes((length + 7) / 8);
        in.expectEnd();
        StringBuilder out = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            out.append((bytes[i / 8] >> (7 - i % 8) & 1) == 0 ? '0' : '1');
        }
        return out.toString();
    }

    /**
     * money text output depends on {@code lc_monetary} ({@code $1,234.56}, {@code -$0.01}, {@code ($5.00)},
     * {@code 1.234,56 €}), but it always prints every fraction digit. So the digits alone, read as minor units,
     * give the exact amount; a '-' or '(' anywhere makes it negative.
     */
    static BigDecimal moneyFromText(String text, int fractionDigits) {
        StringBuilder digits = new StringBuilder(text.length());
        boolean negative = false;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c >= '0' && c <= '9') {
                digits.append(c);
            } else if (c == '-' || c == '(') {
                negative = true;
            }
        }
        if (digits.length() == 0) {
            throw new IllegalArgumentException("no digits in money value");
        }
        BigInteger minorUnits = new BigInteger(digits.toString());
        return new BigDecimal(negative ? minorUnits.negate() : minorUnits, fractionDigits);
    }
}
