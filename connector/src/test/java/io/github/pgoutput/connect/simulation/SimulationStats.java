package io.github.pgoutput.connect.simulation;

import java.util.Map;
import java.util.TreeMap;

/** Counters of one run or of many (faults injected by kind, frames, polls...), for the test's report. Not thread-safe. */
final class SimulationStats {

    private final Map<String, Long> faults = new TreeMap<>();
    private final Map<String, Long> counters = new TreeMap<>();

    void fault(String kind) {
        faults.merge(kind, 1L, Long::sum);
    }

    void count(String name) {
        add(name, 1);
    }

    void add(String name, long amount) {
        counters.merge(name, amount, Long::sum);
    }

    void addAll(SimulationStats other) {
        other.faults.forEach((k, v) -> faults.merge(k, v, Long::sum));
        other.counters.forEach((k, v) -> counters.merge(k, v, Long::sum));
    }

    Map<String, Long> faults() {
        return faults;
    }

    long counter(String name) {
        return counters.getOrDefault(name, 0L);
    }

    long faultsTotal() {
        return faults.values().stream().mapToLong(Long::longValue).sum();
    }
}
