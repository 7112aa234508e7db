package io.github.pgoutput.connect.shaping;

import io.debezium.spi.converter.ConvertedField;
import io.debezium.spi.converter.CustomConverter;
import io.debezium.spi.converter.RelationalColumn;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.errors.ConnectException;

/**
 * Users' Debezium {@code CustomConverter}s, configured as Debezium configures them ({@code CustomConverterKeys} reads
 * the keys): {@code converters} lists names;
 * for each name {@code <name>.type} is the class (loaded from the connector's plugin class loader, so its jar goes
 * into the connector's plugin folder) and every {@code <name>.*} key, without the prefix, is passed to its
 * {@code configure}. For each column the converters are asked in the listed order; the first that registers a schema
 * and a converter for it replaces the column's schema and values, in the key as in the value. What a converter is
 * handed is described in {@link ConverterInputs}.
 *
 * <p>Thread-safe when the converters are: their schema builders are asked for from the task's thread only.
 */
public final class CustomConverters {

    public static final CustomConverters NONE = new CustomConverters(List.of());

    /**
     * What a converter registered for a column.
     *
     * @param converterName the name it has in {@code converters}
     * @param schema        the field schema it registered, not yet built (the connector adds optionality, default and
     *                      the mapper's parameters)
     * @param converter     its conversion of the column's values
     */
    public record Registration(String converterName, SchemaBuilder schema, CustomConverter.Converter converter) {
    }

    /** One converter and the name {@code converters} gives it. */
    public record Named(String name, CustomConverter<SchemaBuilder, ConvertedField> converter) {
    }

    private final List<Named> converters;

    private CustomConverters(List<Named> converters) {
        this.converters = List.copyOf(converters);
    }

    /** Converters already made (for tests and embedding), in the order they are asked. */
    @SuppressWarnings("unchecked")
    public static CustomConverters of(List<? extends CustomConverter<SchemaBuilder, ? extends ConvertedField>> converters) {
        List<Named> named = new ArrayList<>();
        for (int i = 0; i < converters.size(); i++) {
            named.add(new Named("converter" + i, (CustomConverter<SchemaBuilder, ConvertedField>) converters.get(i)));
        }
        return new CustomConverters(named);
    }

    /** Converters loaded from the configuration, with the names it gives them, in the order they are asked. */
    public static CustomConverters named(List<Named> converters) {
        return new CustomConverters(converters);
    }

    public boolean isEmpty() {
        return converters.isEmpty();
    }

    /**
     * The registration of the first converter that registers one for {@code column}; empty when none does.
     *
     * @throws ConnectException naming the converter and the column when a converter fails or registers something
     *                          other than a {@link SchemaBuilder}
     */
    public Optional<Registration> register(SourceColumn column) {
        for (Named named : converters) {
            AtomicReference<Registration> registered = new AtomicReference<>();
            try {
                named.converter().converterFor(new Column(column), (schema, converter) -> {
                    if (schema == null || converter == null) {
                        throw new ConnectException("registered " + schema + " and " + converter + "; a schema builder"
                                + " (org.apache.kafka.connect.data.SchemaBuilder) and a converter are needed");
                    }
                    registered.set(new Registration(named.name(), schema, converter));
                });
            } catch (RuntimeException e) {
                throw new ConnectException("the custom converter '" + named.name() + "' (" + named.converter().getClass()
                        .getName() + ") failed for column " + column.qualifiedName() + " of type " + column.typeName() + ": "
                        + e.getMessage(), e);
            }
            if (registered.get() != null) {
                return Optional.of(registered.get());
            }
        }
        return Optional.empty();
    }

    /** A column as Debezium hands it to {@code converterFor}. */
    private record Column(SourceColumn column) implements RelationalColumn {

        @Override
        public String name() {
            return column.name();
        }

        @Override
        public String dataCollection() {
            return column.dataCollection();
        }

        @Override
        public int jdbcType() {
            return column.jdbcType();
        }

        @Override
        public int nativeType() {
            return column.nativeType();
        }

        @Override
        public String typeName() {
            return column.typeName();
        }

        @Override
        public String typeExpression() {
            return column.typeExpression();
        }

        @Override
        public OptionalInt length() {
            return column.length() == -1 ? OptionalInt.empty() : OptionalInt.of(column.length());
        }

        @Override
        public OptionalInt scale() {
            return OptionalInt.of(column.scale());
        }

        @Override
        public boolean isOptional() {
            return column.optional();
        }

        @Override
        public Object defaultValue() {
            return column.defaultValue();
        }

        @Override
        public boolean hasDefaultValue() {
            return column.hasDefaultValue();
        }
    }
}
