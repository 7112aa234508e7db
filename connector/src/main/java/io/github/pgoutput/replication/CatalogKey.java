package io.github.pgoutput.replication;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What the catalog says of one table beyond its Relation message, as it holds it when asked: the unique keys that can
 * identify its rows, the primary key and the REPLICA IDENTITY USING INDEX index ({@code pg_index.indisprimary},
 * {@code indisreplident}), each the index's key columns (not its INCLUDE columns) by name, in attribute number order,
 * empty when the table has no such index; and its live columns' nullability and defaults. Immutable.
 *
 * @param relationId           the table's OID
 * @param primaryKey           the primary key's columns; empty without a primary key
 * @param replicaIdentityIndex the columns of the index chosen with REPLICA IDENTITY USING INDEX; empty when the replica
 *                             identity is DEFAULT, FULL or NOTHING
 * @param columns              the table's live columns in attribute number order; empty when not read (a catalog
 *                             that knows keys only)
 */
public record CatalogKey(long relationId, List<String> primaryKey, List<String> replicaIdentityIndex,
                         List<CatalogColumn> columns) {

    public CatalogKey {
        primaryKey = List.copyOf(Objects.requireNonNull(primaryKey, "primaryKey"));
        replicaIdentityIndex = List.copyOf(Objects.requireNonNull(replicaIdentityIndex, "replicaIdentityIndex"));
        columns = List.copyOf(Objects.requireNonNull(columns, "columns"));
    }

    /** Keys only, no column details: every column counts as nullable and without default. */
    public CatalogKey(long relationId, List<String> primaryKey, List<String> replicaIdentityIndex) {
        this(relationId, primaryKey, replicaIdentityIndex, List.of());
    }

    /** The column named {@code name}, if the catalog has it. */
    public Optional<CatalogColumn> column(String name) {
        for (CatalogColumn column : columns) {
            if (column.name().equals(name)) {
                return Optional.of(column);
            }
        }
        return Optional.empty();
    }
}
