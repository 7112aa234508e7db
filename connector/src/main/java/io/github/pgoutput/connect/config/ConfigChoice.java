package io.github.pgoutput.connect.config;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;

/**
 * The accepted texts of one enum-valued key, each with the value it stands for, in the order the documentation lists
 * them. The values are the enums of the layers that use them (a snapshot mode is a {@code snapshot.SnapshotMode}),
 * so no connect-side copy of an enum is needed; {@link ConfigChoices} declares one choice per key.
 *
 * <p>Matching ignores case and surrounding blanks, so {@code Prefer} and {@code prefer } both mean {@code prefer}; the
 * error names the key, the value seen and the values accepted. Immutable and thread-safe.
 *
 * @param <T> the parsed value: an enum constant, or {@code Optional<E>} for a key that also accepts {@code auto}
 */
public final class ConfigChoice<T> {

    /** The text of a key whose value the connector picks by itself (empty {@link Optional}). */
    static final String AUTO = "auto";

    private final Map<String, T> valuesByText;
    /** Old spellings still accepted (lower case), each meaning one of the values; not listed by {@link #texts()}. */
    private final Map<String, T> aliases;

    private ConfigChoice(Map<String, T> valuesByText) {
        this(valuesByText, Map.of());
    }

    private ConfigChoice(Map<String, T> valuesByText, Map<String, T> aliases) {
        this.valuesByText = Collections.unmodifiableMap(valuesByText);
        this.aliases = Map.copyOf(aliases);
    }

    /**
     * This choice, also accepting {@code alias} for {@code value}: an old name that configurations still carry. It is
     * parsed like the value's own text but not offered in messages and documentation ({@link #texts()}).
     */
    public ConfigChoice<T> withAlias(String alias, T value) {
        if (!valuesByText.containsValue(value)) {
            throw new IllegalArgumentException(value + " is not one of " + valuesByText.values());
        }
        Map<String, T> more = new LinkedHashMap<>(aliases);
        more.put(alias.toLowerCase(Locale.ROOT), value);
        return new ConfigChoice<>(valuesByText, more);
    }

    /** The value {@code text} is an old name of, when it is one of the aliases. */
    public Optional<T> aliased(Object text) {
        return Optional.ofNullable(text == null ? null : aliases.get(text.toString().trim().toLowerCase(Locale.ROOT)));
    }

    /** Every constant of {@code type}, written as its name in lower case: {@code ALL_TABLES} is {@code all_tables}. */
    public static <E extends Enum<E>> ConfigChoice<E> lowerCase(Class<E> type) {
        return of(type, ConfigChoice::lowerCaseName);
    }

    /** Every constant of {@code type}, written as {@code text} gives it (for spellings other than the lowercase name). */
    public static <E extends Enum<E>> ConfigChoice<E> of(Class<E> type, Function<E, String> text) {
        Map<String, E> values = new LinkedHashMap<>();
        for (E constant : type.getEnumConstants()) {
            values.put(text.apply(constant), constant);
        }
        return new ConfigChoice<>(values);
    }

    /** {@code auto} (the connector decides: empty), then every constant of {@code type} as its lower-case name. */
    public static <E extends Enum<E>> ConfigChoice<Optional<E>> autoOrLowerCase(Class<E> type) {
        Map<String, Optional<E>> values = new LinkedHashMap<>();
        values.put(AUTO, Optional.empty());
        for (E constant : type.getEnumConstants()) {
            values.put(lowerCaseName(constant), Optional.of(constant));
        }
        return new ConfigChoice<>(values);
    }

    /**
     * @throws ConfigException naming {@code key}, the value seen and the values accepted
     */
    public T parse(String key, Object value) {
        String text = value == null ? "" : value.toString().trim();
        for (Map.Entry<String, T> entry : valuesByText.entrySet()) {
            if (entry.getKey().equalsIgnoreCase(text)) {
                return entry.getValue();
            }
        }
        T aliased = aliases.get(text.toLowerCase(Locale.ROOT));
        if (aliased != null) {
            return aliased;
        }
        throw new ConfigException(key, value, "must be one of " + String.join(", ", texts()));
    }

    /** The text a user writes for {@code value}. */
    public String text(T value) {
        for (Map.Entry<String, T> entry : valuesByText.entrySet()) {
            if (entry.getValue().equals(value)) {
                return entry.getKey();
            }
        }
        throw new IllegalArgumentException(value + " is not one of " + valuesByText.values());
    }

    /** The accepted texts in documentation order. */
    public List<String> texts() {
        return new ArrayList<>(valuesByText.keySet());
    }

    /** A validator accepting exactly what {@link #parse} accepts; it shows the accepted values in generated docs. */
    public ConfigDef.Validator validator() {
        return new ConfigDef.Validator() {
            @Override
            public void ensureValid(String name, Object value) {
                parse(name, value);
            }

            @Override
            public String toString() {
                return String.join(", ", texts());
            }
        };
    }

    /** {@link #validator()} for a key that may be left unset (null or blank: the connector decides). */
    public ConfigDef.Validator optionalValidator() {
        ConfigDef.Validator required = validator();
        return new ConfigDef.Validator() {
            @Override
            public void ensureValid(String name, Object value) {
                if (value != null && !value.toString().isBlank()) {
                    required.ensureValid(name, value);
                }
            }

            @Override
            public String toString() {
                return required.toString();
            }
        };
    }

    private static String lowerCaseName(Enum<?> constant) {
        return constant.name().toLowerCase(Locale.ROOT);
    }
}
