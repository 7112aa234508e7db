package io.github.pgoutput.connect.shaping;

import java.util.Objects;

/**
 * Which columns of a captured table reach the {@code before} and {@code after} of its records: Debezium's
 * {@code column.include.list} (only the columns it matches) or {@code column.exclude.list} (all but those it matches),
 * each a {@link RegexList} matched case-insensitively against {@code schema.table.column}. The key is not filtered: as
 * in Debezium, a key column left out of the value stays in the key.
 *
 * <p>Immutable and thread-safe.
 */
public final class ColumnSelection {

    /** Every column. */
    public static final ColumnSelection ALL = new ColumnSelection(null, RegexList.EMPTY);

    /** The include list, or null when none is set (then the exclude list decides). */
    private final RegexList include;
    private final RegexList exclude;

    private ColumnSelection(RegexList include, RegexList exclude) {
        this.include = include;
        this.exclude = Objects.requireNonNull(exclude);
    }

    /** Only the columns {@code include} matches. */
    public static ColumnSelection including(RegexList include) {
        return new ColumnSelection(Objects.requireNonNull(include), RegexList.EMPTY);
    }

    /** Every column but those {@code exclude} matches. */
    public static ColumnSelection excluding(RegexList exclude) {
        return exclude.isEmpty() ? ALL : new ColumnSelection(null, exclude);
    }

    public boolean includes(String schema, String table, String column) {
        String name = schema + "." + table + "." + column;
        return include != null ? include.matches(name) : !exclude.matches(name);
    }

    /** Whether some column may be left out: false only for {@link #ALL}. */
    public boolean filters() {
        return this != ALL;
    }
}
