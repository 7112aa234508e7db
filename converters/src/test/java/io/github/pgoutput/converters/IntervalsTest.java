package io.github.pgoutput.converters;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class IntervalsTest {

    @Test
    void printsEachPartWithItsOwnSignLikePostgresIso8601Style() {
        assertThat(Intervals.iso8601(14, -3, 3_723_000_001L)).isEqualTo("P1Y2M-3DT1H2M3.000001S");
        assertThat(Intervals.iso8601(-1, 0, -500_000L)).isEqualTo("P-1MT-0.5S");
        assertThat(Intervals.iso8601(0, 0, 0)).isEqualTo("PT0S");
        assertThat(Intervals.iso8601(0, 0, Long.MIN_VALUE)).isEqualTo("PT-2562047788H-54.775808S");
    }

    @Test
    void readsPostgresStyleTextIncludingExplicitPlusSigns() {
        assertThat(Intervals.fromText("-1 years -2 mons +3 days -04:05:06.7")).isEqualTo("P-1Y-2M3DT-4H-5M-6.7S");
        assertThat(Intervals.fromText("1 day -00:00:01")).isEqualTo("P1DT-1S");
        assertThat(Intervals.fromText("00:00:00")).isEqualTo("PT0S");
        assertThat(Intervals.fromText("-2147483648 days -2562047788:00:54.775808")).isEqualTo("P-2147483648DT-2562047788H-54.775808S");
    }

    @Test
    void givesInfiniteIntervalsOfPostgres17TheirOwnName() {
        byte[] infinity = {0x7f, -1, -1, -1, -1, -1, -1, -1, 0x7f, -1, -1, -1, 0x7f, -1, -1, -1};
        assertThat(Intervals.fromSend(new BinaryReader(infinity))).isEqualTo("infinity");
        assertThat(Intervals.fromText("-infinity")).isEqualTo("-infinity");
    }

    @Test
    void refusesOtherIntervalStylesInsteadOfGuessing() {
        assertThatThrownBy(() -> Intervals.fromText("1-2 3 4:05:06")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Intervals.fromText("P1Y2M")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Intervals.fromText("@ 1 year 2 mons")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Intervals.fromText("1 fortnight")).hasMessageContaining("IntervalStyle 'postgres'");
    }
}
