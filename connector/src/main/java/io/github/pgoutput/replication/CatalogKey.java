package io.github.pgoutput.replication;

import java.util.List;
import java.util.Objects;

/**
 * The unique keys of one table that can identify its rows, as the catalog holds them when asked: the primary key and
 * the REPLICA IDENTITY USING INDEX index ({@code pg_index.indisprimary}, {@code indisreplident}). Each is the index's
 * key columns (not its INCLUDE columns) by name, in attribute number order; empty when the table has no such index.
 * Immutable.
 *
 * @param relationId           the table's OID
 * @param primaryKey           the primary key's columns; empty without a primary key
 * @param replicaIdentityIndex the columns of the index chosen with REPLICA IDENTITY USING INDEX; empty when the replica
 *                             identity is DEFAULT, FULL or NOTHING
 */
public record CatalogKey(long relationId, List<String> primaryKey, List<String> replicaIdentityIndex) {

    public CatalogKey {
        primaryKey = List.copyOf(Objects.requireNonNull(primaryKey, "primaryKey"));
        replicaIdentityIndex = List.copyOf(Objects.requireNonNull(replicaIdentityIndex, "replicaIdentityIndex"));
    }
}
