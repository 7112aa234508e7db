package io.github.pgoutput.testing.kafka;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The processes and clean-up actions this run started, stopped in reverse order by {@link #stopAll()} (called from
 * the shutdown hook on Ctrl-C / SIGTERM, and at the end of a bounded run): what was started last depends on what was
 * started before, so the Connect worker stops while its broker still runs, and the broker before PostgreSQL. Only
 * what was registered here is ever stopped. Thread-safe. Public for the side-by-side benchmark, which stops its
 * Connect worker between runs.
 *
 * <p>Each process runs in a session of its own ({@code setsid}): Ctrl-C in a terminal signals the whole foreground
 * process group, and a broker that got SIGINT at the same moment as the worker was gone before the worker had
 * committed its offsets and left its group, so the worker waited for it until it was killed.
 */
public final class ChildProcesses {

    /** How long one process may take to stop after SIGTERM before it is killed. */
    static final Duration STOP_TIMEOUT = Duration.ofSeconds(15);

    private static final Path SETSID = Path.of("/usr/bin/setsid");

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
        List<String> detached = new ArrayList<>();
        if (Files.isExecutable(SETSID)) {
            // Not a process-group leader, so setsid execs in place: the process's pid is the command's.
            detached.add(SETSID.toString());
        }
        detached.addAll(command);
        Process process = new ProcessBuilder(detached).redirectErrorStream(true)
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
        long started = System.nanoTime();
        process.destroy();
        try {
            if (!process.waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                System.err.println(name + " (pid " + process.pid() + ") did not stop in " + STOP_TIMEOUT.toSeconds()
                        + " s; killing it");
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            } else {
                System.out.printf("stopped the %s in %.1f s%n", name, (System.nanoTime() - started) / 1e9);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
