package io.github.pgoutput.soak;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The soak's figures. {@link #passed()} holds when the connector caught up and the three must-be-zero figures are 0.
 *
 * @param committedTransactions workload transactions whose ledger row is in the database at the end
 * @param lostChanges           rows where a table rebuilt from its topic differs from the database
 * @param leakedChanges         records of aborted transactions, rolled-back savepoints or rolled-back prepared
 *                              transactions that reached a table topic as something a consumer applies
 * @param incompleteLifecycles  prepared transactions without PREPARED then the database's outcome on the transaction topic
 * @param preparedTransactions  prepared transactions checked
 * @param endedBeforeSnapshot   of those, left out: no record on any topic, ended before the newest snapshot's
 *                              consistent point (a snapshot taken again), so its result is in the snapshot's rows
 * @param snapshots             snapshots whose records reached the topics (more than 1: the snapshot was taken again)
 * @param duplicates            records that repeat one already written (same delivery, same position in it)
 * @param caughtUp              whether the slot confirmed the final marker and the topics went quiet in time
 */
record SoakReport(long seed, String command, Duration faultPhase, Duration catchUp, Duration wallTime,
                  long committedTransactions, long lostChanges, long leakedChanges, long incompleteLifecycles,
                  long preparedTransactions, long endedBeforeSnapshot, long snapshots, long duplicates, long recordsRead, boolean caughtUp,
                  Map<FaultKind, Integer> faults, Map<String, Integer> unplanned, Map<String, Long> workerLog,
                  String spillMethod, String workload, List<String> examples) {

    boolean passed() {
        return caughtUp && lostChanges == 0 && leakedChanges == 0 && incompleteLifecycles == 0;
    }

    int totalFaults() {
        return faults.values().stream().mapToInt(Integer::intValue).sum();
    }

    String text() {
        StringBuilder out = new StringBuilder();
        out.append("soak result\n");
        out.append(String.format("  command                          %s%n", command));
        out.append(String.format("  seed                             %d%n", seed));
        out.append(String.format("  wall time                        %s (faults %s, catch-up %s)%n", format(wallTime),
                format(faultPhase), format(catchUp)));
        out.append(String.format("  transactions committed           %d%n", committedTransactions));
        out.append(String.format("  changes lost                     %d%s%n", lostChanges, mustBeZero(lostChanges)));
        out.append(String.format("  aborted/rolled-back emitted      %d%s%n", leakedChanges, mustBeZero(leakedChanges)));
        out.append(String.format("  prepared lifecycles incomplete   %d of %d%s%n", incompleteLifecycles,
                preparedTransactions, mustBeZero(incompleteLifecycles)));
        out.append(String.format("    left out: ended before the last of %d snapshot(s), no record on any topic: %d%n",
                snapshots, endedBeforeSnapshot));
        out.append(String.format("  duplicates (counted)             %d of %d records read%n", duplicates, recordsRead));
        out.append(String.format("  caught up after the faults       %s%n", caughtUp ? "yes" : "NO (must be yes)"));
        out.append(String.format("  faults injected                  %d%n", totalFaults()));
        faults.forEach((kind, count) -> out.append(String.format("    %-28s %5d  %s%n", kind, count, kind.description)));
        out.append(String.format("  restarted/deferred by the driver %s%n", unplanned.isEmpty() ? "nothing"
                : unplanned.entrySet().stream().map(e -> e.getKey() + ": " + e.getValue())
                .collect(Collectors.joining(", "))));
        out.append("  worker log\n");
        workerLog.forEach((what, count) -> out.append(String.format("    %-54s %6d%n", what, count)));
        out.append(String.format("  spill fault method               %s%n", spillMethod));
        out.append("  workload transactions by kind\n").append(workload);
        if (!examples.isEmpty()) {
            out.append("  first differences found\n");
            examples.forEach(e -> out.append("    ").append(e).append('\n'));
        }
        out.append(passed() ? "RESULT: PASS\n" : "RESULT: FAIL\n");
        return out.toString();
    }

    private static String mustBeZero(long value) {
        return value == 0 ? "" : "   (MUST BE 0)";
    }

    static String format(Duration duration) {
        long seconds = duration.toSeconds();
        return seconds >= 60 ? (seconds / 60) + " min " + (seconds % 60) + " s" : seconds + " s";
    }
}
