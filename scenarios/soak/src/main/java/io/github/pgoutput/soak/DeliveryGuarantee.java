package io.github.pgoutput.soak;

import java.util.Map;

/**
 * How the worker-kill scenario's worker and connector write to Kafka: at least once (no exactly-once support on the
 * worker), or exactly once with Connect's poll boundaries or with the connector's (one delivery, one Kafka
 * transaction). Each has its own Connect group and internal topics, so the three can share one broker.
 */
enum DeliveryGuarantee {
    AT_LEAST_ONCE("alo", Map.of(), Map.of()),
    EXACTLY_ONCE_POLL("eosp", Map.of("exactly.once.source.support", "enabled"),
            Map.of("exactly.once.support", "required", "transaction.boundary", "poll")),
    EXACTLY_ONCE_CONNECTOR("eosc", Map.of("exactly.once.source.support", "enabled"),
            Map.of("exactly.once.support", "required", "transaction.boundary", "connector"));

    /** A short name, used in command lines and in the names of groups, topics, slots and connectors. */
    final String id;
    final Map<String, String> worker;
    final Map<String, String> connector;

    DeliveryGuarantee(String id, Map<String, String> worker, Map<String, String> connector) {
        this.id = id;
        this.worker = worker;
        this.connector = connector;
    }

    boolean exactlyOnce() {
        return this != AT_LEAST_ONCE;
    }

    static DeliveryGuarantee of(String id) {
        for (DeliveryGuarantee guarantee : values()) {
            if (guarantee.id.equals(id)) {
                return guarantee;
            }
        }
        throw new IllegalArgumentException("unknown mode '" + id + "'; expected alo, eosp or eosc");
    }
}
