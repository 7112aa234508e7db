package io.github.pgoutput.connect.shaping;

import java.util.Locale;
import java.util.Properties;

import io.debezium.spi.converter.CustomConverter;
import io.debezium.spi.converter.RelationalColumn;
import org.apache.kafka.connect.data.SchemaBuilder;

/**
 * A custom converter of the kind users write, for the tests: text columns of the tables {@code tables} (a regular
 * expression over {@code schema.table}) become upper case with a schema named {@code schema.name}; booleans become
 * int16 1/0. Records what it was configured with and which columns it was asked about.
 */
public class UpperCaseConverter implements CustomConverter<SchemaBuilder, RelationalColumn> {

    static volatile Properties configured;

    private String tables = ".*";
    private String schemaName;

    @Override
    public void configure(Properties props) {
        configured = props;
        tables = props.getProperty("tables", ".*");
        schemaName = props.getProperty("schema.name");
    }

    @Override
    public void converterFor(RelationalColumn column, ConverterRegistration<SchemaBuilder> registration) {
        if (!column.dataCollection().matches(tables)) {
            return;
        }
        if (column.typeName().equals("text")) {
            SchemaBuilder schema = SchemaBuilder.string();
            if (schemaName != null) {
                schema.name(schemaName);
            }
            registration.register(schema, value -> value == null ? null : value.toString().toUpperCase(Locale.ROOT));
        } else if (column.typeName().equals("bool")) {
            registration.register(SchemaBuilder.int16(), value -> value == null ? null
                    : Short.valueOf((short) (Boolean.TRUE.equals(value) ? 1 : 0)));
        }
    }
}
