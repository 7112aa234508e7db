package io.github.pgoutput.pgoutput;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.pgoutput.testing.RandomValues;
import io.github.pgoutput.testing.SeededProperty;
import org.junit.jupiter.api.Test;

class LsnTest {

    /** Zero, the 32-bit half boundaries and the sign-bit boundaries, where unsigned handling goes wrong. */
    private static final long[] EDGES = {0, 1, 0xFFFFFFFFL, 0x1_00000000L, Long.MAX_VALUE, Long.MIN_VALUE, -1};

    @Test
    void printsLikePostgresUpperCaseHalvesWithoutLeadingZeros() {
        assertThat(Lsn.INVALID).hasToString("0/0");
        assertThat(Lsn.of(0x16_B374D848L)).hasToString("16/B374D848");
        assertThat(Lsn.of(0x0000000A_0000000FL)).hasToString("A/F");
        assertThat(Lsn.of(0xFFFFFFFF_FFFFFFFFL)).hasToString("FFFFFFFF/FFFFFFFF");
        assertThat(Lsn.of(0x00000001_00000000L)).hasToString("1/0");
    }

    @Test
    void printsWhatPostgresPrintsAndParsesBackToTheSameValue() {
        for (long edge : EDGES) {
            assertPrintsAndParsesBack(edge);
        }
        SeededProperty.check(1000, random -> assertPrintsAndParsesBack(RandomValues.anyLong(random)));
    }

    private static void assertPrintsAndParsesBack(long value) {
        Lsn lsn = Lsn.of(value);
        String postgresForm = String.format("%X/%X", value >>> 32, value & 0xFFFFFFFFL);

        assertThat(lsn.toString()).isEqualTo(postgresForm);
        assertThat(Lsn.parse(lsn.toString())).isEqualTo(lsn);
    }

    @Test
    void ordersLsnsUnsigned() {
        for (long a : EDGES) {
            for (long b : EDGES) {
                assertOrdersUnsigned(a, b);
            }
        }
        SeededProperty.check(1000, random -> assertOrdersUnsigned(RandomValues.anyLong(random), RandomValues.anyLong(random)));
    }

    private static void assertOrdersUnsigned(long a, long b) {
        assertThat(Integer.signum(Lsn.of(a).compareTo(Lsn.of(b)))).as("%X vs %X", a, b)
                .isEqualTo(Integer.signum(Long.compareUnsigned(a, b)));
    }

    @Test
    void refusesTextThatIsNotAnLsnNamingIt() {
        assertThatThrownBy(() -> Lsn.parse("16-B374D848")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'16-B374D848' is not an LSN");
        assertThatThrownBy(() -> Lsn.parse("123456789/0")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Lsn.parse("G/0")).isInstanceOf(IllegalArgumentException.class);
    }
}
