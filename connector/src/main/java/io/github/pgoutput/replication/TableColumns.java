package io.github.pgoutput.replication;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What a publication column list of one table must respect, read from the catalog: the columns pgoutput can publish
 * (live, not generated, in attribute number order), the replica identity, the columns it names, and the primary key.
 * PostgreSQL refuses UPDATE and DELETE on a table whose publication's column list leaves out a replica identity column
 * (when the publication publishes them, as the connector's do), so a list must hold those.
 *
 * @param table            the table
 * @param columns          its publishable columns
 * @param replicaIdentity  {@code pg_class.relreplident}: {@code d} default (the primary key), {@code i} an index,
 *                         {@code f} full (every column), {@code n} nothing
 * @param identityColumns  the columns the replica identity names (the primary key's for {@code d}, the index's for
 *                         {@code i}, every column for {@code f}, none for {@code n})
 * @param primaryKey       the primary key's columns; empty without one
 */
public record TableColumns(TableName table, List<String> columns, char replicaIdentity, List<String> identityColumns,
                           List<String> primaryKey) {


    private static final String QUERY = """
            SELECT c.relreplident,
                   ARRAY(SELECT a.attname::text FROM pg_attribute a
                         WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped AND a.attgenerated = ''
                         ORDER BY a.attnum) AS columns,
                   ARRAY(SELECT a.attname::text FROM pg_index i
                         JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY (i.indkey)
                         WHERE i.indrelid = c.oid AND i.indisprimary ORDER BY a.attnum) AS primary_key,
                   ARRAY(SELECT a.attname::text FROM pg_index i
                         JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY (i.indkey)
                         WHERE i.indrelid = c.oid AND i.indisreplident ORDER BY a.attnum) AS identity_index
            FROM pg_class c WHERE c.oid = ?::regclass
            """;

    private static final String PUBLISHED_LISTS = """
            SELECT n.nspname, c.relname,
                   ARRAY(SELECT a.attname::text FROM unnest(r.prattrs::int2[]) AS k(attnum)
                         JOIN pg_attribute a ON a.attrelid = r.prrelid AND a.attnum = k.attnum ORDER BY a.attnum)
            FROM pg_publication p
            JOIN pg_publication_rel r ON r.prpubid = p.oid
            JOIN pg_class c ON c.oid = r.prrelid
            JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE p.pubname = ? AND r.prattrs IS NOT NULL
            """;

    public TableColumns {
        Objects.requireNonNull(table, "table");
        columns = List.copyOf(columns);
        identityColumns = List.copyOf(identityColumns);
        primaryKey = List.copyOf(primaryKey);
    }

    /** The tables' columns and identities, over a connection of their own; a table that no longer exists is left out. */
    public static Map<TableName, TableColumns> read(ReplicationSettings settings, List<TableName> tables) throws SQLException {
        Map<TableName, TableColumns> read = new LinkedHashMap<>();
        try (Connection sql = PgConnections.openSql(settings); PreparedStatement query = sql.prepareStatement(QUERY)) {
            for (TableName table : tables) {
                query.setString(1, table.quoted());
                try (ResultSet row = query.executeQuery()) {
                    if (!row.next()) {
                        continue;
                    }
                    char identity = row.getString(1).charAt(0);
                    List<String> columns = names(row.getArray(2));
                    List<String> primaryKey = names(row.getArray(3));
                    List<String> identityColumns = switch (identity) {
                        case 'd' -> primaryKey;
                        case 'i' -> names(row.getArray(4));
                        case 'f' -> columns;
                        default -> List.of();
                    };
                    read.put(table, new TableColumns(table, columns, identity, identityColumns, primaryKey));
                } catch (SQLException e) {
                    // A regclass cast of a name no table has any more (dropped since it was listed).
                    if (SqlStates.UNDEFINED_TABLE.equals(e.getSQLState())) {
                        continue;
                    }
                    throw e;
                }
            }
        }
        return read;
    }

    /**
     * The column lists of the tables of publication {@code publication} that have one (PostgreSQL 15+; empty before,
     * or when the publication does not exist).
     */
    public static Map<TableName, List<String>> publishedColumnLists(ReplicationSettings settings, String publication)
            throws SQLException {
        Map<TableName, List<String>> lists = new LinkedHashMap<>();
        try (Connection sql = PgConnections.openSql(settings)) {
            if (PreflightChecks.serverMajorVersion(sql) < PublicationManager.COLUMN_LISTS_SINCE) {
                return lists;
            }
            try (PreparedStatement query = sql.prepareStatement(PUBLISHED_LISTS)) {
                query.setString(1, publication);
                try (ResultSet row = query.executeQuery()) {
                    while (row.next()) {
                        lists.put(new TableName(row.getString(1), row.getString(2)), names(row.getArray(3)));
                    }
                }
            }
        }
        return lists;
    }

    private static List<String> names(Array array) throws SQLException {
        if (array == null) {
            return List.of();
        }
        try {
            return List.of((String[]) array.getArray());
        } finally {
            array.free();
        }
    }
}
