package io.github.pgoutput.replication;

import java.sql.SQLException;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Reads what the record schemas need beyond the Relation message from the source database's catalog. The Relation
 * message gives a column's type OID and modifier only; what a domain is based on, or which labels an enum has, is in
 * {@code pg_type} and {@code pg_enum}. Its key flags mark the replica identity, which under REPLICA IDENTITY FULL is
 * every column; which columns form the primary key is in {@code pg_index}.
 *
 * <p>Implementations may be called from one thread at a time; they hold no connection between calls.
 */
@FunctionalInterface
public interface TypeCatalog {

    /** PostgreSQL's FirstNormalObjectId: types with a lower OID are built in (and pgoutput sends no Type message for them). */
    long FIRST_USER_OID = 16384;

    /**
     * Describes the types with OIDs {@code oids} and, recursively, every user-defined type (OID from
     * {@link #FIRST_USER_OID}) they are built on: a domain's base type, an array's element type.
     *
     * @return the descriptions by OID; an OID that has no {@code pg_type} row (the type was dropped) is missing
     * @throws SQLException when the catalog cannot be read; nothing is guessed in that case
     */
    Map<Long, CatalogType> describe(Set<Long> oids) throws SQLException;

    /**
     * The primary key and replica identity index of the table with OID {@code relationId}, as the catalog holds them
     * now (not necessarily when a change being decoded was written). The default knows no table, as a catalog that
     * describes types only; {@link #of} reads {@code pg_index}.
     *
     * @return empty when the catalog has no such table (it was dropped after the change was written)
     * @throws SQLException when the catalog cannot be read; nothing is guessed in that case
     */
    default Optional<CatalogKey> tableKey(long relationId) throws SQLException {
        return Optional.empty();
    }

    /** The catalog of the database {@code settings} name, read over a normal SQL connection opened for each call. */
    static TypeCatalog of(ReplicationSettings settings) {
        PgTypeCatalog.ConnectionOpener opener = () -> PgConnections.openSql(settings);
        return new TypeCatalog() {
            @Override
            public Map<Long, CatalogType> describe(Set<Long> oids) throws SQLException {
                return PgTypeCatalog.describe(opener, oids);
            }

            @Override
            public Optional<CatalogKey> tableKey(long relationId) throws SQLException {
                return PgCatalogKeys.read(opener, relationId);
            }
        };
    }
}
