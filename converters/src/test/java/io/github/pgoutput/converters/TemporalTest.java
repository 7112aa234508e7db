package io.github.pgoutput.converters;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.LocalDate;
import org.junit.jupiter.api.Test;

class TemporalTest {

    @Test
    void readsTheEraAfterTheOffset() {
        // timestamptz in ISO DateStyle prints " BC" last: 0044-03-15 12:00:00+05:53:28 BC
        long utc = Temporal.parseTimestamp("0044-03-15 17:53:28+05:53:28 BC");
        assertThat(utc).isEqualTo(LocalDate.of(-43, 3, 15).toEpochDay() * Temporal.MICROS_PER_DAY + 12 * 3_600_000_000L);
    }

    @Test
    void acceptsFebruary29OfLeapYearsBeforeChrist() {
        assertThat(Temporal.parseDate("0001-02-29 BC")).isEqualTo((int) LocalDate.of(0, 2, 29).toEpochDay());
    }

    @Test
    void rejectsOtherDateStyles() {
        assertThatThrownBy(() -> Temporal.parseDate("01/02/2024")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Temporal.parseTimestamp("Tue Jan 02 03:04:05 2024")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Temporal.parseTimestamp("2024-01-02T03:04:05")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void rejectsTimesOfDayBeyondMidnight() {
        assertThatThrownBy(() -> Temporal.parseTime("24:00:00.000001")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Temporal.parseTime("12:60:00")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void movesTimetzToUtcWrappingAroundMidnight() {
        assertThat(Temporal.parseTimeTzAtUtc("12:00:00+05:30")).isEqualTo(23_400_000_000L);
        assertThat(Temporal.parseTimeTzAtUtc("23:30:00-01")).isEqualTo(1_800_000_000L);
        assertThat(Temporal.parseTimeTzAtUtc("24:00:00+00")).isZero();
        // The send form counts the zone in seconds west of UTC.
        assertThat(Temporal.timeTzFromSendAtUtc(3_600_000_000L, -19800)).isEqualTo(70_200_000_000L);
        assertThat(TemporalConverters.zonedTime(0)).isEqualTo("00:00:00Z");
        assertThat(TemporalConverters.zonedTime(1_500_000)).isEqualTo("00:00:01.5Z");
    }

    @Test
    void writesTimestamptzAsIsoInUtcWithTheDeclaredFractionDigits() {
        assertThat(TemporalConverters.zonedTimestamp(0, 0)).isEqualTo("1970-01-01T00:00:00Z");
        assertThat(TemporalConverters.zonedTimestamp(0, 6)).isEqualTo("1970-01-01T00:00:00.000000Z");
        assertThat(TemporalConverters.zonedTimestamp(500_000, 3)).isEqualTo("1970-01-01T00:00:00.500Z");
        assertThat(TemporalConverters.zonedTimestamp(-1, 6)).isEqualTo("1969-12-31T23:59:59.999999Z");
        assertThat(TemporalConverters.zonedTimestamp(1_704_164_645_100_000L, 0)).isEqualTo("2024-01-02T03:04:05.1Z");
        assertThat(TemporalConverters.zonedTimestamp(Temporal.TIMESTAMP_POSITIVE_INFINITY, 6)).isEqualTo("infinity");
        assertThat(TemporalConverters.zonedTimestamp(Temporal.TIMESTAMP_NEGATIVE_INFINITY, 6)).isEqualTo("-infinity");
    }

    @Test
    void keepsTheInfinitySentinelsApartFromRealTimestamps() {
        assertThat(Temporal.timestampFromPostgresMicros(Long.MAX_VALUE)).isEqualTo(Long.MAX_VALUE);
        assertThat(Temporal.timestampFromPostgresMicros(Long.MIN_VALUE)).isEqualTo(Long.MIN_VALUE);
        assertThatThrownBy(() -> Temporal.timestampFromPostgresMicros(Long.MAX_VALUE - Temporal.POSTGRES_EPOCH_MICROS))
                .isInstanceOf(ValueConversionException.class).hasMessageContaining("294247-01-10");
    }
}
