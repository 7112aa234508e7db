package io.github.pgoutput.parity;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * One record as a consumer reads it from Kafka: the topic, key and value as parsed JSON converter output
 * ({@code schemas.enable=true}: {@code {"schema": ..., "payload": ...}}; a JSON {@code null} for an absent key or a
 * tombstone) and the headers as text.
 */
public record CapturedRecord(String topic, JsonNode key, JsonNode value, Map<String, String> headers) {

    private static final ObjectMapper JSON = new ObjectMapper();

    public CapturedRecord {
        key = key == null ? JsonNodeFactory.instance.nullNode() : key;
        value = value == null ? JsonNodeFactory.instance.nullNode() : value;
        headers = Collections.unmodifiableMap(new LinkedHashMap<>(headers));
    }

    /** Parses the bytes a JSON converter wrote; {@code null} bytes are a JSON null. */
    public static JsonNode parse(byte[] json) {
        if (json == null) {
            return JsonNodeFactory.instance.nullNode();
        }
        try {
            return JSON.readTree(json);
        } catch (IOException e) {
            throw new IllegalArgumentException("not JSON: " + new String(json, StandardCharsets.UTF_8), e);
        }
    }

    /** The record as one line of JSON: {@code {"topic":..,"key":..,"value":..,"headers":{..}}}. */
    public String toJsonLine() {
        ObjectNode line = JSON.createObjectNode();
        line.put("topic", topic);
        line.set("key", key);
        line.set("value", value);
        ObjectNode headerNode = line.putObject("headers");
        new LinkedHashMap<>(headers).forEach(headerNode::put);
        return line.toString();
    }

    /** Reads a line written by {@link #toJsonLine()}. */
    public static CapturedRecord fromJsonLine(String line) {
        JsonNode node = parse(line.getBytes(StandardCharsets.UTF_8));
        Map<String, String> headers = new LinkedHashMap<>();
        node.path("headers").properties().forEach(e -> headers.put(e.getKey(), e.getValue().isNull() ? null : e.getValue().asText()));
        return new CapturedRecord(node.get("topic").asText(), node.get("key"), node.get("value"), headers);
    }

    /** The value's envelope operation ({@code c}, {@code u}, {@code d}, {@code r}, {@code t}, {@code m}), or "". */
    public String op() {
        JsonNode op = value.path("payload").path("op");
        return op.isTextual() ? op.asText() : "";
    }

    public boolean isTombstone() {
        return value.isNull();
    }
}
