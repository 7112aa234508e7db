package io.github.pgoutput.replication;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Looks up and creates the publication over a normal SQL connection. Stateless. */
public final class PublicationManager {

    private static final Logger log = LoggerFactory.getLogger(PublicationManager.class);

    /** The first PostgreSQL major with publication column lists. */
    static final int COLUMN_LISTS_SINCE = 15;

    private PublicationManager() {
    }

    private static String withColumns(TableName table, List<String> columns) {
        if (columns == null) {
            return table.quoted();
        }
        return table.quoted() + " (" + columns.stream().map(Identifiers::quote).collect(Collectors.joining(", ")) + ")";
    }

    public static boolean exists(Connection sql, String publicationName) throws SQLException {
        try (PreparedStatement st = sql.prepareStatement("SELECT 1 FROM pg_publication WHERE pubname = ?")) {
            st.setString(1, publicationName);
            try (ResultSet rs = st.executeQuery()) {
                return rs.next();
            }
        }
    }

    /**
     * Those of {@code tables} that the existing publication {@code settings} names does not send, over a connection of
     * its own: the ordinary tables (leaf partitions
     * included) among them that {@code pg_publication_tables} does not list for it. A partitioned table is sent through
     * its partitions, so it is never reported itself. Empty when the publication does not exist or is
     * {@code FOR ALL TABLES}.
     */
    public static List<TableName> unpublished(ReplicationSettings settings, List<TableName> tables) throws SQLException {
        try (Connection sql = PgConnections.openSql(settings)) {
            return unpublished(sql, settings.publicationName(), tables);
        }
    }

    private static List<TableName> unpublished(Connection sql, String publicationName, List<TableName> tables) throws SQLException {
        List<TableName> missing = new java.util.ArrayList<>();
        try (PreparedStatement pub = sql.prepareStatement("SELECT puballtables FROM pg_publication WHERE pubname = ?")) {
            pub.setString(1, publicationName);
            try (ResultSet rs = pub.executeQuery()) {
                if (!rs.next() || rs.getBoolean(1)) {
                    return missing;
                }
            }
        }
        try (PreparedStatement st = sql.prepareStatement("SELECT c.relkind = 'r' AND NOT EXISTS (SELECT 1 FROM pg_publication_tables p"
                + " WHERE p.pubname = ? AND p.schemaname = n.nspname AND p.tablename = c.relname)"
                + " FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = ? AND c.relname = ?")) {
            for (TableName table : tables) {
                st.setString(1, publicationName);
                st.setString(2, table.schema());
                st.setString(3, table.table());
                try (ResultSet rs = st.executeQuery()) {
                    if (rs.next() && rs.getBoolean(1)) {
                        missing.add(table);
                    }
                }
            }
        }
        return missing;
    }

    /**
     * Creates the publication {@code FOR ALL TABLES}, {@code FOR TABLE} the given tables, or without tables
     * ({@link PublicationMode#NO_TABLES}). Every name is double-quoted,
     * so names keep their case and cannot inject SQL. Another task creating the same publication at the same moment is
     * not an error.
     *
     * @throws IllegalArgumentException for {@link PublicationMode#DISABLED} or a FILTERED mode without tables
     */
    public static void create(Connection sql, String publicationName, PublicationMode mode, List<TableName> tables) throws SQLException {
        create(sql, publicationName, mode, tables, Map.of());
    }

    /**
     * {@link #create(Connection, String, PublicationMode, List)} with a column list for each table {@code columnLists}
     * names, on PostgreSQL 15 and later; an older server gets the tables without lists. Each column name is
     * double-quoted.
     */
    public static void create(Connection sql, String publicationName, PublicationMode mode, List<TableName> tables,
                              Map<TableName, List<String>> columnLists) throws SQLException {
        String target = switch (mode) {
            case ALL_TABLES -> "FOR ALL TABLES";
            case FILTERED -> {
                if (tables.isEmpty()) {
                    throw new IllegalArgumentException("a FILTERED publication needs at least one table");
                }
                boolean lists = !columnLists.isEmpty() && PreflightChecks.serverMajorVersion(sql) >= COLUMN_LISTS_SINCE;
                if (!columnLists.isEmpty() && !lists) {
                    log.info("PostgreSQL before {} has no publication column lists: publication {} publishes every column"
                            + " of its tables, and the connector leaves out those the column keys exclude",
                            COLUMN_LISTS_SINCE, publicationName);
                }
                yield "FOR TABLE " + tables.stream().map(t -> lists ? withColumns(t, columnLists.get(t)) : t.quoted())
                        .collect(Collectors.joining(", "));
            }
            case NO_TABLES -> "";
            case DISABLED -> throw new IllegalArgumentException("publication mode DISABLED never creates a publication");
        };
        String ddl = "CREATE PUBLICATION " + Identifiers.quote(Identifiers.requireValid(publicationName, "publication name", Setting.PUBLICATION_NAME))
                + (target.isEmpty() ? "" : " " + target);
        try (Statement st = sql.createStatement()) {
            st.execute(ddl);
        } catch (SQLException e) {
            if (!SqlStates.DUPLICATE_OBJECT.equals(e.getSQLState()) || !exists(sql, publicationName)) {
                throw e;
            }
        }
    }
}
