package io.github.pgoutput.snapshot;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * Opens a normal (non-replication) connection to the database; {@link InitialSnapshot} passes
 * {@code () -> PgConnections.openSql(settings)}. Called once per reader thread, from the thread that starts the reader.
 */
@FunctionalInterface
public interface ConnectionSource {

    Connection open() throws SQLException;
}
