package io.github.pgoutput.connect.shaping;

import java.util.List;
import java.util.Optional;

/**
 * The column mappers Debezium's column keys configure ({@code ColumnMapperKeys} reads them), and which one applies to
 * a column. As in Debezium, at most one
 * mapper applies: the first whose expressions match, trying the keys in this order, those of one kind sorted by key:
 * {@code column.truncate.to.N.chars}, {@code column.mask.with.N.chars}, {@code column.propagate.source.type},
 * {@code datatype.propagate.source.type}, {@code column.mask.hash.ALGORITHM.with.salt.SALT},
 * {@code column.mask.hash.v2.ALGORITHM.with.salt.SALT}. So a column both masked and named by
 * {@code column.propagate.source.type} is masked and gets no source type parameters, as Debezium writes it.
 *
 * <p>Immutable and thread-safe.
 */
public final class ColumnMappers {

    public static final ColumnMappers NONE = new ColumnMappers(List.of());

    /**
     * One configured mapper and the columns it applies to.
     *
     * @param columns    the expressions a column must match
     * @param byDataType whether they match {@code schema.table.type} ({@code datatype.propagate.source.type}) rather
     *                   than {@code schema.table.column}
     * @param mapper     what it does to a matching column
     */
    public record Rule(RegexList columns, boolean byDataType, ColumnMapper mapper) {

        boolean matches(SourceColumn column) {
            return columns.matches(byDataType ? column.qualifiedTypeName() : column.qualifiedName());
        }
    }

    private final List<Rule> rules;

    private ColumnMappers(List<Rule> rules) {
        this.rules = List.copyOf(rules);
    }

    /** The mappers of {@code rules}, tried in the order given (the configuration's reading decides it). */
    public static ColumnMappers of(List<Rule> rules) {
        return new ColumnMappers(rules);
    }

    /** The mapper of {@code column}: the first rule that matches it. */
    public Optional<ColumnMapper> mapperFor(SourceColumn column) {
        for (Rule rule : rules) {
            if (rule.matches(column)) {
                return Optional.of(rule.mapper());
            }
        }
        return Optional.empty();
    }

    public boolean isEmpty() {
        return rules.isEmpty();
    }
}
