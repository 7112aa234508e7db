package io.github.pgoutput.converters;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * Builds a {@link PgColumnType} the way the connector does: built-in OIDs (below 16384, which pgoutput announces
 * with no Type message) from {@link PgColumnType#builtIn}; user types from the catalog.
 */
final class CatalogTypes {

    private static final int FIRST_NORMAL_OBJECT_ID = 16384;

    private CatalogTypes() {
    }

    static PgColumnType resolve(Connection connection, int oid, int typmod) throws SQLException {
        if (Integer.compareUnsigned(oid, FIRST_NORMAL_OBJECT_ID) < 0) {
            return PgColumnType.builtIn(oid, typmod);
        }
        try (PreparedStatement query = connection.prepareStatement(
                "SELECT n.nspname, t.typname, t.typtype, t.typbasetype, t.typtypmod, t.typelem, t.typinput::regproc::text"
                        + " FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace WHERE t.oid = ?")) {
            query.setLong(1, Integer.toUnsignedLong(oid));
            try (ResultSet row = query.executeQuery()) {
                if (!row.next()) {
                    throw new IllegalStateException("no pg_type row for oid " + oid);
                }
                String namespace = row.getString(1);
                String name = row.getString(2);
                String typtype = row.getString(3);
                int element = (int) row.getLong(6);
                if (typtype.equals("e")) {
                    return new PgColumnType(oid, typmod, namespace, name, new PgColumnType.Enum(labels(connection, oid)));
                }
                if (typtype.equals("d")) {
                    PgColumnType base = resolve(connection, (int) row.getLong(4), row.getInt(5));
                    return new PgColumnType(oid, typmod, namespace, name, new PgColumnType.Domain(base));
                }
                if (typtype.equals("c")) {
                    return new PgColumnType(oid, typmod, namespace, name, new PgColumnType.Composite());
                }
                if (element != 0 && row.getString(7).equals("array_in")) {
                    return new PgColumnType(oid, typmod, namespace, name, new PgColumnType.Array(resolve(connection, element, typmod)));
                }
                return new PgColumnType(oid, typmod, namespace, name, new PgColumnType.Base());
            }
        }
    }

    private static List<String> labels(Connection connection, int oid) throws SQLException {
        try (PreparedStatement query = connection.prepareStatement(
                "SELECT enumlabel FROM pg_enum WHERE enumtypid = ? ORDER BY enumsortorder")) {
            query.setLong(1, Integer.toUnsignedLong(oid));
            List<String> labels = new ArrayList<>();
            try (ResultSet rows = query.executeQuery()) {
                while (rows.next()) {
                    labels.add(rows.getString(1));
                }
            }
            return labels;
        }
    }
}
