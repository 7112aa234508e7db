package io.github.pgoutput.converters;

import java.time.LocalTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.function.LongFunction;
import java.util.function.Supplier;
import org.apache.kafka.connect.data.SchemaBuilder;

/**
 * The converters of date, time, timetz, timestamp and timestamptz, per {@link TemporalPrecisionMode}. The schemas
 * and values are those Debezium's PostgreSQL connector writes, including its values for 'infinity'.
 */
final class TemporalConverters {

    /**
     * Debezium's day numbers for 'infinity' and '-infinity' dates: PostgreSQL's int32 markers (days since 2000)
     * moved to 1970 in 32-bit arithmetic, which wraps around. Odd, but what its consumers see.
     */
    static final int DEBEZIUM_DATE_POSITIVE_INFINITY = Integer.MAX_VALUE + Temporal.POSTGRES_EPOCH_DAYS;
    static final int DEBEZIUM_DATE_NEGATIVE_INFINITY = Integer.MIN_VALUE + Temporal.POSTGRES_EPOCH_DAYS;
    /** Debezium's microseconds for 'infinity' and '-infinity' timestamps (pgjdbc's markers, read as microseconds). */
    static final long DEBEZIUM_TIMESTAMP_POSITIVE_INFINITY_MICROS = 9_223_372_036_825_200_000L;
    static final long DEBEZIUM_TIMESTAMP_NEGATIVE_INFINITY_MICROS = -9_223_372_036_832_400_000L;

    private static final long MICROS_PER_MILLI = 1_000L;
    private static final int DEFAULT_PRECISION = 6;

    private final TemporalPrecisionMode mode;
    private final String placeholder;

    TemporalConverters(TemporalPrecisionMode mode, String placeholder) {
        this.mode = mode;
        this.placeholder = placeholder;
    }

    ColumnConverter date(PgColumnType type) {
        if (mode == TemporalPrecisionMode.CONNECT) {
            return new ScalarConverter(type, org.apache.kafka.connect.data.Date::builder,
                    text -> connectDate(Temporal.parseDate(text)),
                    in -> end(in, connectDate(Temporal.dateFromPostgresDays(in.int32()))), null);
        }
        if (mode == TemporalPrecisionMode.ISOSTRING) {
            return new ScalarConverter(type, () -> named(SchemaBuilder.string(), SchemaNames.ISO_DATE),
                    text -> isoDate(Temporal.parseDate(text)),
                    in -> end(in, isoDate(Temporal.dateFromPostgresDays(in.int32()))), placeholder);
        }
        return new ScalarConverter(type, () -> named(SchemaBuilder.int32(), SchemaNames.DATE),
                text -> debeziumDay(Temporal.parseDate(text)),
                in -> end(in, debeziumDay(Temporal.dateFromPostgresDays(in.int32()))), null);
    }

    ColumnConverter time(PgColumnType type) {
        int precision = precision(type);
        Supplier<SchemaBuilder> schema;
        LongFunction<Object> value;
        Object toast = null;
        if (mode == TemporalPrecisionMode.CONNECT) {
            schema = org.apache.kafka.connect.data.Time::builder;
            value = micros -> new java.util.Date(micros / MICROS_PER_MILLI);
        } else if (mode == TemporalPrecisionMode.ISOSTRING) {
            schema = () -> named(SchemaBuilder.string(), SchemaNames.ISO_TIME);
            // 24:00:00 wraps to 00:00:00Z, as in Debezium.
            value = micros -> zonedTime(micros % Temporal.MICROS_PER_DAY);
            toast = placeholder;
        } else if (mode == TemporalPrecisionMode.NANOSECONDS) {
            schema = () -> named(SchemaBuilder.int64(), SchemaNames.NANO_TIME);
            value = micros -> micros * 1_000L;
        } else if (mode == TemporalPrecisionMode.ADAPTIVE && precision <= 3) {
            schema = () -> named(SchemaBuilder.int32(), SchemaNames.TIME_MILLIS);
            value = micros -> (int) (micros / MICROS_PER_MILLI);
        } else {
            schema = () -> named(SchemaBuilder.int64(), SchemaNames.MICRO_TIME);
            value = micros -> micros;
        }
        return new ScalarConverter(type, schema, text -> value.apply(Temporal.parseTime(text)),
                in -> end(in, value.apply(in.int64())), toast);
    }

    /** timetz: an ISO time in UTC in every mode, {@code 10:15:30Z}, {@code 10:15:30.5Z}. */
    ColumnConverter timeTz(PgColumnType type) {
        return new ScalarConverter(type, () -> named(SchemaBuilder.string(), SchemaNames.ZONED_TIME),
                text -> zonedTime(Temporal.parseTimeTzAtUtc(text)),
                in -> end(in, zonedTime(Temporal.timeTzFromSendAtUtc(in.int64(), in.int32()))), placeholder);
    }

    ColumnConverter timestamp(PgColumnType type) {
        int precision = precision(type);
        Supplier<SchemaBuilder> schema;
        LongFunction<Object> value;
        boolean adaptive = mode == TemporalPrecisionMode.ADAPTIVE || mode == TemporalPrecisionMode.ADAPTIVE_TIME_MICROSECONDS;
        Object toast = null;
        if (mode == TemporalPrecisionMode.CONNECT) {
            schema = org.apache.kafka.connect.data.Timestamp::builder;
            value = micros -> new java.util.Date(Math.floorDiv(debeziumMicros(micros), MICROS_PER_MILLI));
        } else if (mode == TemporalPrecisionMode.ISOSTRING) {
            schema = () -> named(SchemaBuilder.string(), SchemaNames.ISO_TIMESTAMP);
            // Infinity as Debezium writes it: its marker instant, +294247-01-10T04:00:25.2Z and -290308-12-21T19:59:27.6Z.
            value = micros -> isoTimestamp(debeziumMicros(micros));
            toast = placeholder;
        } else if (mode == TemporalPrecisionMode.NANOSECONDS) {
            schema = () -> named(SchemaBuilder.int64(), SchemaNames.NANO_TIMESTAMP);
            value = TemporalConverters::nanos;
        } else if (adaptive && precision <= 3) {
            schema = () -> named(SchemaBuilder.int64(), SchemaNames.TIMESTAMP_MILLIS);
            value = micros -> Math.floorDiv(debeziumMicros(micros), MICROS_PER_MILLI);
        } else {
            schema = () -> named(SchemaBuilder.int64(), SchemaNames.MICRO_TIMESTAMP);
            value = TemporalConverters::debeziumMicros;
        }
        return new ScalarConverter(type, schema, text -> value.apply(Temporal.parseTimestamp(text)),
                in -> end(in, value.apply(Temporal.timestampFromPostgresMicros(in.int64()))), toast);
    }

    /**
     * timestamptz: an ISO timestamp in UTC in every mode, with as many fraction digits as the column declares
     * ({@code 2024-01-02T03:04:05.500Z} in a timestamptz(3), six without a declared precision), and none for
     * timestamptz(0), as Debezium writes it; 'infinity' as is.
     */
    ColumnConverter timestampTz(PgColumnType type) {
        int digits = precision(type);
        return new ScalarConverter(type, () -> named(SchemaBuilder.string(), SchemaNames.ZONED_TIMESTAMP),
                text -> zonedTimestamp(Temporal.parseTimestamp(text), digits),
                in -> end(in, zonedTimestamp(Temporal.timestampFromPostgresMicros(in.int64()), digits)), placeholder);
    }

    /** The declared fraction digits; a column without a modifier keeps 6, as PostgreSQL does. */
    private static int precision(PgColumnType type) {
        return type.typmod() < 0 ? DEFAULT_PRECISION : type.typmod();
    }

    private static int debeziumDay(int day) {
        if (day == Temporal.DATE_POSITIVE_INFINITY) {
            return DEBEZIUM_DATE_POSITIVE_INFINITY;
        }
        if (day == Temporal.DATE_NEGATIVE_INFINITY) {
            return DEBEZIUM_DATE_NEGATIVE_INFINITY;
        }
        return day;
    }

    private static java.util.Date connectDate(int day) {
        return new java.util.Date(debeziumDay(day) * 86_400_000L);
    }

    private static long debeziumMicros(long micros) {
        if (micros == Temporal.TIMESTAMP_POSITIVE_INFINITY) {
            return DEBEZIUM_TIMESTAMP_POSITIVE_INFINITY_MICROS;
        }
        if (micros == Temporal.TIMESTAMP_NEGATIVE_INFINITY) {
            return DEBEZIUM_TIMESTAMP_NEGATIVE_INFINITY_MICROS;
        }
        return micros;
    }

    /** Nanoseconds since 1970; Debezium writes INT64 MAX/MIN for infinity. int64 nanoseconds end in 2262. */
    private static long nanos(long micros) {
        if (micros == Temporal.TIMESTAMP_POSITIVE_INFINITY || micros == Temporal.TIMESTAMP_NEGATIVE_INFINITY) {
            return micros;
        }
        try {
            return Math.multiplyExact(micros, 1_000L);
        } catch (ArithmeticException overflow) {
            throw new ValueConversionException("timestamp " + micros + " microseconds after 1970 is outside 1677-09-21 to "
                    + "2262-04-11, the range of int64 nanoseconds (time.precision.mode=nanoseconds). Use "
                    + "time.precision.mode=adaptive or microseconds.");
        }
    }

    /** {@code digits} fraction digits, always written; 0 writes the shortest fraction (none for whole seconds). */
    static String zonedTimestamp(long micros, int digits) {
        if (micros == Temporal.TIMESTAMP_POSITIVE_INFINITY) {
            return "infinity";
        }
        if (micros == Temporal.TIMESTAMP_NEGATIVE_INFINITY) {
            return "-infinity";
        }
        if (digits == 0) {
            return isoTimestamp(micros);
        }
        return IsoTimestampText.format(micros, digits);
    }

    /** {@code 2024-01-02Z}; infinity as Debezium's marker days. */
    private static String isoDate(int day) {
        return DateTimeFormatter.ISO_OFFSET_DATE.format(java.time.LocalDate.ofEpochDay(debeziumDay(day)).atStartOfDay()
                .atOffset(ZoneOffset.UTC));
    }

    private static String isoTimestamp(long micros) {
        return IsoTimestampText.format(micros, 0);
    }

    static String zonedTime(long microsOfDayUtc) {
        return DateTimeFormatter.ISO_OFFSET_TIME.format(LocalTime.ofNanoOfDay(microsOfDayUtc * 1_000L).atOffset(ZoneOffset.UTC));
    }

    private static SchemaBuilder named(SchemaBuilder builder, String name) {
        return builder.name(name).version(SchemaNames.VERSION);
    }

    private static <T> T end(BinaryReader in, T value) {
        in.expectEnd();
        return value;
    }
}
