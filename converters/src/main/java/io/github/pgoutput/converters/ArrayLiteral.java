package io.github.pgoutput.converters;

import java.util.ArrayList;
import java.util.List;

/**
 * Parses array_out's text form into its elements in row-major order: {@code {1,NULL,"a \"b\"",\\}},
 * nested braces for more dimensions, an optional {@code [lo:hi]...=} prefix when a lower bound is not 1.
 * Elements are returned as the element type's text (null for an unquoted NULL); dimensions are dropped,
 * which is how multi-dimensional arrays become one flat list.
 */
final class ArrayLiteral {

    private final String text;
    private final char delimiter;
    private int pos;

    private ArrayLiteral(String text, char delimiter) {
        this.text = text;
        this.delimiter = delimiter;
    }

    /** The elements of {@code text} in row-major order; null entries are SQL NULLs. */
    static List<String> parse(String text, char delimiter) {
        ArrayLiteral parser = new ArrayLiteral(text, delimiter);
        parser.skipDimensions();
        List<String> out = new ArrayList<>();
        parser.array(out, 0);
        if (parser.pos != text.length()) {
            throw parser.error("unexpected text after the closing brace");
        }
        return out;
    }

    private void skipDimensions() {
        if (text.startsWith("[")) {
            int equals = text.indexOf('=');
            if (equals < 0 || !text.substring(0, equals).matches("(\\[-?\\d+:-?\\d+])+")) {
                throw error("malformed dimension decoration");
            }
            pos = equals + 1;
        }
    }

    private void array(List<String> out, int depth) {
        if (depth > 6) {
            throw error("more than 6 dimensions (PostgreSQL's MAXDIM)");
        }
        expect('{');
        if (peek() == '}') {
            pos++;
            return;
        }
        while (true) {
            if (peek() == '{') {
                array(out, depth + 1);
            } else if (peek() == '"') {
                out.add(quoted());
            } else {
                out.add(unquoted());
            }
            char next = peek();
            pos++;
            if (next == '}') {
                return;
            }
            if (next != delimiter) {
                pos--;
                throw error("expected '" + delimiter + "' or '}'");
            }
        }
    }

    private String quoted() {
        pos++;
        StringBuilder value = new StringBuilder();
        while (true) {
            char c = next();
            if (c == '"') {
                return value.toString();
            }
            value.append(c == '\\' ? next() : c);
        }
    }

    /** array_out quotes every element holding whitespace, quotes, braces, backslashes or the delimiter. */
    private String unquoted() {
        int start = pos;
        StringBuilder value = new StringBuilder();
        boolean escaped = false;
        while (pos < text.length() && text.charAt(pos) != delimiter && text.charAt(pos) != '}') {
            char c = text.charAt(pos++);
            if (c == '{' || c == '"') {
                throw error("unexpected '" + c + "' in an unquoted element");
            }
            if (c == '\\') {
                escaped = true;
                c = next();
            }
            value.append(c);
        }
        if (pos == start) {
            throw error("empty element");
        }
        String element = value.toString();
        // Only a bare NULL is SQL NULL; a quoted or escaped one is the string.
        return !escaped && element.equalsIgnoreCase("NULL") ? null : element;
    }

    private char peek() {
        if (pos >= text.length()) {
            throw error("unexpected end");
        }
        return text.charAt(pos);
    }

    private char next() {
        char c = peek();
        pos++;
        return c;
    }

    private void expect(char c) {
        if (next() != c) {
            pos--;
            throw error("expected '" + c + "'");
        }
    }

    private IllegalArgumentException error(String problem) {
        return new IllegalArgumentException("array literal: " + problem + " at position " + pos);
    }
}
