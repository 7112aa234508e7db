package io.github.pgoutput.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Which PostgreSQL versions a {@link PostgresTest} runs on, in the ordinary build and in the full matrix. */
class PostgresTestVersionsTest {

    private static final List<Integer> ALL = List.of(15, 16, 17, 18);

    /** Annotated samples; abstract, so JUnit never runs them. */
    abstract static class Samples {
        @PostgresTest
        void everyVersion() {
        }

        @PostgresTest(representative = 16)
        void representative16() {
        }

        @PostgresTest(minVersion = 16, representative = 16)
        void from16Representative16() {
        }

        @PostgresTest(minVersion = 16)
        void from16() {
        }

        @PostgresTest(maxVersion = 16, representative = 17)
        void representativeOutsideItsRange() {
        }

        @PostgresTest(representative = 14)
        void unsupportedRepresentative() {
        }
    }

    private static PostgresTest annotationOf(String method) {
        try {
            return Samples.class.getDeclaredMethod(method).getAnnotation(PostgresTest.class);
        } catch (NoSuchMethodException e) {
            throw new AssertionError(e);
        }
    }

    private static List<Integer> versions(String method, List<Integer> selected, boolean fullMatrix) {
        return PostgresExtension.versionsToRun(method, annotationOf(method), selected, fullMatrix);
    }

    @Test
    void aTestWithoutARepresentativeRunsOnEverySelectedVersion() {
        assertThat(versions("everyVersion", ALL, false)).containsExactly(15, 16, 17, 18);
        assertThat(versions("everyVersion", List.of(17), false)).containsExactly(17);
    }

    @Test
    void aTestWithARepresentativeRunsOnItOnlyInTheOrdinaryBuild() {
        assertThat(versions("representative16", ALL, false)).containsExactly(16);
    }

    @Test
    void theFullMatrixRunsARepresentedTestOnEverySelectedVersionWithinItsRange() {
        assertThat(versions("representative16", ALL, true)).containsExactly(15, 16, 17, 18);
        assertThat(versions("from16Representative16", ALL, true)).containsExactly(16, 17, 18);
        assertThat(versions("representative16", List.of(15, 18), true)).containsExactly(15, 18);
    }

    @Test
    void whenTheRepresentativeIsNotSelectedTheNearestSelectedVersionWithinTheRangeRunsOnce() {
        assertThat(versions("representative16", List.of(17), false)).containsExactly(17);
        assertThat(versions("representative16", List.of(15, 17), false)).as("a tie goes to the newer").containsExactly(17);
        assertThat(versions("representative16", List.of(15, 18), false)).containsExactly(15);
        assertThat(versions("from16Representative16", List.of(15, 18), false)).as("15 is outside the range").containsExactly(18);
    }

    @Test
    void minAndMaxVersionStillLimitEveryRun() {
        assertThat(versions("from16", ALL, false)).containsExactly(16, 17, 18);
        assertThatThrownBy(() -> versions("from16", List.of(15), false))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("from16 needs PostgreSQL 16+")
                .hasMessageContaining("-Dpg.versions selects only [15]");
    }

    @Test
    void aRepresentativeOutsideTheTestsRangeOrTheSupportedVersionsIsRefusedNamingTheTest() {
        assertThatThrownBy(() -> versions("representativeOutsideItsRange", ALL, false))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("representativeOutsideItsRange names representative = 17")
                .hasMessageContaining("maxVersion 16");
        assertThatThrownBy(() -> versions("unsupportedRepresentative", ALL, true))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("representative = 14");
    }

    @Test
    void theMatrixPropertyAcceptsRepresentativeOrFullAndRefusesAnythingElse() {
        String before = System.getProperty(PostgresExtension.MATRIX_PROPERTY);
        try {
            System.clearProperty(PostgresExtension.MATRIX_PROPERTY);
            assertThat(PostgresExtension.fullMatrix()).isFalse();
            System.setProperty(PostgresExtension.MATRIX_PROPERTY, "representative");
            assertThat(PostgresExtension.fullMatrix()).isFalse();
            System.setProperty(PostgresExtension.MATRIX_PROPERTY, "full");
            assertThat(PostgresExtension.fullMatrix()).isTrue();
            System.setProperty(PostgresExtension.MATRIX_PROPERTY, "all");
            assertThatThrownBy(PostgresExtension::fullMatrix)
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("-Dpg.matrix=all")
                    .hasMessageContaining("'full'");
        } finally {
            if (before == null) {
                System.clearProperty(PostgresExtension.MATRIX_PROPERTY);
            } else {
                System.setProperty(PostgresExtension.MATRIX_PROPERTY, before);
            }
        }
    }
}
