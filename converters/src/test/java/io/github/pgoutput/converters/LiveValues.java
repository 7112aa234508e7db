package io.github.pgoutput.converters;

import io.github.pgoutput.testing.PostgresDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Stores each {@link TypeCase} in one table of a live server (one column per SQL type, one row per case) and
 * reads back what pgoutput would send: the type's output function result (the {@code 't'} form) and its send
 * function result (the {@code 'b'} form), plus the column's {@link PgColumnType} as the connector would build it
 * from the Relation message and the catalog.
 */
final class LiveValues {

    /** What the server made of one case. */
    record Observed(TypeCase testCase, PgColumnType type, String text, byte[] send) {
    }

    private LiveValues() {
    }

    /**
     * @param sessionSettings statements run first on the connection (e.g. {@code SET TimeZone ...}); they shape
     *                        the text output exactly as the same settings would on a walsender
     */
    static List<Observed> observe(PostgresDatabase database, List<TypeCase> cases, String... sessionSettings) throws SQLException {
        Map<String, String> columns = new LinkedHashMap<>();
        for (TypeCase c : cases) {
            columns.putIfAbsent(c.sqlType(), "c" + columns.size());
        }
        try (Connection connection = database.connect(); Statement statement = connection.createStatement()) {
            for (String setting : sessionSettings) {
                statement.execute(setting);
            }
            StringBuilder ddl = new StringBuilder("CREATE TABLE cases (id int PRIMARY KEY");
            columns.forEach((type, column) -> ddl.append(", ").append(column).append(' ').append(type));
            statement.execute(ddl.append(')').toString());
            for (int i = 0; i < cases.size(); i++) {
                TypeCase c = cases.get(i);
                String value = c.sqlValue() == null ? "NULL" : "(" + c.sqlValue() + ")::" + c.sqlType();
                statement.execute("INSERT INTO cases (id, " + columns.get(c.sqlType()) + ") VALUES (" + i + ", " + value + ")");
            }
            Map<String, PgColumnType> types = new LinkedHashMap<>();
            Map<String, String> functions = new LinkedHashMap<>();
            for (Map.Entry<String, String> column : columns.entrySet()) {
                PgColumnType type = columnType(connection, column.getValue());
                types.put(column.getKey(), type);
                functions.put(column.getKey(), ioFunctions(connection, type.oid(), column.getValue()));
            }
            List<Observed> observed = new ArrayList<>();
            for (int i = 0; i < cases.size(); i++) {
                TypeCase c = cases.get(i);
                try (ResultSet row = statement.executeQuery("SELECT " + functions.get(c.sqlType()) + " FROM cases WHERE id = " + i)) {
                    row.next();
                    observed.add(new Observed(c, types.get(c.sqlType()), row.getString(1), row.getBytes(2)));
                }
            }
            statement.execute("DROP TABLE cases");
            return observed;
        }
    }

    /** {@code typoutput(col)::text, typsend(col)} for the column's type. */
    private static String ioFunctions(Connection connection, int oid, String column) throws SQLException {
        try (PreparedStatement query = connection.prepareStatement(
                "SELECT typoutput::regproc::text, typsend::regproc::text FROM pg_type WHERE oid = ?")) {
            query.setInt(1, oid);
            try (ResultSet row = query.executeQuery()) {
                row.next();
                return row.getString(1) + "(" + column + ")::text, " + row.getString(2) + "(" + column + ")";
            }
        }
    }

    /** OID and typmod as a Relation message carries them, then resolved as the connector would. */
    private static PgColumnType columnType(Connection connection, String column) throws SQLException {
        try (PreparedStatement query = connection.prepareStatement(
                "SELECT atttypid, atttypmod FROM pg_attribute WHERE attrelid = 'cases'::regclass AND attname = ?")) {
            query.setString(1, column);
            try (ResultSet row = query.executeQuery()) {
                row.next();
                return CatalogTypes.resolve(connection, (int) row.getLong(1), row.getInt(2));
            }
        }
    }
}
