package io.github.pgoutput.snapshot;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A strict JSON reader for signal payloads (RFC 8259): objects become {@link LinkedHashMap}s, arrays {@link List}s,
 * numbers {@link BigDecimal}s, and {@code true}, {@code false}, {@code null} themselves. Signals are small and come
 * from users, so the reader is small and names the offset of the first thing it cannot read; the plugin brings no
 * JSON library of its own, and a worker's copy is not ours to rely on. Stateless apart from one parse.
 */
public final class SignalJson {

    private final String text;
    private int at;

    private SignalJson(String text) {
        this.text = text;
    }

    /** @throws IllegalArgumentException naming the offset, when {@code text} is not one JSON value */
    static Object parse(String text) {
        if (text == null) {
            throw new IllegalArgumentException("no JSON text (null)");
        }
        SignalJson reader = new SignalJson(text);
        reader.space();
        Object value = reader.value();
        reader.space();
        if (reader.at != text.length()) {
            throw reader.error("text after the JSON value");
        }
        return value;
    }

    private Object value() {
        if (at >= text.length()) {
            throw error("a value");
        }
        char c = text.charAt(at);
        return switch (c) {
            case '{' -> object();
            case '[' -> array();
            case '"' -> string();
            case 't' -> word("true", Boolean.TRUE);
            case 'f' -> word("false", Boolean.FALSE);
            case 'n' -> word("null", null);
            default -> {
                if (c == '-' || (c >= '0' && c <= '9')) {
                    yield number();
                }
                throw error("a value");
            }
        };
    }

    private Map<String, Object> object() {
        Map<String, Object> map = new LinkedHashMap<>();
        at++;
        space();
        if (peek('}')) {
            at++;
            return map;
        }
        while (true) {
            space();
            if (!peek('"')) {
                throw error("a member name in quotes");
            }
            String name = string();
            space();
            expect(':');
            space();
            map.put(name, value());
            space();
            if (peek(',')) {
                at++;
                continue;
            }
            expect('}');
            return map;
        }
    }

    private List<Object> array() {
        List<Object> list = new ArrayList<>();
        at++;
        space();
        if (peek(']')) {
            at++;
            return list;
        }
        while (true) {
            space();
            list.add(value());
            space();
            if (peek(',')) {
                at++;
                continue;
            }
            expect(']');
            return list;
        }
    }

    private String string() {
        at++;
        StringBuilder sb = new StringBuilder();
        while (true) {
            if (at >= text.length()) {
                throw error("the end of the string");
            }
            char c = text.charAt(at++);
            if (c == '"') {
                return sb.toString();
            }
            if (c < 0x20) {
                throw error("no control character inside a string");
            }
            if (c != '\\') {
                sb.append(c);
                continue;
            }
            if (at >= text.length()) {
                throw error("an escape");
            }
            char e = text.charAt(at++);
            switch (e) {
                case '"', '\\', '/' -> sb.append(e);
                case 'b' -> sb.append('\b');
                case 'f' -> sb.append('\f');
                case 'n' -> sb.append('\n');
                case 'r' -> sb.append('\r');
                case 't' -> sb.append('\t');
                case 'u' -> {
                    if (at + 4 > text.length()) {
                        throw error("four hex digits");
                    }
                    try {
                        sb.append((char) Integer.parseInt(text.substring(at, at + 4), 16));
                    } catch (NumberFormatException ex) {
                        throw error("four hex digits");
                    }
                    at += 4;
                }
                default -> {
                    at--;
                    throw error("an escape (\\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)");
                }
            }
        }
    }

    private BigDecimal number() {
        int start = at;
        if (peek('-')) {
            at++;
        }
        while (at < text.length() && "0123456789.eE+-".indexOf(text.charAt(at)) >= 0) {
            at++;
        }
        try {
            return new BigDecimal(text.substring(start, at));
        } catch (NumberFormatException e) {
            at = start;
            throw error("a number");
        }
    }

    private Object word(String word, Object value) {
        if (!text.startsWith(word, at)) {
            throw error("a value");
        }
        at += word.length();
        return value;
    }

    private boolean peek(char c) {
        return at < text.length() && text.charAt(at) == c;
    }

    private void expect(char c) {
        if (!peek(c)) {
            throw error("'" + c + "'");
        }
        at++;
    }

    private void space() {
        while (at < text.length() && " \t\r\n".indexOf(text.charAt(at)) >= 0) {
            at++;
        }
    }

    private IllegalArgumentException error(String expected) {
        String found = at >= text.length() ? "the end" : "'" + text.charAt(at) + "'";
        return new IllegalArgumentException("not valid JSON: expected " + expected + " at offset " + at + ", found " + found);
    }
}
