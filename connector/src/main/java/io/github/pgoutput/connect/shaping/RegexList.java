package io.github.pgoutput.connect.shaping;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * A comma-separated list of regular expressions as Debezium reads the values of its column keys
 * ({@code column.include.list}, {@code column.mask.with.N.chars}, ...): split at each comma that no backslash escapes
 * ({@code \,} is a comma inside an expression), each item trimmed, empty items dropped, each expression compiled
 * case-insensitively and matched against the whole name. Kafka's own {@code LIST} type would split at every comma.
 *
 * <p>Immutable and thread-safe.
 */
public final class RegexList {

    public static final RegexList EMPTY = new RegexList(List.of());

    private final List<Pattern> patterns;

    private RegexList(List<Pattern> patterns) {
        this.patterns = List.copyOf(patterns);
    }

    /**
     * @param text the list as configured; null or blank for none
     * @throws IllegalArgumentException naming the expression that does not compile, or an escape at the very end
     */
    public static RegexList parse(String text) {
        if (text == null) {
            return EMPTY;
        }
        List<Pattern> patterns = new ArrayList<>();
        for (String item : split(text)) {
            try {
                patterns.add(Pattern.compile(item, Pattern.CASE_INSENSITIVE));
            } catch (PatternSyntaxException e) {
                throw new IllegalArgumentException("'" + item + "' is not a valid regular expression ("
                        + e.getDescription() + " near index " + e.getIndex() + ")");
            }
        }
        return new RegexList(patterns);
    }

    /** The items of {@code text}: split at unescaped commas, an item that is empty before trimming left out. */
    static List<String> split(String text) {
        List<String> items = new ArrayList<>();
        int start = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\\') {
                if (i + 1 == text.length()) {
                    throw new IllegalArgumentException("the list ends with a lone backslash; escape a comma inside an"
                            + " expression as \\, and a backslash as \\\\");
                }
                i++;
            } else if (c == ',') {
                add(items, text.substring(start, i));
                start = i + 1;
            }
        }
        add(items, text.substring(start));
        return items;
    }

    private static void add(List<String> items, String raw) {
        if (!raw.isEmpty()) {
            items.add(raw.trim().replace("\\,", ","));
        }
    }

    public boolean isEmpty() {
        return patterns.isEmpty();
    }

    /** Whether one of the expressions matches the whole of {@code name}. */
    public boolean matches(String name) {
        for (Pattern pattern : patterns) {
            if (pattern.matcher(name).matches()) {
                return true;
            }
        }
        return false;
    }

    /** The expressions, as configured after splitting and trimming. */
    public List<String> expressions() {
        return patterns.stream().map(Pattern::pattern).toList();
    }
}
