package io.github.pgoutput.snapshot;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Splits one row of {@code COPY ... TO STDOUT} in text format into its column values. COPY writes each value with the
 * type's output function, the same text pgoutput sends, and escapes only backslash, the delimiter (tab) and the
 * control characters; {@code \N} alone is NULL. Not thread-safe: it reuses one byte buffer.
 */
final class CopyText {

    private byte[] field = new byte[256];

    /**
     * @param line    one CopyData row, ending in a newline, client encoding UTF-8
     * @param columns the number of columns the COPY selected
     * @throws IllegalArgumentException when the row does not have {@code columns} values
     */
    List<String> parse(byte[] line, int columns) {
        if (columns == 0) {
            return new ArrayList<>(0);
        }
        List<String> values = new ArrayList<>(columns);
        int end = line.length > 0 && line[line.length - 1] == '\n' ? line.length - 1 : line.length;
        int length = 0;
        int fieldStart = 0;
        for (int i = 0; i <= end; i++) {
            if (i == end || line[i] == '\t') {
                boolean isNull = i - fieldStart == 2 && line[fieldStart] == '\\' && line[fieldStart + 1] == 'N';
                values.add(isNull ? null : new String(field, 0, length, StandardCharsets.UTF_8));
                length = 0;
                fieldStart = i + 1;
                continue;
            }
            byte b = line[i];
            if (b == '\\' && i + 1 < end) {
                i++;
                b = unescape(line[i]);
            }
            if (length == field.length) {
                field = Arrays.copyOf(field, field.length * 2);
            }
            field[length++] = b;
        }
        if (values.size() != columns) {
            throw new IllegalArgumentException("COPY row has " + values.size() + " values but " + columns + " columns were selected");
        }
        return values;
    }

    private static byte unescape(byte b) {
        return switch (b) {
            case 'b' -> '\b';
            case 'f' -> '\f';
            case 'n' -> '\n';
            case 'r' -> '\r';
            case 't' -> '\t';
            case 'v' -> 0x0B;
            default -> b; // backslash itself, and any other character COPY would take literally
        };
    }
}
