package io.github.pgoutput.replication;

import java.sql.SQLException;
import java.util.Map;
import java.util.Set;

/**
 * Reads user-defined types from the source database's catalog. The Relation message gives a column's type OID and
 * modifier only; what a domain is based on, or which labels an enum has, is in {@code pg_type} and {@code pg_enum}.
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

    /** The catalog of the database {@code settings} name, read over a normal SQL connection opened for each call. */
    static TypeCatalog of(ReplicationSettings settings) {
        return oids -> PgTypeCatalog.describe(() -> PgConnections.openSql(settings), oids);
    }
}
