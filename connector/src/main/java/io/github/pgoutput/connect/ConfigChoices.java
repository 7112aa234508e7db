package io.github.pgoutput.connect;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;

/**
 * The one helper that turns the text of an enum-valued key into its {@link ConfigChoice} constant, and the
 * {@link ConfigDef.Validator} built on it. Matching ignores case and surrounding blanks, so {@code Prefer} and
 * {@code prefer } both mean {@link SslMode#PREFER}; the error lists the accepted values.
 */
public final class ConfigChoices {

    private ConfigChoices() {
    }

    /**
     * @throws ConfigException naming {@code key}, the value seen and the values accepted
     */
    public static <E extends Enum<E> & ConfigChoice> E parse(Class<E> type, String key, Object value) {
        String text = value == null ? "" : value.toString().trim();
        for (E constant : type.getEnumConstants()) {
            if (constant.configValue().equalsIgnoreCase(text)) {
                return constant;
            }
        }
        throw new ConfigException(key, value, "must be one of " + String.join(", ", values(type)));
    }

    /** The accepted texts in declaration order. */
    public static <E extends Enum<E> & ConfigChoice> List<String> values(Class<E> type) {
        return Arrays.stream(type.getEnumConstants()).map(ConfigChoice::configValue).toList();
    }

    /** A validator accepting exactly what {@link #parse} accepts; it shows the accepted values in generated docs. */
    public static <E extends Enum<E> & ConfigChoice> ConfigDef.Validator validator(Class<E> type) {
        return new ConfigDef.Validator() {
            @Override
            public void ensureValid(String name, Object value) {
                parse(type, name, value);
            }

            @Override
            public String toString() {
                return String.join(", ", values(type));
            }
        };
    }

    static String lowerCase(Enum<?> constant) {
        return constant.name().toLowerCase(Locale.ROOT);
    }
}
