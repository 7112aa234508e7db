package io.github.pgoutput.converters;

import static io.github.pgoutput.converters.Expected.date;
import static io.github.pgoutput.converters.Expected.day;
import static io.github.pgoutput.converters.Expected.micros;
import static io.github.pgoutput.converters.TypeCase.failing;
import static io.github.pgoutput.converters.TypeCase.nullOf;
import static io.github.pgoutput.converters.TypeCase.of;

import io.github.pgoutput.testing.PostgresDatabase;
import io.github.pgoutput.testing.PostgresTest;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import org.junit.jupiter.api.Timeout;

/**
 * Dates, times, timestamps and intervals as a live server prints and sends them, converted as Debezium 3.7.1 writes
 * them by default (time.precision.mode=adaptive, interval.handling.mode=numeric) and in each other mode.
 */
@Timeout(120)
class TemporalTypesLiveTest {

    private static final PostgresTypeMapper MAPPER = new PostgresTypeMapper(ConverterOptions.DEFAULTS);
    /**
     * Debezium 3.7's instants for infinite timestamps: pgjdbc's markers, milliseconds since 1970 (as microseconds they
     * saturate at the ends of int64). InfinityMarkersTest has every mode.
     */
    private static final long INFINITY_MILLIS = 9_223_372_036_825_200_000L;
    private static final long MINUS_INFINITY_MILLIS = -9_223_372_036_832_400_000L;

    private static PostgresTypeMapper mapper(TemporalPrecisionMode mode) {
        return new PostgresTypeMapper(ConverterOptions.DEFAULTS.withTemporalPrecisionMode(mode));
    }

    @PostgresTest
    void datesAreDaysSince1970CoveringBcYearsLeapDaysTheWholeRangeAndDebeziumsInfinity(PostgresDatabase database) throws Exception {
        List<TypeCase> cases = List.of(
                nullOf("date"), of("date", "'1970-01-01'", 0), of("date", "'2024-02-29'", day(2024, 2, 29)),
                of("date", "'0001-01-01'", day(1, 1, 1)), of("date", "'0001-12-31 BC'", day(0, 12, 31)),
                // 1 BC and 5 BC are leap years (ISO years 0 and -4); 4 BC is not.
                of("date", "'0001-02-29 BC'", day(0, 2, 29)), of("date", "'0005-02-29 BC'", day(-4, 2, 29)),
                of("date", "'4714-11-24 BC'", day(-4713, 11, 24)), of("date", "'5874897-12-31'", day(5874897, 12, 31)),
                of("date", "'294276-12-31'", day(294276, 12, 31)),
                // The days of +5877611-06-21 and -5877611-06-22, Debezium 3.7's dates for them.
                of("date", "'infinity'", 2_146_033_979), of("date", "'-infinity'", -2_147_472_691));
        ConversionChecks.assertConversions(MAPPER, LiveValues.observe(database, cases));
    }

    @PostgresTest
    void datesInConnectModeAreConnectDates(PostgresDatabase database) throws Exception {
        List<TypeCase> cases = List.of(
                nullOf("date"), of("date", "'2024-02-29'", date(2024, 2, 29)), of("date", "'4714-11-24 BC'", date(-4713, 11, 24)),
                of("date", "'infinity'", new Date(2_146_033_979L * 86_400_000L)));
        ConversionChecks.assertConversions(mapper(TemporalPrecisionMode.CONNECT), LiveValues.observe(database, cases));
    }

    @PostgresTest
    void timesFollowTheDeclaredPrecisionAndTimetzIsAnIsoTimeInUtc(PostgresDatabase database) throws Exception {
        List<TypeCase> cases = List.of(
                nullOf("time"), of("time", "'00:00:00'", 0L), of("time", "'24:00:00'", 86_400_000_000L),
                of("time", "'23:59:59.999999'", 86_399_999_999L), of("time", "'12:34:56.789'", 45_296_789_000L),
                of("time(6)", "'12:34:56.000001'", 45_296_000_001L), of("time(4)", "'12:34:56.78956'", 45_296_789_600L),
                // time(0..3) is io.debezium.time.Time: int32 milliseconds.
                nullOf("time(3)"), of("time(3)", "'12:34:56.789567'", 45_296_790), of("time(0)", "'24:00:00'", 86_400_000),
                nullOf("timetz"), of("timetz", "'12:00:00+05:30'", "06:30:00Z"), of("timetz", "'24:00:00-15:59'", "15:59:00Z"),
                of("timetz", "'00:00:00.000001+00'", "00:00:00.000001Z"),
                of("timetz", "'12:00:00.5+05:30:17'", "06:29:43.5Z"), of("timetz", "'23:59:59-00:00:01'", "00:00:00Z"),
                of("timetz", "'04:05:06.789-08'", "12:05:06.789Z"), of("timetz(0)", "'04:05:06-08'", "12:05:06Z"));
        ConversionChecks.assertConversions(MAPPER, LiveValues.observe(database, cases));
    }

    @PostgresTest
    void timesInTheOtherModes(PostgresDatabase database) throws Exception {
        List<TypeCase> micro = List.of(of("time(3)", "'12:34:56.789'", 45_296_789_000L), of("time", "'00:00:00.000001'", 1L));
        ConversionChecks.assertConversions(mapper(TemporalPrecisionMode.ADAPTIVE_TIME_MICROSECONDS), LiveValues.observe(database, micro));
        ConversionChecks.assertConversions(mapper(TemporalPrecisionMode.MICROSECONDS), LiveValues.observe(database, micro));
        ConversionChecks.assertConversions(mapper(TemporalPrecisionMode.NANOSECONDS), LiveValues.observe(database, List.of(
                of("time(3)", "'12:34:56.789'", 45_296_789_000_000L), of("time", "'24:00:00'", 86_400_000_000_000L))));
        ConversionChecks.assertConversions(mapper(TemporalPrecisionMode.CONNECT), LiveValues.observe(database, List.of(
                nullOf("time"), of("time", "'12:34:56.789567'", new Date(45_296_789L)), of("time", "'24:00:00'", new Date(86_400_000L)),
                of("timetz", "'12:00:00+05:30'", "06:30:00Z"))));
    }

    @PostgresTest
    void timestampsFollowTheDeclaredPrecisionAndTimestamptzIsAnIsoTimestampInUtc(PostgresDatabase database) throws Exception {
        List<TypeCase> cases = List.of(
                nullOf("timestamp"), of("timestamp", "'2024-01-02 03:04:05.123456'", micros("2024-01-02T03:04:05.123456")),
                of("timestamp", "'1969-12-31 23:59:59.999999'", -1L), of("timestamp", "'2000-01-01 00:00:00'", 946_684_800_000_000L),
                of("timestamp", "'0001-01-01 00:00:00'", micros(1, 1, 1, 0, 0, 0, 0)),
                of("timestamp", "'0044-03-15 12:00:00 BC'", micros(-43, 3, 15, 12, 0, 0, 0)),
                of("timestamp", "'4714-11-24 00:00:00 BC'", micros(-4713, 11, 24, 0, 0, 0, 0)),
                of("timestamp", "'294247-01-10 04:00:54.775806'", Long.MAX_VALUE - 1),
                failing("timestamp", "'294247-01-10 04:00:54.775807'", "294247-01-10"),
                failing("timestamp", "'294276-12-31 23:59:59.999999'", "cannot be converted"),
                of("timestamp", "'infinity'", Long.MAX_VALUE), of("timestamp", "'-infinity'", Long.MIN_VALUE),
                // timestamp(0..3) is io.debezium.time.Timestamp: int64 milliseconds, rounded down.
                nullOf("timestamp(3)"), of("timestamp(3)", "'2024-01-02 03:04:05.1236'", micros("2024-01-02T03:04:05.124") / 1000),
                of("timestamp(3)", "'1969-12-31 23:59:59.999'", -1L), of("timestamp(0)", "'2024-01-02 03:04:05.5'", micros("2024-01-02T03:04:06") / 1000),
                of("timestamp(3)", "'infinity'", INFINITY_MILLIS), of("timestamp(3)", "'-infinity'", MINUS_INFINITY_MILLIS),
                nullOf("timestamptz"),
                of("timestamptz", "'2024-01-02 03:04:05.123456+00'", "2024-01-02T03:04:05.123456Z"),
                // As many fraction digits as the column declares (six without), none for timestamptz(0).
                of("timestamptz", "'2024-01-02 03:04:05.1+02'", "2024-01-02T01:04:05.100000Z"),
                of("timestamptz(3)", "'2024-01-02 03:04:05.5+02'", "2024-01-02T01:04:05.500Z"),
                of("timestamptz(1)", "'2024-01-02 03:04:05+02'", "2024-01-02T01:04:05.0Z"),
                of("timestamptz(0)", "'2024-01-02 03:04:05+00'", "2024-01-02T03:04:05Z"),
                // Before 1900 Asia/Kolkata is at local mean time, +05:53:28: an offset with seconds in the text.
                of("timestamptz(0)", "'1850-06-01 12:00:00+00'", "1850-06-01T12:00:00Z"),
                of("timestamptz", "'0044-03-15 12:00:00+00 BC'", "-0043-03-15T12:00:00.000000Z"),
                of("timestamptz(0)", "'4714-11-24 00:00:00+00 BC'", "-4713-11-24T00:00:00Z"),
                of("timestamptz(0)", "'12345-01-01 00:00:00+00'", "+12345-01-01T00:00:00Z"),
                failing("timestamptz", "'294276-12-31 23:59:59.999999+00'", "294247-01-10"),
                of("timestamptz", "'infinity'", "infinity"), of("timestamptz", "'-infinity'", "-infinity"));
        ConversionChecks.assertConversions(MAPPER, LiveValues.observe(database, cases, "SET TimeZone = 'Asia/Kolkata'"));
        ConversionChecks.assertConversions(MAPPER, LiveValues.observe(database, cases, "SET TimeZone = 'America/St_Johns'"));
    }

    @PostgresTest
    void timestampsInTheOtherModes(PostgresDatabase database) throws Exception {
        List<TypeCase> micro = List.of(of("timestamp(3)", "'2024-01-02 03:04:05.123'", micros("2024-01-02T03:04:05.123")),
                of("timestamp(3)", "'infinity'", Long.MAX_VALUE));
        ConversionChecks.assertConversions(mapper(TemporalPrecisionMode.MICROSECONDS), LiveValues.observe(database, micro));
        // adaptive_time_microseconds changes only time.
        ConversionChecks.assertConversions(mapper(TemporalPrecisionMode.ADAPTIVE_TIME_MICROSECONDS), LiveValues.observe(database,
                List.of(of("timestamp(3)", "'2024-01-02 03:04:05.123'", micros("2024-01-02T03:04:05.123") / 1000))));
        ConversionChecks.assertConversions(mapper(TemporalPrecisionMode.NANOSECONDS), LiveValues.observe(database, List.of(
                of("timestamp", "'2024-01-02 03:04:05.123456'", micros("2024-01-02T03:04:05.123456") * 1000),
                of("timestamp", "'infinity'", Long.MAX_VALUE), of("timestamp", "'-infinity'", Long.MIN_VALUE),
                failing("timestamp", "'2263-01-01 00:00:00'", "time.precision.mode=nanoseconds"))));
        ConversionChecks.assertConversions(mapper(TemporalPrecisionMode.CONNECT), LiveValues.observe(database, List.of(
                nullOf("timestamp"), of("timestamp", "'2024-01-02 03:04:05.123456'", new Date(micros("2024-01-02T03:04:05.123") / 1000)),
                of("timestamp", "'infinity'", new Date(INFINITY_MILLIS)),
                of("timestamptz(0)", "'2024-01-02 03:04:05+00'", "2024-01-02T03:04:05Z"))));
    }

    @PostgresTest
    void isostringModeWritesIsoStringsInUtcWithDebeziumsInfinity(PostgresDatabase database) throws Exception {
        List<TypeCase> cases = List.of(
                nullOf("date"), of("date", "'2024-01-02'", "2024-01-02Z"), of("date", "'0044-03-15 BC'", "-0043-03-15Z"),
                of("date", "'infinity'", "+5877611-06-21Z"), of("date", "'-infinity'", "-5877611-06-22Z"),
                nullOf("time"), of("time", "'12:34:56.789'", "12:34:56.789Z"), of("time(0)", "'24:00:00'", "00:00:00Z"),
                nullOf("timestamp"), of("timestamp", "'2024-01-02 03:04:05.12'", "2024-01-02T03:04:05.12Z"),
                of("timestamp(0)", "'0044-03-15 12:00:00 BC'", "-0043-03-15T12:00:00Z"),
                of("timestamp", "'infinity'", "+292278994-08-16T23:00:00Z"), of("timestamp", "'-infinity'", "-292275055-05-16T23:00:00Z"),
                of("timestamptz(2)", "'2024-01-02 03:04:05+01'", "2024-01-02T02:04:05.00Z"));
        ConversionChecks.assertConversions(mapper(TemporalPrecisionMode.ISOSTRING), LiveValues.observe(database, cases));
    }

    @PostgresTest
    void intervalsAreDebeziumsMicroDurationByDefault(PostgresDatabase database) throws Exception {
        // Expected values as Debezium 3.6.1 computes them (pgjdbc's PGInterval, MicroDuration with 365.25 / 12 days a month).
        List<TypeCase> cases = new ArrayList<>(List.of(
                nullOf("interval"), of("interval", "'0'", 0L),
                of("interval", "'1 year 2 mons 3 days 04:05:06.789'", 37_091_106_789_000L),
                of("interval", "'-1 year -2 mons +3 days -04:05:06.7'", -36_572_706_700_000L),
                of("interval", "'-00:00:00.000001'", -1L), of("interval", "'1 day -1 sec'", 86_399_000_000L),
                of("interval", "'-1 day +1 sec'", -86_399_000_000L), of("interval", "'14 mons'", 36_817_200_000_000L),
                of("interval", "'3 days 00:00:00.123456'", 259_200_123_456L),
                // Beyond int64 microseconds the double saturates, as Debezium's cast does.
                of("interval", "'178956970 years 7 mons'", Long.MAX_VALUE), of("interval", "'-2147483648 days'", Long.MIN_VALUE),
                of("interval", "'2562047788:00:54.775807'", Long.MAX_VALUE), of("interval(0)", "'1.6 sec'", 2_000_000L)));
        if (database.majorVersion() >= 17) {
            cases.add(of("interval", "'infinity'", Long.MAX_VALUE));
            cases.add(of("interval", "'-infinity'", Long.MIN_VALUE));
        }
        ConversionChecks.assertConversions(MAPPER, LiveValues.observe(database, cases));
    }

    @PostgresTest
    void intervalsInStringModeAreDebeziumsIsoStringWithEveryPart(PostgresDatabase database) throws Exception {
        List<TypeCase> cases = new ArrayList<>(List.of(
                nullOf("interval"), of("interval", "'0'", "P0Y0M0DT0H0M0S"),
                of("interval", "'1 year 2 mons 3 days 04:05:06.789'", "P1Y2M3DT4H5M6.789S"),
                of("interval", "'-1 year -2 mons +3 days -04:05:06.7'", "P-1Y-2M3DT-4H-5M-6.7S"),
                of("interval", "'-00:00:00.000001'", "P0Y0M0DT0H0M-0.000001S"), of("interval", "'1 day -1 sec'", "P0Y0M1DT0H0M-1S"),
                of("interval", "'-1 day +1 sec'", "P0Y0M-1DT0H0M1S"), of("interval", "'14 mons'", "P1Y2M0DT0H0M0S"),
                of("interval", "'2562047788:00:54.775807'", "P0Y0M0DT2562047788H0M54.775807S"),
                of("interval", "'-2562047788:00:54.775807'", "P0Y0M0DT-2562047788H0M-54.775807S"),
                of("interval", "'-2147483648 days'", "P0Y0M-2147483648DT0H0M0S"),
                of("interval", "'178956970 years 7 mons'", "P178956970Y7M0DT0H0M0S"),
                of("interval", "'-178956970 years -8 mons'", "P-178956970Y-8M0DT0H0M0S"), of("interval(0)", "'1.6 sec'", "P0Y0M0DT0H0M2S")));
        if (database.majorVersion() >= 17) {
            cases.add(of("interval", "'infinity'", "infinity"));
            cases.add(of("interval", "'-infinity'", "-infinity"));
        }
        PostgresTypeMapper strings = new PostgresTypeMapper(ConverterOptions.DEFAULTS.withIntervalHandlingMode(IntervalHandlingMode.STRING));
        ConversionChecks.assertConversions(strings, LiveValues.observe(database, cases));
    }
}
