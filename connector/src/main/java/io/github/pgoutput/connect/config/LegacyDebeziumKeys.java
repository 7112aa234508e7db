package io.github.pgoutput.connect.config;

import static io.github.pgoutput.connect.config.DatabaseKeys.DATABASE_DBNAME_CONFIG;
import static io.github.pgoutput.connect.config.RecordKeys.TOPIC_HEARTBEAT_PREFIX_CONFIG;
import static io.github.pgoutput.connect.config.RecordKeys.TOPIC_PREFIX_CONFIG;
import static io.github.pgoutput.connect.config.TableKeys.SCHEMA_EXCLUDE_LIST_CONFIG;
import static io.github.pgoutput.connect.config.TableKeys.SCHEMA_INCLUDE_LIST_CONFIG;
import static io.github.pgoutput.connect.config.TableKeys.TABLE_EXCLUDE_LIST_CONFIG;
import static io.github.pgoutput.connect.config.TableKeys.TABLE_INCLUDE_LIST_CONFIG;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Debezium's names from before 2.0, which Debezium 3.x no longer reads (Kafka Connect passes them on without a word, so
 * Debezium 3.x ignores them), and the database lists some of them were renamed to. This connector reads none of them
 * either, but never silently:
 * <ul>
 *   <li>{@code database.server.name} without {@code topic.prefix}: the error on {@code topic.prefix} says
 *       {@code write topic.prefix=<value>}; with {@code topic.prefix} set, a WARN says it is not read.</li>
 *   <li>a whitelist or blacklist key ({@code table.whitelist}, {@code schema.blacklist}, ...) narrows the capture;
 *       ignoring it would capture more than the configuration asks for, so it fails on its key with the current key
 *       and value to write, unless the current key is set too (Debezium 3.x reads that one, and so does this
 *       connector: a WARN), or the current lists already narrow the capture as much (a schema list whose schemas
 *       every {@code table.include.list} expression names).</li>
 *   <li>{@code database.include.list} / {@code database.exclude.list} (and their old names): this connector captures
 *       one database, {@code database.dbname}; a list that keeps it is accepted with a WARN, one that leaves it out
 *       fails on its key.</li>
 *   <li>{@code heartbeat.topics.prefix}: a WARN naming {@code topic.heartbeat.prefix}.</li>
 * </ul>
 * Values are read as given after {@link EmptyValues}. Stateless.
 */
public final class LegacyDebeziumKeys {

    static final String DATABASE_SERVER_NAME = "database.server.name";
    static final String HEARTBEAT_TOPICS_PREFIX = "heartbeat.topics.prefix";
    static final String DATABASE_INCLUDE_LIST = "database.include.list";
    static final String DATABASE_EXCLUDE_LIST = "database.exclude.list";

    /** A pre-2.0 list key and the key that replaced it. */
    record Renamed(String old, String current, boolean include) {
    }

    static final List<Renamed> RENAMED_LISTS = List.of(
            new Renamed("table.whitelist", TABLE_INCLUDE_LIST_CONFIG, true),
            new Renamed("table.blacklist", TABLE_EXCLUDE_LIST_CONFIG, false),
            new Renamed("schema.whitelist", SCHEMA_INCLUDE_LIST_CONFIG, true),
            new Renamed("schema.blacklist", SCHEMA_EXCLUDE_LIST_CONFIG, false),
            new Renamed("column.whitelist", ColumnKeys.COLUMN_INCLUDE_LIST_CONFIG, true),
            new Renamed("column.blacklist", ColumnKeys.COLUMN_EXCLUDE_LIST_CONFIG, false),
            new Renamed("database.whitelist", DATABASE_INCLUDE_LIST, true),
            new Renamed("database.blacklist", DATABASE_EXCLUDE_LIST, false));

    /** The leading schema of a table expression when it is a plain name: {@code inventory\.orders}, {@code inventory.*}. */
    private static final Pattern LITERAL_SCHEMA = Pattern.compile("([A-Za-z0-9_]+)(\\\\\\.|\\.).*");

    private LegacyDebeziumKeys() {
    }

    /** The keys handled here. */
    static List<String> names() {
        List<String> names = new ArrayList<>(List.of(DATABASE_SERVER_NAME, HEARTBEAT_TOPICS_PREFIX, DATABASE_INCLUDE_LIST,
                DATABASE_EXCLUDE_LIST));
        RENAMED_LISTS.forEach(r -> names.add(r.old()));
        return names;
    }

    /** Whether {@code key} is one of the keys handled here (so that it is not also reported as read by nothing). */
    static boolean handles(String key) {
        return key.equals(DATABASE_SERVER_NAME) || key.equals(HEARTBEAT_TOPICS_PREFIX) || key.equals(DATABASE_INCLUDE_LIST)
                || key.equals(DATABASE_EXCLUDE_LIST) || RENAMED_LISTS.stream().anyMatch(r -> r.old().equals(key));
    }

    /** The errors, each on the key to change. */
    static List<ConfigProblem> problems(Map<String, ?> given) {
        List<ConfigProblem> problems = new ArrayList<>();
        missingTopicPrefix(given).ifPresent(problems::add);
        for (Renamed renamed : RENAMED_LISTS) {
            String value = text(given, renamed.old());
            if (value == null || given.containsKey(renamed.current())) {
                continue;
            }
            if (renamed.current().startsWith("database.")) {
                databaseListProblem(given, renamed.old(), renamed.include()).ifPresent(problems::add);
            } else if (!narrowedAlready(given, renamed)) {
                problems.add(new ConfigProblem(renamed.old(), renamed.old() + "=" + value + " is Debezium's name before 2.0 of "
                        + renamed.current() + "; Debezium 3.x no longer reads it, nor does this connector, and without it more "
                        + (renamed.old().startsWith("column.") ? "columns" : "tables") + " would be captured than the configuration"
                        + " asks for: write " + renamed.current() + "=" + value + " instead"));
            }
        }
        for (String list : List.of(DATABASE_INCLUDE_LIST, DATABASE_EXCLUDE_LIST)) {
            if (text(given, list) != null) {
                databaseListProblem(given, list, list.equals(DATABASE_INCLUDE_LIST)).ifPresent(problems::add);
            }
        }
        return problems;
    }

    /**
     * The error on {@code topic.prefix} when only its pre-2.0 name is given; it replaces ConfigDef's "missing" message,
     * which says nothing about the value the configuration does carry.
     */
    static Optional<ConfigProblem> missingTopicPrefix(Map<String, ?> given) {
        String serverName = text(given, DATABASE_SERVER_NAME);
        if (serverName == null || given.containsKey(TOPIC_PREFIX_CONFIG)) {
            return Optional.empty();
        }
        return Optional.of(new ConfigProblem(TOPIC_PREFIX_CONFIG, TOPIC_PREFIX_CONFIG + " is not set, but " + DATABASE_SERVER_NAME
                + "=" + serverName + " is: that is its name before Debezium 2.0, which Debezium 3.x no longer reads, nor does"
                + " this connector; write " + TOPIC_PREFIX_CONFIG + "=" + serverName + " (the topics are then named as before)"));
    }

    /** The WARNs: keys accepted but not read, and why. */
    static List<String> warnings(Map<String, ?> given) {
        List<String> warnings = new ArrayList<>();
        String serverName = text(given, DATABASE_SERVER_NAME);
        String topicPrefix = text(given, TOPIC_PREFIX_CONFIG);
        if (serverName != null && topicPrefix != null) {
            warnings.add(DATABASE_SERVER_NAME + "=" + serverName + " is not read: it is the name of " + TOPIC_PREFIX_CONFIG
                    + " before Debezium 2.0, and " + TOPIC_PREFIX_CONFIG + "=" + topicPrefix + " names the topics, as in Debezium 3.x;"
                    + " remove " + DATABASE_SERVER_NAME);
        }
        String heartbeatPrefix = text(given, HEARTBEAT_TOPICS_PREFIX);
        if (heartbeatPrefix != null) {
            warnings.add(HEARTBEAT_TOPICS_PREFIX + "=" + heartbeatPrefix + " is not read: Debezium 3.x names the heartbeat topic"
                    + " after " + TOPIC_HEARTBEAT_PREFIX_CONFIG + ", and so does this connector; write " + TOPIC_HEARTBEAT_PREFIX_CONFIG
                    + "=" + heartbeatPrefix + " if that is the prefix you want");
        }
        for (Renamed renamed : RENAMED_LISTS) {
            String value = text(given, renamed.old());
            if (value == null) {
                continue;
            }
            if (given.containsKey(renamed.current())) {
                warnings.add(renamed.old() + "=" + value + " is not read: it is Debezium's name before 2.0 of " + renamed.current()
                        + ", which is set too (" + renamed.current() + "=" + text(given, renamed.current()) + ") and is what Debezium"
                        + " 3.x and this connector read; remove " + renamed.old());
            } else if (!renamed.current().startsWith("database.") && narrowedAlready(given, renamed)) {
                warnings.add(renamed.old() + "=" + value + " is not read (Debezium's name before 2.0 of " + renamed.current()
                        + "), and changes nothing: " + TABLE_INCLUDE_LIST_CONFIG + " only names tables of the schemas it keeps;"
                        + " remove " + renamed.old());
            }
        }
        List<Renamed> databaseLists = new ArrayList<>(List.of(new Renamed(DATABASE_INCLUDE_LIST, DATABASE_INCLUDE_LIST, true),
                new Renamed(DATABASE_EXCLUDE_LIST, DATABASE_EXCLUDE_LIST, false)));
        RENAMED_LISTS.stream().filter(r -> r.current().startsWith("database.") && !given.containsKey(r.current()))
                .forEach(databaseLists::add);
        String dbname = text(given, DATABASE_DBNAME_CONFIG);
        for (Renamed list : databaseLists) {
            String value = text(given, list.old());
            if (value != null && dbname != null && databaseListProblem(given, list.old(), list.include()).isEmpty()) {
                warnings.add(list.old() + "=" + value + " changes nothing: this connector captures one database, "
                        + DATABASE_DBNAME_CONFIG + "=" + dbname + ", which the list keeps; remove " + list.old());
            }
        }
        return warnings;
    }

    /** A database list that leaves out {@code database.dbname}, the one database this connector reads. */
    private static Optional<ConfigProblem> databaseListProblem(Map<String, ?> given, String key, boolean include) {
        String value = text(given, key);
        String dbname = text(given, DATABASE_DBNAME_CONFIG);
        if (value == null || dbname == null) {
            return Optional.empty();
        }
        boolean matches = Arrays.stream(value.split(",")).map(String::trim).filter(e -> !e.isEmpty())
                .anyMatch(e -> pattern(e).matcher(dbname).matches());
        if (include && !matches) {
            return Optional.of(new ConfigProblem(key, key + "=" + value + " does not select " + DATABASE_DBNAME_CONFIG + "=" + dbname
                    + ", and this connector captures exactly that one database: remove " + key + " (if " + value
                    + " names schemas, write " + SCHEMA_INCLUDE_LIST_CONFIG + "=" + value + " instead), or point "
                    + DATABASE_DBNAME_CONFIG + " at the database you mean"));
        }
        if (!include && matches) {
            return Optional.of(new ConfigProblem(key, key + "=" + value + " excludes " + DATABASE_DBNAME_CONFIG + "=" + dbname
                    + ", the one database this connector captures, which would capture nothing: remove " + key
                    + " (if " + value + " names schemas, write " + SCHEMA_EXCLUDE_LIST_CONFIG + "=" + value + " instead)"));
        }
        return Optional.empty();
    }

    /**
     * Whether a pre-2.0 schema list is already honoured by {@code table.include.list}: every expression of it starts
     * with a plain schema name, and that schema is one the old list keeps. Then reading only the table list captures
     * what both together did.
     */
    private static boolean narrowedAlready(Map<String, ?> given, Renamed renamed) {
        String tables = text(given, TABLE_INCLUDE_LIST_CONFIG);
        if (tables == null || !(renamed.current().equals(SCHEMA_INCLUDE_LIST_CONFIG) || renamed.current().equals(SCHEMA_EXCLUDE_LIST_CONFIG))) {
            return false;
        }
        List<Pattern> schemas = Arrays.stream(text(given, renamed.old()).split(",")).map(String::trim).filter(e -> !e.isEmpty())
                .map(LegacyDebeziumKeys::pattern).toList();
        for (String expression : tables.split(",")) {
            Matcher m = LITERAL_SCHEMA.matcher(expression.trim());
            if (!m.matches()) {
                return false;
            }
            boolean listed = schemas.stream().anyMatch(p -> p.matcher(m.group(1)).matches());
            if (listed != renamed.include()) {
                return false;
            }
        }
        return true;
    }

    /** An entry as Debezium reads it: a regular expression ignoring case, or the literal name when it is none. */
    private static Pattern pattern(String entry) {
        try {
            return Pattern.compile(entry, Pattern.CASE_INSENSITIVE);
        } catch (PatternSyntaxException e) {
            return Pattern.compile(Pattern.quote(entry), Pattern.CASE_INSENSITIVE);
        }
    }

    private static String text(Map<String, ?> given, String key) {
        Object value = given.get(key);
        return value == null || value.toString().isBlank() ? null : value.toString().trim();
    }
}
