package io.github.pgoutput.connect.config;

import java.util.List;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Width;
import org.apache.kafka.common.config.ConfigDef;

/**
 * The keys of the configuration group "Columns": Debezium's keys that shape the columns of the records. Each key is
 * declared here once, with its documentation, default, order and single-key validator;
 * {@link PgOutputSourceConnectorConfig} reads it.
 */
public final class ColumnKeys {

    /** The group the keys are listed under in the documentation and in Connect's configuration forms. */
    static final String GROUP = "Columns";

    public static final String COLUMN_INCLUDE_LIST_CONFIG = "column.include.list";
    private static final String COLUMN_INCLUDE_LIST_DOC = "Debezium's key: comma-separated regular expressions, matched "
            + "case-insensitively against the whole schema.table.column name (escape a comma inside an expression as "
            + "\\,); only matching columns appear in before and after. Key columns stay in the key. On PostgreSQL 15 and "
            + "later, a publication the connector creates (publication.autocreate.mode=filtered) gets a column list, so "
            + "that the other columns never leave the server, for each table whose replica identity and key columns are "
            + "among those kept or added to it; other tables are filtered in the connector. Unset: every column. Do not "
            + "combine with column.exclude.list.";
    private static final String COLUMN_INCLUDE_LIST_DISPLAY = "Columns to include";

    public static final String COLUMN_EXCLUDE_LIST_CONFIG = "column.exclude.list";
    private static final String COLUMN_EXCLUDE_LIST_DOC = "Debezium's key: comma-separated regular expressions, matched "
            + "as column.include.list; matching columns are left out of before and after (key columns stay in the key), "
            + "with a publication column list as for column.include.list. Unset or empty: no column is left out.";
    private static final String COLUMN_EXCLUDE_LIST_DISPLAY = "Columns to exclude";

    /** {@code column.mask.with.N.chars}: the start and end of the keys; the value lists the columns. */
    public static final String COLUMN_MASK_WITH_PREFIX = "column.mask.with.";
    public static final String COLUMN_CHARS_SUFFIX = ".chars";
    static final String COLUMN_MASK_WITH_DOC = "Debezium's keys (N a positive whole number): the value lists regular "
            + "expressions matched as column.include.list's; each value of a matching character column (char, varchar, "
            + "text, name, an enum, a domain over one) becomes N asterisks, NULL included, and the field schema gets the "
            + "parameter masked=true (on matching columns of other types too, whose values stay). The key keeps the real "
            + "values.";

    /** {@code column.truncate.to.N.chars}. */
    public static final String COLUMN_TRUNCATE_TO_PREFIX = "column.truncate.to.";
    static final String COLUMN_TRUNCATE_TO_DOC = "Debezium's keys (N a positive whole number): string values of matching "
            + "columns longer than N characters (UTF-16 units), and bytes longer than N bytes, are cut to N; the field "
            + "schema of a column whose declared length exceeds N (or is unbounded) gets the parameter truncateLength=N. "
            + "The key keeps the real values.";

    /** {@code column.mask.hash.ALGORITHM.with.salt.SALT} and {@code column.mask.hash.v2.ALGORITHM.with.salt.SALT}. */
    public static final String COLUMN_MASK_HASH_PREFIX = "column.mask.hash.";
    public static final String COLUMN_MASK_HASH_V2_PREFIX = "column.mask.hash.v2.";
    public static final String COLUMN_MASK_HASH_SALT_INFIX = ".with.salt.";
    static final String COLUMN_MASK_HASH_DOC = "Debezium's keys (ALGORITHM a Java MessageDigest algorithm such as "
            + "SHA-256, SALT any text): each value of a matching character column becomes the lower-case hex digest of "
            + "the salt and the value, cut to the column's declared length, and the field gets masked=true, byte for byte "
            + "as Debezium writes it: the plain form hashes the value's Java serialization, the v2 form its text. NULL "
            + "stays NULL; the key keeps the real values.";

    public static final String COLUMN_PROPAGATE_SOURCE_TYPE_CONFIG = "column.propagate.source.type";
    private static final String COLUMN_PROPAGATE_SOURCE_TYPE_DOC = "Debezium's key: regular expressions matched as "
            + "column.include.list's; the field schemas of matching columns get the parameters "
            + "__debezium.source.column.type (the type name pgjdbc reports, upper case: INT4, VARCHAR, BIGSERIAL, _INT4 for "
            + "an array), __debezium.source.column.length, __debezium.source.column.scale (pgjdbc's precision and scale of "
            + "the type and modifier) and __debezium.source.column.name. A column a mask, hash or truncation key also "
            + "matches gets that key's parameter instead, as in Debezium (one mapper per column).";
    private static final String COLUMN_PROPAGATE_SOURCE_TYPE_DISPLAY = "Columns with source type parameters";

    public static final String DATATYPE_PROPAGATE_SOURCE_TYPE_CONFIG = "datatype.propagate.source.type";
    private static final String DATATYPE_PROPAGATE_SOURCE_TYPE_DOC = "Debezium's key: regular expressions matched "
            + "case-insensitively against schema.table.typename (for example .+\\.numeric,.+\\.varchar); matching columns "
            + "get the parameters of column.propagate.source.type.";
    private static final String DATATYPE_PROPAGATE_SOURCE_TYPE_DISPLAY = "Types with source type parameters";

    public static final String CONVERTERS_CONFIG = "converters";
    /** {@code <name>.type}: the class of the custom converter {@code converters} names {@code name}. */
    public static final String CONVERTER_TYPE_SUFFIX = ".type";
    private static final String CONVERTERS_DOC = "Debezium's custom converters: comma-separated names; for each name, "
            + "<name>.type is a class implementing io.debezium.spi.converter.CustomConverter (Debezium's SPI, from "
            + "debezium-api, which this connector ships), loaded from the connector's plugin folder (put the converter's "
            + "jar there), and the <name>.* keys, without the prefix, are passed to its configure(). The first converter "
            + "that registers for a column replaces its schema and values, in the key and the value; it is handed the "
            + "Java values Debezium's pgoutput decoder hands (README, Column keys).";
    private static final String CONVERTERS_DISPLAY = "Custom converters";

    /**
     * Families of keys whose names carry a parameter, which a ConfigDef cannot declare: documented with the group's
     * keys, validated by {@link ColumnShapingKeys}.
     *
     * @param pattern the key's form, with the parameters in capitals
     * @param group   the group it is documented in
     * @param doc     what it does
     */
    public record KeyFamily(String pattern, String group, String doc) {
    }

    public static final List<KeyFamily> KEY_FAMILIES = List.of(
            new KeyFamily(COLUMN_MASK_WITH_PREFIX + "N" + COLUMN_CHARS_SUFFIX, GROUP, COLUMN_MASK_WITH_DOC),
            new KeyFamily(COLUMN_MASK_HASH_PREFIX + "ALGORITHM" + COLUMN_MASK_HASH_SALT_INFIX + "SALT", GROUP,
                    COLUMN_MASK_HASH_DOC),
            new KeyFamily(COLUMN_MASK_HASH_V2_PREFIX + "ALGORITHM" + COLUMN_MASK_HASH_SALT_INFIX + "SALT", GROUP,
                    COLUMN_MASK_HASH_DOC),
            new KeyFamily(COLUMN_TRUNCATE_TO_PREFIX + "N" + COLUMN_CHARS_SUFFIX, GROUP, COLUMN_TRUNCATE_TO_DOC),
            new KeyFamily("NAME" + CONVERTER_TYPE_SUFFIX, GROUP, "The class of the custom converter converters"
                    + " names NAME; NAME.* are its other settings."));

    private ColumnKeys() {
    }

    /** Declares the keys of the group in {@code def}, in the order the documentation lists them. */
    static void define(ConfigDef def) {
        int order = 0;
        // Strings, not LISTs: Debezium's lists escape commas inside expressions, which Kafka's LIST would split at.
        def.define(COLUMN_INCLUDE_LIST_CONFIG, Type.STRING, null, ConfigValidators.debeziumRegexList(),
                Importance.MEDIUM, COLUMN_INCLUDE_LIST_DOC, GROUP, ++order, Width.LONG, COLUMN_INCLUDE_LIST_DISPLAY);
        def.define(COLUMN_EXCLUDE_LIST_CONFIG, Type.STRING, null, ConfigValidators.debeziumRegexList(),
                Importance.MEDIUM, COLUMN_EXCLUDE_LIST_DOC, GROUP, ++order, Width.LONG, COLUMN_EXCLUDE_LIST_DISPLAY);
        def.define(COLUMN_PROPAGATE_SOURCE_TYPE_CONFIG, Type.STRING, null, ConfigValidators.debeziumRegexList(),
                Importance.LOW, COLUMN_PROPAGATE_SOURCE_TYPE_DOC, GROUP, ++order, Width.LONG,
                COLUMN_PROPAGATE_SOURCE_TYPE_DISPLAY);
        def.define(DATATYPE_PROPAGATE_SOURCE_TYPE_CONFIG, Type.STRING, null, ConfigValidators.debeziumRegexList(),
                Importance.LOW, DATATYPE_PROPAGATE_SOURCE_TYPE_DOC, GROUP, ++order, Width.LONG,
                DATATYPE_PROPAGATE_SOURCE_TYPE_DISPLAY);
        def.define(CONVERTERS_CONFIG, Type.STRING, null, null, Importance.LOW, CONVERTERS_DOC, GROUP, ++order,
                Width.MEDIUM, CONVERTERS_DISPLAY);
    }
}
