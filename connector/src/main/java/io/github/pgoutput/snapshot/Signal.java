package io.github.pgoutput.snapshot;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A signal in Debezium's format: an id, a type and a JSON {@code data} document, whichever channel it came through
 * (a row of the signal table, a message of the Kafka signal topic). {@link #parse} turns it into one of the actions
 * below. Immutable.
 */
public sealed interface Signal {

    /** The signal's id, as its sender gave it (the Kafka channel uses the message's offset when none is given). */
    String id();

    /**
     * {@code execute-snapshot} with {@code type} {@code incremental} (the default): snapshot the tables that
     * {@code dataCollections} (regular expressions over {@code schema.table}) match, each under its
     * {@code additional-conditions} filter if any.
     */
    record ExecuteSnapshot(String id, List<String> dataCollections, Map<String, String> conditions) implements Signal {
        public ExecuteSnapshot {
            dataCollections = List.copyOf(dataCollections);
            conditions = Map.copyOf(conditions);
        }
    }

    /** {@code stop-snapshot}: drop the tables {@code dataCollections} match from the incremental snapshot; all when empty. */
    record StopSnapshot(String id, List<String> dataCollections) implements Signal {
        public StopSnapshot {
            dataCollections = List.copyOf(dataCollections);
        }
    }

    /** {@code pause-snapshot}: read no more chunks until {@code resume-snapshot}; streaming goes on. */
    record PauseSnapshot(String id) implements Signal {
    }

    /** {@code resume-snapshot}. */
    record ResumeSnapshot(String id) implements Signal {
    }

    /** {@code log}: writes {@code message} to the connector's log. */
    record Log(String id, String message) implements Signal {
    }

    /**
     * The signal a JSON document holds, as the Kafka signal topic and logical decoding messages carry it:
     * {@code {"id"?, "type", "data"?}}, {@code data} an object or a string holding one; {@code defaultId} when the
     * document has no id.
     *
     * @throws IllegalArgumentException as {@link #parse} does, and when the document is not such an object
     */
    @SuppressWarnings("unchecked")
    public static Signal ofDocument(String defaultId, String document) {
        Object parsed = SignalJson.parse(document);
        if (!(parsed instanceof Map<?, ?> map) || !(map.get("type") instanceof String type)) {
            throw new IllegalArgumentException("a signal is a JSON object with a \"type\" (and \"data\"), not " + document);
        }
        String id = map.get("id") instanceof String s ? s : defaultId;
        Object data = map.get("data");
        if (data == null || data instanceof Map) {
            return of(id, type, data == null ? Map.of() : (Map<String, Object>) data);
        }
        if (data instanceof String text) {
            return parse(id, type, text);
        }
        throw new IllegalArgumentException("signal '" + id + "': \"data\" must be a JSON object, not " + data);
    }

    /**
     * The signal of type {@code type} with the JSON document {@code data} (null or blank for none).
     *
     * @throws IllegalArgumentException naming the signal when its type is unknown, its data is not JSON of the shape
     *                                  its type needs, or it asks for what this connector does not do (a blocking
     *                                  snapshot)
     */
    public static Signal parse(String id, String type, String data) {
        return of(id, type, document(id, type, data));
    }

    /** Like {@link #parse}, with the data already read as JSON. */
    public static Signal of(String id, String type, Map<String, Object> doc) {
        String kind = type == null ? "" : type.trim().toLowerCase(Locale.ROOT);
        return switch (kind) {
            case "execute-snapshot" -> {
                requireIncremental(id, kind, doc);
                List<String> collections = strings(id, kind, doc, "data-collections");
                if (collections.isEmpty()) {
                    throw new IllegalArgumentException(describe(id, kind) + " names no table: give \"data-collections\", a list of"
                            + " schema.table names or regular expressions");
                }
                yield new ExecuteSnapshot(id, collections, conditions(id, kind, doc, collections));
            }
            case "stop-snapshot" -> {
                requireIncremental(id, kind, doc);
                yield new StopSnapshot(id, strings(id, kind, doc, "data-collections"));
            }
            case "pause-snapshot" -> new PauseSnapshot(id);
            case "resume-snapshot" -> new ResumeSnapshot(id);
            case "log" -> new Log(id, doc.get("message") == null ? "" : String.valueOf(doc.get("message")));
            default -> throw new IllegalArgumentException(describe(id, type) + " has an unknown type; the types are execute-snapshot,"
                    + " stop-snapshot, pause-snapshot, resume-snapshot and log");
        };
    }

    private static String describe(String id, String type) {
        return "signal '" + id + "' (type " + type + ")";
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> document(String id, String type, String data) {
        if (data == null || data.isBlank()) {
            return Map.of();
        }
        Object parsed;
        try {
            parsed = SignalJson.parse(data);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(describe(id, type) + ": its data is " + e.getMessage(), e);
        }
        if (parsed == null) {
            return Map.of();
        }
        if (!(parsed instanceof Map<?, ?> map)) {
            throw new IllegalArgumentException(describe(id, type) + ": its data must be a JSON object, not " + data);
        }
        return (Map<String, Object>) map;
    }

    private static void requireIncremental(String id, String type, Map<String, Object> doc) {
        Object snapshotType = doc.get("type");
        if (snapshotType != null && !"incremental".equalsIgnoreCase(String.valueOf(snapshotType))) {
            throw new IllegalArgumentException(describe(id, type) + " asks for a " + snapshotType + " snapshot; this connector takes"
                    + " incremental snapshots only (\"type\": \"incremental\", the default)");
        }
    }

    private static List<String> strings(String id, String type, Map<String, Object> doc, String member) {
        Object value = doc.get(member);
        if (value == null) {
            return List.of();
        }
        if (value instanceof String s) {
            // Debezium accepts one name where a list is expected.
            return List.of(s);
        }
        if (!(value instanceof List<?> list)) {
            throw new IllegalArgumentException(describe(id, type) + ": \"" + member + "\" must be a list of strings");
        }
        List<String> out = new ArrayList<>();
        for (Object o : list) {
            if (!(o instanceof String s) || s.isBlank()) {
                throw new IllegalArgumentException(describe(id, type) + ": \"" + member + "\" must be a list of non-empty strings, not " + list);
            }
            out.add(s.trim());
        }
        return out;
    }

    /**
     * Debezium's {@code additional-conditions} ({@code [{"data-collection": ..., "filter": ...}]}), or its older
     * {@code additional-condition} (one filter for every table named).
     */
    private static Map<String, String> conditions(String id, String type, Map<String, Object> doc, List<String> collections) {
        Map<String, String> conditions = new LinkedHashMap<>();
        Object single = doc.get("additional-condition");
        if (single instanceof String s && !s.isBlank()) {
            for (String c : collections) {
                conditions.put(c, s);
            }
        }
        Object list = doc.get("additional-conditions");
        if (list == null) {
            return conditions;
        }
        if (!(list instanceof List<?> entries)) {
            throw new IllegalArgumentException(describe(id, type) + ": \"additional-conditions\" must be a list of"
                    + " {\"data-collection\": ..., \"filter\": ...}");
        }
        for (Object entry : entries) {
            if (!(entry instanceof Map<?, ?> m) || !(m.get("data-collection") instanceof String table)
                    || !(m.get("filter") instanceof String filter)) {
                throw new IllegalArgumentException(describe(id, type) + ": each of \"additional-conditions\" must be"
                        + " {\"data-collection\": \"schema.table\", \"filter\": \"an SQL condition\"}, not " + entry);
            }
            conditions.put(table.trim(), filter);
        }
        return conditions;
    }
}
