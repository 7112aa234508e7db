package io.github.pgoutput.parity;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;

import io.github.pgoutput.parity.RecordNormalisation.Normalised;

/**
 * Compares the records of Debezium and ours for one mode, field by field, after {@link RecordNormalisation}.
 *
 * <p>Records are paired per topic (named without the prefix). Within a topic each of Debezium's records, in order,
 * takes the first unpaired record of ours with the same label (op, tombstone, transaction status), key payload and
 * transaction ({@code source.txId}: the same for a streamed change in both), else the first with the same label and
 * key, else the first with the same label; what stays unpaired on either side is a difference of its own
 * ({@code <topic>[<label>] record}). Heartbeats come at intervals, so only the first of each side is compared.
 *
 * <p>A pair is compared in its key, value and headers. A schema is compared attribute by attribute ({@code type},
 * {@code name}, {@code version}, {@code optional}, {@code default}, {@code doc}, each parameter), struct fields by
 * name (so one missing column is one difference, not a shifted list) plus their order, array items and map keys and
 * values recursively. A payload is compared leaf by leaf. Fields only ours has are differences too (additions).
 * Pure: no I/O.
 */
public final class RecordComparison {

    /** The outcome for one mode: how many fields were compared and every difference (one per field per record). */
    public record Result(int comparedFields, List<Difference> differences) {
    }

    private static final List<String> SCHEMA_ATTRIBUTES = List.of("type", "name", "version", "optional", "default", "doc");

    private int compared;
    private final List<Difference> differences = new ArrayList<>();

    private RecordComparison() {
    }

    public static Result compare(List<CapturedRecord> debezium, String debeziumPrefix, List<CapturedRecord> ours,
            String oursPrefix) {
        RecordComparison comparison = new RecordComparison();
        Map<String, List<Normalised>> left = byTopic(debezium, debeziumPrefix);
        Map<String, List<Normalised>> right = byTopic(ours, oursPrefix);
        Set<String> topics = new TreeSet<>(left.keySet());
        topics.addAll(right.keySet());
        for (String topic : topics) {
            comparison.compareTopic(left.getOrDefault(topic, List.of()), right.getOrDefault(topic, List.of()),
                    topic.equals("heartbeat"));
        }
        return new Result(comparison.compared, List.copyOf(comparison.differences));
    }

    private static Map<String, List<Normalised>> byTopic(List<CapturedRecord> records, String prefix) {
        Map<String, List<Normalised>> topics = new LinkedHashMap<>();
        for (CapturedRecord record : records) {
            Normalised normalised = RecordNormalisation.apply(record, prefix);
            topics.computeIfAbsent(normalised.topic(), t -> new ArrayList<>()).add(normalised);
        }
        return topics;
    }

    private void compareTopic(List<Normalised> debezium, List<Normalised> ours, boolean firstOnly) {
        List<Normalised> left = firstOnly && !debezium.isEmpty() ? debezium.subList(0, 1) : debezium;
        List<Normalised> unpaired = new ArrayList<>(firstOnly && !ours.isEmpty() ? ours.subList(0, 1) : ours);
        for (Normalised record : left) {
            Normalised partner = take(unpaired, record, true, true);
            if (partner == null) {
                partner = take(unpaired, record, true, false);
            }
            if (partner == null) {
                partner = take(unpaired, record, false, false);
            }
            if (partner == null) {
                compared++;
                differences.add(new Difference(where(record) + " record", "present", Difference.ABSENT));
            } else {
                comparePair(record, partner);
            }
        }
        for (Normalised extra : unpaired) {
            compared++;
            differences.add(new Difference(where(extra) + " record", Difference.ABSENT, "present"));
        }
    }

    private static Normalised take(List<Normalised> candidates, Normalised record, boolean sameKey,
            boolean sameTransaction) {
        for (Iterator<Normalised> it = candidates.iterator(); it.hasNext();) {
            Normalised candidate = it.next();
            if (candidate.label().equals(record.label())
                    && (!sameKey || candidate.key().path("payload").equals(record.key().path("payload")))
                    && (!sameTransaction || transaction(candidate).equals(transaction(record)))) {
                it.remove();
                return candidate;
            }
        }
        return null;
    }

    private static JsonNode transaction(Normalised record) {
        return record.value().path("payload").path("source").path("txId");
    }

    private static String where(Normalised record) {
        return record.topic() + "[" + record.label() + "]";
    }

    private void comparePair(Normalised debezium, Normalised ours) {
        String where = where(debezium);
        compareSide(where + " key", debezium.key(), ours.key());
        compareSide(where + " value", debezium.value(), ours.value());
        Set<String> names = new LinkedHashSet<>(debezium.headers().keySet());
        names.addAll(ours.headers().keySet());
        for (String name : names) {
            compared++;
            String left = debezium.headers().containsKey(name) ? String.valueOf(debezium.headers().get(name)) : Difference.ABSENT;
            String right = ours.headers().containsKey(name) ? String.valueOf(ours.headers().get(name)) : Difference.ABSENT;
            if (!left.equals(right)) {
                differences.add(new Difference(where + " headers." + name, left, right));
            }
        }
    }

    /** A key or value: {@code {"schema":..,"payload":..}}, or null (no key, tombstone). */
    private void compareSide(String path, JsonNode debezium, JsonNode ours) {
        if (debezium.isNull() || ours.isNull()) {
            compared++;
            if (debezium.isNull() != ours.isNull()) {
                differences.add(new Difference(path, text(debezium), text(ours)));
            }
            return;
        }
        compareSchema(path + ".schema", debezium.path("schema"), ours.path("schema"));
        comparePayload(path + ".payload", debezium.path("payload"), ours.path("payload"));
    }

    private void compareSchema(String path, JsonNode debezium, JsonNode ours) {
        if (debezium.isMissingNode() || ours.isMissingNode() || debezium.isNull() || ours.isNull()) {
            compared++;
            if (!debezium.equals(ours)) {
                differences.add(new Difference(path, text(debezium), text(ours)));
            }
            return;
        }
        for (String attribute : SCHEMA_ATTRIBUTES) {
            leaf(path + ".@" + attribute, debezium.path(attribute), ours.path(attribute));
        }
        Set<String> parameters = new LinkedHashSet<>();
        debezium.path("parameters").fieldNames().forEachRemaining(parameters::add);
        ours.path("parameters").fieldNames().forEachRemaining(parameters::add);
        for (String parameter : parameters) {
            leaf(path + ".@parameters." + parameter, debezium.path("parameters").path(parameter),
                    ours.path("parameters").path(parameter));
        }
        if (debezium.has("fields") || ours.has("fields")) {
            compareFields(path, debezium.path("fields"), ours.path("fields"));
        }
        if (debezium.has("items") || ours.has("items")) {
            compareSchema(path + ".@items", debezium.path("items"), ours.path("items"));
        }
        if (debezium.has("keys") || ours.has("keys")) {
            compareSchema(path + ".@keys", debezium.path("keys"), ours.path("keys"));
        }
        if (debezium.has("values") || ours.has("values")) {
            compareSchema(path + ".@values", debezium.path("values"), ours.path("values"));
        }
    }

    private void compareFields(String path, JsonNode debezium, JsonNode ours) {
        Map<String, JsonNode> left = fieldsByName(debezium);
        Map<String, JsonNode> right = fieldsByName(ours);
        Set<String> names = new LinkedHashSet<>(left.keySet());
        names.addAll(right.keySet());
        for (String name : names) {
            if (!left.containsKey(name) || !right.containsKey(name)) {
                compared++;
                differences.add(new Difference(path + "." + name, left.containsKey(name) ? "present" : Difference.ABSENT,
                        right.containsKey(name) ? "present" : Difference.ABSENT));
            } else {
                compareSchema(path + "." + name, left.get(name), right.get(name));
            }
        }
        List<String> leftOrder = new ArrayList<>(left.keySet());
        List<String> rightOrder = new ArrayList<>(right.keySet());
        leftOrder.retainAll(right.keySet());
        rightOrder.retainAll(left.keySet());
        compared++;
        if (!leftOrder.equals(rightOrder)) {
            differences.add(new Difference(path + ".@field_order", String.join(",", leftOrder), String.join(",", rightOrder)));
        }
    }

    private static Map<String, JsonNode> fieldsByName(JsonNode fields) {
        Map<String, JsonNode> byName = new LinkedHashMap<>();
        for (JsonNode field : fields) {
            byName.put(field.path("field").asText(), field);
        }
        return byName;
    }

    private void comparePayload(String path, JsonNode debezium, JsonNode ours) {
        if (debezium.isObject() && ours.isObject()) {
            Set<String> names = new LinkedHashSet<>();
            debezium.fieldNames().forEachRemaining(names::add);
            ours.fieldNames().forEachRemaining(names::add);
            for (String name : names) {
                comparePayload(path + "." + name, debezium.path(name), ours.path(name));
            }
        } else if (debezium.isArray() && ours.isArray() && debezium.size() == ours.size()) {
            for (int i = 0; i < debezium.size(); i++) {
                comparePayload(path + "[]", debezium.get(i), ours.get(i));
            }
        } else {
            leaf(path, debezium, ours);
        }
    }

    private void leaf(String path, JsonNode debezium, JsonNode ours) {
        if (debezium.isMissingNode() && ours.isMissingNode()) {
            return;
        }
        compared++;
        if (!debezium.equals(ours)) {
            differences.add(new Difference(path, text(debezium), text(ours)));
        }
    }

    private static String text(JsonNode node) {
        return node == null || node instanceof MissingNode ? Difference.ABSENT : node.toString();
    }
}
