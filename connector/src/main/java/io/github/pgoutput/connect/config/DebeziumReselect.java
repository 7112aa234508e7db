package io.github.pgoutput.connect.config;

import io.github.pgoutput.toast.ToastResolver;
import io.github.pgoutput.toast.UnchangedToastResolution;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Debezium's reselect post processor, as users configure it: {@code post.processors=<name>},
 * {@code <name>.type=io.debezium.processors.reselect.ReselectColumnsPostProcessor} and its {@code <name>.reselect.*}
 * keys. This connector carries it out as {@code unchanged.toast.resolution} (store, unless that key says otherwise):
 * <ul>
 *   <li>{@code reselect.columns.include.list} / {@code exclude.list}: regular expressions (case-insensitive, whole
 *       match) on {@code <schema>.<table>:<column>}, as in Debezium (include wins when both are set): the columns
 *       resolved;</li>
 *   <li>{@code reselect.unavailable.values} (default true): false resolves nothing (resolution none);</li>
 *   <li>{@code reselect.null.values} (Debezium's default true reselects NULL columns): accepted; a NULL that pgoutput
 *       sends is the row's value at the change, so there is nothing to fetch, and a newer value would be wrong;</li>
 *   <li>{@code reselect.use.event.key}: accepted; rows are always found by their replica identity (primary key or
 *       identity index), the one key every change carries and that is unique;</li>
 *   <li>{@code reselect.error.handling.mode} warn (default) or fail: a value that cannot be proven is logged and left
 *       as the placeholder, or fails the task;</li>
 *   <li>{@code reselect.cache.*} (Debezium 3.7's cache): accepted; the store is the cache here.</li>
 * </ul>
 * Any other post processor is refused on {@code post.processors}: it would change the records in ways not done here.
 *
 * @param include         the include list's patterns; empty when unset
 * @param exclude         the exclude list's patterns; empty when unset
 * @param unavailable     {@code reselect.unavailable.values}
 * @param failOnUnproven  {@code reselect.error.handling.mode=fail}
 */
public record DebeziumReselect(List<Pattern> include, List<Pattern> exclude, boolean unavailable, boolean failOnUnproven) {

    static final String POST_PROCESSORS = "post.processors";
    public static final String RESELECT_CLASS = "io.debezium.processors.reselect.ReselectColumnsPostProcessor";
    private static final String TYPE = ".type";
    private static final String INCLUDE = ".reselect.columns.include.list";
    private static final String EXCLUDE = ".reselect.columns.exclude.list";
    private static final String UNAVAILABLE = ".reselect.unavailable.values";
    private static final String NULLS = ".reselect.null.values";
    private static final String USE_EVENT_KEY = ".reselect.use.event.key";
    private static final String ERROR_HANDLING = ".reselect.error.handling.mode";
    private static final String CACHE = ".reselect.cache.";

    /** The reselect post processor {@code props} configure; empty when {@code post.processors} is unset. */
    public static Optional<DebeziumReselect> of(Map<String, ?> props) {
        List<String> names = names(props);
        if (names.isEmpty()) {
            return Optional.empty();
        }
        String name = names.get(0);
        return Optional.of(new DebeziumReselect(patterns(text(props, name + INCLUDE)), patterns(text(props, name + EXCLUDE)),
                !"false".equalsIgnoreCase(text(props, name + UNAVAILABLE)),
                "fail".equalsIgnoreCase(text(props, name + ERROR_HANDLING))));
    }

    /** What {@code unchanged.toast.resolution} is when unset. */
    UnchangedToastResolution resolution() {
        return unavailable ? UnchangedToastResolution.STORE : UnchangedToastResolution.NONE;
    }

    /** The columns resolved, as Debezium selects them. */
    public ToastResolver.ColumnSelection columns() {
        if (include.isEmpty() && exclude.isEmpty()) {
            return ToastResolver.ColumnSelection.ALL;
        }
        return (schema, table, column) -> {
            String name = schema + "." + table + ":" + column;
            if (!include.isEmpty()) {
                return include.stream().anyMatch(p -> p.matcher(name).matches());
            }
            return exclude.stream().noneMatch(p -> p.matcher(name).matches());
        };
    }

    /** Whether this connector reads {@code key} as part of a configured reselect post processor. */
    static boolean reads(String key, Map<String, ?> props) {
        if (key.equals(POST_PROCESSORS)) {
            return true;
        }
        return names(props).stream().anyMatch(name -> key.startsWith(name + "."));
    }

    /** The problems of {@code props}' post processor keys, each on its key. */
    static List<ConfigProblem> problems(Map<String, ?> props) {
        List<ConfigProblem> problems = new ArrayList<>();
        List<String> names = names(props);
        for (String name : names) {
            String type = text(props, name + TYPE);
            if (!RESELECT_CLASS.equals(type)) {
                problems.add(new ConfigProblem(POST_PROCESSORS, POST_PROCESSORS + " names '" + name + "' of type "
                        + (type == null ? "(none: " + name + TYPE + " is unset)" : type) + "; the only post processor this"
                        + " connector carries out is Debezium's reselect (" + name + TYPE + "=" + RESELECT_CLASS
                        + "), as " + ToastKeys.UNCHANGED_TOAST_RESOLUTION_CONFIG + "; remove '" + name
                        + "' or set its type to that class"));
            }
        }
        if (names.size() > 1) {
            problems.add(new ConfigProblem(POST_PROCESSORS, POST_PROCESSORS + " names " + names.size() + " post processors ("
                    + String.join(", ", names) + "); this connector carries out one reselect post processor; keep one"));
        }
        for (String name : names) {
            for (String suffix : List.of(UNAVAILABLE, NULLS, USE_EVENT_KEY)) {
                String value = text(props, name + suffix);
                if (value != null && !value.equalsIgnoreCase("true") && !value.equalsIgnoreCase("false")) {
                    problems.add(new ConfigProblem(name + suffix, name + suffix + "=" + value + " is not a boolean; write true or false"));
                }
            }
            String mode = text(props, name + ERROR_HANDLING);
            if (mode != null && !mode.equalsIgnoreCase("warn") && !mode.equalsIgnoreCase("fail")) {
                problems.add(new ConfigProblem(name + ERROR_HANDLING, name + ERROR_HANDLING + "=" + mode
                        + " is not one of warn, fail (Debezium's values)"));
            }
            for (String suffix : List.of(INCLUDE, EXCLUDE)) {
                String list = text(props, name + suffix);
                if (list == null) {
                    continue;
                }
                try {
                    patterns(list);
                } catch (PatternSyntaxException e) {
                    problems.add(new ConfigProblem(name + suffix, name + suffix + " holds an invalid regular expression ("
                            + e.getDescription() + " in '" + e.getPattern() + "'); each comma-separated entry matches"
                            + " <schema>.<table>:<column>"));
                }
            }
        }
        return problems;
    }

    private static List<String> names(Map<String, ?> props) {
        String names = text(props, POST_PROCESSORS);
        if (names == null) {
            return List.of();
        }
        return Arrays.stream(names.split(",")).map(String::trim).filter(n -> !n.isEmpty()).toList();
    }

    private static String text(Map<String, ?> props, String key) {
        Object value = props.get(key);
        if (value == null || value.toString().isBlank()) {
            return null;
        }
        return value.toString().trim();
    }

    private static List<Pattern> patterns(String list) {
        if (list == null) {
            return List.of();
        }
        return Arrays.stream(list.split(",")).map(String::trim).filter(p -> !p.isEmpty())
                .map(p -> Pattern.compile(p, Pattern.CASE_INSENSITIVE)).toList();
    }
}
