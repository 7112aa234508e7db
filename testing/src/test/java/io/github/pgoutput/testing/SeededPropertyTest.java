package io.github.pgoutput.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class SeededPropertyTest {

    private static final Pattern REPORTED_SEED = Pattern.compile("with seed (-?\\d+);");

    /** A property that fails for roughly one value in twenty. */
    private static void rarelyFalse(long seed) {
        int drawn = new Random(seed).nextInt(20);
        assertThat(drawn).as("drawn value").isNotZero();
    }

    @Test
    void aFailingPropertyReportsItsSeedAndTheCommandLineThatReplaysIt() {
        AssertionError failure = catchThrowableOfType(AssertionError.class,
                () -> SeededProperty.forEachSeed(10_000, SeededPropertyTest::rarelyFalse, Map.<String, String>of()::get,
                        "SeededPropertyTest#example"));

        long seed = reportedSeed(failure);
        assertThat(failure).hasMessageContaining("-Dtest='SeededPropertyTest#example' -Dproperty.seed=" + seed
                + " -Dproperty.tries=1");
        assertThat(failure.getCause()).isInstanceOf(AssertionError.class).hasMessageContaining("drawn value");
        assertThat(failure).hasMessageContaining("drawn value");
    }

    @Test
    void replayingTheReportedSeedFailsOnTheFirstTryWithTheSameValue() {
        AssertionError first = catchThrowableOfType(AssertionError.class,
                () -> SeededProperty.forEachSeed(10_000, SeededPropertyTest::rarelyFalse, Map.<String, String>of()::get,
                        "SeededPropertyTest#example"));
        long seed = reportedSeed(first);

        Map<String, String> replay = Map.of(SeededProperty.SEED_PROPERTY, Long.toString(seed),
                SeededProperty.TRIES_PROPERTY, "1");
        AssertionError again = catchThrowableOfType(AssertionError.class,
                () -> SeededProperty.forEachSeed(10_000, SeededPropertyTest::rarelyFalse, replay::get, "SeededPropertyTest#example"));

        assertThat(again).hasMessageStartingWith("property failed on try 1 of 1 with seed " + seed + ";");
        assertThat(again.getCause()).hasMessage(first.getCause().getMessage());
    }

    @Test
    void aFixedBaseSeedGivesTheSameSeedsEveryRun() {
        List<Long> firstRun = new ArrayList<>();
        List<Long> secondRun = new ArrayList<>();
        Map<String, String> fixed = Map.of(SeededProperty.SEED_PROPERTY, "42");

        SeededProperty.forEachSeed(100, firstRun::add, fixed::get, "t");
        SeededProperty.forEachSeed(100, secondRun::add, fixed::get, "t");

        assertThat(firstRun).hasSize(100).startsWith(42L).isEqualTo(secondRun);
        assertThat(new HashSet<>(firstRun)).hasSize(100);
    }

    @Test
    void withoutAFixedSeedEachRunDrawsNewSeeds() {
        List<Long> firstRun = new ArrayList<>();
        List<Long> secondRun = new ArrayList<>();

        SeededProperty.forEachSeed(3, firstRun::add, Map.<String, String>of()::get, "t");
        SeededProperty.forEachSeed(3, secondRun::add, Map.<String, String>of()::get, "t");

        assertThat(firstRun).doesNotContainAnyElementsOf(secondRun);
    }

    @Test
    void theTriesPropertyOverridesTheNumberOfTries() {
        List<Long> seeds = new ArrayList<>();

        SeededProperty.forEachSeed(100, seeds::add, Map.of(SeededProperty.TRIES_PROPERTY, "7")::get, "t");

        assertThat(seeds).hasSize(7);
    }

    @Test
    void anExceptionFailsThePropertyLikeAnAssertion() {
        assertThatThrownBy(() -> SeededProperty.check(5, random -> {
            throw new IOException("disk full");
        }))
                .isInstanceOf(AssertionError.class)
                .hasMessageStartingWith("property failed on try 1 of ")
                .hasMessageContaining("-Dtest='SeededPropertyTest#lambda$")
                .hasMessageContaining("java.io.IOException: disk full")
                .hasCauseInstanceOf(IOException.class);
    }

    @Test
    void namesTheCallingTestInTheReplayCommandLine() {
        assertThatThrownBy(() -> SeededProperty.check(1, random -> assertThat(random.nextInt(1)).isEqualTo(1)))
                .hasMessageContaining("-Dtest='SeededPropertyTest#lambda$");
        AssertionError failure = catchThrowableOfType(AssertionError.class, SeededPropertyTest::failingProperty);
        assertThat(failure).hasMessageContaining("-Dtest='SeededPropertyTest#failingProperty' -Dproperty.seed=");
    }

    private static void failingProperty() {
        SeededProperty.check(1, random -> assertThat(random.nextInt(1)).isEqualTo(1));
    }

    @Test
    void refusesSettingsThatAreNotWholeNumbersNamingTheProperty() {
        assertThatThrownBy(() -> SeededProperty.forEachSeed(1, seed -> { }, Map.of(SeededProperty.SEED_PROPERTY, "0x1F")::get, "t"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("-Dproperty.seed is '0x1F'; expected a decimal whole number");
        assertThatThrownBy(() -> SeededProperty.forEachSeed(1, seed -> { }, Map.of(SeededProperty.TRIES_PROPERTY, "0")::get, "t"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("1 or more tries, not 0 (set by -Dproperty.tries)");
    }

    private static long reportedSeed(AssertionError failure) {
        assertThat(failure).isNotNull();
        Matcher matcher = REPORTED_SEED.matcher(failure.getMessage());
        assertThat(matcher.find()).as("seed in: %s", failure.getMessage()).isTrue();
        return Long.parseLong(matcher.group(1));
    }
}
