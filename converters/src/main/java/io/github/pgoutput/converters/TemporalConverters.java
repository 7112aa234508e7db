package io.github.pgoutput.converters;

import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.function.LongFunction;
import java.util.function.Supplier;
import org.apache.kafka.connect.data.SchemaBuilder;

/**
 * The converters of date, time, timetz, timestamp and timestamptz, per {@link TemporalPrecisionMode}. The schemas
 * and values are those Debezium 3.7's PostgreSQL connector writes, including its values for 'infinity'.
 */
final class TemporalConverters {

    /**
     * Debezium 3.7's day numbers for 'infinity' and '-infinity' dates: those of the dates +5877611-06-21 and
     * -5877611-06-22 it stands for them with (3.6 had -5877611-06-21 for 'infinity', PostgreSQL's int32 marker moved
     * from 2000 to 1970 with 32-bit wrap-around, and kept -5877611-06-22 for '-infinity'). Odd, but what its consumers
     * see; no real date takes them (PostgreSQL's run from 4714 BC to 5874897 AD).
     */
    static final int DEBEZIUM_DATE_POSITIVE_INFINITY = Math.toIntExact(LocalDate.of(5_877_611, 6, 21).toEpochDay());
    static final int DEBEZIUM_DATE_NEGATIVE_INFINITY = Math.toIntExact(LocalDate.of(-5_877_611, 6, 22).toEpochDay());
    /**
     * pgjdbc's markers for 'infinity' and '-infinity' timestamps ({@code PGStatement.DATE_POSITIVE_INFINITY} and
     * {@code DATE_NEGATIVE_INFINITY}), milliseconds since 1970. Debezium 3.7 stands for infinite timestamps with these
     * instants (3.6 read the same numbers as microseconds), so each representation holds them as it holds any
     * instant: the milliseconds themselves, microseconds and nanoseconds saturated at int64's ends, the ISO text of
     * year 292278994 and 292275055 BC.
     */
    static final long PGJDBC_TIMESTAMP_POSITIVE_INFINITY_MILLIS = 9_223_372_036_825_200_000L;
    static final long PGJDBC_TIMESTAMP_NEGATIVE_INFINITY_MILLIS = -9_223_372_036_832_400_000L;
    static final String ISO_TIMESTAMP_POSITIVE_INFINITY = isoInstant(PGJDBC_TIMESTAMP_POSITIVE_INFINITY_MILLIS);
    static final String ISO_TIMESTAMP_NEGATIVE_INFINITY = isoInstant(PGJDBC_TIMESTAMP_NEGATIVE_INFINITY_MILLIS);

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
            value = micros -> new java.util.Date(millis(micros));
        } else if (mode == TemporalPrecisionMode.ISOSTRING) {
            schema = () -> named(SchemaBuilder.string(), SchemaNames.ISO_TIMESTAMP);
            value = TemporalConverters::isoTimestamp;
            toast = placeholder;
        } else if (mode == TemporalPrecisionMode.NANOSECONDS) {
            schema = () -> named(SchemaBuilder.int64(), SchemaNames.NANO_TIMESTAMP);
            value = TemporalConverters::nanos;
        } else if (adaptive && precision <= 3) {
            schema = () -> named(SchemaBuilder.int64(), SchemaNames.TIMESTAMP_MILLIS);
            value = TemporalConverters::millis;
        } else {
            schema = () -> named(SchemaBuilder.int64(), SchemaNames.MICRO_TIMESTAMP);
            value = TemporalConverters::micros;
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

    /** Milliseconds since 1970, rounded down; pgjdbc's markers for infinity. */
    private static long millis(long micros) {
        if (micros == Temporal.TIMESTAMP_POSITIVE_INFINITY) {
            return PGJDBC_TIMESTAMP_POSITIVE_INFINITY_MILLIS;
        }
        if (micros == Temporal.TIMESTAMP_NEGATIVE_INFINITY) {
            return PGJDBC_TIMESTAMP_NEGATIVE_INFINITY_MILLIS;
        }
        return Math.floorDiv(micros, MICROS_PER_MILLI);
    }

    /**
     * Microseconds since 1970; for infinity, pgjdbc's markers in microseconds as Debezium converts them, saturated:
     * INT64 MAX and MIN.
     */
    private static long micros(long micros) {
        if (micros == Temporal.TIMESTAMP_POSITIVE_INFINITY) {
            return Long.MAX_VALUE;
        }
        if (micros == Temporal.TIMESTAMP_NEGATIVE_INFINITY) {
            return Long.MIN_VALUE;
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
        return DateTimeFormatter.ISO_OFFSET_DATE.format(LocalDate.ofEpochDay(debeziumDay(day)).atStartOfDay()
                .atOffset(ZoneOffset.UTC));
    }

    /** The shortest ISO text in UTC, {@code 2024-01-02T03:04:05.5Z}; infinity as the text of pgjdbc's marker instants. */
    private static String isoTimestamp(long micros) {
        if (micros == Temporal.TIMESTAMP_POSITIVE_INFINITY) {
            return ISO_TIMESTAMP_POSITIVE_INFINITY;
        }
        if (micros == Temporal.TIMESTAMP_NEGATIVE_INFINITY) {
            return ISO_TIMESTAMP_NEGATIVE_INFINITY;
        }
        return IsoTimestampText.format(micros, 0);
    }

    /** An instant beyond int64 microseconds, as ISO text in UTC ({@code +292278994-08-16T23:00:00Z}). */
    private static String isoInstant(long millis) {
        return DateTimeFormatter.ISO_OFFSET_DATE_TIME.format(Instant.ofEpochMilli(millis).atOffset(ZoneOffset.UTC));
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
