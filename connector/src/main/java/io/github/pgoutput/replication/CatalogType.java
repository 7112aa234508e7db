package io.github.pgoutput.replication;

import java.util.List;
import java.util.Objects;

/**
 * One row of {@code pg_type} as far as the connector cares: what sort of type it is and the types it is built on.
 * Immutable.
 *
 * @param oid              {@code pg_type.oid}
 * @param namespace        schema of the type ({@code pg_namespace.nspname}); never null
 * @param name             {@code pg_type.typname}; never null
 * @param kind             what sort of type it is
 * @param baseTypeOid      for a {@link Kind#DOMAIN}: {@code typbasetype}, the type it constrains (possibly another
 *                         domain); 0 otherwise
 * @param baseTypeModifier for a {@link Kind#DOMAIN}: {@code typtypmod}, the modifier the domain gives its base type
 *                         ({@code numeric(10,2)}), -1 for none; -1 otherwise
 * @param elementOid       for an {@link Kind#ARRAY}: {@code typelem}; 0 otherwise
 * @param enumLabels       for an {@link Kind#ENUM}: the labels in sort order; empty otherwise
 */
public record CatalogType(long oid, String namespace, String name, Kind kind, long baseTypeOid, int baseTypeModifier,
                          long elementOid, List<String> enumLabels) {

    /** The sort of type, from {@code typtype} (and the array input function for arrays). */
    public enum Kind {
        /** {@code typtype = 'd'}. */
        DOMAIN,
        /** {@code typtype = 'e'}. */
        ENUM,
        /** A true array ({@code typelem} set and {@code typinput = array_in}), e.g. the array type of a domain. */
        ARRAY,
        /** {@code typtype = 'c'}, a row type. */
        COMPOSITE,
        /** Anything else: a base type of an extension, a range, a multirange, a pseudo-type. */
        BASE
    }

    public CatalogType {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(kind, "kind");
        enumLabels = List.copyOf(enumLabels);
    }
}
