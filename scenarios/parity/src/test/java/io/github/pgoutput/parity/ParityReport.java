package io.github.pgoutput.parity;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The parity report: per mode the number of compared fields and of differences, the differences the allow-list
 * does not accept, the connectors that failed, and every distinct difference path with its count and first
 * example. Pure: the caller writes the text.
 */
public final class ParityReport {

    /**
     * What one mode gave. {@code failures}: connector name to the reason it stopped (empty when none did);
     * {@code unknownKeys}: connector name to the configuration keys its validation does not know (and so ignores).
     */
    public record ModeOutcome(ParityMode mode, RecordComparison.Result result, Map<String, String> failures,
            Map<String, List<String>> unknownKeys) {
    }

    private final List<ModeOutcome> outcomes;
    private final KnownDifferences known;
    private final Map<String, Boolean> accepted = new java.util.HashMap<>();

    public ParityReport(List<ModeOutcome> outcomes, KnownDifferences known) {
        this.outcomes = List.copyOf(outcomes);
        this.known = known;
    }

    /** The differences of {@code outcome} (and its connector failures) that no allow-list entry accepts. */
    public List<Difference> unaccepted(ModeOutcome outcome) {
        List<Difference> left = new ArrayList<>();
        for (Difference difference : all(outcome)) {
            if (!isAccepted(outcome.mode().name(), difference.path())) {
                left.add(difference);
            }
        }
        return left;
    }

    private boolean isAccepted(String mode, String path) {
        return accepted.computeIfAbsent(mode + '\n' + path, k -> known.acceptance(mode, path) != null);
    }

    /**
     * The allow-list entries that match no difference of this run (in the modes they name): what the connector no
     * longer does, safe to remove from the list.
     */
    public List<KnownDifferences.Entry> unusedEntries() {
        java.util.Set<KnownDifferences.Entry> used = new java.util.HashSet<>();
        Map<String, java.util.Set<String>> pathsByMode = new LinkedHashMap<>();
        for (ModeOutcome outcome : outcomes) {
            pathsByMode.put(outcome.mode().name(), distinct(all(outcome)).keySet());
            for (String path : pathsByMode.get(outcome.mode().name())) {
                KnownDifferences.Entry entry = known.acceptance(outcome.mode().name(), path);
                if (entry != null) {
                    used.add(entry);
                }
            }
        }
        return known.entries().stream().filter(e -> !used.contains(e))
                .filter(e -> pathsByMode.entrySet().stream().noneMatch(m -> m.getValue().stream()
                        .anyMatch(path -> e.matches(m.getKey(), path))))
                .toList();
    }

    /**
     * The comparison's differences, plus one per failed connector ({@code connector[<kind>] failed}) and one per
     * configuration key ours ignores ({@code config[ours] <key>}: a Debezium key that does not work as written).
     * Keys only Debezium ignores are ours, not Debezium's ({@code messages.enabled}), and are only reported.
     */
    public static List<Difference> all(ModeOutcome outcome) {
        List<Difference> all = new ArrayList<>();
        outcome.failures().forEach((name, reason) -> all.add(new Difference("connector[" + kind(name) + "] failed",
                kind(name).equals("debezium") ? reason : "running", kind(name).equals("ours") ? reason : "running")));
        outcome.unknownKeys().forEach((name, keys) -> {
            if (kind(name).equals("ours")) {
                keys.forEach(key -> all.add(new Difference("config[ours] " + key, "known", "unknown (ignored)")));
            }
        });
        all.addAll(outcome.result().differences());
        return all;
    }

    private static String kind(String connectorName) {
        return connectorName.startsWith("dbz_") ? "debezium" : "ours";
    }

    /** One line: per mode compared fields, differences and how many the allow-list does not accept. */
    public String summary() {
        return "Debezium parity: " + outcomes.stream().map(o -> o.mode().name() + " " + o.result().comparedFields()
                + " fields, " + all(o).size() + " differences (" + unaccepted(o).size() + " not allowed)")
                .collect(Collectors.joining("; "));
    }

    public String markdown() {
        StringBuilder out = new StringBuilder("# Parity: Debezium 3.7.1 and ours, field by field\n\n");
        out.append("Same tables, workload (`scenarios/parity/src/test/resources/workload.sql`) and Debezium-style configuration;"
                + " JSON converter with schemas. A difference is one field of one record pair; paths name the topic"
                + " without prefix, the record label (op, tombstone, transaction status), and the field"
                + " (`@` marks a schema attribute).\n\n");
        out.append("| mode | settings | compared fields | differences | additions (only ours) | distinct paths | not allowed |\n");
        out.append("|---|---|---|---|---|---|---|\n");
        for (ModeOutcome outcome : outcomes) {
            List<Difference> all = all(outcome);
            out.append("| ").append(outcome.mode().name()).append(" | ").append(cell(outcome.mode().describe()))
                    .append(" | ").append(outcome.result().comparedFields()).append(" | ").append(all.size())
                    .append(" | ").append(all.stream().filter(Difference::isAddition).count())
                    .append(" | ").append(distinct(all).size()).append(" | ").append(unaccepted(outcome).size()).append(" |\n");
        }
        List<KnownDifferences.Entry> unused = unusedEntries();
        out.append("\nAllow-list entries that matched nothing in this run (remove them): ").append(unused.size()).append('\n');
        unused.forEach(e -> out.append("- `[").append(String.join(",", e.modes())).append("] ").append(cell(e.pattern()))
                .append("`\n"));
        for (ModeOutcome outcome : outcomes) {
            out.append("\n## ").append(outcome.mode().name()).append("\n\n").append(cell(outcome.mode().describe())).append("\n\n");
            outcome.failures().forEach((name, reason) -> out.append("- connector `").append(name).append("` stopped: ")
                    .append(cell(reason)).append('\n'));
            outcome.unknownKeys().forEach((name, keys) -> {
                if (!keys.isEmpty()) {
                    out.append("- connector `").append(name).append("` does not know (ignores) ").append(keys.stream()
                            .map(k -> "`" + k + "`").collect(Collectors.joining(", "))).append('\n');
                }
            });
            List<Difference> all = all(outcome);
            out.append("\nBy category: ").append(categories(all).entrySet().stream()
                    .map(e -> e.getKey() + " " + e.getValue()).collect(Collectors.joining(", "))).append("\n\n");
            out.append("| path | records | debezium | ours | allowed |\n|---|---|---|---|---|\n");
            distinct(all).forEach((path, examples) -> {
                Difference first = examples.get(0);
                out.append("| `").append(cell(path)).append("` | ").append(examples.size()).append(" | ")
                        .append(cell(first.debezium())).append(" | ").append(cell(first.ours())).append(" | ")
                        .append(isAccepted(outcome.mode().name(), path) ? "yes" : "**no**").append(" |\n");
            });
        }
        return out.toString();
    }

    /** Differences grouped by path, paths in order. */
    static Map<String, List<Difference>> distinct(List<Difference> differences) {
        Map<String, List<Difference>> byPath = new TreeMap<>();
        for (Difference difference : differences) {
            byPath.computeIfAbsent(difference.path(), p -> new ArrayList<>()).add(difference);
        }
        return byPath;
    }

    /** How many differences fall into each kind, most first. */
    public static Map<String, Long> categories(List<Difference> differences) {
        Map<String, Long> counts = differences.stream().collect(Collectors.groupingBy(ParityReport::category, Collectors.counting()));
        Map<String, Long> sorted = new LinkedHashMap<>();
        counts.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue().reversed()
                .thenComparing(Map.Entry.comparingByKey())).forEach(e -> sorted.put(e.getKey(), e.getValue()));
        return sorted;
    }

    static String category(Difference difference) {
        String path = difference.path();
        if (path.startsWith("connector[")) {
            return "connector failed";
        }
        if (path.startsWith("config[")) {
            return "configuration keys ours ignores";
        }
        if (path.endsWith(" record")) {
            return difference.isAddition() ? "records only ours writes" : "records only Debezium writes";
        }
        if (path.contains(" headers.")) {
            return "headers";
        }
        int at = path.lastIndexOf(".@");
        if (at >= 0) {
            String attribute = path.substring(at + 2);
            return "schema " + (attribute.startsWith("parameters.") ? "parameters" : attribute);
        }
        if (path.contains(".schema")) {
            return difference.isAddition() ? "schema fields only ours has" : "schema fields only one side has";
        }
        return difference.isAddition() ? "payload fields only ours has" : "payload values";
    }

    private static String cell(String text) {
        String flat = text.replace('\n', ' ').replace("|", "\\|");
        return flat.length() <= 120 ? flat : flat.substring(0, 117) + "...";
    }
}
