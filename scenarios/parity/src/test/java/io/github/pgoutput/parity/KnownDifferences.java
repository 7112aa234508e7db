package io.github.pgoutput.parity;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The differences the parity test accepts for now ({@code known-differences.txt}): sections {@code [<mode>,...]}
 * (or {@code [all]}, for every mode), then one path pattern per line, {@code *} matching any characters, and after
 * {@code #} why the difference is there; {@code {a,b}} in a pattern matches either. Lines that start with {@code #}
 * are comments.
 * <pre>
 * [decimal_string]
 * public.ps_special[*] value.payload.*.n   # NaN is "NaN" here, "NAN" in Debezium
 * </pre>
 */
public final class KnownDifferences {

    public static final String ALL_MODES = "all";
    /** How the topics of captured tables start once the prefix is gone: the workload's tables are in public. */
    private static final String TABLES = "public.";

    /** One accepted pattern. */
    public record Entry(List<String> modes, String pattern, String reason, Pattern regex) {
        /** Whether this entry accepts {@code path} in {@code candidateMode}. */
        public boolean matches(String candidateMode, String path) {
            return (modes.contains(ALL_MODES) || modes.contains(candidateMode)) && regex.matcher(path).matches();
        }
    }

    private final List<Entry> entries;

    private KnownDifferences(List<Entry> entries) {
        this.entries = List.copyOf(entries);
    }

    public static KnownDifferences none() {
        return new KnownDifferences(List.of());
    }

    /** @throws IllegalArgumentException for a pattern before the first section, naming the line */
    public static KnownDifferences parse(String text) {
        List<Entry> entries = new ArrayList<>();
        List<String> modes = null;
        int number = 0;
        for (String line : text.split("\n", -1)) {
            number++;
            String trimmed = line.strip();
            if (trimmed.isEmpty() || trimmed.startsWith("#")) {
                continue;
            }
            if (trimmed.startsWith("[") && trimmed.endsWith("]")) {
                modes = java.util.Arrays.stream(trimmed.substring(1, trimmed.length() - 1).split(","))
                        .map(String::strip).toList();
                continue;
            }
            if (modes == null) {
                throw new IllegalArgumentException("line " + number + " of the known differences comes before any [mode] section: " + trimmed);
            }
            int hash = trimmed.indexOf(" #");
            String pattern = (hash < 0 ? trimmed : trimmed.substring(0, hash)).strip();
            String reason = hash < 0 ? "" : trimmed.substring(hash + 2).strip();
            entries.add(new Entry(modes, pattern, reason, glob(pattern)));
        }
        return new KnownDifferences(entries);
    }

    /** The first entry that accepts {@code path} in {@code mode}, or null. */
    public Entry acceptance(String mode, String path) {
        for (Entry entry : entries) {
            if (entry.matches(mode, path)) {
                return entry;
            }
        }
        return null;
    }

    public List<Entry> entries() {
        return entries;
    }

    /** {@code *} matches any characters, {@code {a,b}} either alternative; everything else is literal. */
    static Pattern glob(String pattern) {
        StringBuilder regex = new StringBuilder();
        StringBuilder literal = new StringBuilder();
        boolean inAlternatives = false;
        for (char c : pattern.toCharArray()) {
            if (c == '*' || c == '{' || (inAlternatives && (c == ',' || c == '}'))) {
                if (literal.length() > 0) {
                    regex.append(Pattern.quote(literal.toString()));
                    literal.setLength(0);
                }
                if (c == '*') {
                    regex.append(".*");
                } else if (c == '{') {
                    regex.append("(?:");
                    inAlternatives = true;
                } else if (c == ',') {
                    regex.append('|');
                } else {
                    regex.append(')');
                    inAlternatives = false;
                }
            } else {
                literal.append(c);
            }
        }
        if (inAlternatives) {
            throw new IllegalArgumentException("pattern with an unclosed '{': " + pattern);
        }
        if (literal.length() > 0) {
            regex.append(Pattern.quote(literal.toString()));
        }
        return Pattern.compile(regex.toString());
    }

    /**
     * Writes an allow-list that accepts every difference of {@code differencesByMode} (modes in run order), each
     * pattern with today's values as its reason. Paths are generalised by {@link #generalise}, a path that several
     * topics share becomes one pattern for any topic, and each pattern goes to the section of exactly the modes it
     * was seen in ({@code [all]} when every mode).
     */
    public static String suggest(Map<String, List<Difference>> differencesByMode) {
        Map<String, Difference> examples = new LinkedHashMap<>();
        Map<String, java.util.Set<String>> modesOf = new LinkedHashMap<>();
        differencesByMode.forEach((mode, differences) -> {
            for (Map.Entry<String, Difference> e : collapseTopics(differences).entrySet()) {
                examples.putIfAbsent(e.getKey(), e.getValue());
                modesOf.computeIfAbsent(e.getKey(), k -> new java.util.LinkedHashSet<>()).add(mode);
            }
        });
        Map<String, List<String>> sections = new LinkedHashMap<>();
        modesOf.forEach((pattern, modes) -> {
            String section = modes.size() == differencesByMode.size() ? ALL_MODES : String.join(",", modes);
            sections.computeIfAbsent(section, k -> new ArrayList<>()).add(pattern);
        });
        StringBuilder out = new StringBuilder();
        sections.entrySet().stream()
                .sorted(java.util.Comparator.comparing((Map.Entry<String, List<String>> e) -> !e.getKey().equals(ALL_MODES))
                        .thenComparing(e -> -e.getKey().split(",").length).thenComparing(Map.Entry::getKey))
                .forEach(section -> {
                    out.append('\n').append('[').append(section.getKey()).append("]\n");
                    section.getValue().stream().sorted().forEach(pattern -> out.append(pattern).append("   # debezium=")
                            .append(shorten(examples.get(pattern).debezium())).append(" ours=")
                            .append(shorten(examples.get(pattern).ours())).append('\n'));
                });
        return out.toString();
    }

    /** Generalised paths of one mode, those that occur for more than one table's topic as {@code public.*[*] ...}. */
    private static Map<String, Difference> collapseTopics(List<Difference> differences) {
        Map<String, Map<String, Difference>> topicsByRest = new LinkedHashMap<>();
        for (Difference difference : differences) {
            String general = generalise(difference.path());
            int space = general.indexOf(' ');
            String topic = space < 0 ? general : general.substring(0, space);
            String rest = space < 0 ? "" : general.substring(space);
            topicsByRest.computeIfAbsent(rest, r -> new LinkedHashMap<>()).putIfAbsent(topic, difference);
        }
        Map<String, Difference> patterns = new LinkedHashMap<>();
        topicsByRest.forEach((rest, topics) -> {
            if (topics.size() > 1 && !rest.equals(" record") && topics.keySet().stream().allMatch(t -> t.startsWith(TABLES))) {
                patterns.put(TABLES + "*[*]" + rest, topics.values().iterator().next());
            } else {
                topics.forEach((topic, example) -> patterns.put(topic + rest, example));
            }
        });
        return patterns;
    }

    /**
     * {@code public.t[u] value.schema.before.x.@name} becomes {@code public.t[*] value.schema.{before,after}.x.@name}:
     * any record label, either side of the envelope. A record only one side writes keeps its topic and label.
     */
    static String generalise(String path) {
        if (path.endsWith(" record")) {
            return path; // a record only one side writes: its topic and label are the point
        }
        return path.replaceFirst("\\[[^\\]]*\\]", "[*]")
                .replaceFirst(" value\\.(schema|payload)\\.(before|after)\\.", " value.$1.{before,after}.");
    }

    static String shorten(String text) {
        String flat = text.replace('\n', ' ');
        return flat.length() <= 80 ? flat : flat.substring(0, 77) + "...";
    }
}
