package io.github.pgoutput.localrun;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The layout of the live view on a terminal of a given size, and nothing else (no I/O): every line fits the width
 * (longer text is cut and ends in {@code ...}), and there are never more lines than the height, so the screen neither
 * wraps nor scrolls. Sections from the top: a title with the elapsed time, the commands to try (psql, a console
 * consumer, the connector's status), records per topic, the slot and the spill, the latest records, and the latest
 * activity notes; when lines are short, topics and notes keep a few lines each and the latest records get the rest.
 */
final class LiveScreen {

    static final int DEFAULT_WIDTH = 80;
    static final int DEFAULT_HEIGHT = 24;

    private static final String BOLD = "\033[1m";
    private static final String RESET = "\033[0m";
    private static final String CUT = "...";
    private static final int MAX_TOPIC_LINES = 6;
    private static final int MAX_NOTE_LINES = 4;
    private static final int KEY_COLUMNS = 24;

    private LiveScreen() {
    }

    /**
     * The slot's figures, or {@code problem} ("not created yet", a server error) when they could not be read.
     *
     * @param confirmedFlushLsn, currentLsn as PostgreSQL prints them ({@code 0/1A2B3C8})
     */
    record Slot(String name, Optional<String> problem, String confirmedFlushLsn, String currentLsn, long unconfirmedBytes,
                long retainedWalBytes, boolean active) {

        static Slot unreadable(String name, String problem) {
            return new Slot(name, Optional.of(problem), "", "", 0, 0, false);
        }
    }

    /** One record as the view lists it: its topic and offset, op (or status, or tombstone), key and pg.* headers. */
    record Row(String topic, long offset, String op, String key, Map<String, String> pgHeaders) {
    }

    /**
     * What one redraw shows.
     *
     * @param endpoints lines under the title (the commands to try, wrapped by the caller to the width less the two
     *                  columns of indentation), shown as given but cut to the width
     * @param topicPrefix the connector's topic.prefix, left out of topic names in the latest records
     * @param recordsPerTopic records per topic, in display order
     * @param latest the latest records, oldest first (the newest that fit are shown)
     * @param notes activity notes, oldest first (the newest that fit are shown)
     */
    record Figures(long seconds, List<String> endpoints, String topicPrefix, Map<String, Long> recordsPerTopic,
                   Slot slot, long spillBytes, List<Row> latest, List<String> notes) {
    }

    /** The screen's lines for a {@code width} × {@code height} terminal; headings in bold (ANSI), nothing else. */
    static List<String> render(Figures figures, int width, int height) {
        List<String> top = new ArrayList<>();
        top.add(bold(fit("kafka-connect-pgoutput local run   " + figures.seconds() + " s   Ctrl-C stops everything", width)));
        figures.endpoints().forEach(line -> top.add(fit("  " + line, width)));

        List<String> topics = new ArrayList<>();
        figures.recordsPerTopic().forEach((topic, count) -> topics.add(topicLine(topic, count, width)));
        if (topics.isEmpty()) {
            topics.add(fit("  (no topic yet)", width));
        }
        List<String> slot = slotLines(figures.slot(), figures.spillBytes(), width);
        List<String> notes = figures.notes().stream().map(n -> fit("  " + n, width)).toList();

        // Fixed lines: the top, three headings, the slot's two lines.
        int free = Math.max(0, height - top.size() - 3 - slot.size());
        int noteLines = Math.min(notes.size(), Math.min(MAX_NOTE_LINES, free / 3));
        int topicLines = Math.min(topics.size(), Math.min(MAX_TOPIC_LINES, Math.max(1, free - noteLines - 2)));
        int recordLines = Math.max(0, free - noteLines - topicLines);

        List<String> screen = new ArrayList<>(top);
        screen.add(bold(fit("Records per topic", width)));
        if (topicLines < topics.size()) {
            int shown = Math.max(0, topicLines - 1);
            long hiddenRecords = figures.recordsPerTopic().values().stream().skip(shown).mapToLong(Long::longValue).sum();
            screen.addAll(topics.subList(0, shown));
            screen.add(fit("  ... " + (topics.size() - shown) + " more topics, " + hiddenRecords + " records", width));
        } else {
            screen.addAll(topics);
        }
        screen.addAll(slot);
        screen.add(bold(fit("Latest records", width)));
        List<Row> latest = figures.latest();
        latest.subList(Math.max(0, latest.size() - recordLines), latest.size())
                .forEach(row -> screen.add(recordLine(row, figures.topicPrefix(), width)));
        screen.add(bold(fit("Activity", width)));
        screen.addAll(notes.subList(notes.size() - noteLines, notes.size()));
        return screen.size() <= height ? screen : List.copyOf(screen.subList(0, height));
    }

    private static String topicLine(String topic, long count, int width) {
        String figure = String.format(" %,12d", count);
        return fit("  " + padOrCut(topic, width - 2 - figure.length()) + figure, width);
    }

    private static List<String> slotLines(Slot slot, long spillBytes, int width) {
        String spill = "spill " + bytes(spillBytes) + " on disk";
        if (slot.problem().isPresent()) {
            return List.of(fit("Slot " + slot.name() + ": " + slot.problem().get(), width), fit("  " + spill, width));
        }
        return List.of(
                fit("Slot " + slot.name() + (slot.active() ? " (active)" : " (inactive)") + "   confirmed "
                        + slot.confirmedFlushLsn() + "   current " + slot.currentLsn(), width),
                fit("  unconfirmed " + bytes(slot.unconfirmedBytes()) + "   retained WAL " + bytes(slot.retainedWalBytes())
                        + "   " + spill, width));
    }

    /**
     * {@code  public.orders   #12 c     {"id":3}   xid 745 COMMITTED gid demo}: op in five columns (c, u, d, r, t,
     * BEGIN, END; longer ones cut to four letters and a dot: {@code tomb.}, {@code ROLL.}); the key gets the rest.
     */
    private static String recordLine(Row row, String topicPrefix, int width) {
        String topic = row.topic().startsWith(topicPrefix + ".") ? row.topic().substring(topicPrefix.length() + 1) : row.topic();
        String op = oneLine(row.op()).length() <= 5 ? oneLine(row.op()) : oneLine(row.op()).substring(0, 4) + ".";
        String left = "  " + padOrCut(topic, 18) + " " + String.format("%6s", "#" + row.offset()) + " " + padOrCut(op, 5) + " ";
        StringBuilder right = new StringBuilder();
        Map<String, String> headers = row.pgHeaders();
        if (headers.containsKey("pg.xid")) {
            right.append(" xid ").append(headers.get("pg.xid"));
        }
        if (headers.containsKey("pg.outcome")) {
            right.append(' ').append(headers.get("pg.outcome"));
        }
        if (headers.containsKey("pg.gid")) {
            right.append(" gid ").append(headers.get("pg.gid"));
        }
        // The key is what a user looks for: it keeps at least KEY_COLUMNS (or all it needs), the headers get the rest.
        int room = Math.max(0, width - left.length());
        String key = oneLine(row.key());
        String tail = fit(right.toString(), Math.max(0, room - Math.min(key.length(), KEY_COLUMNS)));
        int keyRoom = Math.max(0, room - tail.length());
        return fit(left + padOrCut(key, keyRoom) + tail, width).stripTrailing();
    }

    /** {@code 0 B}, {@code 980 B}, {@code 64.0 kB}, {@code 1.2 MB}, {@code 3.4 GB}. */
    static String bytes(long bytes) {
        if (bytes < 1000) {
            return bytes + " B";
        }
        String[] units = {"kB", "MB", "GB", "TB"};
        double value = bytes;
        int unit = -1;
        while (value >= 1000 && unit < units.length - 1) {
            value /= 1000;
            unit++;
        }
        return String.format("%.1f %s", value, units[unit]);
    }

    /** {@code text} on one line (control characters as spaces), cut to {@code width} columns. */
    static String fit(String text, int width) {
        String line = oneLine(text);
        if (line.length() <= width) {
            return line;
        }
        return width <= CUT.length() ? line.substring(0, Math.max(0, width)) : line.substring(0, width - CUT.length()) + CUT;
    }

    private static String padOrCut(String text, int width) {
        String line = fit(text, width);
        return line + " ".repeat(Math.max(0, width - line.length()));
    }

    /** Newlines, tabs, escape and other control characters become spaces: a value must not move the cursor. */
    static String oneLine(String text) {
        StringBuilder line = new StringBuilder(text.length());
        text.codePoints().forEach(c -> line.appendCodePoint(Character.isISOControl(c) ? ' ' : c));
        return line.toString();
    }

    private static String bold(String text) {
        return BOLD + text + RESET;
    }
}
