package io.github.pgoutput.parity;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * A real-world configuration made deployable on the test worker: each converter, transformation or predicate class
 * the worker does not have (Confluent's and Apicurio's registry converters, Confluent's SMTs, Debezium 0.x class names)
 * replaced by the nearest class it has, or its transformation dropped from the chain when none is near; each change
 * recorded in {@code substitutions}.
 */
final class ConfigSubstitutions {

    static final String JSON_CONVERTER = "org.apache.kafka.connect.json.JsonConverter";
    private static final List<String> CONVERTER_KEYS = List.of("key.converter", "value.converter", "header.converter");

    private ConfigSubstitutions() {
    }

    static final String TIMESCALE_SMT = "io.debezium.connector.postgresql.transforms.timescaledb.TimescaleDb";
    private static final String CLOUD_EVENTS = "io.debezium.converters.CloudEventsConverter";

    /**
     * {@code config} with only classes from {@code available} (the worker's plugin classes), its CloudEvents converter
     * serializing JSON instead of Avro (no registry here), and its Kafka signal channel on {@code bootstrapServers}.
     */
    static Map<String, String> apply(Map<String, String> config, Set<String> available, String bootstrapServers,
                                     List<String> substitutions) {
        Map<String, String> result = new LinkedHashMap<>(config);
        for (String key : List.of("value.converter.serializer.type", "value.converter.data.serializer.type")) {
            if (CLOUD_EVENTS.equals(result.getOrDefault("value.converter", "").trim()) && "avro".equals(result.get(key))) {
                result.put(key, "json");
                substitutions.add(key + "=avro -> json (Avro needs a schema registry)");
            }
        }
        String signalBrokers = result.get("signal.kafka.bootstrap.servers");
        if (signalBrokers != null && !signalBrokers.isBlank()) {
            result.put("signal.kafka.bootstrap.servers", bootstrapServers);
            substitutions.add("signal.kafka.bootstrap.servers=" + signalBrokers + " -> the test broker");
        }
        for (String key : CONVERTER_KEYS) {
            String converter = result.get(key);
            if (converter != null && !converter.isBlank() && !available.contains(converter.trim())) {
                result.put(key, JSON_CONVERTER);
                substitutions.add(key + "=" + converter + " -> " + JSON_CONVERTER + " (not on the worker"
                        + (converter.contains("Avro") ? "; an Avro converter needs a schema registry)" : ")"));
            }
        }
        String chain = result.get("transforms");
        if (chain != null && !chain.isBlank()) {
            List<String> kept = new ArrayList<>();
            for (String alias : Arrays.stream(chain.split(",")).map(String::trim).filter(a -> !a.isEmpty()).toList()) {
                String type = result.getOrDefault("transforms." + alias + ".type", "").trim();
                if (type.equals(TIMESCALE_SMT)) {
                    result.keySet().removeIf(k -> k.startsWith("transforms." + alias + "."));
                    substitutions.add("transform " + alias + " (" + type + ") dropped: it reads TimescaleDB's catalog, which the"
                            + " test server lacks");
                } else if (available.contains(type)) {
                    kept.add(alias);
                } else if (type.endsWith("UnwrapFromEnvelope") || type.endsWith("ExtractNewRecordState")) {
                    result.put("transforms." + alias + ".type", ParityMode.UNWRAP_TRANSFORM);
                    substitutions.add("transforms." + alias + ".type=" + type + " -> " + ParityMode.UNWRAP_TRANSFORM
                            + " (its current name)");
                    kept.add(alias);
                } else {
                    result.keySet().removeIf(k -> k.startsWith("transforms." + alias + "."));
                    substitutions.add("transform " + alias + " (" + type + ") dropped: not on the worker, nothing near it is");
                }
            }
            result.put("transforms", String.join(",", kept));
        }
        String predicates = result.get("predicates");
        if (predicates != null && !predicates.isBlank()) {
            List<String> kept = new ArrayList<>();
            for (String alias : Arrays.stream(predicates.split(",")).map(String::trim).filter(a -> !a.isEmpty()).toList()) {
                String type = result.getOrDefault("predicates." + alias + ".type", "").trim();
                if (available.contains(type)) {
                    kept.add(alias);
                } else {
                    result.keySet().removeIf(k -> k.startsWith("predicates." + alias + "."));
                    List<String> users = result.entrySet().stream().filter(e -> e.getKey().endsWith(".predicate")
                            && e.getValue().trim().equals(alias)).map(Map.Entry::getKey).collect(Collectors.toList());
                    users.forEach(result::remove);
                    substitutions.add("predicate " + alias + " (" + type + ") dropped with its uses " + users + ": not on the worker");
                }
            }
            result.put("predicates", String.join(",", kept));
        }
        return result;
    }
}
