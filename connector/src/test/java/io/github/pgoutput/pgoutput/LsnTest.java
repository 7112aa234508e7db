package io.github.pgoutput.pgoutput;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

class LsnTest {

    @Test
    void printsLikePostgresUpperCaseHalvesWithoutLeadingZeros() {
        assertThat(Lsn.INVALID).hasToString("0/0");
        assertThat(Lsn.of(0x16_B374D848L)).hasToString("16/B374D848");
        assertThat(Lsn.of(0x0000000A_0000000FL)).hasToString("A/F");
        assertThat(Lsn.of(0xFFFFFFFF_FFFFFFFFL)).hasToString("FFFFFFFF/FFFFFFFF");
        assertThat(Lsn.of(0x00000001_00000000L)).hasToString("1/0");
    }

    @Property
    void printsWhatPostgresPrintsAndParsesBackToTheSameValue(@ForAll long value) {
        Lsn lsn = Lsn.of(value);
        String postgresForm = String.format("%X/%X", value >>> 32, value & 0xFFFFFFFFL);

        assertThat(lsn.toString()).isEqualTo(postgresForm);
        assertThat(Lsn.parse(lsn.toString())).isEqualTo(lsn);
    }

    @Property
    void ordersUnsigned(@ForAll long a, @ForAll long b) {
        assertThat(Integer.signum(Lsn.of(a).compareTo(Lsn.of(b)))).isEqualTo(Integer.signum(Long.compareUnsigned(a, b)));
    }

    @Test
    void refusesTextThatIsNotAnLsnNamingIt() {
        assertThatThrownBy(() -> Lsn.parse("16-B374D848")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'16-B374D848' is not an LSN");
        assertThatThrownBy(() -> Lsn.parse("123456789/0")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Lsn.parse("G/0")).isInstanceOf(IllegalArgumentException.class);
    }
}
