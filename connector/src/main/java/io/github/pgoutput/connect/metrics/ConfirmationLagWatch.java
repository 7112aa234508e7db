package io.github.pgoutput.connect.metrics;

import java.time.Duration;
import java.util.Optional;
import java.util.function.LongSupplier;

import io.github.pgoutput.pgoutput.Lsn;

/**
 * Notices a slot whose confirmed LSN stays behind what the task emitted for longer than a threshold. PostgreSQL keeps
 * every WAL segment from the confirmed position on, so a confirmation that stalls (Kafka not acknowledging, offsets not
 * committed) costs the database disk; the task logs the returned text as a WARN. The warning repeats at most once per
 * threshold while the stall lasts, and the watch resets when the confirmed LSN moves or nothing is pending.
 *
 * <p>Not thread-safe: used from the task thread only. Times come from {@code nanoClock} (as {@link System#nanoTime}).
 */
public final class ConfirmationLagWatch {

    private final String slotName;
    private final long thresholdNanos;
    private final LongSupplier nanoClock;
    private Lsn watchedConfirmed = Lsn.INVALID;
    private long stalledSinceNanos;
    private long lastWarningNanos;
    private boolean stalled;
    private boolean warned;

    public ConfirmationLagWatch(String slotName, Duration threshold, LongSupplier nanoClock) {
        if (threshold.isNegative() || threshold.isZero()) {
            throw new IllegalArgumentException("threshold must be positive, got " + threshold);
        }
        this.slotName = slotName;
        this.thresholdNanos = threshold.toNanos();
        this.nanoClock = nanoClock;
    }

    /**
     * @param confirmed the LSN last confirmed to PostgreSQL (invalid when none yet)
     * @param emitted   the end LSN of the last delivery handed to Connect (invalid when none yet)
     * @return the warning to log, when the confirmation has lagged {@code emitted} for longer than the threshold
     */
    public Optional<String> observe(Lsn confirmed, Lsn emitted) {
        long now = nanoClock.getAsLong();
        boolean pending = emitted.isValid() && emitted.isAfter(confirmed);
        if (!pending || !stalled || !confirmed.equals(watchedConfirmed)) {
            watchedConfirmed = confirmed;
            stalled = pending;
            stalledSinceNanos = now;
            warned = false;
            return Optional.empty();
        }
        long lagging = now - stalledSinceNanos;
        if (lagging < thresholdNanos || (warned && now - lastWarningNanos < thresholdNanos)) {
            return Optional.empty();
        }
        warned = true;
        lastWarningNanos = now;
        return Optional.of("Slot " + slotName + ": confirmed LSN " + (confirmed.isValid() ? confirmed : "none")
                + " has not advanced for " + Duration.ofNanos(lagging).toSeconds() + " s although deliveries up to "
                + emitted + " were handed to Kafka Connect; PostgreSQL retains the WAL after the confirmed LSN until"
                + " Kafka acknowledges those records and Connect commits their offsets (check the producer's errors and"
                + " the worker's offset commits)");
    }
}
