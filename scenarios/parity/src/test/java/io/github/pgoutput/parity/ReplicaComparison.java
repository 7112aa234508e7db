package io.github.pgoutput.parity;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.stream.Collectors;

import io.github.pgoutput.testing.PostgresDatabase;

/**
 * A source table and its replica compared row by row and column by column in SQL, each value as the text PostgreSQL
 * prints for the source column's type. Rows are matched by the source table's primary key. A replica column of
 * another type than the source's (the sink chooses its column types from the record schemas) is cast to the source
 * type first when that type is built in, so that {@code 1.5} in a replica {@code numeric} equals {@code 1.50} in a
 * source {@code numeric(10,2)} while a lost digit still shows; a column of a type the replica database does not have
 * (an enum, a domain, an extension type) is compared as text. Columns only the replica has (none are expected) are
 * ignored; a column, row or table the replica lacks is a difference.
 *
 * <p>Each column is read by its own query, so a value the cast refuses is reported on its column without hiding the
 * others. Meant for test tables of up to a few thousand rows: both sides are held in memory.
 */
final class ReplicaComparison {

    private static final int SHOWN_PER_TABLE = 20;

    private ReplicaComparison() {
    }

    /** A column of a source table: its name, its type as {@code format_type} prints it, and whether that type is built in. */
    record Column(String name, String type, boolean builtIn) {
    }

    /** One table: how many rows each side holds and what differs. */
    record TableResult(String table, int sourceRows, int replicaRows, int columns, List<String> differences) {
        boolean equal() {
            return differences.isEmpty();
        }
    }

    /** Every table compared. */
    record Result(List<TableResult> tables) {
        boolean equal() {
            return tables.stream().allMatch(TableResult::equal);
        }

        long rowsCompared() {
            return tables.stream().mapToLong(TableResult::sourceRows).sum();
        }

        /** One line per table, then its differences. */
        String describe() {
            StringBuilder out = new StringBuilder();
            for (TableResult table : tables) {
                out.append(table.table()).append(": ").append(table.sourceRows()).append(" source rows, ")
                        .append(table.replicaRows()).append(" replica rows, ").append(table.columns()).append(" columns, ")
                        .append(table.equal() ? "equal" : table.differences().size() + " differences").append('\n');
                table.differences().stream().limit(SHOWN_PER_TABLE).forEach(d -> out.append("  ").append(d).append('\n'));
                if (table.differences().size() > SHOWN_PER_TABLE) {
                    out.append("  ... and ").append(table.differences().size() - SHOWN_PER_TABLE).append(" more\n");
                }
            }
            return out.toString();
        }
    }

    /** Compares {@code public.<table>} of {@code source} with {@code public.<table>} of {@code replica}, for each table. */
    static Result compare(PostgresDatabase source, PostgresDatabase replica, List<String> tables) {
        List<TableResult> results = new ArrayList<>();
        for (String table : tables) {
            results.add(compareTable(source, replica, table));
        }
        return new Result(results);
    }

    private static TableResult compareTable(PostgresDatabase source, PostgresDatabase replica, String table) {
        List<Column> columns = columns(source, table);
        List<String> key = primaryKey(source, table);
        if (key.isEmpty()) {
            throw new IllegalArgumentException("public." + table + " has no primary key to match rows by");
        }
        Map<String, String> replicaTypes = new LinkedHashMap<>();
        columns(replica, table).forEach(c -> replicaTypes.put(c.name(), c.type()));
        int sourceRows = Integer.parseInt(source.queryValue("SELECT count(*) FROM public." + quote(table)));
        if (replicaTypes.isEmpty()) {
            return new TableResult(table, sourceRows, 0, columns.size(),
                    List.of("the replica has no table public." + table + " (" + sourceRows + " source rows)"));
        }
        List<String> differences = new ArrayList<>();
        for (String keyColumn : key) {
            if (!replicaTypes.containsKey(keyColumn)) {
                return new TableResult(table, sourceRows, -1, columns.size(),
                        List.of("the replica table has no key column " + keyColumn));
            }
        }
        Map<String, Column> byName = columns.stream().collect(Collectors.toMap(Column::name, c -> c));
        String sourceKey = key.stream().map(k -> quote(k) + "::text").collect(Collectors.joining(" || ',' || "));
        String replicaKey = key.stream().map(k -> asSourceText(byName.get(k), replicaTypes.get(k)))
                .collect(Collectors.joining(" || ',' || "));
        int replicaRows = Integer.parseInt(replica.queryValue("SELECT count(*) FROM public." + quote(table)));
        Map<String, Map<String, String>> sourceValues = new TreeMap<>();
        Map<String, Map<String, String>> replicaValues = new TreeMap<>();
        for (Column column : columns) {
            read(source, table, sourceKey, quote(column.name()) + "::text", column.name(), sourceValues);
            if (!replicaTypes.containsKey(column.name())) {
                differences.add("column " + column.name() + " (" + column.type() + ") is missing in the replica");
                continue;
            }
            try {
                read(replica, table, replicaKey, asSourceText(column, replicaTypes.get(column.name())), column.name(),
                        replicaValues);
            } catch (IllegalStateException refused) {
                differences.add("column " + column.name() + " (" + column.type() + "; replica "
                        + replicaTypes.get(column.name()) + "): " + refused.getCause().getMessage());
            }
        }
        for (Map.Entry<String, Map<String, String>> row : sourceValues.entrySet()) {
            Map<String, String> replicaRow = replicaValues.get(row.getKey());
            if (replicaRow == null) {
                differences.add("row (" + row.getKey() + ") is missing in the replica");
                continue;
            }
            for (Column column : columns) {
                if (!replicaRow.containsKey(column.name())) {
                    continue;
                }
                String expected = row.getValue().get(column.name());
                String actual = replicaRow.get(column.name());
                if (!Objects.equals(expected, actual)) {
                    differences.add("row (" + row.getKey() + ") column " + column.name() + " (" + column.type()
                            + "; replica " + replicaTypes.get(column.name()) + "): source " + shown(expected)
                            + ", replica " + shown(actual));
                }
            }
        }
        replicaValues.keySet().stream().filter(k -> !sourceValues.containsKey(k))
                .forEach(k -> differences.add("row (" + k + ") is in the replica only"));
        return new TableResult(table, sourceRows, replicaRows, columns.size(), differences);
    }

    /** The replica column's value as the text of the source column's type (see the class comment). */
    private static String asSourceText(Column source, String replicaType) {
        String column = quote(source.name());
        if (source.type().equals(replicaType) || !source.builtIn()) {
            return column + "::text";
        }
        return "(" + column + "::" + source.type() + ")::text";
    }

    private static void read(PostgresDatabase db, String table, String keyExpression, String valueExpression,
                             String column, Map<String, Map<String, String>> into) {
        for (List<String> row : db.query("SELECT " + keyExpression + ", " + valueExpression + " FROM public." + quote(table))) {
            into.computeIfAbsent(row.get(0), k -> new LinkedHashMap<>()).put(column, row.get(1));
        }
    }

    static List<Column> columns(PostgresDatabase db, String table) {
        List<Column> columns = new ArrayList<>();
        for (List<String> row : db.query("SELECT a.attname, format_type(a.atttypid, a.atttypmod), n.nspname = 'pg_catalog'"
                + " FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace cn ON cn.oid = c.relnamespace"
                + " JOIN pg_type t ON t.oid = a.atttypid JOIN pg_namespace n ON n.oid = t.typnamespace"
                + " WHERE cn.nspname = 'public' AND c.relname = '" + table + "' AND a.attnum > 0 AND NOT a.attisdropped"
                + " ORDER BY a.attnum")) {
            columns.add(new Column(row.get(0), row.get(1), "t".equals(row.get(2))));
        }
        return columns;
    }

    private static List<String> primaryKey(PostgresDatabase db, String table) {
        return db.query("SELECT a.attname FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid"
                + " AND a.attnum = ANY (i.indkey) WHERE i.indrelid = 'public." + quote(table) + "'::regclass AND i.indisprimary"
                + " ORDER BY array_position(i.indkey::int2[], a.attnum)").stream().map(r -> r.get(0)).toList();
    }

    private static String shown(String value) {
        if (value == null) {
            return "NULL";
        }
        return value.length() > 80 ? "'" + value.substring(0, 60) + "...' (" + value.length() + " chars)" : "'" + value + "'";
    }

    private static String quote(String identifier) {
        return "\"" + identifier.replace("\"", "\"\"") + "\"";
    }
}
