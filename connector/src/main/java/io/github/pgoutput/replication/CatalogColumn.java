package io.github.pgoutput.replication;

import java.util.Objects;
import java.util.Optional;

/**
 * One live column of a table as the catalog holds it when asked: whether it is NOT NULL and its default expression.
 * The Relation message says neither. Immutable.
 *
 * @param name              the column's name
 * @param notNull           {@code pg_attribute.attnotnull}, or the column's type is a domain declared NOT NULL (as
 *                          pgjdbc's {@code DatabaseMetaData.getColumns} reports nullability)
 * @param defaultExpression the default as {@code pg_get_expr} prints it ({@code 'abc'::text}, {@code now()},
 *                          {@code nextval('t_id_seq'::regclass)}); null without a default. A stored generated
 *                          column's expression is reported here too, as pgjdbc does.
 */
public record CatalogColumn(String name, boolean notNull, String defaultExpression) {

    public CatalogColumn {
        Objects.requireNonNull(name, "name");
    }

    public Optional<String> defaultValue() {
        return Optional.ofNullable(defaultExpression);
    }
}
