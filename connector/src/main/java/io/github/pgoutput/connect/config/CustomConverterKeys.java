package io.github.pgoutput.connect.config;

import static io.github.pgoutput.connect.config.ColumnKeys.CONVERTER_TYPE_SUFFIX;

import io.debezium.spi.converter.ConvertedField;
import io.debezium.spi.converter.CustomConverter;
import io.github.pgoutput.connect.shaping.CustomConverters;
import java.lang.reflect.InvocationTargetException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.connect.data.SchemaBuilder;

/**
 * Reads the keys of users' Debezium {@code CustomConverter}s as Debezium does: {@code converters} lists names; for
 * each name {@code <name>.type} is the class (loaded from the connector's plugin class loader) and every
 * {@code <name>.*} key, without the prefix, is passed to its {@code configure}.
 *
 * <p>Stateless.
 */
public final class CustomConverterKeys {

    private CustomConverterKeys() {
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
        List<CustomConverters.Named> loaded = new ArrayList<>();
        for (String name : names) {
            loaded.add(new CustomConverters.Named(name, instantiate(name, props, loader)));
        }
        return CustomConverters.named(loaded);
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
}
