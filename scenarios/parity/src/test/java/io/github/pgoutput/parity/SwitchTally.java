package io.github.pgoutput.parity;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What a consumer of the change topics got from connectors that took turns on one slot, against the events a
 * workload committed ({@link SwitchWorkload}). Each topic's records fall in runs of one connector each, numbered from
 * 0 in the order they were written (Debezium's first, then ours after a switch, then Debezium's again after a
 * rollback, ...), so a duplicate is told by the handover it crossed: an event in run 0 and again in run 1 came twice
 * across the first switch.
 *
 * @param committed  events committed
 * @param missing    events committed that no record carries
 * @param duplicates records beyond the first of an event, by the runs of the earlier and the later record
 * @param unexpected streamed events in the topics that were never committed
 * @param runs       per run number, whose it is ({@code ours} or {@code debezium}) and how many records it has, over all
 *                   topics
 * @param ourSnapshotRows snapshot rows ({@code op r}) of ours: the switch must not take a snapshot
 */
record SwitchTally(int committed, Set<String> missing, Map<Boundary, Long> duplicates, Set<String> unexpected,
                   Map<Integer, String> runs, long ourSnapshotRows) {

    /** The runs of two records of one event. */
    record Boundary(int from, int to) implements Comparable<Boundary> {
        @Override
        public int compareTo(Boundary other) {
            return Comparator.comparingInt(Boundary::from).thenComparingInt(Boundary::to).compare(this, other);
        }

        @Override
        public String toString() {
            return "run " + from + " -> run " + to;
        }
    }

    static SwitchTally of(List<TopicCollector.Seen> seen, Set<String> committed) {
        Map<String, List<TopicCollector.Seen>> byTopic = new TreeMap<>();
        seen.forEach(s -> byTopic.computeIfAbsent(s.topic(), t -> new ArrayList<>()).add(s));
        Map<String, List<Integer>> runsOfEvent = new LinkedHashMap<>();
        Map<Integer, String> runs = new TreeMap<>();
        Map<Integer, Long> runSizes = new TreeMap<>();
        long ourSnapshotRows = 0;
        for (List<TopicCollector.Seen> records : byTopic.values()) {
            records.sort(Comparator.comparingLong(TopicCollector.Seen::offset));
            int run = -1;
            Boolean ours = null;
            for (TopicCollector.Seen record : records) {
                if (ours == null || ours != record.ours()) {
                    ours = record.ours();
                    run++;
                }
                String owner = ours ? "ours" : "debezium";
                String earlier = runs.putIfAbsent(run, owner);
                if (earlier != null && !earlier.equals(owner)) {
                    throw new AssertionError("run " + run + " is " + earlier + "'s in one topic and " + owner + "'s in " + record.topic());
                }
                runSizes.merge(run, 1L, Long::sum);
                if (record.op().equals("r")) {
                    ourSnapshotRows += ours ? 1 : 0;
                } else {
                    runsOfEvent.computeIfAbsent(record.event(), e -> new ArrayList<>()).add(run);
                }
            }
        }
        Map<Boundary, Long> duplicates = new TreeMap<>();
        runsOfEvent.values().forEach(list -> {
            for (int i = 1; i < list.size(); i++) {
                duplicates.merge(new Boundary(list.get(i - 1), list.get(i)), 1L, Long::sum);
            }
        });
        Set<String> missing = new TreeSet<>(committed);
        missing.removeAll(runsOfEvent.keySet());
        Set<String> unexpected = new TreeSet<>(runsOfEvent.keySet());
        unexpected.removeAll(new HashSet<>(committed));
        Map<Integer, String> described = new TreeMap<>();
        runs.forEach((run, owner) -> described.put(run, owner + " (" + runSizes.get(run) + " records)"));
        return new SwitchTally(committed.size(), missing, duplicates, unexpected, described, ourSnapshotRows);
    }

    /** Duplicates across {@code from -> to}. */
    long duplicates(int from, int to) {
        return duplicates.getOrDefault(new Boundary(from, to), 0L);
    }

    long allDuplicates() {
        return duplicates.values().stream().mapToLong(Long::longValue).sum();
    }

    /** One line for the test's output. */
    String summary() {
        return committed + " events committed, " + missing.size() + " missing" + (missing.isEmpty() ? "" : " (first: "
                + missing.stream().limit(5).toList() + ")") + ", duplicates " + (duplicates.isEmpty() ? "none" : duplicates)
                + ", unexpected " + unexpected.size() + ", runs " + runs + ", snapshot rows of ours " + ourSnapshotRows;
    }
}
