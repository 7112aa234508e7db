package io.github.pgoutput.connect.config;

import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Width;
import org.apache.kafka.common.config.ConfigDef;

/**
 * The keys of the configuration group "Tables": which tables are captured. Each key is declared here once, with its
 * documentation, default, order and single-key validator; {@link PgOutputSourceConnectorConfig} reads it.
 */
public final class TableKeys {

    /** The group the keys are listed under in the documentation and in Connect's configuration forms. */
    static final String GROUP = "Tables";

    public static final String TABLE_INCLUDE_LIST_CONFIG = "table.include.list";
    private static final String TABLE_INCLUDE_LIST_DOC = "Comma-separated regular expressions matched against the "
            + "whole schema.table name, ignoring case as Debezium does; only matching tables are captured. Empty: every table the publication "
            + "sends. The expressions cannot contain commas. Do not combine with table.exclude.list. Validation "
            + "refuses a list that matches none of the existing tables (a typo, or a name without its schema); tables "
            + "created later that match are captured once the publication sends them, except with publication.autocreate.mode=filtered, "
            + "whose publication lists the tables that matched when it was created.";
    private static final String TABLE_INCLUDE_LIST_DISPLAY = "Tables to include";

    public static final String TABLE_EXCLUDE_LIST_CONFIG = "table.exclude.list";
    private static final String TABLE_EXCLUDE_LIST_DOC = "Comma-separated regular expressions matched against the "
            + "whole schema.table name, ignoring case; matching tables are not captured. The expressions cannot contain commas. Do "
            + "not combine with table.include.list.";
    private static final String TABLE_EXCLUDE_LIST_DISPLAY = "Tables to exclude";

    public static final String SCHEMA_INCLUDE_LIST_CONFIG = "schema.include.list";
    private static final String SCHEMA_INCLUDE_LIST_DOC = "Comma-separated regular expressions matched against the "
            + "whole schema name, ignoring case; only tables of matching schemas are captured. Empty: tables of every schema. Combines "
            + "with table.include.list or table.exclude.list: a table is captured when both its schema and its "
            + "schema.table name are selected. The expressions cannot contain commas. Do not combine with "
            + "schema.exclude.list. Validation refuses a list that matches the schema of none of the existing tables.";
    private static final String SCHEMA_INCLUDE_LIST_DISPLAY = "Schemas to include";

    public static final String SCHEMA_EXCLUDE_LIST_CONFIG = "schema.exclude.list";
    private static final String SCHEMA_EXCLUDE_LIST_DOC = "Comma-separated regular expressions matched against the "
            + "whole schema name, ignoring case; tables of matching schemas are not captured. The expressions cannot contain commas. "
            + "Do not combine with schema.include.list.";
    private static final String SCHEMA_EXCLUDE_LIST_DISPLAY = "Schemas to exclude";

    private TableKeys() {
    }

    /** Declares the keys of the group in {@code def}, in the order the documentation lists them. */
    static void define(ConfigDef def) {
        int order = 0;
        def.define(TABLE_INCLUDE_LIST_CONFIG, Type.LIST, "", ConfigValidators.regexList(),
                Importance.HIGH, TABLE_INCLUDE_LIST_DOC, GROUP, ++order, Width.LONG, TABLE_INCLUDE_LIST_DISPLAY);
        def.define(TABLE_EXCLUDE_LIST_CONFIG, Type.LIST, "", ConfigValidators.regexList(),
                Importance.MEDIUM, TABLE_EXCLUDE_LIST_DOC, GROUP, ++order, Width.LONG, TABLE_EXCLUDE_LIST_DISPLAY);
        def.define(SCHEMA_INCLUDE_LIST_CONFIG, Type.LIST, "", ConfigValidators.regexList(),
                Importance.MEDIUM, SCHEMA_INCLUDE_LIST_DOC, GROUP, ++order, Width.LONG, SCHEMA_INCLUDE_LIST_DISPLAY);
        def.define(SCHEMA_EXCLUDE_LIST_CONFIG, Type.LIST, "", ConfigValidators.regexList(),
                Importance.MEDIUM, SCHEMA_EXCLUDE_LIST_DOC, GROUP, ++order, Width.LONG, SCHEMA_EXCLUDE_LIST_DISPLAY);
    }
}
