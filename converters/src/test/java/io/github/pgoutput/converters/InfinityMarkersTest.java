package io.github.pgoutput.converters;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Date;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/**
 * PostgreSQL's 'infinity' and '-infinity' of date, timestamp and timestamptz, in their text and send forms, become
 * Debezium 3.7.1's values in every time.precision.mode. Debezium 3.7 stands for them with the dates +5877611-06-21 and
 * -5877611-06-22 and with the instants of pgjdbc's millisecond markers, 9223372036825200000 and -9223372036832400000
 * ms since 1970 (+292278994-08-16T23:00Z and -292275055-05-16T23:00Z), each then held as the mode holds any value:
 * days, milliseconds, microseconds or nanoseconds saturated at the ends of int64, ISO text. Debezium 3.7.1 wrote the
 * adaptive, adaptive_time_microseconds and connect values below in {@code DebeziumParityIT}.
 */
class InfinityMarkersTest {

    private static final int DAY_PLUS = 2_146_033_979;
    private static final int DAY_MINUS = -2_147_472_691;
    private static final long MILLIS_PLUS = 9_223_372_036_825_200_000L;
    private static final long MILLIS_MINUS = -9_223_372_036_832_400_000L;

    /** date_send and timestamp_send of infinity: INT32 and INT64 MAX and MIN. */
    private static final byte[] DATE_PLUS_SEND = HexFormat.of().parseHex("7fffffff");
    private static final byte[] DATE_MINUS_SEND = HexFormat.of().parseHex("80000000");
    private static final byte[] TIMESTAMP_PLUS_SEND = HexFormat.of().parseHex("7fffffffffffffff");
    private static final byte[] TIMESTAMP_MINUS_SEND = HexFormat.of().parseHex("8000000000000000");

    private static void assertInfinities(TemporalPrecisionMode mode, int oid, int typmod, Object plus, Object minus) {
        ColumnConverter converter = new PostgresTypeMapper(ConverterOptions.DEFAULTS.withTemporalPrecisionMode(mode))
                .converterFor(PgColumnType.builtIn(oid, typmod));
        boolean date = oid == BuiltInTypes.DATE;
        String what = mode + " " + converter.type().describe() + " (" + typmod + ")";
        assertThat(converter.fromText("infinity")).as(what + " 'infinity'").isEqualTo(plus);
        assertThat(converter.fromText("-infinity")).as(what + " '-infinity'").isEqualTo(minus);
        assertThat(converter.fromBinary(date ? DATE_PLUS_SEND : TIMESTAMP_PLUS_SEND)).as(what + " 'infinity' sent").isEqualTo(plus);
        assertThat(converter.fromBinary(date ? DATE_MINUS_SEND : TIMESTAMP_MINUS_SEND)).as(what + " '-infinity' sent").isEqualTo(minus);
    }

    @Test
    void datesAreTheDaysOfTheDatesDebeziumStandsForInfinityWith() {
        assertThat(DAY_PLUS).isEqualTo(java.time.LocalDate.parse("+5877611-06-21").toEpochDay());
        assertThat(DAY_MINUS).isEqualTo(java.time.LocalDate.parse("-5877611-06-22").toEpochDay());
        for (TemporalPrecisionMode mode : new TemporalPrecisionMode[] {TemporalPrecisionMode.ADAPTIVE,
                TemporalPrecisionMode.ADAPTIVE_TIME_MICROSECONDS, TemporalPrecisionMode.MICROSECONDS, TemporalPrecisionMode.NANOSECONDS}) {
            assertInfinities(mode, BuiltInTypes.DATE, -1, DAY_PLUS, DAY_MINUS);
        }
        assertInfinities(TemporalPrecisionMode.CONNECT, BuiltInTypes.DATE, -1,
                new Date(DAY_PLUS * 86_400_000L), new Date(DAY_MINUS * 86_400_000L));
        assertInfinities(TemporalPrecisionMode.ISOSTRING, BuiltInTypes.DATE, -1, "+5877611-06-21Z", "-5877611-06-22Z");
    }

    @Test
    void millisecondTimestampsArePgjdbcsMarkersThemselves() {
        for (TemporalPrecisionMode mode : new TemporalPrecisionMode[] {TemporalPrecisionMode.ADAPTIVE,
                TemporalPrecisionMode.ADAPTIVE_TIME_MICROSECONDS}) {
            for (int typmod : new int[] {0, 3}) {
                assertInfinities(mode, BuiltInTypes.TIMESTAMP, typmod, MILLIS_PLUS, MILLIS_MINUS);
            }
        }
        for (int typmod : new int[] {0, 3, 6, -1}) {
            assertInfinities(TemporalPrecisionMode.CONNECT, BuiltInTypes.TIMESTAMP, typmod, new Date(MILLIS_PLUS), new Date(MILLIS_MINUS));
        }
    }

    @Test
    void microAndNanoTimestampsAreTheMarkersSaturatedAtTheEndsOfInt64() {
        for (TemporalPrecisionMode mode : new TemporalPrecisionMode[] {TemporalPrecisionMode.ADAPTIVE,
                TemporalPrecisionMode.ADAPTIVE_TIME_MICROSECONDS}) {
            for (int typmod : new int[] {4, 6, -1}) {
                assertInfinities(mode, BuiltInTypes.TIMESTAMP, typmod, Long.MAX_VALUE, Long.MIN_VALUE);
            }
        }
        for (TemporalPrecisionMode mode : new TemporalPrecisionMode[] {TemporalPrecisionMode.MICROSECONDS,
                TemporalPrecisionMode.NANOSECONDS}) {
            for (int typmod : new int[] {0, 3, 6, -1}) {
                assertInfinities(mode, BuiltInTypes.TIMESTAMP, typmod, Long.MAX_VALUE, Long.MIN_VALUE);
            }
        }
    }

    @Test
    void isoTimestampsAreTheTextOfTheMarkerInstants() {
        assertThat(java.time.Instant.ofEpochMilli(MILLIS_PLUS)).hasToString("+292278994-08-16T23:00:00Z");
        for (int typmod : new int[] {0, 3, 6, -1}) {
            assertInfinities(TemporalPrecisionMode.ISOSTRING, BuiltInTypes.TIMESTAMP, typmod,
                    "+292278994-08-16T23:00:00Z", "-292275055-05-16T23:00:00Z");
        }
    }

    @Test
    void timestamptzStaysTheWordInEveryMode() {
        for (TemporalPrecisionMode mode : TemporalPrecisionMode.values()) {
            for (int typmod : new int[] {0, 3, -1}) {
                assertInfinities(mode, BuiltInTypes.TIMESTAMPTZ, typmod, "infinity", "-infinity");
            }
        }
    }

    @Test
    void noRealValueTakesAMarker() {
        ColumnConverter date = new PostgresTypeMapper(ConverterOptions.DEFAULTS).converterFor(PgColumnType.builtIn(BuiltInTypes.DATE, -1));
        // PostgreSQL's dates end at 5874897-12-31, before the marker day.
        assertThat((int) date.fromText("5874897-12-31")).isLessThan(DAY_PLUS);
        assertThat((int) date.fromText("4714-11-24 BC")).isGreaterThan(DAY_MINUS);
        ColumnConverter micro = new PostgresTypeMapper(ConverterOptions.DEFAULTS).converterFor(PgColumnType.builtIn(BuiltInTypes.TIMESTAMP, 6));
        // The last timestamp that int64 microseconds hold but for INT64 MAX itself; later ones fail (see TYPES.md).
        assertThat(micro.fromText("294247-01-10 04:00:54.775806")).isEqualTo(Long.MAX_VALUE - 1);
    }
}
