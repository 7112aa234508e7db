package io.github.pgoutput.parity;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

import io.github.pgoutput.testing.PostgresDatabase;

/** Workload scripts for the downstream tests: each string may hold several statements (BEGIN ... COMMIT). */
final class Sql {

    private Sql() {
    }

    /** Runs each script in turn on one autocommit session; a failure names the script. */
    static void run(PostgresDatabase db, String... scripts) {
        try (Connection connection = db.connect(); Statement statement = connection.createStatement()) {
            for (String script : scripts) {
                try {
                    statement.execute(script);
                } catch (SQLException e) {
                    throw new IllegalStateException("workload script failed: " + script + ": " + e.getMessage(), e);
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot connect to " + db + ": " + e.getMessage(), e);
        }
    }
}
