package io.github.pgoutput.snapshot;

import io.github.pgoutput.replication.TableName;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * Where an incremental snapshot stands: the tables still to read (the first is being read), the key of the last row
 * emitted from it, and whether a {@code pause-snapshot} holds it. It travels in the offset of every record while a
 * snapshot is under way (the source offset's {@code incremental_snapshot}), so a
 * restarted task reads on after the last row Kafka has, not from the start. Immutable.
 *
 * <p>Text form: {@code paused|key|tables}, each part's items separated by commas and URL-encoded (so the separators
 * inside names, keys and conditions are encoded), a key value behind a {@code v}, a table as
 * {@code schema:table:condition}.
 *
 * @param tables the tables still to read, in order; empty when no snapshot is under way
 * @param after  the key of the last row emitted from the first table; empty before its first row
 */
public record IncrementalSnapshotState(List<Table> tables, List<String> after, boolean paused) {

    /** A table to read, with the {@code additional-conditions} filter of its signal (null for every row). */
    record Table(TableName name, String condition) {
        Table {
            Objects.requireNonNull(name, "name");
            condition = condition == null || condition.isBlank() ? null : condition;
        }
    }

    static final IncrementalSnapshotState NONE = new IncrementalSnapshotState(List.of(), List.of(), false);

    public IncrementalSnapshotState {
        tables = List.copyOf(tables);
        after = List.copyOf(after);
    }

    public boolean active() {
        return !tables.isEmpty();
    }

    /** The table being read; only when {@link #active()}. */
    Table current() {
        return tables.get(0);
    }

    /** With {@code added} queued after the tables already queued (a table queued already is not queued twice). */
    IncrementalSnapshotState with(List<Table> added) {
        List<Table> all = new ArrayList<>(tables);
        for (Table t : added) {
            if (all.stream().noneMatch(q -> q.name().equals(t.name()))) {
                all.add(t);
            }
        }
        return new IncrementalSnapshotState(all, after, paused);
    }

    /** Without the tables {@code stopped} accepts; the current table's key goes when it is one of them. */
    IncrementalSnapshotState without(java.util.function.Predicate<TableName> stopped) {
        if (!active()) {
            return this;
        }
        boolean currentStays = !stopped.test(current().name());
        List<Table> left = tables.stream().filter(t -> !stopped.test(t.name())).toList();
        return new IncrementalSnapshotState(left, currentStays ? after : List.of(), paused && !left.isEmpty());
    }

    /** The current table read through the row with key {@code key}. */
    IncrementalSnapshotState readThrough(List<String> key) {
        return new IncrementalSnapshotState(tables, key, paused);
    }

    /** The current table done: the next one is read from its first row. */
    IncrementalSnapshotState tableDone() {
        List<Table> left = tables.subList(1, tables.size());
        return new IncrementalSnapshotState(left, List.of(), paused && !left.isEmpty());
    }

    IncrementalSnapshotState paused(boolean value) {
        return new IncrementalSnapshotState(tables, after, value && active());
    }

    String encode() {
        return encode(tablesPart(tables));
    }

    /** {@link #encode()} with the text of its tables, {@link #tablesPart}, made once for all rows of a chunk. */
    String encode(String tablesPart) {
        StringBuilder sb = new StringBuilder(paused ? "paused" : "running").append('|');
        // Each key value behind a "v", so that one empty text value is told from no key at all.
        for (int i = 0; i < after.size(); i++) {
            sb.append(i == 0 ? "v" : ",v").append(enc(after.get(i)));
        }
        return sb.append('|').append(tablesPart).toString();
    }

    /** The text form of {@code tables}, the last part of {@link #encode()}. */
    static String tablesPart(List<Table> tables) {
        return String.join(",", tables.stream().map(t -> enc(t.name().schema()) + ":" + enc(t.name().table()) + ":"
                + (t.condition() == null ? "" : enc(t.condition()))).toList());
    }

    /** @throws IllegalArgumentException when {@code text} is not what {@link #encode()} writes */
    static IncrementalSnapshotState decode(String text) {
        String[] parts = text.split("\\|", -1);
        if (parts.length != 3 || !(parts[0].equals("paused") || parts[0].equals("running"))) {
            throw new IllegalArgumentException("not an incremental snapshot position: " + text);
        }
        List<String> key = parts[1].isEmpty() ? List.of() : Arrays.stream(parts[1].split(",", -1)).map(v -> {
            if (!v.startsWith("v")) {
                throw new IllegalArgumentException("not an incremental snapshot position: " + text);
            }
            return dec(v.substring(1));
        }).toList();
        List<Table> tables = new ArrayList<>();
        if (!parts[2].isEmpty()) {
            for (String entry : parts[2].split(",", -1)) {
                String[] t = entry.split(":", -1);
                if (t.length != 3) {
                    throw new IllegalArgumentException("not an incremental snapshot position: " + text);
                }
                tables.add(new Table(new TableName(dec(t[0]), dec(t[1])), t[2].isEmpty() ? null : dec(t[2])));
            }
        }
        return new IncrementalSnapshotState(tables, key, parts[0].equals("paused"));
    }

    /** {@code tables} as text: each {@code schema:table}, URL-encoded, separated by commas. */
    static String encodeTables(java.util.Collection<TableName> tables) {
        return String.join(",", tables.stream().map(t -> enc(t.schema()) + ":" + enc(t.table())).toList());
    }

    /** @throws IllegalArgumentException when {@code text} is not what {@link #encodeTables} writes */
    static List<TableName> decodeTables(String text) {
        List<TableName> tables = new ArrayList<>();
        if (text.isEmpty()) {
            return tables;
        }
        for (String entry : text.split(",", -1)) {
            String[] t = entry.split(":", -1);
            if (t.length != 2) {
                throw new IllegalArgumentException("not a list of tables: " + text);
            }
            tables.add(new TableName(dec(t[0]), dec(t[1])));
        }
        return tables;
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    private static String dec(String s) {
        return URLDecoder.decode(s, StandardCharsets.UTF_8);
    }
}
