package io.github.pgoutput.converters;

import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;

/**
 * The hstore extension type, per {@link HStoreHandlingMode}: a JSON object string named
 * {@code io.debezium.data.Json} ({@code {"a":"1","b":null}}, compact, keys in the order Debezium writes them), or
 * a Connect MAP of STRING keys to optional STRING values.
 */
final class HStores {

    private HStores() {
    }

    /** An unchanged TOAST value becomes, as in Debezium, the one-entry map placeholder => placeholder (or its JSON). */
    static ColumnConverter converter(PgColumnType type, HStoreHandlingMode mode, String placeholder) {
        Map<String, String> unchanged = Map.of(placeholder, placeholder);
        if (mode == HStoreHandlingMode.MAP) {
            return new ScalarConverter(type, () -> SchemaBuilder.map(Schema.STRING_SCHEMA, Schema.OPTIONAL_STRING_SCHEMA),
                    text -> Collections.unmodifiableMap(fromText(text)), in -> Collections.unmodifiableMap(fromSend(in)), unchanged);
        }
        return new ScalarConverter(type, ScalarConverters.named(SchemaNames.JSON), text -> toJson(fromText(text)),
                in -> toJson(fromSend(in)), toJson(unchanged));
    }

    /**
     * hstore_out: {@code "k"=>"v", "k2"=>NULL}, keys and values in double quotes with {@code \"} and {@code \\}
     * escaped. The pairs go into a HashMap in that order: Debezium does the same, so iterating both gives one order.
     */
    static Map<String, String> fromText(String text) {
        Map<String, String> out = new HashMap<>();
        int[] pos = {0};
        while (pos[0] < text.length()) {
            String key = quoted(text, pos);
            expect(text, pos, "=>");
            String value;
            if (text.startsWith("NULL", pos[0])) {
                pos[0] += 4;
                value = null;
            } else {
                value = quoted(text, pos);
            }
            out.put(key, value);
            if (pos[0] < text.length()) {
                expect(text, pos, ", ");
            }
        }
        return out;
    }

    /** hstore_send: int32 pair count, then per pair int32 key length, key, int32 value length (-1 for NULL), value. */
    static Map<String, String> fromSend(BinaryReader in) {
        int count = in.int32();
        if (count < 0) {
            throw new IllegalArgumentException("negative pair count " + count);
        }
        Map<String, String> out = new HashMap<>();
        for (int i = 0; i < count; i++) {
            String key = ScalarConverters.utf8(in.bytes(in.int32()));
            int length = in.int32();
            out.put(key, length == -1 ? null : ScalarConverters.utf8(in.bytes(length)));
        }
        in.expectEnd();
        return out;
    }

    private static String quoted(String text, int[] pos) {
        expect(text, pos, "\"");
        StringBuilder out = new StringBuilder();
        while (true) {
            if (pos[0] >= text.length()) {
                throw new IllegalArgumentException("unterminated quoted string");
            }
            char c = text.charAt(pos[0]++);
            if (c == '"') {
                return out.toString();
            }
            if (c == '\\') {
                if (pos[0] >= text.length()) {
                    throw new IllegalArgumentException("backslash at the end");
                }
                c = text.charAt(pos[0]++);
            }
            out.append(c);
        }
    }

    private static void expect(String text, int[] pos, String expected) {
        if (!text.startsWith(expected, pos[0])) {
            throw new IllegalArgumentException("expected '" + expected + "' at position " + pos[0]);
        }
        pos[0] += expected.length();
    }

    /** Compact JSON as Jackson's generator writes it: short escapes for \b \t \n \f \r, {@code \}{@code u00XX} below 0x20. */
    static String toJson(Map<String, String> map) {
        StringBuilder out = new StringBuilder("{");
        boolean first = true;
        for (Map.Entry<String, String> e : map.entrySet()) {
            if (!first) {
                out.append(',');
            }
            first = false;
            string(out, e.getKey()).append(':');
            if (e.getValue() == null) {
                out.append("null");
            } else {
                string(out, e.getValue());
            }
        }
        return out.append('}').toString();
    }

    private static StringBuilder string(StringBuilder out, String s) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\b' -> out.append("\\b");
                case '\t' -> out.append("\\t");
                case '\n' -> out.append("\\n");
                case '\f' -> out.append("\\f");
                case '\r' -> out.append("\\r");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04X", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.append('"');
    }
}
