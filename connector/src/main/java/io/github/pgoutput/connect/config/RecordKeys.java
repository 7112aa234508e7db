package io.github.pgoutput.connect.config;

import io.github.pgoutput.connect.record.DirectEncoding;
import io.github.pgoutput.converters.BinaryHandlingMode;
import io.github.pgoutput.converters.DecimalHandlingMode;
import io.github.pgoutput.converters.HStoreHandlingMode;
import io.github.pgoutput.converters.IntervalHandlingMode;
import io.github.pgoutput.converters.TemporalPrecisionMode;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Width;
import org.apache.kafka.common.config.ConfigDef;

/**
 * The keys of the configuration group "Topics and records": topic names, keys, headers and value encodings of the
 * records. Each key is declared here once, with its documentation, default, order and single-key validator;
 * {@link PgOutputSourceConnectorConfig} reads it.
 */
public final class RecordKeys {

    /** The group the keys are listed under in the documentation and in Connect's configuration forms. */
    static final String GROUP = "Topics and records";

    public static final String TOPIC_PREFIX_CONFIG = "topic.prefix";
    private static final String TOPIC_PREFIX_DOC = "Prefix of every topic and schema name: changes of schema.table go "
            + "to <topic.prefix>.<schema>.<table>, transaction metadata to <topic.prefix>.transaction. Letters, "
            + "digits, '.', '_' and '-' only. Part of the record schemas' names, so do not change it later.";
    private static final String TOPIC_PREFIX_DISPLAY = "Topic prefix";

    public static final String TOMBSTONES_ON_DELETE_CONFIG = "tombstones.on.delete";
    private static final String TOMBSTONES_ON_DELETE_DOC = "Whether a delete event is followed by a tombstone (same "
            + "key, null value) so that log compaction can drop the row's records.";
    private static final boolean TOMBSTONES_ON_DELETE_DEFAULT = true;
    private static final String TOMBSTONES_ON_DELETE_DISPLAY = "Tombstones on delete";

    public static final String SKIPPED_OPERATIONS_CONFIG = "skipped.operations";
    private static final String SKIPPED_OPERATIONS_DOC = "Streamed operations that give no records, comma-separated: c "
            + "(inserts), u (updates), d (deletes, with their tombstones), t (truncates), or none. A key-changing update "
            + "gives a delete and a create, which d and c skip. Skipped changes still move the offset and the slot. r is "
            + "accepted, as by Debezium, and skips nothing (snapshot rows are always written). As Debezium, truncates are "
            + "skipped by default.";
    private static final String SKIPPED_OPERATIONS_DEFAULT = "t";
    /** The {@code skipped.operations} value that skips nothing; it stands alone. */
    static final String SKIPPED_OPERATIONS_NONE = "none";
    private static final String SKIPPED_OPERATIONS_DISPLAY = "Skipped operations";

    public static final String EXTENDED_HEADERS_ENABLED_CONFIG = "extended.headers.enabled";
    private static final String EXTENDED_HEADERS_ENABLED_DOC = "Whether data change and snapshot records carry "
            + "Debezium's context headers __debezium.context.connectorLogicalName (topic.prefix), .connectorName "
            + "(postgresql), .taskId and .runId (new each time the task starts).";
    private static final boolean EXTENDED_HEADERS_ENABLED_DEFAULT = true;
    private static final String EXTENDED_HEADERS_ENABLED_DISPLAY = "Debezium context headers";

    public static final String MESSAGE_KEY_COLUMNS_CONFIG = "message.key.columns";
    private static final String MESSAGE_KEY_COLUMNS_DOC = "The columns that form the record key of some tables, as "
            + "<regex>:<column>[,<column>...] entries separated by ';', for example "
            + "inventory.customers:pk1,pk2;(.*).purchaseorders:pk3. Each regex is matched against the whole "
            + "schema.table name; the first matching entry gives the key's columns, in its order, as optional key "
            + "fields (a NULL value stays NULL in the key). A table without an entry is keyed by its primary key, "
            + "else by its REPLICA IDENTITY USING INDEX index, else its records have a null key; REPLICA IDENTITY "
            + "FULL widens only 'before'. An entry naming a column the table does not publish is logged as a WARN "
            + "and the table keyed as without it.";
    private static final String MESSAGE_KEY_COLUMNS_DEFAULT = "";
    private static final String MESSAGE_KEY_COLUMNS_DISPLAY = "Message key columns";

    public static final String UNAVAILABLE_VALUE_PLACEHOLDER_CONFIG = "unavailable.value.placeholder";
    private static final String UNAVAILABLE_VALUE_PLACEHOLDER_DOC = "Value written for a column PostgreSQL did not "
            + "send because it is an unchanged TOASTed value (strings as this text, bytes as its UTF-8 bytes). As in "
            + "Debezium, hex:<hex digits> gives the placeholder as the bytes the digits spell (which must be UTF-8 text here).";
    private static final String UNAVAILABLE_VALUE_PLACEHOLDER_DEFAULT = "__debezium_unavailable_value";
    private static final String UNAVAILABLE_VALUE_PLACEHOLDER_DISPLAY = "Placeholder for unavailable values";

    public static final String DECIMAL_HANDLING_MODE_CONFIG = "decimal.handling.mode";
    private static final String DECIMAL_HANDLING_MODE_DOC = "How numeric/decimal and money columns are represented: "
            + "precise (Connect Decimal, exact; NaN and Infinity fail the task), double (may lose precision), string "
            + "(exact text; NaN and Infinity as NAN, POSITIVE_INFINITY, NEGATIVE_INFINITY).";
    private static final String DECIMAL_HANDLING_MODE_DEFAULT =
            ConfigChoices.DECIMAL_HANDLING_MODE.text(DecimalHandlingMode.PRECISE);
    private static final String DECIMAL_HANDLING_MODE_DISPLAY = "Decimal handling";

    public static final String TIME_PRECISION_MODE_CONFIG = "time.precision.mode";
    private static final String TIME_PRECISION_MODE_DOC = "How date, time and timestamp columns are represented: "
            + "adaptive (by declared precision: Time/Timestamp in ms for 0-3 digits, MicroTime/MicroTimestamp in "
            + "microseconds otherwise), adaptive_time_microseconds (time always MicroTime), microseconds (full "
            + "microseconds whatever the precision), nanoseconds, isostring (ISO 8601 strings in UTC), connect (Kafka "
            + "Connect's Date/Time/Timestamp, ms). "
            + "timestamptz and timetz are ISO strings in UTC in every mode.";
    private static final String TIME_PRECISION_MODE_DEFAULT =
            ConfigChoices.TIME_PRECISION_MODE.text(TemporalPrecisionMode.ADAPTIVE);
    private static final String TIME_PRECISION_MODE_DISPLAY = "Time precision";

    public static final String INTERVAL_HANDLING_MODE_CONFIG = "interval.handling.mode";
    private static final String INTERVAL_HANDLING_MODE_DOC = "How interval columns are represented: numeric (int64 "
            + "microseconds, io.debezium.time.MicroDuration, a month counted as 30.4375 days) or string (ISO 8601 "
            + "PnYnMnDTnHnMnS, io.debezium.time.Interval, exact).";
    private static final String INTERVAL_HANDLING_MODE_DEFAULT =
            ConfigChoices.INTERVAL_HANDLING_MODE.text(IntervalHandlingMode.NUMERIC);
    private static final String INTERVAL_HANDLING_MODE_DISPLAY = "Interval handling";

    public static final String HSTORE_HANDLING_MODE_CONFIG = "hstore.handling.mode";
    private static final String HSTORE_HANDLING_MODE_DOC = "How hstore columns are represented: json (a JSON object "
            + "string, io.debezium.data.Json) or map (a Connect map of string to optional string).";
    private static final String HSTORE_HANDLING_MODE_DEFAULT =
            ConfigChoices.HSTORE_HANDLING_MODE.text(HStoreHandlingMode.JSON);
    private static final String HSTORE_HANDLING_MODE_DISPLAY = "hstore handling";

    public static final String BINARY_HANDLING_MODE_CONFIG = "binary.handling.mode";
    private static final String BINARY_HANDLING_MODE_DOC = "How bytea columns are represented: bytes, base64, "
            + "base64-url-safe or hex (the last three as strings).";
    private static final String BINARY_HANDLING_MODE_DEFAULT =
            ConfigChoices.BINARY_HANDLING_MODE.text(BinaryHandlingMode.BYTES);
    private static final String BINARY_HANDLING_MODE_DISPLAY = "Binary handling";

    public static final String DIRECT_ENCODING_CONFIG = "direct.encoding";
    private static final String DIRECT_ENCODING_DOC = "none: records carry Structs and the worker's converters encode "
            + "them. json or json_with_schemas: the connector writes each record's key and value as the exact bytes "
            + "Kafka's JsonConverter writes with schemas.enable=false or true (its defaults otherwise: "
            + "decimal.format=BASE64, replace.null.with.default=true), which skips the converter's per-record work. "
            + "Needs key.converter and value.converter set to " + CrossKeyRules.BYTE_ARRAY_CONVERTER
            + " in this connector's config. SMTs and predicates then see the bytes, not Structs; headers are still "
            + "written by the header converter.";
    private static final String DIRECT_ENCODING_DEFAULT = ConfigChoices.DIRECT_ENCODING.text(DirectEncoding.NONE);
    private static final String DIRECT_ENCODING_DISPLAY = "Direct encoding";

    public static final String MONEY_FRACTION_DIGITS_CONFIG = "money.fraction.digits";
    private static final String MONEY_FRACTION_DIGITS_DOC = "Digits after the decimal point of money values: the "
            + "frac_digits of the database's lc_monetary (2 for most locales, 0 for yen). Must match the database, "
            + "since the text form is read as minor units.";
    private static final int MONEY_FRACTION_DIGITS_DEFAULT = 2;
    private static final String MONEY_FRACTION_DIGITS_DISPLAY = "Money fraction digits";

    public static final String PROVIDE_TRANSACTION_METADATA_CONFIG = "provide.transaction.metadata";
    private static final String PROVIDE_TRANSACTION_METADATA_DOC = "Whether transaction boundary events (BEGIN/END, "
            + "and the two-phase stages) are written to <topic.prefix>.transaction and change records carry the "
            + "transaction block (id, total_order, data_collection_order). Off by default, as in Debezium; "
            + "prepared.transaction.mode=stage needs it on.";
    private static final boolean PROVIDE_TRANSACTION_METADATA_DEFAULT = false;
    private static final String PROVIDE_TRANSACTION_METADATA_DISPLAY = "Transaction metadata";

    public static final String HEARTBEAT_INTERVAL_MS_CONFIG = "heartbeat.interval.ms";
    private static final String HEARTBEAT_INTERVAL_MS_DOC = "Milliseconds between heartbeat records to "
            + "<topic.heartbeat.prefix>.<topic.prefix>; they let the stored offset, and with it the slot, advance "
            + "while the captured tables are quiet but the database is not. 0 turns heartbeats off.";
    private static final int HEARTBEAT_INTERVAL_MS_DEFAULT = 0;
    private static final String HEARTBEAT_INTERVAL_MS_DISPLAY = "Heartbeat interval (ms)";

    public static final String TOPIC_HEARTBEAT_PREFIX_CONFIG = "topic.heartbeat.prefix";
    private static final String TOPIC_HEARTBEAT_PREFIX_DOC = "Prefix of the heartbeat topic, which is "
            + "<topic.heartbeat.prefix>.<topic.prefix>.";
    private static final String TOPIC_HEARTBEAT_PREFIX_DEFAULT = "__debezium-heartbeat";
    private static final String TOPIC_HEARTBEAT_PREFIX_DISPLAY = "Heartbeat topic prefix";

    public static final String TOPIC_HEARTBEAT_NAME_CONFIG = "topic.heartbeat.name";
    private static final String TOPIC_HEARTBEAT_NAME_DOC = "The whole name of the heartbeat topic, as in Debezium 3.x; "
            + "empty: <topic.heartbeat.prefix>.<topic.prefix>.";
    private static final String TOPIC_HEARTBEAT_NAME_DISPLAY = "Heartbeat topic";

    private RecordKeys() {
    }

    /** Declares the keys of the group in {@code def}, in the order the documentation lists them. */
    static void define(ConfigDef def) {
        int order = 0;
        def.define(TOPIC_PREFIX_CONFIG, Type.STRING, ConfigDef.NO_DEFAULT_VALUE, ConfigValidators.topicCharacters(),
                Importance.HIGH, TOPIC_PREFIX_DOC, GROUP, ++order, Width.MEDIUM, TOPIC_PREFIX_DISPLAY);
        def.define(TOMBSTONES_ON_DELETE_CONFIG, Type.BOOLEAN, TOMBSTONES_ON_DELETE_DEFAULT,
                Importance.MEDIUM, TOMBSTONES_ON_DELETE_DOC, GROUP, ++order, Width.SHORT,
                TOMBSTONES_ON_DELETE_DISPLAY);
        def.define(SKIPPED_OPERATIONS_CONFIG, Type.LIST, SKIPPED_OPERATIONS_DEFAULT, ConfigValidators.skippedOperations(),
                Importance.LOW, SKIPPED_OPERATIONS_DOC, GROUP, ++order, Width.SHORT, SKIPPED_OPERATIONS_DISPLAY);
        def.define(EXTENDED_HEADERS_ENABLED_CONFIG, Type.BOOLEAN, EXTENDED_HEADERS_ENABLED_DEFAULT, Importance.LOW,
                EXTENDED_HEADERS_ENABLED_DOC, GROUP, ++order, Width.SHORT, EXTENDED_HEADERS_ENABLED_DISPLAY);
        def.define(MESSAGE_KEY_COLUMNS_CONFIG, Type.STRING, MESSAGE_KEY_COLUMNS_DEFAULT,
                ConfigValidators.messageKeyColumns(), Importance.MEDIUM, MESSAGE_KEY_COLUMNS_DOC, GROUP, ++order,
                Width.LONG, MESSAGE_KEY_COLUMNS_DISPLAY);
        def.define(UNAVAILABLE_VALUE_PLACEHOLDER_CONFIG, Type.STRING, UNAVAILABLE_VALUE_PLACEHOLDER_DEFAULT,
                ConfigValidators.unavailableValuePlaceholder(), Importance.LOW, UNAVAILABLE_VALUE_PLACEHOLDER_DOC, GROUP,
                ++order, Width.MEDIUM, UNAVAILABLE_VALUE_PLACEHOLDER_DISPLAY);
        def.define(DECIMAL_HANDLING_MODE_CONFIG, Type.STRING, DECIMAL_HANDLING_MODE_DEFAULT,
                ConfigChoices.DECIMAL_HANDLING_MODE.validator(), Importance.MEDIUM, DECIMAL_HANDLING_MODE_DOC,
                GROUP, ++order, Width.SHORT, DECIMAL_HANDLING_MODE_DISPLAY);
        def.define(TIME_PRECISION_MODE_CONFIG, Type.STRING, TIME_PRECISION_MODE_DEFAULT,
                ConfigChoices.TIME_PRECISION_MODE.validator(), Importance.MEDIUM, TIME_PRECISION_MODE_DOC,
                GROUP, ++order, Width.SHORT, TIME_PRECISION_MODE_DISPLAY);
        def.define(INTERVAL_HANDLING_MODE_CONFIG, Type.STRING, INTERVAL_HANDLING_MODE_DEFAULT,
                ConfigChoices.INTERVAL_HANDLING_MODE.validator(), Importance.LOW, INTERVAL_HANDLING_MODE_DOC,
                GROUP, ++order, Width.SHORT, INTERVAL_HANDLING_MODE_DISPLAY);
        def.define(HSTORE_HANDLING_MODE_CONFIG, Type.STRING, HSTORE_HANDLING_MODE_DEFAULT,
                ConfigChoices.HSTORE_HANDLING_MODE.validator(), Importance.LOW, HSTORE_HANDLING_MODE_DOC,
                GROUP, ++order, Width.SHORT, HSTORE_HANDLING_MODE_DISPLAY);
        def.define(BINARY_HANDLING_MODE_CONFIG, Type.STRING, BINARY_HANDLING_MODE_DEFAULT,
                ConfigChoices.BINARY_HANDLING_MODE.validator(), Importance.LOW, BINARY_HANDLING_MODE_DOC,
                GROUP, ++order, Width.SHORT, BINARY_HANDLING_MODE_DISPLAY);
        def.define(DIRECT_ENCODING_CONFIG, Type.STRING, DIRECT_ENCODING_DEFAULT,
                ConfigChoices.DIRECT_ENCODING.validator(), Importance.LOW, DIRECT_ENCODING_DOC,
                GROUP, ++order, Width.SHORT, DIRECT_ENCODING_DISPLAY);
        def.define(MONEY_FRACTION_DIGITS_CONFIG, Type.INT, MONEY_FRACTION_DIGITS_DEFAULT, ConfigDef.Range.between(0, 10),
                Importance.LOW, MONEY_FRACTION_DIGITS_DOC, GROUP, ++order, Width.SHORT,
                MONEY_FRACTION_DIGITS_DISPLAY);
        def.define(PROVIDE_TRANSACTION_METADATA_CONFIG, Type.BOOLEAN, PROVIDE_TRANSACTION_METADATA_DEFAULT,
                Importance.MEDIUM, PROVIDE_TRANSACTION_METADATA_DOC, GROUP, ++order, Width.SHORT,
                PROVIDE_TRANSACTION_METADATA_DISPLAY);
        def.define(HEARTBEAT_INTERVAL_MS_CONFIG, Type.INT, HEARTBEAT_INTERVAL_MS_DEFAULT, ConfigDef.Range.atLeast(0),
                Importance.MEDIUM, HEARTBEAT_INTERVAL_MS_DOC, GROUP, ++order, Width.SHORT,
                HEARTBEAT_INTERVAL_MS_DISPLAY);
        def.define(TOPIC_HEARTBEAT_PREFIX_CONFIG, Type.STRING, TOPIC_HEARTBEAT_PREFIX_DEFAULT,
                ConfigValidators.topicCharacters(),
                Importance.LOW, TOPIC_HEARTBEAT_PREFIX_DOC, GROUP, ++order, Width.MEDIUM,
                TOPIC_HEARTBEAT_PREFIX_DISPLAY);
        def.define(TOPIC_HEARTBEAT_NAME_CONFIG, Type.STRING, "", ConfigValidators.optionalTopicName(), Importance.LOW,
                TOPIC_HEARTBEAT_NAME_DOC, GROUP, ++order, Width.MEDIUM, TOPIC_HEARTBEAT_NAME_DISPLAY);
    }
}
