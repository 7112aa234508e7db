package io.github.pgoutput.replication;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/** The {@code pg_type} query behind {@link TypeCatalog}. Stateless. */
final class PgTypeCatalog {

    /** Opens the connection a lookup runs on; the lookup closes it. */
    @FunctionalInterface
    interface ConnectionOpener {
        Connection open() throws SQLException;
    }

    /**
     * The asked-for types and the user types below them, in one round trip. {@code typelem} is followed only for true
     * arrays ({@code typinput = array_in}): fixed-length types such as {@code point} or {@code name} set it too.
     * Enum labels come in {@code enumsortorder}, the order PostgreSQL sorts them in.
     */
    private static final String QUERY = """
            WITH RECURSIVE wanted(oid) AS (
                SELECT unnest(?::oid[])
              UNION
                SELECT below.oid
                FROM wanted w JOIN pg_type t ON t.oid = w.oid,
                     LATERAL (VALUES (t.typbasetype), (CASE WHEN t.typinput = 'array_in'::regproc THEN t.typelem END)) below(oid)
                WHERE below.oid >= %d
            )
            SELECT t.oid, n.nspname, t.typname, t.typtype, t.typbasetype, t.typtypmod,
                   CASE WHEN t.typinput = 'array_in'::regproc THEN t.typelem ELSE 0 END AS array_element,
                   CASE WHEN t.typtype = 'e' THEN
                       ARRAY(SELECT e.enumlabel::text FROM pg_enum e WHERE e.enumtypid = t.oid ORDER BY e.enumsortorder)
                   END AS labels
            FROM wanted w JOIN pg_type t ON t.oid = w.oid JOIN pg_namespace n ON n.oid = t.typnamespace
            """.formatted(TypeCatalog.FIRST_USER_OID);

    private PgTypeCatalog() {
    }

    static Map<Long, CatalogType> describe(ConnectionOpener opener, Set<Long> oids) throws SQLException {
        Map<Long, CatalogType> described = new HashMap<>();
        if (oids.isEmpty()) {
            return described;
        }
        try (Connection sql = opener.open(); PreparedStatement query = sql.prepareStatement(QUERY)) {
            query.setString(1, oids.stream().map(Long::toUnsignedString).collect(Collectors.joining(",", "{", "}")));
            try (ResultSet rows = query.executeQuery()) {
                while (rows.next()) {
                    CatalogType type = row(rows);
                    described.put(type.oid(), type);
                }
            }
        }
        return described;
    }

    private static CatalogType row(ResultSet rows) throws SQLException {
        long oid = rows.getLong("oid");
        String typtype = rows.getString("typtype");
        long element = rows.getLong("array_element");
        CatalogType.Kind kind = switch (typtype) {
            case "d" -> CatalogType.Kind.DOMAIN;
            case "e" -> CatalogType.Kind.ENUM;
            case "c" -> CatalogType.Kind.COMPOSITE;
            default -> element != 0 ? CatalogType.Kind.ARRAY : CatalogType.Kind.BASE;
        };
        boolean domain = kind == CatalogType.Kind.DOMAIN;
        return new CatalogType(oid, rows.getString("nspname"), rows.getString("typname"), kind,
                domain ? rows.getLong("typbasetype") : 0, domain ? rows.getInt("typtypmod") : -1,
                kind == CatalogType.Kind.ARRAY ? element : 0, labels(rows.getArray("labels")));
    }

    private static List<String> labels(Array labels) throws SQLException {
        if (labels == null) {
            return List.of();
        }
        try {
            return List.of((String[]) labels.getArray());
        } finally {
            labels.free();
        }
    }
}
