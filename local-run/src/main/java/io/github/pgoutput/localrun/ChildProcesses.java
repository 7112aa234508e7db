package io.github.pgoutput.localrun;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The processes and clean-up actions this run started, stopped in reverse order by {@link #stopAll()} (called from
 * the shutdown hook on Ctrl-C / SIGTERM, and at the end of a bounded run). Only what was registered here is ever
 * stopped. Thread-safe. Public for the side-by-side benchmark, which stops its Connect worker between runs.
 */
public final class ChildProcesses {

    private final Deque<Runnable> stops = new ArrayDeque<>();
    private boolean stopped;

    /**
     * Starts {@code command} with its output appended to {@code log}; registers it for stopping. After
     * {@link #stopAll()} nothing starts any more: a thread that restarts a process must not outlive the shutdown.
     */
    public synchronized Process start(String name, List<String> command, Path log) throws IOException {
        if (stopped) {
            throw new IllegalStateException("not starting the " + name + ": everything is being stopped");
        }
        Process process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        stops.push(() -> stop(name, process));
        return process;
    }

    /** Registers an action to run at stop time (e.g. {@code pg_ctl stop}). */
    public synchronized void onStop(Runnable action) {
        stops.push(action);
    }

    public synchronized void stopAll() {
        stopped = true;
        while (!stops.isEmpty()) {
            try {
                stops.pop().run();
            } catch (RuntimeException e) {
                System.err.println("while stopping: " + e);
            }
        }
    }

    private static void stop(String name, Process process) {
        if (!process.isAlive()) {
            return;
        }
        process.destroy();
        try {
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                System.err.println(name + " (pid " + process.pid() + ") did not stop in 20 s; killing it");
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
