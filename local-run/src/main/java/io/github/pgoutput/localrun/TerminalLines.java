package io.github.pgoutput.localrun;

import java.util.ArrayList;
import java.util.List;

/**
 * Text broken into lines of a terminal's width before it is printed, so the terminal never wraps it mid-word: prose
 * at spaces, shell commands between arguments with {@code \} continuations so they still paste as one command. A word
 * (a path, a URL) is never split: one longer than the width stands alone on its line. No I/O.
 */
final class TerminalLines {

    /** The width every line printed outside the redrawn view keeps to. */
    static final int WIDTH = 80;

    private static final String CONTINUATION_INDENT = "  ";
    private static final String CONTINUATION = " \\";

    private TerminalLines() {
    }

    /**
     * {@code text} in lines of at most {@code width} columns, each line after the first indented by two spaces more
     * than the first; each line of a multi-line {@code text} is wrapped on its own, and one that fits is kept as is.
     */
    static List<String> prose(String text, int width) {
        List<String> lines = new ArrayList<>();
        for (String paragraph : text.split("\n", -1)) {
            if (paragraph.length() <= width) {
                // Fits: printed as written, its spacing (a table's columns) kept.
                lines.add(paragraph);
                continue;
            }
            String indent = paragraph.substring(0, paragraph.length() - paragraph.stripLeading().length());
            lines.addAll(fill(List.of(paragraph.strip().split(" +")), width, indent, indent + CONTINUATION_INDENT, ""));
        }
        return lines;
    }

    /**
     * The shell command {@code command}, starting at {@code indent}, in lines of at most {@code width} columns: broken
     * between arguments (an option stays with its value, a quoted argument stays whole), every line but the last
     * ending in {@code \}, so that the lines paste into a shell as the one command.
     */
    static List<String> command(String command, String indent, int width) {
        String nextIndent = indent + CONTINUATION_INDENT;
        List<String> units = new ArrayList<>();
        for (List<String> unit : arguments(command)) {
            String joined = String.join(" ", unit);
            if (nextIndent.length() + joined.length() + CONTINUATION.length() > width) {
                units.addAll(unit); // an option with a long value: the value gets a line of its own
            } else {
                units.add(joined);
            }
        }
        return fill(units, width, indent, nextIndent, CONTINUATION);
    }

    /** Greedy filling: as many units per line as fit with {@code lineEnd} after all but the last line. */
    private static List<String> fill(List<String> units, int width, String firstIndent, String nextIndent,
                                     String lineEnd) {
        List<String> lines = new ArrayList<>();
        StringBuilder line = new StringBuilder(firstIndent);
        boolean empty = true;
        for (int i = 0; i < units.size(); i++) {
            String unit = units.get(i);
            int room = width - (i == units.size() - 1 ? 0 : lineEnd.length());
            if (!empty && line.length() + 1 + unit.length() > room) {
                lines.add(line.append(lineEnd).toString());
                line = new StringBuilder(nextIndent);
                empty = true;
            }
            if (!empty) {
                line.append(' ');
            }
            line.append(unit);
            empty = false;
        }
        lines.add(line.toString());
        return lines;
    }

    /**
     * The command's words (double-quoted parts kept whole) in units that break as one: an option with the value after
     * it ({@code -p 5432}, {@code --topic shop.public.orders}), any other word alone.
     */
    private static List<List<String>> arguments(String command) {
        List<String> words = new ArrayList<>();
        StringBuilder word = new StringBuilder();
        boolean quoted = false;
        for (char c : command.strip().toCharArray()) {
            if (c == '"') {
                quoted = !quoted;
            }
            if (c == ' ' && !quoted) {
                if (!word.isEmpty()) {
                    words.add(word.toString());
                    word.setLength(0);
                }
            } else {
                word.append(c);
            }
        }
        if (!word.isEmpty()) {
            words.add(word.toString());
        }
        List<List<String>> units = new ArrayList<>();
        for (int i = 0; i < words.size(); i++) {
            String current = words.get(i);
            boolean option = current.startsWith("-") && !current.contains("=");
            if (option && i + 1 < words.size() && !words.get(i + 1).startsWith("-")) {
                units.add(List.of(current, words.get(++i)));
            } else {
                units.add(List.of(current));
            }
        }
        return units;
    }
}
