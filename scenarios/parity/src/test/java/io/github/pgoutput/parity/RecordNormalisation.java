package io.github.pgoutput.parity;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;

/**
 * The values that legitimately differ between two runs of the same connector on the same workload, replaced by
 * placeholders before records are compared. This list is complete: every other field is compared as written.
 * <ol>
 *   <li>The topic prefix: each connector runs with its own {@code topic.prefix}, so a string that is the prefix or
 *       starts with {@code <prefix>.} (topic names, schema names, {@code source.name}, the heartbeat key's
 *       {@code serverName}, header values) has the prefix replaced by {@code <prefix>}.</li>
 *   <li>Processing time: the envelope's {@code ts_ms}, {@code ts_us}, {@code ts_ns} (when the connector handled the
 *       change) and a heartbeat's {@code ts_ms} (when it was sent).</li>
 *   <li>{@code source.version}: each connector states its own release.</li>
 *   <li>Snapshot reads ({@code op=r}): {@code source.ts_ms/ts_us/ts_ns} (when the snapshot ran), {@code source.lsn},
 *       {@code source.txId}, {@code source.xmin} and {@code source.sequence} (each connector's own slot and snapshot
 *       transaction).</li>
 *   <li>The header {@code __debezium.context.runId}: a random id per task start.</li>
 *   <li>A transaction END's {@code data_collections}: sorted by {@code data_collection}, since Debezium lists them in
 *       an order that changes from run to run, and the identity hash Debezium prints in the name it gives logical
 *       decoding messages ({@code ...LogicalDecodingMessageId@5f6d16eb}) replaced by {@code @<identity hash>}.</li>
 * </ol>
 */
public final class RecordNormalisation {

    static final String PREFIX = "<prefix>";
    static final String VARIES = "<varies from run to run>";
    private static final Pattern IDENTITY_HASH = Pattern.compile("@[0-9a-f]{1,8}$");

    private RecordNormalisation() {
    }

    /** A record with the placeholders above, and the topic named without the prefix. */
    public record Normalised(String topic, String label, JsonNode key, JsonNode value, Map<String, String> headers) {
    }

    public static Normalised apply(CapturedRecord record, String prefix) {
        String topic = topicWithoutPrefix(record.topic(), prefix);
        JsonNode key = replacePrefix(record.key().deepCopy(), prefix);
        JsonNode value = replacePrefix(record.value().deepCopy(), prefix);
        JsonNode payload = value.path("payload");
        if (payload instanceof ObjectNode fields) {
            if (topic.equals("heartbeat")) {
                replaceIfPresent(fields, "ts_ms");
            }
            if (fields.has("op")) {
                for (String ts : new String[] {"ts_ms", "ts_us", "ts_ns"}) {
                    replaceIfPresent(fields, ts);
                }
            }
            if (topic.equals("transaction") && fields.get("data_collections") instanceof ArrayNode collections) {
                fields.set("data_collections", sortedCollections(collections));
            }
            if (fields.get("source") instanceof ObjectNode source) {
                if (source.has("version")) {
                    source.put("version", "<version>");
                }
                if ("r".equals(fields.path("op").asText())) {
                    for (String field : new String[] {"ts_ms", "ts_us", "ts_ns", "lsn", "txId", "xmin", "sequence"}) {
                        replaceIfPresent(source, field);
                    }
                }
            }
        }
        Map<String, String> headers = new LinkedHashMap<>();
        record.headers().forEach((name, text) -> headers.put(name, name.equals("__debezium.context.runId") ? VARIES
                : replacePrefix(text, prefix)));
        return new Normalised(topic, label(topic, record, value), key, value, headers);
    }

    /** {@code public.orders} for {@code <prefix>.public.orders}, {@code heartbeat} for the heartbeat topic. */
    static String topicWithoutPrefix(String topic, String prefix) {
        if (topic.startsWith(prefix + ".")) {
            return topic.substring(prefix.length() + 1);
        }
        if (topic.endsWith("." + prefix) && topic.contains("heartbeat")) {
            return "heartbeat";
        }
        return topic;
    }

    /** What kind of record this is within its topic: the op, {@code tombstone}, a transaction status, or {@code row}. */
    private static String label(String topic, CapturedRecord record, JsonNode value) {
        if (record.isTombstone()) {
            return "tombstone";
        }
        if (topic.equals("heartbeat")) {
            return "heartbeat";
        }
        JsonNode payload = value.path("payload");
        if (topic.equals("transaction") && payload.path("status").isTextual()) {
            return payload.get("status").asText();
        }
        if (payload.path("op").isTextual()) {
            return payload.get("op").asText();
        }
        return "row";
    }

    private static ArrayNode sortedCollections(ArrayNode collections) {
        List<JsonNode> elements = new ArrayList<>();
        for (JsonNode element : collections) {
            if (element instanceof ObjectNode collection && collection.path("data_collection").isTextual()) {
                collection.put("data_collection", IDENTITY_HASH.matcher(collection.get("data_collection").asText())
                        .replaceFirst("@<identity hash>"));
            }
            elements.add(element);
        }
        elements.sort(Comparator.comparing(e -> e.path("data_collection").asText()));
        ArrayNode sorted = collections.arrayNode();
        elements.forEach(sorted::add);
        return sorted;
    }

    private static void replaceIfPresent(ObjectNode node, String field) {
        if (node.hasNonNull(field)) {
            node.put(field, VARIES);
        }
    }

    private static JsonNode replacePrefix(JsonNode node, String prefix) {
        if (node instanceof ObjectNode object) {
            object.properties().forEach(e -> e.setValue(replacePrefix(e.getValue(), prefix)));
            return object;
        }
        if (node instanceof ArrayNode array) {
            for (int i = 0; i < array.size(); i++) {
                array.set(i, replacePrefix(array.get(i), prefix));
            }
            return array;
        }
        if (node.isTextual()) {
            return TextNode.valueOf(replacePrefix(node.asText(), prefix));
        }
        return node;
    }

    private static String replacePrefix(String text, String prefix) {
        if (text == null) {
            return null;
        }
        if (text.equals(prefix)) {
            return PREFIX;
        }
        return text.startsWith(prefix + ".") ? PREFIX + text.substring(prefix.length()) : text;
    }
}
