package io.github.pgoutput.spill;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * Opens ordinary (non-replication) JDBC connections to the source database, for backends that store data there.
 * Each call returns a new connection that the caller closes.
 */
@FunctionalInterface
public interface SourceConnections {

    Connection open() throws SQLException;
}
