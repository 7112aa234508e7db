package io.github.pgoutput.soak;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;

import org.junit.jupiter.api.Test;

class SoakOptionsTest {

    private static final Path ROOT = Path.of("/repo");

    @Test
    void defaultsToAnHourWithAHalfToTwoSecondPauseAfterEachFaultAndTheRandomSeedGiven() {
        SoakOptions options = SoakOptions.parse(new String[0], ROOT, 42);

        assertThat(options.duration()).isEqualTo(Duration.ofHours(1));
        assertThat(options.faultMin()).isEqualTo(Duration.ofMillis(500));
        assertThat(options.faultMax()).isEqualTo(Duration.ofSeconds(2));
        assertThat(options.seed()).isEqualTo(42);
    }

    @Test
    void readsDurationsWithUnitsAndAFaultIntervalRange() {
        SoakOptions options = SoakOptions.parse(new String[] {"--duration", "90s", "--fault-interval", "500ms..2m",
                "--seed", "-3", "--catch-up-timeout", "1h"}, ROOT, 42);

        assertThat(options.duration()).isEqualTo(Duration.ofSeconds(90));
        assertThat(options.faultMin()).isEqualTo(Duration.ofMillis(500));
        assertThat(options.faultMax()).isEqualTo(Duration.ofMinutes(2));
        assertThat(options.seed()).isEqualTo(-3);
        assertThat(options.catchUpTimeout()).isEqualTo(Duration.ofHours(1));
    }

    @Test
    void rejectsADurationWithoutUnitAndAnInvertedRangeSayingWhatItTakes() {
        assertThatThrownBy(() -> SoakOptions.parse(new String[] {"--duration", "60"}, ROOT, 1))
                .hasMessageContaining("--duration takes a duration with a unit").hasMessageContaining("got '60'");
        assertThatThrownBy(() -> SoakOptions.parse(new String[] {"--fault-interval", "5s..1s"}, ROOT, 1))
                .hasMessageContaining("MIN..MAX with 0 <= MIN <= MAX");
        assertThatThrownBy(() -> SoakOptions.parse(new String[] {"--fault-interval", "5s"}, ROOT, 1))
                .hasMessageContaining("takes MIN..MAX");
        assertThatThrownBy(() -> SoakOptions.parse(new String[] {"--bogus"}, ROOT, 1))
                .hasMessageContaining("unknown argument '--bogus'");
    }
}
