package io.github.pgoutput.connect.shaping;

import java.util.Objects;
import java.util.Optional;

/**
 * What Debezium's column keys do to the records of a table, as one object the record builder asks per column when it
 * builds a table's schemas: whether the column is in the value ({@link ColumnSelection}), which mapper changes its
 * field ({@link ColumnMappers}), and which custom converter replaces its schema and values ({@link CustomConverters}).
 * Nothing here is asked per record: the answers are kept in the table's schemas.
 *
 * <p>Immutable; thread-safe when the custom converters are.
 */
public final class ColumnShaping {

    /** No column key set: every column, as the connector converts it. */
    public static final ColumnShaping NONE = new ColumnShaping(ColumnSelection.ALL, ColumnMappers.NONE, CustomConverters.NONE);

    private final ColumnSelection selection;
    private final ColumnMappers mappers;
    private final CustomConverters converters;

    public ColumnShaping(ColumnSelection selection, ColumnMappers mappers, CustomConverters converters) {
        this.selection = Objects.requireNonNull(selection, "selection");
        this.mappers = Objects.requireNonNull(mappers, "mappers");
        this.converters = Objects.requireNonNull(converters, "converters");
    }

    /** Whether the column is in the table's {@code before} and {@code after}. */
    public boolean includes(String schema, String table, String column) {
        return selection.includes(schema, table, column);
    }

    /** Whether a mapper or converter may apply to some column, so the record builder describes columns for them. */
    public boolean describesColumns() {
        return !mappers.isEmpty() || !converters.isEmpty();
    }

    public Optional<ColumnMapper> mapperFor(SourceColumn column) {
        return mappers.mapperFor(column);
    }

    /** A new registration of the first custom converter that takes {@code column}, with a schema builder of its own. */
    public Optional<CustomConverters.Registration> register(SourceColumn column) {
        return converters.isEmpty() ? Optional.empty() : converters.register(column);
    }

    public ColumnSelection selection() {
        return selection;
    }
}
