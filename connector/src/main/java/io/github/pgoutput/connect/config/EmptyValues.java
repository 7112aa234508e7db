package io.github.pgoutput.connect.config;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * An empty value of any key is the same as the key being unset: {@code column.exclude.list=} excludes nothing,
 * {@code table.blacklist=} narrows nothing, {@code topic.prefix=} is missing. Debezium configurations are often
 * generated from templates that leave unused keys empty, and Debezium reads most such keys as unset; reading each
 * empty value as unset here, before any other rule, makes every rule agree with that. Blank values (spaces only) count
 * as empty. Stateless.
 */
public final class EmptyValues {

    private EmptyValues() {
    }

    /** {@code props} without the keys whose value is null, empty or blank, in the same order. */
    public static <K, V> Map<K, V> removed(Map<K, V> props) {
        Map<K, V> given = new LinkedHashMap<>();
        props.forEach((key, value) -> {
            if (value != null && !value.toString().isBlank()) {
                given.put(key, value);
            }
        });
        return given;
    }
}
