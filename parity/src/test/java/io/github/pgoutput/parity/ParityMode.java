package io.github.pgoutput.parity;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One configuration both connectors run with in the parity test: the keys it adds to the common Debezium-style
 * configuration, and whether Debezium's {@code ExtractNewRecordState} transform is applied to both.
 *
 * @param name          short name, part of topic prefixes and slot names ({@code [a-z0-9_]})
 * @param settings      configuration keys this mode sets on top of the common ones
 * @param unwrap        whether {@code io.debezium.transforms.ExtractNewRecordState} runs on both connectors' records
 * @param specialValues whether the ps_* tables (numeric NaN and infinities) are captured
 */
public record ParityMode(String name, Map<String, String> settings, boolean unwrap, boolean specialValues) {

    public static final String UNWRAP_TRANSFORM = "io.debezium.transforms.ExtractNewRecordState";

    public ParityMode {
        settings = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(settings));
    }

    /** Every mode the parity test runs, the default configuration first. */
    public static List<ParityMode> all() {
        Map<String, String> string = Map.of("decimal.handling.mode", "string");
        return List.of(
                new ParityMode("default", Map.of(), false, false),
                new ParityMode("default_unwrap", Map.of(), true, false),
                new ParityMode("decimal_string", string, false, true),
                new ParityMode("decimal_string_unwrap", string, true, true),
                new ParityMode("time_connect", Map.of("time.precision.mode", "connect"), false, false),
                new ParityMode("time_adaptive_us", Map.of("time.precision.mode", "adaptive_time_microseconds"), false, false),
                new ParityMode("other_handling", Map.of("interval.handling.mode", "string", "hstore.handling.mode", "map",
                        "binary.handling.mode", "base64"), false, false));
    }

    /** The regular expression for {@code table.include.list}. */
    public String tableIncludeList() {
        return specialValues ? "public\\.p[ts]_.*" : "public\\.pt_.*";
    }

    /** Human-readable settings for the report. */
    public String describe() {
        StringBuilder out = new StringBuilder(settings.isEmpty() ? "default settings" : settings.toString());
        if (unwrap) {
            out.append(", transforms=").append(UNWRAP_TRANSFORM);
        }
        return out.toString();
    }
}
