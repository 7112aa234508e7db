package io.github.pgoutput.parity;

import java.util.Locale;
import java.util.Properties;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import io.debezium.spi.converter.CustomConverter;
import io.debezium.spi.converter.RelationalColumn;
import org.apache.kafka.connect.data.SchemaBuilder;

/**
 * A Debezium custom converter as a team would write one, loaded by both connectors in the parity test: from
 * Debezium's plugin folder (the parity build puts its jar there) and from ours (the class path). For the columns
 * {@code columns} names ({@code schema.table.column}, comma-separated): {@code bool} becomes int16 1/0, {@code int4}
 * and {@code serial} a string {@code #<n>}, {@code uuid} the upper-case string with Debezium's UUID schema name,
 * {@code text} its upper case. A null stays null in an optional column; a NOT NULL column gets the type's zero, as a
 * converter must give Debezium a value there (the non-key columns of a key-only delete are null).
 */
public class ParityTestConverter implements CustomConverter<SchemaBuilder, RelationalColumn> {

    private Set<String> columns = Set.of();

    @Override
    public void configure(Properties props) {
        columns = Stream.of(props.getProperty("columns", "").split(",")).map(String::trim).filter(c -> !c.isEmpty())
                .collect(Collectors.toSet());
    }

    /** What a null becomes: null in an optional column, else {@code zero}. */
    private static Object zero(boolean optional, Object zero) {
        return optional ? null : zero;
    }

    @Override
    public void converterFor(RelationalColumn column, ConverterRegistration<SchemaBuilder> registration) {
        if (!columns.contains(column.dataCollection() + "." + column.name())) {
            return;
        }
        boolean optional = column.isOptional();
        switch (column.typeName()) {
            case "bool" -> registration.register(SchemaBuilder.int16(), value -> value != null
                    ? Short.valueOf((short) (Boolean.TRUE.equals(value) ? 1 : 0)) : zero(optional, Short.valueOf((short) 0)));
            case "int4", "serial" -> registration.register(SchemaBuilder.string(), value -> value != null ? "#" + value
                    : zero(optional, "#0"));
            case "uuid" -> registration.register(SchemaBuilder.string().name("io.debezium.postgresql.type.UUID").version(1),
                    value -> value != null ? value.toString().toUpperCase(Locale.ROOT) : zero(optional, ""));
            case "text" -> registration.register(SchemaBuilder.string(), value -> value != null
                    ? value.toString().toUpperCase(Locale.ROOT) : zero(optional, ""));
            default -> {
            }
        }
    }
}
