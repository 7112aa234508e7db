package io.github.pgoutput.replication;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The {@code pg_index} and {@code pg_attribute} query behind {@link TypeCatalog#tableKey}: one round trip per table
 * schema for its keys, its columns' nullability and their defaults. Stateless.
 */
final class PgCatalogKeys {

    /**
     * One row per primary key or replica identity index of the table, or one row of nulls when it has neither; no row
     * when the OID names no table (it was dropped). Only the first {@code indnkeyatts} entries of {@code indkey} are key
     * columns: the rest are INCLUDE columns, which pgoutput does not flag either. Every row carries the table's live
     * columns (name, NOT NULL, default expression) as three arrays in attribute number order; NOT NULL counts a
     * domain declared NOT NULL as pgjdbc's {@code getColumns} does, which is where Debezium reads it.
     */
    private static final String QUERY = """
            SELECT i.indisprimary, i.indisreplident,
                   ARRAY(SELECT a.attname::text
                         FROM unnest(i.indkey::int2[]) WITH ORDINALITY AS k(attnum, position)
                         JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = k.attnum
                         WHERE k.position <= i.indnkeyatts
                         ORDER BY a.attnum) AS columns,
                   ARRAY(SELECT a.attname::text FROM pg_attribute a
                         WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
                         ORDER BY a.attnum) AS column_names,
                   ARRAY(SELECT a.attnotnull OR (t.typtype = 'd' AND t.typnotnull)
                         FROM pg_attribute a JOIN pg_type t ON t.oid = a.atttypid
                         WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
                         ORDER BY a.attnum) AS column_not_null,
                   ARRAY(SELECT pg_get_expr(d.adbin, d.adrelid)
                         FROM pg_attribute a LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
                         WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
                         ORDER BY a.attnum) AS column_defaults
            FROM pg_class c
            LEFT JOIN pg_index i ON i.indrelid = c.oid AND (i.indisprimary OR i.indisreplident)
            WHERE c.oid = ?::oid
            """;

    private PgCatalogKeys() {
    }

    static Optional<CatalogKey> read(PgTypeCatalog.ConnectionOpener opener, long relationId) throws SQLException {
        try (Connection sql = opener.open(); PreparedStatement query = sql.prepareStatement(QUERY)) {
            query.setString(1, Long.toUnsignedString(relationId));
            boolean found = false;
            List<String> primaryKey = List.of();
            List<String> replicaIdentity = List.of();
            List<CatalogColumn> columns = List.of();
            try (ResultSet rows = query.executeQuery()) {
                while (rows.next()) {
                    found = true;
                    columns = columns(rows);
                    List<String> indexColumns = names(rows.getArray("columns"));
                    if (rows.getBoolean("indisprimary")) {
                        primaryKey = indexColumns;
                    }
                    if (rows.getBoolean("indisreplident")) {
                        replicaIdentity = indexColumns;
                    }
                }
            }
            return found ? Optional.of(new CatalogKey(relationId, primaryKey, replicaIdentity, columns)) : Optional.empty();
        }
    }

    private static List<String> names(Array names) throws SQLException {
        return List.of((String[]) elements(names));
    }

    private static List<CatalogColumn> columns(ResultSet row) throws SQLException {
        String[] names = (String[]) elements(row.getArray("column_names"));
        Boolean[] notNull = (Boolean[]) elements(row.getArray("column_not_null"));
        String[] defaults = (String[]) elements(row.getArray("column_defaults"));
        List<CatalogColumn> columns = new ArrayList<>(names.length);
        for (int i = 0; i < names.length; i++) {
            columns.add(new CatalogColumn(names[i], Boolean.TRUE.equals(notNull[i]), defaults[i]));
        }
        return columns;
    }

    /** The elements of a SQL array; an empty array of strings for NULL. */
    private static Object[] elements(Array array) throws SQLException {
        if (array == null) {
            return new String[0];
        }
        try {
            return (Object[]) array.getArray();
        } finally {
            array.free();
        }
    }
}
