package io.github.pgoutput.connect.config;

import static io.github.pgoutput.connect.config.ColumnKeys.COLUMN_EXCLUDE_LIST_CONFIG;
import static io.github.pgoutput.connect.config.ColumnKeys.COLUMN_INCLUDE_LIST_CONFIG;
import static io.github.pgoutput.connect.config.ColumnKeys.CONVERTERS_CONFIG;

import io.github.pgoutput.connect.shaping.ColumnShaping;
import io.github.pgoutput.connect.shaping.CustomConverters;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Debezium's keys that shape columns, beyond what single-key validators can check: the families of keys whose names
 * carry a parameter ({@code column.mask.with.N.chars}, {@code column.mask.hash.ALGORITHM.with.salt.SALT}, ...), the
 * keys of the custom converters {@code converters} names, and the rules between the column lists. Each problem is on
 * the key at fault.
 *
 * <p>Stateless.
 */
public final class ColumnShapingKeys {

    private ColumnShapingKeys() {
    }

    /** Whether {@code key} is one this connector reads for column shaping, though its ConfigDef cannot declare it. */
    static boolean reads(String key, Map<String, ?> props) {
        if (ColumnMapperKeys.isMapperKey(key)) {
            return true;
        }
        for (String name : CustomConverterKeys.names(props.get(CONVERTERS_CONFIG))) {
            if (key.startsWith(name + ".")) {
                return true;
            }
        }
        return false;
    }

    /**
     * The problems of the column keys in {@code given}: both column lists set, an include list that selects no column,
     * a malformed mapper key or value, a custom converter that cannot be loaded, instantiated or configured.
     */
    static List<ConfigProblem> problems(Map<String, ?> given) {
        List<ConfigProblem> problems = new ArrayList<>();
        Object include = given.get(COLUMN_INCLUDE_LIST_CONFIG);
        if (include != null && given.get(COLUMN_EXCLUDE_LIST_CONFIG) != null) {
            problems.add(new ConfigProblem(COLUMN_EXCLUDE_LIST_CONFIG, COLUMN_EXCLUDE_LIST_CONFIG + " and "
                    + COLUMN_INCLUDE_LIST_CONFIG + " are both set; set one of them (as in Debezium)"));
        } else if (include != null && include.toString().isBlank()) {
            // Debezium would then leave every column out of before and after; an empty list is taken as a mistake.
            problems.add(new ConfigProblem(COLUMN_INCLUDE_LIST_CONFIG, COLUMN_INCLUDE_LIST_CONFIG + " is empty, which selects"
                    + " no column: the records would carry no column values. Remove the key to capture every column, or"
                    + " list the columns to keep as schema.table.column expressions"));
        }
        // The declared keys (column.propagate.source.type, ...) are checked by their own validators.
        for (String key : given.keySet().stream().filter(ColumnMapperKeys::isMapperKey)
                .filter(k -> !PgOutputSourceConnectorConfig.CONFIG_DEF.configKeys().containsKey(k)).sorted().toList()) {
            try {
                ColumnMapperKeys.mappers(Map.of(key, String.valueOf(given.get(key))));
            } catch (ShapingKeyException e) {
                problems.add(new ConfigProblem(e.key(), e.getMessage()));
            }
        }
        for (String name : CustomConverterKeys.names(given.get(CONVERTERS_CONFIG))) {
            try {
                CustomConverterKeys.load(List.of(name), given, PgOutputSourceConnectorConfig.class.getClassLoader());
            } catch (ShapingKeyException e) {
                problems.add(new ConfigProblem(e.key(), e.getMessage()));
            }
        }
        return problems;
    }

    /** The shaping of a valid configuration: its column lists, its mappers and its custom converters, loaded now. */
    static ColumnShaping shaping(PgOutputSourceConnectorConfig config) {
        Map<String, Object> originals = config.originals();
        return new ColumnShaping(config.columnSelection(), ColumnMapperKeys.mappers(originals),
                CustomConverterKeys.load(CustomConverterKeys.names(config.getString(CONVERTERS_CONFIG)), originals,
                        PgOutputSourceConnectorConfig.class.getClassLoader()));
    }
}
