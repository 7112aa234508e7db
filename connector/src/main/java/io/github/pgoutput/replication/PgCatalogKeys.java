package io.github.pgoutput.replication;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;

/** The {@code pg_index} query behind {@link TypeCatalog#tableKey}. Stateless. */
final class PgCatalogKeys {

    /**
     * One row per primary key or replica identity index of the table, or one row of nulls when it has neither; no row
     * when the OID names no table (it was dropped). Only the first {@code indnkeyatts} entries of {@code indkey} are key
     * columns: the rest are INCLUDE columns, which pgoutput does not flag either.
     */
    private static final String QUERY = """
            SELECT i.indisprimary, i.indisreplident,
                   ARRAY(SELECT a.attname::text
                         FROM unnest(i.indkey::int2[]) WITH ORDINALITY AS k(attnum, position)
                         JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = k.attnum
                         WHERE k.position <= i.indnkeyatts
                         ORDER BY a.attnum) AS columns
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
            try (ResultSet rows = query.executeQuery()) {
                while (rows.next()) {
                    found = true;
                    List<String> columns = names(rows.getArray("columns"));
                    if (rows.getBoolean("indisprimary")) {
                        primaryKey = columns;
                    }
                    if (rows.getBoolean("indisreplident")) {
                        replicaIdentity = columns;
                    }
                }
            }
            return found ? Optional.of(new CatalogKey(relationId, primaryKey, replicaIdentity)) : Optional.empty();
        }
    }

    private static List<String> names(Array names) throws SQLException {
        if (names == null) {
            return List.of();
        }
        try {
            return List.of((String[]) names.getArray());
        } finally {
            names.free();
        }
    }
}
