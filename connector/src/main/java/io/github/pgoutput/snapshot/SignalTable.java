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
            boolean exists;
            try (PreparedStatement st = sql.prepareStatement("SELECT to_regclass(?) IS NOT NULL")) {
                st.setString(1, table.quoted());
                try (ResultSet rs = st.executeQuery()) {
                    rs.next();
                    exists = rs.getBoolean(1);
                }
            }
            if (!exists) {
                return "the signal table " + table + " does not exist; create it with Debezium's columns: CREATE TABLE " + table.quoted()
                        + " (id varchar(42) PRIMARY KEY, type varchar(32) NOT NULL, data varchar(2048)), and add it to the publication";
            }
            try (PreparedStatement st = sql.prepareStatement("SELECT attname FROM pg_attribute WHERE attrelid = ?::regclass AND attnum > 0"
                    + " AND NOT attisdropped")) {
                st.setString(1, table.quoted());
                try (ResultSet rs = st.executeQuery()) {
                    while (rs.next()) {
                        columns.add(rs.getString(1));
                    }
                }
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
