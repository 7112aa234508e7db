package io.github.pgoutput.soak;

import java.io.IOException;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.function.Consumer;

/**
 * Injects faults one after the other at random pauses (uniform in [min, max]) until a deadline: first one of each kind
 * in a shuffled order, so even a short run has them all, then kinds drawn at random. Between faults it watches the
 * services once a second, and restarts what died by itself (counted apart from the faults). Every random choice comes
 * from the seed; the timing of the services does not, so a seed repeats the sequence of faults, not the run.
 */
final class FaultInjector {

    private final SoakServices services;
    private final SpillBlocker spill;
    private final Random random;
    private final Duration min;
    private final Duration max;
    private final Consumer<String> log;
    private final Map<FaultKind, Integer> injected = new EnumMap<>(FaultKind.class);
    private final Map<String, Integer> unplanned = new java.util.TreeMap<>();
    private final List<String> taskFailures = new ArrayList<>();
    private final long started = System.nanoTime();
    /** Faults deferred because their target was not there at their turn; injected at a later turn. */
    private final Map<FaultKind, Integer> owed = new EnumMap<>(FaultKind.class);

    FaultInjector(SoakServices services, SpillBlocker spill, long seed, Duration min, Duration max,
                  Consumer<String> log) {
        this.services = services;
        this.spill = spill;
        this.random = new Random(seed);
        this.min = min;
        this.max = max;
        this.log = log;
        for (FaultKind kind : FaultKind.values()) {
            injected.put(kind, 0);
            owed.put(kind, 0);
        }
    }

    /** Injects faults until {@code deadlineNanos} (System.nanoTime()); leaves every service running. */
    void run(long deadlineNanos) throws Exception {
        List<FaultKind> firstRound = new ArrayList<>(List.of(FaultKind.values()));
        Collections.shuffle(firstRound, random);
        while (true) {
            long pause = min.toMillis() + (long) (random.nextDouble() * (max.toMillis() - min.toMillis()));
            boolean first = !firstRound.isEmpty();
            FaultKind kind = first ? firstRound.remove(0)
                    : FaultKind.values()[random.nextInt(FaultKind.values().length)];
            long wakeUp = System.nanoTime() + pause * 1_000_000L;
            while (System.nanoTime() < wakeUp) {
                Thread.sleep(Math.min(1000, Math.max(1, (wakeUp - System.nanoTime()) / 1_000_000L)));
                heal();
                // A walsender lives only between the connector's reconnects: catch one when it is there.
                if (owed.get(FaultKind.WALSENDER_TERMINATE) > 0 && tryInject(FaultKind.WALSENDER_TERMINATE)) {
                    owed.merge(FaultKind.WALSENDER_TERMINATE, -1, Integer::sum);
                }
            }
            if (System.nanoTime() >= deadlineNanos) {
                services.awaitRestarts();
                heal();
                return;
            }
            if (first) {
                injectWaitingForTarget(kind);
            } else {
                injectOrDefer(kind);
            }
        }
    }

    /** The first round waits for each target, so that even a short run has every kind at least once. */
    private void injectWaitingForTarget(FaultKind kind) throws Exception {
        services.awaitRestarts();
        long deadline = System.nanoTime() + 120_000_000_000L;
        while (!tryInject(kind)) {
            if (System.nanoTime() > deadline) {
                owed.merge(kind, 1, Integer::sum);
                count(kind + " deferred: its target was not there for 120 s");
                return;
            }
            heal();
            Thread.sleep(500);
        }
    }

    /**
     * Injects a fault owed from an earlier turn if it can be injected now, else {@code kind} if it can, else owes
     * {@code kind} and injects another kind. A kind cannot be injected while its target is not there: no walsender
     * holds the slot (the connector is reconnecting after an earlier fault), or the worker or broker is still booting
     * after its last kill. Waiting for them instead would stretch the time between faults.
     */
    private void injectOrDefer(FaultKind kind) throws Exception {
        for (FaultKind owedKind : mostOwedFirst(owed)) {
            if (tryInject(owedKind)) {
                owed.merge(owedKind, -1, Integer::sum);
                return;
            }
        }
        if (tryInject(kind)) {
            return;
        }
        owed.merge(kind, 1, Integer::sum);
        count(kind + " deferred: its target was not there at its turn");
        FaultKind instead;
        do {
            instead = FaultKind.values()[random.nextInt(FaultKind.values().length)];
        } while (!alwaysAvailable(instead));
        tryInject(instead);
    }

    /**
     * The kinds owed at least once, the most owed first. A fixed order would starve the later kinds: a kind early
     * in it whose target is often there (the worker) would take every turn that an owed kind could have had.
     */
    static List<FaultKind> mostOwedFirst(Map<FaultKind, Integer> owed) {
        return owed.entrySet().stream()
                .filter(e -> e.getValue() > 0)
                .sorted(Map.Entry.<FaultKind, Integer>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()))
                .map(Map.Entry::getKey)
                .toList();
    }

    private static boolean alwaysAvailable(FaultKind kind) {
        return kind != FaultKind.WALSENDER_TERMINATE && kind != FaultKind.WORKER_KILL && kind != FaultKind.BROKER_KILL;
    }

    Map<FaultKind, Integer> injected() {
        return injected;
    }

    /** What failed by itself and was restarted by the driver (worker or broker exits, FAILED tasks), and skips. */
    Map<String, Integer> unplanned() {
        return unplanned;
    }

    List<String> taskFailures() {
        return taskFailures;
    }

    /**
     * Restarts what died by itself (not while a restart of it is under way) and FAILED tasks; returns when nothing
     * was wrong or it was put right.
     */
    void heal() throws Exception {
        if (!services.brokerAlive()) {
            count("broker found dead, started again");
            startAgain(services::startBroker, "broker");
        }
        // A worker started while the broker is away gives up at once ("Failed to connect to and describe Kafka
        // cluster"): start it only once the broker is back, and try again at the next check if it still gives up.
        if (!services.workerAlive() && services.brokerAlive() && !services.brokerRestartUnderWay()) {
            count("worker found dead, started again");
            startAgain(services::startWorker, "worker");
        }
        if (services.restartsUnderWay()) {
            return;
        }
        Optional<SoakServices.TaskState> task = services.taskState();
        if (task.isPresent() && task.get().state().equals("FAILED")) {
            count("task FAILED, restarted by the driver");
            taskFailures.add(elapsed() + " " + task.get().traceFirstLine());
            log.accept(elapsed() + " task FAILED: " + task.get().traceFirstLine() + "; restarting it");
            services.restartTask();
        }
    }

    private interface Start {
        void run() throws IOException, InterruptedException;
    }

    private void startAgain(Start start, String what) throws InterruptedException {
        try {
            start.run();
        } catch (IOException | IllegalStateException e) {
            log.accept(elapsed() + " starting the " + what + " failed, trying again at the next check: "
                    + e.getMessage());
        }
    }

    /**
     * Worker and broker are killed only while the connector streams (worker and broker up, a walsender holds the
     * slot): killing them again while they still boot after the last kill would only keep the connector from ever
     * running, and the soak would test little beyond start-up. On a busy machine a JVM takes 10-30 s to boot.
     */
    private boolean pipelineStreaming() {
        if (services.restartsUnderWay()) {
            return false;
        }
        try {
            return services.slotActive();
        } catch (SQLException e) {
            return false;
        }
    }

    /** Injects {@code kind} unless its target is not there right now; returns whether it did. */
    private boolean tryInject(FaultKind kind) throws Exception {
        long start = System.nanoTime();
        boolean done = switch (kind) {
            case WORKER_KILL -> {
                if (!pipelineStreaming()) {
                    yield false;
                }
                services.killWorker(random.nextInt(2000));
                yield true;
            }
            case BROKER_KILL -> {
                if (!pipelineStreaming()) {
                    yield false;
                }
                services.killBroker(random.nextInt(2000));
                yield true;
            }
            case WALSENDER_TERMINATE -> terminateWalsender(1000);
            case POSTGRES_RESTART_FAST -> {
                int slow = services.restartPostgres("fast");
                if (slow > 0) {
                    count("fast shutdown still waiting after 60 s (waited on)", slow);
                }
                yield true;
            }
            case POSTGRES_RESTART_IMMEDIATE -> {
                services.restartPostgres("immediate");
                yield true;
            }
            case SPILL_UNWRITABLE -> {
                spill.block();
                try {
                    Thread.sleep(2000 + random.nextInt(6000));
                } finally {
                    spill.unblock();
                }
                yield true;
            }
        };
        if (done) {
            record(kind, start);
        }
        return done;
    }

    private void record(FaultKind kind, long start) {
        long millis = (System.nanoTime() - start) / 1_000_000L;
        injected.merge(kind, 1, Integer::sum);
        log.accept(String.format("%s fault %d: %s (%.1f s)", elapsed(), total(), kind, millis / 1000.0));
    }

    /** Terminates the slot's walsender if one holds the slot within {@code waitMillis}. */
    private boolean terminateWalsender(long waitMillis) throws InterruptedException {
        long deadline = System.nanoTime() + waitMillis * 1_000_000L;
        while (true) {
            try {
                if (services.terminateWalsender()) {
                    return true;
                }
            } catch (SQLException e) {
                // PostgreSQL still starting after an earlier fault
            }
            if (System.nanoTime() >= deadline) {
                return false;
            }
            Thread.sleep(250);
        }
    }

    int total() {
        return injected.values().stream().mapToInt(Integer::intValue).sum();
    }

    private void count(String what) {
        count(what, 1);
    }

    private void count(String what, int times) {
        unplanned.merge(what, times, Integer::sum);
        log.accept(elapsed() + " " + what);
    }

    private String elapsed() {
        return String.format("[%7.1f s]", (System.nanoTime() - started) / 1e9);
    }
}
