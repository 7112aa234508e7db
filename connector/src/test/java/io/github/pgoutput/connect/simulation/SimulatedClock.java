package io.github.pgoutput.connect.simulation;

import io.github.pgoutput.connect.TaskClock;
import java.util.concurrent.TimeUnit;

/**
 * The simulation's time: sleeping only moves it on, so the task's idle pauses and reconnect back-off cost no wall
 * time and happen in the same order on every run of a seed. Single-threaded.
 */
final class SimulatedClock implements TaskClock {

    private long nanos = TimeUnit.DAYS.toNanos(1);

    @Override
    public long nanoTime() {
        return nanos;
    }

    @Override
    public void sleep(long millis) {
        advance(millis);
    }

    void advance(long millis) {
        nanos += TimeUnit.MILLISECONDS.toNanos(millis);
    }

    long millis() {
        return TimeUnit.NANOSECONDS.toMillis(nanos);
    }
}
