package io.github.pgoutput.converters;

/**
 * The Connect schema names this module gives to values whose meaning a plain primitive does not carry.
 * They are persisted in Schema Registry and read by consumers: chosen once, never changed. All are valid
 * Avro full names. {@code converters/TYPES.md} documents each.
 */
public final class SchemaNames {

    private static final String DATA = "io.github.pgoutput.data.";
    private static final String TIME = "io.github.pgoutput.time.";

    /** struct {scale: int32, value: bytes}: numeric without a declared scale, in precise mode. */
    public static final String VARIABLE_SCALE_DECIMAL = DATA + "VariableScaleDecimal";
    /** string: canonical lower-case UUID. */
    public static final String UUID = DATA + "Uuid";
    /** string: json or jsonb document as PostgreSQL prints it. */
    public static final String JSON = DATA + "Json";
    /** string: xml document. */
    public static final String XML = DATA + "Xml";
    /** string: enum label; parameter {@link #ENUM_ALLOWED_PARAMETER} lists the labels when known. */
    public static final String ENUM = DATA + "Enum";
    /** string of '0' and '1': bit and bit varying. */
    public static final String BIT_STRING = DATA + "BitString";
    /** int64: microseconds since 1970-01-01 00:00:00 of a timestamp without time zone (wall clock, no zone). */
    public static final String MICRO_TIMESTAMP = TIME + "MicroTimestamp";
    /** int64: microseconds since 1970-01-01 00:00:00 UTC of a timestamp with time zone. */
    public static final String MICRO_TIMESTAMP_TZ = TIME + "MicroTimestampTz";
    /** int64: microseconds since midnight, 0 to 86400000000 (24:00:00 included). */
    public static final String MICRO_TIME = TIME + "MicroTime";
    /** string: {@code HH:MM:SS[.ffffff]±hh:mm[:ss]}, time of day with the offset as stored. */
    public static final String TIME_TZ = TIME + "TimeTz";
    /** string: ISO 8601 duration exactly as PostgreSQL's {@code IntervalStyle = iso_8601} prints it. */
    public static final String INTERVAL = TIME + "Interval";

    /** Schema parameter of {@link #ENUM}: the labels in sort order, joined by ','. */
    public static final String ENUM_ALLOWED_PARAMETER = "allowed";
    /** Schema parameter of Decimal, read by Confluent's Avro converter for the Avro precision. */
    public static final String DECIMAL_PRECISION_PARAMETER = "connect.decimal.precision";

    private SchemaNames() {
    }
}
