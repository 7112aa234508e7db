package io.github.pgoutput.parity;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The differences the parity test accepts for now ({@code known-differences.txt}): sections {@code [<mode>]} (or
 * {@code [all]}, for every mode), then one path pattern per line, {@code *} matching any characters, and after
 * {@code #} why the difference is there. Lines that start with {@code #} are comments.
 * <pre>
 * [decimal_string]
 * public.ps_special[*] value.payload.*.n   # NaN is "NaN" here, "NAN" in Debezium
 * </pre>
 */
public final class KnownDifferences {

    public static final String ALL_MODES = "all";

    /** One accepted pattern. */
    public record Entry(String mode, String pattern, String reason, Pattern regex) {
        boolean matches(String candidateMode, String path) {
            return (mode.equals(ALL_MODES) || mode.equals(candidateMode)) && regex.matcher(path).matches();
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
        String mode = null;
        int number = 0;
        for (String line : text.split("\n", -1)) {
            number++;
            String trimmed = line.strip();
            if (trimmed.isEmpty() || trimmed.startsWith("#")) {
                continue;
            }
            if (trimmed.startsWith("[") && trimmed.endsWith("]")) {
                mode = trimmed.substring(1, trimmed.length() - 1).strip();
                continue;
            }
            if (mode == null) {
                throw new IllegalArgumentException("line " + number + " of the known differences comes before any [mode] section: " + trimmed);
            }
            int hash = trimmed.indexOf(" #");
            String pattern = (hash < 0 ? trimmed : trimmed.substring(0, hash)).strip();
            String reason = hash < 0 ? "" : trimmed.substring(hash + 2).strip();
            entries.add(new Entry(mode, pattern, reason, glob(pattern)));
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

    static Pattern glob(String pattern) {
        String[] parts = pattern.split("\\*", -1);
        StringBuilder regex = new StringBuilder();
        for (int i = 0; i < parts.length; i++) {
            if (i > 0) {
                regex.append(".*");
            }
            if (!parts[i].isEmpty()) {
                regex.append(Pattern.quote(parts[i]));
            }
        }
        return Pattern.compile(regex.toString());
    }

    /**
     * Writes an allow-list that accepts exactly the distinct paths of {@code differencesByMode} (the record label
     * replaced by {@code *}), each with today's values as its reason; paths seen in every mode go to {@code [all]}.
     */
    public static String suggest(Map<String, List<Difference>> differencesByMode) {
        Map<String, Map<String, Difference>> byMode = new LinkedHashMap<>();
        differencesByMode.forEach((mode, differences) -> {
            Map<String, Difference> patterns = new LinkedHashMap<>();
            for (Difference difference : differences) {
                patterns.putIfAbsent(generalise(difference.path()), difference);
            }
            byMode.put(mode, patterns);
        });
        Map<String, Difference> everywhere = new LinkedHashMap<>();
        if (!byMode.isEmpty()) {
            byMode.values().iterator().next().forEach((pattern, example) -> {
                if (byMode.values().stream().allMatch(p -> p.containsKey(pattern))) {
                    everywhere.put(pattern, example);
                }
            });
        }
        StringBuilder out = new StringBuilder();
        section(out, ALL_MODES, everywhere);
        byMode.forEach((mode, patterns) -> {
            Map<String, Difference> own = new LinkedHashMap<>(patterns);
            own.keySet().removeAll(everywhere.keySet());
            section(out, mode, own);
        });
        return out.toString();
    }

    private static void section(StringBuilder out, String mode, Map<String, Difference> patterns) {
        out.append('\n').append('[').append(mode).append("]\n");
        patterns.entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(e -> out.append(e.getKey())
                .append("   # debezium=").append(shorten(e.getValue().debezium())).append(" ours=")
                .append(shorten(e.getValue().ours())).append('\n'));
    }

    /** {@code public.t[u] value.payload.after.x} becomes {@code public.t[*] value.payload.after.x}. */
    static String generalise(String path) {
        return path.replaceFirst("\\[[^\\]]*\\]", "[*]");
    }

    static String shorten(String text) {
        String flat = text.replace('\n', ' ');
        return flat.length() <= 80 ? flat : flat.substring(0, 77) + "...";
    }
}
