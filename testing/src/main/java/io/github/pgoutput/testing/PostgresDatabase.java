package io.github.pgoutput.testing;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * A fresh database on a shared test server, created for one test invocation and dropped after it (with its
 * replication slots). Tables, publications and slots a test makes therefore never leak into another test.
 */
public record PostgresDatabase(PostgresCluster cluster, String name) {

    public int majorVersion() {
        return cluster.majorVersion();
    }

    public String host() {
        return cluster.host();
    }

    public int port() {
        return cluster.port();
    }

    public String user() {
        return PostgresCluster.SUPERUSER;
    }

    public String jdbcUrl() {
        return cluster.jdbcUrl(name);
    }

    /** A superuser connection to this database. */
    public Connection connect() throws SQLException {
        return cluster.connect(name);
    }

    /** Runs each statement in its own autocommit transaction. */
    public void execute(String... statements) {
        cluster.execute(name, statements);
    }

    /** Runs a query and returns every row as text values ({@code null} for SQL NULL). */
    public List<List<String>> query(String sql) {
        try (Connection connection = connect(); Statement statement = connection.createStatement(); ResultSet rows = statement.executeQuery(sql)) {
            int columns = rows.getMetaData().getColumnCount();
            List<List<String>> result = new ArrayList<>();
            while (rows.next()) {
                List<String> row = new ArrayList<>(columns);
                for (int i = 1; i <= columns; i++) {
                    row.add(rows.getString(i));
                }
                result.add(row);
            }
            return result;
        } catch (SQLException e) {
            throw new IllegalStateException("query failed on PostgreSQL " + majorVersion() + ": " + sql + ": " + e.getMessage(), e);
        }
    }

    /** Runs a query that yields exactly one value. */
    public String queryValue(String sql) {
        List<List<String>> rows = query(sql);
        if (rows.size() != 1 || rows.get(0).size() != 1) {
            throw new IllegalStateException("expected one value from " + sql + " but got " + rows);
        }
        return rows.get(0).get(0);
    }

    /** Sets a default for every new session of this database, walsenders included (ALTER DATABASE … SET). */
    public void setDefault(String setting, String value) {
        execute("ALTER DATABASE " + name + " SET " + setting + " = '" + value.replace("'", "''") + "'");
    }

    @Override
    public String toString() {
        return name + " on " + cluster;
    }
}
