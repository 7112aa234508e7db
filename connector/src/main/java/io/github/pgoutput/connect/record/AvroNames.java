package io.github.pgoutput.connect.record;

import java.util.Objects;
import java.util.StringJoiner;

/**
 * Connect schema names that are valid Avro full names, so that the Avro converter and Schema Registry accept every
 * record this connector builds.
 *
 * <p>A table's record schemas are named {@code <topic.prefix>.<schema>.<table>.Key}, {@code ...Value} and
 * {@code ...Envelope}. An Avro full name is a dot-separated list of names, each matching
 * {@code [A-Za-z_][A-Za-z0-9_]*}. The prefix is split at its dots; the PostgreSQL schema and table name are one
 * name each (a dot inside them is not a separator). Each name is sanitised deterministically:
 * <ol>
 *   <li>every Unicode code point other than an ASCII letter, digit or '_' becomes one '_';</li>
 *   <li>a name that then starts with a digit gets a '_' in front;</li>
 *   <li>an empty name (from {@code ..} or a leading or trailing dot in the prefix) becomes {@code _}.</li>
 * </ol>
 * Names that are already valid stay unchanged. As with topic names, distinct tables may share a schema name.
 *
 * <p>Immutable and thread-safe.
 */
public final class AvroNames {

    private final String topicPrefix;

    public AvroNames(String topicPrefix) {
        this.topicPrefix = Objects.requireNonNull(topicPrefix, "topicPrefix");
    }

    public String key(String schema, String table) {
        return fullName(schema, table, "Key");
    }

    public String value(String schema, String table) {
        return fullName(schema, table, "Value");
    }

    public String envelope(String schema, String table) {
        return fullName(schema, table, "Envelope");
    }

    /** {@code <topic.prefix>.<names...>}: the prefix split at its dots, each of {@code names} as one name. */
    public String fullName(String... names) {
        StringJoiner joined = new StringJoiner(".");
        for (String part : topicPrefix.split("\\.", -1)) {
            joined.add(name(part));
        }
        for (String name : names) {
            joined.add(name(name));
        }
        return joined.toString();
    }

    /** One Avro name from arbitrary text, by the rules in the class description. */
    public static String name(String text) {
        StringBuilder out = new StringBuilder(text.length() + 1);
        text.codePoints().forEach(c -> out.append(isNameChar(c) ? (char) c : '_'));
        if (out.isEmpty() || (out.charAt(0) >= '0' && out.charAt(0) <= '9')) {
            out.insert(0, '_');
        }
        return out.toString();
    }

    private static boolean isNameChar(int c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    }
}
