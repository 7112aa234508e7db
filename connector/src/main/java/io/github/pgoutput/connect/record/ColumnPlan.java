package io.github.pgoutput.connect.record;

import java.util.Optional;
import java.util.function.UnaryOperator;

import io.debezium.spi.converter.CustomConverter;
import io.github.pgoutput.connect.shaping.ColumnMapper;
import io.github.pgoutput.connect.shaping.ColumnShaping;
import io.github.pgoutput.connect.shaping.CustomConverters;
import io.github.pgoutput.connect.shaping.SourceColumn;
import io.github.pgoutput.connect.shaping.SourceColumns;
import io.github.pgoutput.converters.ColumnConverter;
import io.github.pgoutput.replication.CatalogColumn;
import io.github.pgoutput.converters.StructFields;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.errors.ConnectException;

/**
 * How one column of one table version becomes fields, decided once per table schema: its converter (the connector's,
 * or a custom converter that registered for it), its field in the value (none when {@code column.include.list} /
 * {@code column.exclude.list} leave it out) with the schema parameters of its mapper, the function its mapper applies
 * to the value's field, and the schema of its key field, which no mapper touches (Debezium's key shows the values the
 * masks hide).
 *
 * @param converter   the connector's converter of the column's type
 * @param custom      the custom converter's conversion, or null when the connector's converter applies
 * @param baseSchema  the field schema before any mapper: the key field's, and what a missing value is filled from
 * @param valueSchema the field schema in {@code before} / {@code after}, or null when the column is left out
 * @param mapping     the mapper's function over the value field's values, or null
 */
record ColumnPlan(ColumnConverter converter, CustomConverter.Converter custom, Schema baseSchema, Schema valueSchema,
                  UnaryOperator<Object> mapping) {

    /** A column no key shapes: the connector's converter, in the value, unmapped. */
    static ColumnPlan plain(ColumnConverter converter, Schema schema) {
        return new ColumnPlan(converter, null, schema, schema, null);
    }

    boolean inValue() {
        return valueSchema != null;
    }

    /**
     * What the custom converter makes of {@code input}.
     *
     * @param column the column and table, for the message of a failure
     * @throws ConnectException naming the column and the input's class when the converter fails
     */
    Object customConvert(Object input, String column) {
        try {
            return custom.convert(input);
        } catch (RuntimeException e) {
            throw new ConnectException("the custom converter of column " + column + " failed on "
                    + (input == null ? "null" : "a " + input.getClass().getName()) + ": " + e, e);
        }
    }

    /** Whether the value field's schema is the connector's schema with a mapper's parameters added. */
    boolean reparameterized() {
        return custom == null && valueSchema != null && valueSchema != baseSchema;
    }

    /** {@code struct}'s fields in a Struct of {@code schema}, a schema equal to its own but for parameters. */
    static Struct restructured(Struct struct, Schema schema) {
        Struct copy = new Struct(schema);
        for (Field field : struct.schema().fields()) {
            StructFields.put(copy, schema.field(field.name()), struct.get(field));
        }
        return copy;
    }

    /**
     * The plan of a column under {@code shaping}.
     *
     * @param plainSchema the field schema the connector makes for it (optionality and default from the catalog)
     * @param keyColumn   whether the column is a key field
     */
    static ColumnPlan of(ColumnShaping shaping, String schema, String table, String name, ColumnConverter converter,
                         Schema plainSchema, Optional<CatalogColumn> catalog, Optional<Object> defaultValue,
                         boolean keyColumn) {
        boolean included = shaping.includes(schema, table, name);
        if (!shaping.describesColumns()) {
            return new ColumnPlan(converter, null, plainSchema, included ? plainSchema : null, null);
        }
        SourceColumn column = SourceColumns.describe(schema, table, name, converter.type(), plainSchema.isOptional(),
                catalog.map(CatalogColumn::defaultExpression).orElse(null), defaultValue.orElse(null));
        Optional<ColumnMapper> mapper = included ? shaping.mapperFor(column) : Optional.empty();
        // As Debezium, the key field and the value field each get a registration: a schema builder is built once.
        Optional<CustomConverters.Registration> forValue = included ? shaping.register(column) : Optional.empty();
        Optional<CustomConverters.Registration> forKey = keyColumn ? shaping.register(column) : Optional.empty();
        CustomConverter.Converter custom = forValue.or(() -> forKey).map(CustomConverters.Registration::converter)
                .orElse(null);
        Schema value = null;
        if (included) {
            value = forValue.map(r -> customSchema(r, column, mapper.orElse(null)))
                    .orElseGet(() -> mapper.map(m -> withParameters(plainSchema, m, column)).orElse(plainSchema));
        }
        // A column that is no key field has no key schema; its value field's serves to fill a missing value.
        Schema base = forKey.map(r -> customSchema(r, column, null))
                .orElseGet(() -> forValue.isPresent() ? null : plainSchema);
        if (base == null) {
            base = value;
        }
        return new ColumnPlan(converter, custom, base, value, mapper.map(m -> m.values(column)).orElse(null));
    }

    /** A custom converter's schema, as Debezium completes it: the mapper's parameters, optionality, the default. */
    private static Schema customSchema(CustomConverters.Registration registration, SourceColumn column, ColumnMapper mapper) {
        SchemaBuilder builder = registration.schema();
        if (mapper != null) {
            mapper.alterSchema(column, builder);
        }
        if (column.optional()) {
            builder.optional();
        }
        if (column.hasDefaultValue() && column.defaultValue() != null) {
            builder.defaultValue(registration.converter().convert(column.defaultValue()));
        }
        return builder.build();
    }

    /** {@code base} with the mapper's parameters after its own, as Debezium's schema builder collects them. */
    static Schema withParameters(Schema base, ColumnMapper mapper, SourceColumn column) {
        SchemaBuilder added = SchemaBuilder.struct();
        mapper.alterSchema(column, added);
        if (added.parameters() == null || added.parameters().isEmpty()) {
            return base;
        }
        SchemaBuilder builder = switch (base.type()) {
            case ARRAY -> SchemaBuilder.array(base.valueSchema());
            case MAP -> SchemaBuilder.map(base.keySchema(), base.valueSchema());
            case STRUCT -> {
                SchemaBuilder struct = SchemaBuilder.struct();
                base.fields().forEach(f -> struct.field(f.name(), f.schema()));
                yield struct;
            }
            default -> new SchemaBuilder(base.type());
        };
        if (base.name() != null) {
            builder.name(base.name());
        }
        if (base.version() != null) {
            builder.version(base.version());
        }
        if (base.doc() != null) {
            builder.doc(base.doc());
        }
        if (base.parameters() != null && !base.parameters().isEmpty()) {
            builder.parameters(base.parameters());
        }
        builder.parameters(added.parameters());
        if (base.isOptional()) {
            builder.optional();
        }
        if (base.defaultValue() != null) {
            builder.defaultValue(base.defaultValue());
        }
        return builder.build();
    }
}
