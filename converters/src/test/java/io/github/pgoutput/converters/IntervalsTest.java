package io.github.pgoutput.converters;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class IntervalsTest {

    @Test
    void foldsMonthsAndDaysIntoMicrosecondsWithDebeziumsAverageMonth() {
        // A month is 365.25 / 12 = 30.4375 days.
        assertThat(Intervals.microDuration(new Intervals.Parts(1, 0, 0, 0))).isEqualTo(2_629_800_000_000L);
        // Values computed with Debezium 3.6.1's MicroDuration.durationMicros for the same parts.
        assertThat(Intervals.microDuration(new Intervals.Parts(14, 3, 14_706_789_000L, 0))).isEqualTo(37_091_106_789_000L);
        assertThat(Intervals.microDuration(new Intervals.Parts(-14, 3, -14_706_700_000L, 0))).isEqualTo(-36_572_706_700_000L);
        assertThat(Intervals.microDuration(new Intervals.Parts(0, -1, 1_000_000L, 0))).isEqualTo(-86_399_000_000L);
        assertThat(Intervals.microDuration(new Intervals.Parts(0, 0, -1, 0))).isEqualTo(-1L);
    }

    @Test
    void writesEveryPartOfTheIsoStringAsDebeziumDoes() {
        assertThat(Intervals.isoString(new Intervals.Parts(14, -3, 3_723_000_001L, 0))).isEqualTo("P1Y2M-3DT1H2M3.000001S");
        assertThat(Intervals.isoString(new Intervals.Parts(-1, 0, -500_000L, 0))).isEqualTo("P0Y-1M0DT0H0M-0.5S");
        assertThat(Intervals.isoString(new Intervals.Parts(0, 0, 0, 0))).isEqualTo("P0Y0M0DT0H0M0S");
        assertThat(Intervals.isoString(new Intervals.Parts(0, 0, 6_000_000L, 0))).isEqualTo("P0Y0M0DT0H0M6S");
    }

    @Test
    void readsPostgresStyleTextIncludingExplicitPlusSigns() {
        assertThat(Intervals.fromText("-1 years -2 mons +3 days -04:05:06.7")).isEqualTo(new Intervals.Parts(-14, 3, -14_706_700_000L, 0));
        assertThat(Intervals.fromText("1 day -00:00:01")).isEqualTo(new Intervals.Parts(0, 1, -1_000_000L, 0));
        assertThat(Intervals.fromText("00:00:00")).isEqualTo(new Intervals.Parts(0, 0, 0, 0));
        assertThat(Intervals.fromText("-2147483648 days -2562047788:00:54.775808"))
                .isEqualTo(new Intervals.Parts(0, Integer.MIN_VALUE, Long.MIN_VALUE, 0));
    }

    @Test
    void givesInfiniteIntervalsOfPostgres17TheExtremeValues() {
        byte[] infinity = {0x7f, -1, -1, -1, -1, -1, -1, -1, 0x7f, -1, -1, -1, 0x7f, -1, -1, -1};
        Intervals.Parts parts = Intervals.fromSend(new BinaryReader(infinity));
        assertThat(Intervals.microDuration(parts)).isEqualTo(Long.MAX_VALUE);
        assertThat(Intervals.isoString(parts)).isEqualTo("infinity");
        assertThat(Intervals.microDuration(Intervals.fromText("-infinity"))).isEqualTo(Long.MIN_VALUE);
        assertThat(Intervals.isoString(Intervals.fromText("-infinity"))).isEqualTo("-infinity");
    }

    @Test
    void refusesOtherIntervalStylesInsteadOfGuessing() {
        assertThatThrownBy(() -> Intervals.fromText("1-2 3 4:05:06")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Intervals.fromText("P1Y2M")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Intervals.fromText("@ 1 year 2 mons")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Intervals.fromText("1 fortnight")).hasMessageContaining("IntervalStyle 'postgres'");
    }
}
