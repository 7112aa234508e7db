package io.github.pgoutput.replication;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * The tables a connector could capture, read from the catalog: the ordinary and partitioned tables outside the system
 * schemas ({@code pg_catalog}, {@code information_schema}, {@code pg_*}). The connector selects from them with its
 * include and exclude lists (the tables of a filtered publication, the check that an include list selects a table).
 * Stateless.
 */
public final class UserTables {

    private UserTables() {
    }

    /** The tables, ordered by schema and name, over a connection of their own. */
    public static List<TableName> list(ReplicationSettings settings) throws SQLException {
        List<TableName> tables = new ArrayList<>();
        try (Connection sql = PgConnections.openSql(settings); Statement st = sql.createStatement();
             ResultSet rs = st.executeQuery("SELECT n.nspname, c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
                     + " WHERE c.relkind IN ('r', 'p') AND n.nspname NOT IN ('pg_catalog', 'information_schema')"
                     + " AND n.nspname NOT LIKE 'pg\\_%' ORDER BY 1, 2")) {
            while (rs.next()) {
                tables.add(new TableName(rs.getString(1), rs.getString(2)));
            }
        }
        return tables;
    }
}
