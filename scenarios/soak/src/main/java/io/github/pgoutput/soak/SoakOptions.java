package io.github.pgoutput.soak;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;

/**
 * Command-line options of the soak driver.
 *
 * @param duration       how long the workload runs with faults injected (the catch-up and reconciliation come after)
 * @param faultMin       shortest pause between two faults
 * @param faultMax       longest pause between two faults
 * @param seed           seed of every random choice of the driver (faults, their timing, the workload)
 * @param projectRoot    the repository root: the plugin folder and Kafka's class path file are found under it
 * @param catchUpTimeout how long the connector may take to catch up once faults stop
 */
public record SoakOptions(Duration duration, Duration faultMin, Duration faultMax, long seed, Path projectRoot,
                          Duration catchUpTimeout) {

    static final String USAGE = """
            usage: scenarios/soak.sh [--duration 60m] [--fault-interval 500ms..2s] [--seed N] [--catch-up-timeout 15m]
              Durations take a unit: 90s, 5m, 1h. Without --seed a random seed is chosen (and printed).
              Exits 0 when no change was lost, no aborted or rolled-back change was emitted and every prepared
              transaction's lifecycle is complete; 1 otherwise; 2 on bad arguments.""";

    public SoakOptions {
        if (duration.isNegative() || duration.isZero()) {
            throw new IllegalArgumentException("--duration must be positive, got " + duration);
        }
        if (faultMin.isNegative() || faultMax.compareTo(faultMin) < 0) {
            throw new IllegalArgumentException("--fault-interval must be MIN..MAX with 0 <= MIN <= MAX, got "
                    + faultMin + ".." + faultMax);
        }
    }

    static SoakOptions parse(String[] args, Path projectRoot, long randomSeed) {
        Duration duration = Duration.ofMinutes(60);
        Duration min = Duration.ofMillis(500);
        Duration max = Duration.ofSeconds(2);
        Duration catchUp = Duration.ofMinutes(15);
        long seed = randomSeed;
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            switch (arg) {
                case "--help", "-h" -> throw new IllegalArgumentException(USAGE);
                case "--duration" -> duration = duration(value(args, ++i, arg), arg);
                case "--seed" -> seed = Long.parseLong(value(args, ++i, arg));
                case "--catch-up-timeout" -> catchUp = duration(value(args, ++i, arg), arg);
                case "--fault-interval" -> {
                    String range = value(args, ++i, arg);
                    int dots = range.indexOf("..");
                    if (dots < 0) {
                        throw new IllegalArgumentException("--fault-interval takes MIN..MAX, e.g. 1s..4s; got '"
                                + range + "'\n" + USAGE);
                    }
                    min = duration(range.substring(0, dots), arg);
                    max = duration(range.substring(dots + 2), arg);
                }
                default -> throw new IllegalArgumentException("unknown argument '" + arg + "'\n" + USAGE);
            }
        }
        return new SoakOptions(duration, min, max, seed, projectRoot, catchUp);
    }

    /** {@code 90s}, {@code 5m}, {@code 1h}, {@code 500ms}. */
    static Duration duration(String text, String flag) {
        String t = text.strip().toLowerCase(Locale.ROOT);
        try {
            if (t.endsWith("ms")) {
                return Duration.ofMillis(Long.parseLong(t.substring(0, t.length() - 2)));
            }
            long amount = Long.parseLong(t.substring(0, t.length() - 1));
            return switch (t.charAt(t.length() - 1)) {
                case 's' -> Duration.ofSeconds(amount);
                case 'm' -> Duration.ofMinutes(amount);
                case 'h' -> Duration.ofHours(amount);
                default -> throw new NumberFormatException("no unit");
            };
        } catch (NumberFormatException | StringIndexOutOfBoundsException e) {
            throw new IllegalArgumentException(flag + " takes a duration with a unit (500ms, 90s, 5m, 1h); got '"
                    + text + "'\n" + USAGE);
        }
    }

    private static String value(String[] args, int index, String flag) {
        if (index >= args.length) {
            throw new IllegalArgumentException(flag + " needs a value\n" + USAGE);
        }
        return args[index];
    }
}
