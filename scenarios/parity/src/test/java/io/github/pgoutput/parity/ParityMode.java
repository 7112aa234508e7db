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
                        "binary.handling.mode", "base64"), false, false),
                new ParityMode("column_masks", columnMasks(), false, false),
                new ParityMode("column_exclude", Map.of("column.exclude.list",
                        "public\\.pt_types\\.c_(json|jsonb|xml),public\\.pt_keychange\\.id,public\\.pt_uidx\\.region,"
                                + "PUBLIC\\.PT_DEFAULTS\\.CREATED"), false, false),
                new ParityMode("column_include_types", Map.of("column.include.list",
                        "public\\.pt_types\\.(id|c_text|c_int4|c_numeric|c_numeric_ps|c_varchar|c_ts3|c_domain|c_enum|c_bool),"
                                + "PUBLIC\\.PT_(ARRAYS|DEFAULTS|FULL|NOKEY|TOAST)\\..*,public\\.pt_uidx\\.(code|note),"
                                + "public\\.pt_(keychange|trunc|end)\\.(id|v)",
                        "column.propagate.source.type", "public\\.pt_(types|arrays|defaults|uidx)\\..*",
                        "datatype.propagate.source.type", ".+\\.text,.+\\.NUMERIC"), false, false));
    }

    /**
     * Masking, hashing (both forms) and truncation: character columns, columns of other types (which keep their
     * values and get the parameter), a key column (whose key keeps its value), an unchanged TOAST value and NULLs;
     * and a custom converter ({@link ParityTestConverter}) on a key column, a column with a default and columns the
     * masks shape.
     */
    private static Map<String, String> columnMasks() {
        Map<String, String> keys = new LinkedHashMap<>();
        keys.put("column.mask.with.5.chars", "public\\.pt_types\\.c_(text|int4),public\\.pt_toast\\.big");
        keys.put("column.mask.hash.SHA-256.with.salt.CzQMA0cB5K",
                "public\\.pt_types\\.c_varchar,public\\.pt_keychange\\.v,public\\.pt_uidx\\.code");
        keys.put("column.mask.hash.v2.MD5.with.salt.pepper.and.salt", "public\\.pt_types\\.(c_char|c_enum),public\\.pt_full\\.b");
        keys.put("column.truncate.to.3.chars", "public\\.pt_types\\.c_(json|bytea|uuid|int2|tstz6),public\\.pt_defaults\\.t");
        // A custom converter, on columns some of the keys above also shape: its values are masked and truncated.
        keys.put("converters", "parity");
        keys.put("parity.type", "io.github.pgoutput.parity.ParityTestConverter");
        keys.put("parity.columns", "public.pt_types.c_bool,public.pt_types.c_int4,public.pt_types.c_uuid,"
                + "public.pt_types.c_text,public.pt_keychange.id,public.pt_defaults.n");
        return keys;
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
