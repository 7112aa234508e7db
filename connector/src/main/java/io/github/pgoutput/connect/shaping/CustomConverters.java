package io.github.pgoutput.connect.shaping;

import java.lang.reflect.InvocationTargetException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicReference;

import static io.github.pgoutput.connect.PgOutputSourceConnectorConfig.CONVERTER_TYPE_SUFFIX;

import io.debezium.spi.converter.ConvertedField;
import io.debezium.spi.converter.CustomConverter;
import io.debezium.spi.converter.RelationalColumn;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.errors.ConnectException;

/**
 * Users' Debezium {@code CustomConverter}s, configured as Debezium configures them: {@code converters} lists names;
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

    private record Named(String name, CustomConverter<SchemaBuilder, ConvertedField> converter) {
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

    /** The names {@code value} (of {@code converters}) lists: comma-separated, trimmed, blank ones left out. */
    public static List<String> names(Object value) {
        if (value == null) {
            return List.of();
        }
        List<String> names = new ArrayList<>();
        for (String name : value.toString().split(",")) {
            if (!name.isBlank()) {
                names.add(name.trim());
            }
        }
        return names;
    }

    /**
     * Loads, instantiates and configures the converters {@code names} lists.
     *
     * @param props  the connector configuration, for each converter's {@code <name>.*} keys
     * @param loader the class loader of the connector's plugin
     * @throws ShapingKeyException on {@code <name>.type} when it is missing, names no loadable class, a class that
     *                             is not a {@code CustomConverter} or cannot be instantiated, or when configuring fails
     */
    public static CustomConverters load(List<String> names, Map<String, ?> props, ClassLoader loader) {
        List<Named> loaded = new ArrayList<>();
        for (String name : names) {
            loaded.add(new Named(name, instantiate(name, props, loader)));
        }
        return new CustomConverters(loaded);
    }

    @SuppressWarnings("unchecked")
    private static CustomConverter<SchemaBuilder, ConvertedField> instantiate(String name, Map<String, ?> props,
                                                                              ClassLoader loader) {
        String key = name + CONVERTER_TYPE_SUFFIX;
        Object value = props.get(key);
        if (value == null || value.toString().isBlank()) {
            throw new ShapingKeyException(key, "converters lists '" + name + "', but " + key + " is not set; set it to the"
                    + " converter's class (an implementation of " + CustomConverter.class.getName() + ")");
        }
        String className = value.toString().trim();
        Class<?> type;
        try {
            type = Class.forName(className, false, loader);
        } catch (ClassNotFoundException | LinkageError e) {
            throw new ShapingKeyException(key, key + "=" + className + ": the class " + (e instanceof ClassNotFoundException
                    ? "is not found" : "cannot be loaded (" + e + ")") + " in the connector's plugin; put the converter's"
                    + " jar and its dependencies into the connector's plugin folder, next to its jars, and restart the"
                    + " worker, or correct the class name", e);
        }
        if (!CustomConverter.class.isAssignableFrom(type)) {
            throw new ShapingKeyException(key, key + "=" + className + " does not implement " + CustomConverter.class.getName()
                    + " (Debezium's converter SPI, as this connector loads it); give a class that implements it, and do not"
                    + " put another copy of debezium-api into the plugin folder");
        }
        CustomConverter<SchemaBuilder, ConvertedField> converter;
        try {
            converter = (CustomConverter<SchemaBuilder, ConvertedField>) type.getDeclaredConstructor().newInstance();
        } catch (NoSuchMethodException | InstantiationException | IllegalAccessException e) {
            throw new ShapingKeyException(key, key + "=" + className + " cannot be instantiated: it needs a public"
                    + " constructor without arguments (" + e + ")", e);
        } catch (InvocationTargetException e) {
            throw new ShapingKeyException(key, key + "=" + className + ": its constructor failed: " + e.getCause(), e);
        }
        Properties properties = new Properties();
        String prefix = name + ".";
        props.forEach((k, v) -> {
            if (k.startsWith(prefix) && v != null) {
                properties.setProperty(k.substring(prefix.length()), v.toString());
            }
        });
        try {
            converter.configure(properties);
        } catch (RuntimeException e) {
            throw new ShapingKeyException(key, key + "=" + className + ": configuring it with the " + prefix + "* keys "
                    + properties.stringPropertyNames() + " failed: " + e.getMessage() + "; correct those keys", e);
        }
        return converter;
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
