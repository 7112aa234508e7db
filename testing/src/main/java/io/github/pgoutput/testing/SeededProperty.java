package io.github.pgoutput.testing;

import java.util.Random;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.UnaryOperator;

/**
 * Runs a property: a check over values drawn from a seeded {@link Random}, repeated for a number of tries.
 *
 * <p>Every try has its own seed, derived from a base seed: try 1 uses the base seed itself, later tries mix the base
 * seed with the try's number. The base seed is fresh for every call, so each run explores new values, unless the
 * system property {@value #SEED_PROPERTY} fixes it; {@value #TRIES_PROPERTY} overrides the number of tries of every
 * property. Surefire hands both on from the Maven command line, so a failure is replayed with:
 * <pre>{@code mvn -pl connector test -Dtest='LsnTest#ordersLsnsUnsigned' -Dproperty.seed=-4962768465676381896 -Dproperty.tries=1}</pre>
 *
 * <p>The first try that fails (with an {@link AssertionError} or an exception) ends the property: it throws an
 * AssertionError whose message names the try, its seed and those replay properties, with the original failure as its
 * cause. There is no shrinking, so draw small values often (see {@link RandomValues}) and keep boundary values as
 * explicit cases.
 *
 * <p>Stateless and thread-safe. The {@link Random} handed to a try belongs to that try alone.
 */
public final class SeededProperty {

    /** The system property that fixes the base seed (a decimal long), to replay a reported failure. */
    public static final String SEED_PROPERTY = "property.seed";

    /** The system property that overrides the number of tries (1 or more) of every property. */
    public static final String TRIES_PROPERTY = "property.tries";

    /** One try of a property; it fails by throwing. */
    @FunctionalInterface
    public interface Check {
        void accept(Random random) throws Exception;
    }

    /** One try of a property that builds its own generators from the seed, such as a deterministic simulation. */
    @FunctionalInterface
    public interface SeedCheck {
        void accept(long seed) throws Exception;
    }

    private SeededProperty() {
    }

    /**
     * Runs {@code check} {@code tries} times, each time with a {@link Random} seeded with that try's seed.
     *
     * @throws AssertionError naming the seed and the replay properties, when a try fails
     */
    public static void check(int tries, Check check) {
        forEachSeed(tries, seed -> check.accept(new Random(seed)));
    }

    /**
     * Runs {@code check} {@code tries} times, each time with that try's seed.
     *
     * @throws AssertionError naming the seed and the replay properties, when a try fails
     */
    public static void forEachSeed(int tries, SeedCheck check) {
        forEachSeed(tries, check, System::getProperty, caller());
    }

    /** As {@link #forEachSeed(int, SeedCheck)}, reading the settings from {@code settings}; for the helper's own test. */
    static void forEachSeed(int tries, SeedCheck check, UnaryOperator<String> settings, String test) {
        long base = setting(settings, SEED_PROPERTY, ThreadLocalRandom.current().nextLong());
        long count = setting(settings, TRIES_PROPERTY, tries);
        if (count < 1 || count > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("a property needs 1 or more tries, not " + count
                    + (settings.apply(TRIES_PROPERTY) == null ? "" : " (set by -D" + TRIES_PROPERTY + ")"));
        }
        for (int i = 0; i < count; i++) {
            long seed = seedOfTry(base, i);
            try {
                check.accept(seed);
            } catch (Exception | AssertionError failure) {
                throw new AssertionError("property failed on try " + (i + 1) + " of " + count
                        + " with seed " + seed + "; replay it with -Dtest='" + test + "' -D" + SEED_PROPERTY + "=" + seed
                        + " -D" + TRIES_PROPERTY + "=1" + System.lineSeparator() + failure, failure);
            }
        }
    }

    /** Try 0 runs on the base seed itself, so that fixing the base seed to a reported seed replays that try first. */
    static long seedOfTry(long base, int index) {
        if (index == 0) {
            return base;
        }
        // SplitMix64's finaliser: neighbouring tries get unrelated seeds, also in the low 48 bits Random uses.
        long z = base + index * 0x9E3779B97F4A7C15L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    private static long setting(UnaryOperator<String> settings, String name, long otherwise) {
        String text = settings.apply(name);
        if (text == null || text.isBlank()) {
            return otherwise;
        }
        try {
            return Long.parseLong(text.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("-D" + name + " is '" + text + "'; expected a decimal whole number", e);
        }
    }

    /** The test that called this class, as surefire's -Dtest names it: {@code SimpleClassName#method}. */
    private static String caller() {
        return StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE)
                .walk(frames -> frames.filter(frame -> frame.getDeclaringClass() != SeededProperty.class)
                        .findFirst()
                        .map(frame -> frame.getDeclaringClass().getSimpleName() + "#" + frame.getMethodName())
                        .orElse("?"));
    }
}
