package io.github.pgoutput.snapshot;

import io.github.pgoutput.replication.PgConnections;
import io.github.pgoutput.replication.PublicationManager;
import io.github.pgoutput.replication.PublicationMode;
import io.github.pgoutput.replication.ReplicationSettings;
import io.github.pgoutput.replication.TableName;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The live check of a signal table ({@code signal.data.collection}): the connector reads its rows from the stream
 * only, so the table must exist with Debezium's columns and be in the publication (or in the tables a publication the
 * connector is to create will hold). Reads the catalog, changes nothing. Stateless.
 */
public final class SignalTable {

    /** Debezium's signal table columns; the connector reads these by name. */
    static final List<String> COLUMNS = List.of("id", "type", "data");

    private SignalTable() {
    }

    /** What is wrong with {@code table} as the signal table, or null when nothing is. */
    public static String problem(ReplicationSettings settings, TableName table) throws SQLException {
        try (Connection sql = PgConnections.openSql(settings)) {
            Set<String> columns = new HashSet<>();
            boolean exists = false;
            // From the catalog by name, not through regclass, which fails in a schema the role has no USAGE on: the
            // connector reads the signal table's rows from the stream only, so it needs no privilege on the table.
            try (PreparedStatement st = sql.prepareStatement("SELECT a.attname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
                    + " LEFT JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped"
                    + " WHERE n.nspname = ? AND c.relname = ?")) {
                st.setString(1, table.schema());
                st.setString(2, table.table());
                try (ResultSet rs = st.executeQuery()) {
                    while (rs.next()) {
                        exists = true;
                        if (rs.getString(1) != null) {
                            columns.add(rs.getString(1));
                        }
                    }
                }
            }
            if (!exists) {
                return "the signal table " + table + " does not exist; create it with Debezium's columns: CREATE TABLE " + table.quoted()
                        + " (id varchar(42) PRIMARY KEY, type varchar(32) NOT NULL, data varchar(2048)), and add it to the publication";
            }
            if (!columns.containsAll(COLUMNS)) {
                return "the signal table " + table + " has the columns " + columns + " but needs Debezium's id, type and data";
            }
            if (PublicationManager.exists(sql, settings.publicationName())) {
                try (PreparedStatement st = sql.prepareStatement(
                        "SELECT 1 FROM pg_publication_tables WHERE pubname = ? AND schemaname = ? AND tablename = ?")) {
                    st.setString(1, settings.publicationName());
                    st.setString(2, table.schema());
                    st.setString(3, table.table());
                    try (ResultSet rs = st.executeQuery()) {
                        if (!rs.next()) {
                            return "the signal table " + table + " is not in publication '" + settings.publicationName() + "', so its rows"
                                    + " never reach the connector; add it: ALTER PUBLICATION " + settings.publicationName() + " ADD TABLE "
                                    + table.quoted();
                        }
                    }
                }
            } else if (settings.publicationMode() == PublicationMode.FILTERED && !settings.publicationTables().contains(table)) {
                return "the signal table " + table + " would not be in the publication the connector creates (publication.autocreate.mode"
                        + " filtered takes the tables table.include.list selects); add it to table.include.list";
            } else if (settings.publicationMode() == PublicationMode.NO_TABLES) {
                return "the signal table " + table + " would not be in the publication the connector creates (publication.autocreate.mode"
                        + " no_tables creates it without tables); create the publication with it, or add it once the publication exists:"
                        + " ALTER PUBLICATION " + settings.publicationName() + " ADD TABLE " + table.quoted();
            }
            return null;
        }
    }
}
