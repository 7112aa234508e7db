package io.github.pgoutput.converters;

/**
 * The Connect schema names (and versions) this module gives to values whose meaning a plain primitive does not
 * carry. They are Debezium's, so that consumers written for Debezium's PostgreSQL connector read our records
 * unchanged; every one of them has schema version {@link #VERSION} but {@link #GEOMETRY} ({@link #GEOMETRY_VERSION}).
 * {@code converters/TYPES.md} documents each.
 */
public final class SchemaNames {

    private static final String DATA = "io.debezium.data.";
    private static final String TIME = "io.debezium.time.";

    /** The schema version Debezium gives to each of its named schemas below but {@link #GEOMETRY}. */
    public static final int VERSION = 1;
    /** The version of {@link #GEOMETRY}: Debezium 3.7 added its {@code extensions} field and moved it from 1 to 2. */
    public static final int GEOMETRY_VERSION = 2;

    /** struct {scale: int32, value: bytes}: numeric without a declared scale, in precise mode. */
    public static final String VARIABLE_SCALE_DECIMAL = DATA + "VariableScaleDecimal";
    /** string: canonical lower-case UUID. */
    public static final String UUID = DATA + "Uuid";
    /** string: json or jsonb document as PostgreSQL prints it; hstore as a JSON object. */
    public static final String JSON = DATA + "Json";
    /** string: xml document. */
    public static final String XML = DATA + "Xml";
    /** string: enum label; parameter {@link #ENUM_ALLOWED_PARAMETER} lists the labels. */
    public static final String ENUM = DATA + "Enum";
    /** bytes: bit(n > 1) and bit varying, least significant byte first; parameter {@link #BITS_LENGTH_PARAMETER}. */
    public static final String BITS = DATA + "Bits";
    /** string: tsvector as PostgreSQL prints it. */
    public static final String TS_VECTOR = DATA + "Tsvector";
    /** string: ltree path. */
    public static final String LTREE = DATA + "Ltree";
    /** struct {x: float64, y: float64, wkb: optional bytes, srid: optional int32}: point. */
    public static final String POINT = DATA + "geometry.Point";
    /**
     * struct {wkb: bytes, srid: optional int32, extensions: optional map of string to string}: box, lseg, path and
     * polygon as well-known binary, {@code extensions} naming the type ({@code type}) and a path's {@code closed}.
     */
    public static final String GEOMETRY = DATA + "geometry.Geometry";
    /** struct {center: Point, radius: float64}: circle. */
    public static final String CIRCLE = DATA + "geometry.Circle";
    /** struct {a: float64, b: float64, c: float64}: line, the line {@code ax + by + c = 0}. */
    public static final String LINE = DATA + "geometry.Line";

    /** int32: days since 1970-01-01. */
    public static final String DATE = TIME + "Date";
    /** int32: milliseconds since midnight. */
    public static final String TIME_MILLIS = TIME + "Time";
    /** int64: microseconds since midnight. */
    public static final String MICRO_TIME = TIME + "MicroTime";
    /** int64: nanoseconds since midnight. */
    public static final String NANO_TIME = TIME + "NanoTime";
    /** int64: milliseconds since 1970-01-01 00:00:00 of the wall clock (no zone). */
    public static final String TIMESTAMP_MILLIS = TIME + "Timestamp";
    /** int64: microseconds since 1970-01-01 00:00:00 of the wall clock (no zone). */
    public static final String MICRO_TIMESTAMP = TIME + "MicroTimestamp";
    /** int64: nanoseconds since 1970-01-01 00:00:00 of the wall clock (no zone). */
    public static final String NANO_TIMESTAMP = TIME + "NanoTimestamp";
    /** string: date as ISO 8601 in UTC, {@code 2024-01-02Z} (time.precision.mode=isostring). */
    public static final String ISO_DATE = TIME + "IsoDate";
    /** string: time as ISO 8601 in UTC, {@code 03:04:05.5Z} (time.precision.mode=isostring). */
    public static final String ISO_TIME = TIME + "IsoTime";
    /** string: timestamp as ISO 8601 in UTC, {@code 2024-01-02T03:04:05.5Z} (time.precision.mode=isostring). */
    public static final String ISO_TIMESTAMP = TIME + "IsoTimestamp";
    /** string: timestamp with time zone as ISO 8601 in UTC, {@code 2024-01-02T03:04:05.123456Z}. */
    public static final String ZONED_TIMESTAMP = TIME + "ZonedTimestamp";
    /** string: time with time zone as ISO 8601 in UTC, {@code 03:04:05.5Z}. */
    public static final String ZONED_TIME = TIME + "ZonedTime";
    /** int64: interval as approximate microseconds (a month is 365.25 / 12 days). */
    public static final String MICRO_DURATION = TIME + "MicroDuration";
    /** string: interval as {@code PnYnMnDTnHnMnS}. */
    public static final String INTERVAL = TIME + "Interval";

    /** Schema parameter of {@link #ENUM}: the labels in sort order, joined by ','. */
    public static final String ENUM_ALLOWED_PARAMETER = "allowed";
    /** Schema parameter of {@link #BITS}: the column's declared length in bits. */
    public static final String BITS_LENGTH_PARAMETER = "length";
    /** Schema parameter of Decimal, read by Confluent's Avro converter for the Avro precision. */
    public static final String DECIMAL_PRECISION_PARAMETER = "connect.decimal.precision";

    private SchemaNames() {
    }
}
