package io.github.pgoutput.testing;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;


/**
 * What a real-world Debezium configuration expects its database to hold, made on a fresh database of a test server:
 * the schemas and tables its include lists (and their pre-2.0 names) name, one table per expression, named so that
 * the expression matches it; its signal table; and, when it asks for no publication to be created
 * ({@code publication.autocreate.mode=disabled}), the publication it names, as its user would have made it. Its
 * connection keys are then pointed at that database, as a user moving to this connector would point them. Used by
 * the connector's validation test (DebeziumConfigsLiveTest) and the parity module's deployment test.
 */
public final class DebeziumConfigDatabase {

    /** A table a configuration names. */
    public record TableName(String schema, String table) {
        /** The name as SQL, each part double-quoted. */
        public String quoted() {
            return quote(schema) + "." + quote(table);
        }

        @Override
        public String toString() {
            return schema + "." + table;
        }
    }

    /** The table a schema expression gets when no table expression names one in it. */
    public static final String TABLE_OF_A_SCHEMA = "dbz_cfg_table";
    /** The TLS modes the test servers (without TLS) cannot serve; replaced by prefer, which the report says. */
    private static final Set<String> TLS_REQUIRED = Set.of("require", "verify-ca", "verify-full");

    private DebeziumConfigDatabase() {
    }

    /** The tables to create for {@code config}: each include expression's own, or one per schema expression. */
    public static List<TableName> tablesFor(Map<String, String> config) {
        List<String> schemas = entries(config, "schema.include.list", "schema.whitelist");
        List<String> tables = entries(config, "table.include.list", "table.whitelist");
        Set<TableName> result = new LinkedHashSet<>();
        for (String expression : tables) {
            TableName table = matching(expression, schemas);
            if (table != null) {
                result.add(table);
            }
        }
        if (tables.isEmpty()) {
            for (String schema : schemas) {
                String literal = literal(schema);
                if (!literal.isEmpty()) {
                    result.add(new TableName(literal, TABLE_OF_A_SCHEMA));
                }
            }
        }
        String signal = config.get("signal.data.collection");
        if (signal != null && !signal.isBlank()) {
            String[] parts = signal.trim().split("\\.");
            result.add(new TableName(parts[parts.length - 2], parts[parts.length - 1]));
        }
        if (result.isEmpty()) {
            result.add(new TableName("public", TABLE_OF_A_SCHEMA));
        }
        return new ArrayList<>(result);
    }

    /**
     * Creates the tables for {@code config} in {@code database} (and its publication when it is to exist already) and
     * returns the configuration pointed at that database, with {@code connectorClass}.
     *
     * @param substitutions receives a line per value changed besides the connection keys (a TLS mode the server lacks)
     */
    public static Map<String, String> prepare(PostgresCluster cluster, String database, String user, String connectorClass,
                                              Map<String, String> config, List<String> substitutions) {
        List<String> statements = new ArrayList<>();
        Set<String> schemas = new LinkedHashSet<>();
        for (TableName table : tablesFor(config)) {
            if (schemas.add(table.schema())) {
                statements.add("CREATE SCHEMA IF NOT EXISTS " + quote(table.schema()));
            }
            boolean signal = table.toString().equals(signalTable(config));
            statements.add("CREATE TABLE IF NOT EXISTS " + table.quoted() + (signal
                    ? " (id varchar(42) PRIMARY KEY, type varchar(32) NOT NULL, data varchar(2048))"
                    : " (id int PRIMARY KEY, note text)"));
        }
        String publication = config.getOrDefault("publication.name", "dbz_publication").trim();
        if ("disabled".equalsIgnoreCase(config.getOrDefault("publication.autocreate.mode", "").trim())) {
            statements.add("CREATE PUBLICATION " + quote(publication) + " FOR ALL TABLES");
        }
        cluster.execute(database, statements.toArray(String[]::new));

        Map<String, String> pointed = new java.util.LinkedHashMap<>(config);
        pointed.put("connector.class", connectorClass);
        pointed.put("database.hostname", cluster.host());
        pointed.put("database.port", Integer.toString(cluster.port()));
        pointed.put("database.user", user);
        pointed.put("database.password", "not-checked-by-trust-authentication");
        pointed.put("database.dbname", database);
        // The database lists name the database by name: the one the configuration named is now this one.
        String originalDatabase = config.getOrDefault("database.dbname", "").trim();
        for (String list : List.of("database.include.list", "database.exclude.list", "database.whitelist", "database.blacklist")) {
            String value = config.get(list);
            if (value != null && !originalDatabase.isEmpty() && java.util.Arrays.stream(value.split(",")).map(String::trim)
                    .anyMatch(originalDatabase::equalsIgnoreCase)) {
                String repointed = java.util.Arrays.stream(value.split(",")).map(String::trim)
                        .map(e -> e.equalsIgnoreCase(originalDatabase) ? database : e).collect(java.util.stream.Collectors.joining(","));
                pointed.put(list, repointed);
                substitutions.add(list + "=" + value + " -> " + repointed + " (the database it names, repointed like database.dbname)");
            }
        }
        String sslmode = config.get("database.sslmode");
        if (sslmode != null && TLS_REQUIRED.contains(sslmode.trim().toLowerCase(java.util.Locale.ROOT))) {
            pointed.put("database.sslmode", "prefer");
            substitutions.add("database.sslmode=" + sslmode + " -> prefer (the test server has no TLS)");
        }
        return pointed;
    }

    private static String signalTable(Map<String, String> config) {
        String signal = config.get("signal.data.collection");
        if (signal == null || signal.isBlank()) {
            return null;
        }
        String[] parts = signal.trim().split("\\.");
        return parts[parts.length - 2] + "." + parts[parts.length - 1];
    }

    /** A schema.table that {@code expression} matches, preferring the schemas of the schema list; null if none is found. */
    private static TableName matching(String expression, List<String> schemaExpressions) {
        Pattern pattern;
        try {
            pattern = Pattern.compile(expression, Pattern.CASE_INSENSITIVE);
        } catch (PatternSyntaxException e) {
            return null;
        }
        String text = literal(expression);
        List<String> schemas = new ArrayList<>();
        List<String> names = new ArrayList<>();
        int dot = text.indexOf('.');
        if (dot > 0) {
            schemas.add(text.substring(0, dot));
            names.add(text.substring(dot + 1));
        }
        schemaExpressions.stream().map(DebeziumConfigDatabase::literal).filter(s -> !s.isEmpty()).forEach(schemas::add);
        schemas.add("public");
        schemas.add(dot > 0 ? text.substring(0, dot) : text);
        names.add(dot > 0 ? text.substring(dot + 1) : text);
        names.add(TABLE_OF_A_SCHEMA);
        for (String schema : schemas) {
            for (String name : names) {
                if (!schema.isEmpty() && !name.isEmpty() && !name.contains(".")
                        && pattern.matcher(schema + "." + name).matches()) {
                    return new TableName(schema.toLowerCase(java.util.Locale.ROOT), name.toLowerCase(java.util.Locale.ROOT));
                }
            }
        }
        return null;
    }

    /** The expression with its escapes resolved and its wildcards dropped: {@code inventory\..*} gives {@code inventory.}. */
    private static String literal(String expression) {
        return expression.replace("\\.", ".").replace(".*", "").replace(".+", "").replaceAll("[\\^$()\\[\\]?*+|]", "").trim();
    }

    private static List<String> entries(Map<String, String> config, String... keys) {
        List<String> entries = new ArrayList<>();
        for (String key : keys) {
            String value = config.get(key);
            if (value != null) {
                for (String entry : value.split(",")) {
                    if (!entry.isBlank()) {
                        entries.add(entry.trim());
                    }
                }
            }
        }
        return entries;
    }

    private static String quote(String identifier) {
        return "\"" + identifier.replace("\"", "\"\"") + "\"";
    }
}
