package io.github.pgoutput.connect;

import java.util.concurrent.TimeUnit;

/**
 * The task's sense of time: back-off deadlines, heartbeat intervals and the idle pause of {@code poll()}. The system
 * clock in production; a simulated one in the deterministic simulation, where sleeping only moves the clock on.
 */
public interface TaskClock {

    /** Monotonic nanoseconds, as {@link System#nanoTime()}. */
    long nanoTime();

    /** Pauses the task thread for {@code millis}. */
    void sleep(long millis) throws InterruptedException;

    TaskClock SYSTEM = new TaskClock() {
        @Override
        public long nanoTime() {
            return System.nanoTime();
        }

        @Override
        public void sleep(long millis) throws InterruptedException {
            TimeUnit.MILLISECONDS.sleep(millis);
        }
    };
}
