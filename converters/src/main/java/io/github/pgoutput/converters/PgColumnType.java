package io.github.pgoutput.converters;

import java.util.List;
import java.util.Objects;

/**
 * What the connector knows about a column's type: the OID and type modifier from the Relation message
 * ({@code atttypid}, {@code atttypmod}), the namespace and name (from the Type message for user types,
 * from {@link BuiltInTypes} for built-ins) and the {@link Kind}, which for enums, domains and user arrays
 * the connector learns from the catalog.
 *
 * <p>Immutable; equal descriptions convert the same way, which is what {@link PostgresTypeMapper} caches on.
 *
 * @param oid       the type OID ({@code pg_type.oid})
 * @param typmod    the type modifier, {@code -1} when there is none. For an array it is the element's modifier.
 * @param namespace schema of the type, {@code "pg_catalog"} for built-ins; never null
 * @param name      the type name ({@code pg_type.typname}); never null
 * @param kind      what sort of type it is
 */
public record PgColumnType(int oid, int typmod, String namespace, String name, Kind kind) {

    public PgColumnType {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(kind, "kind");
    }

    /** The sort of type, as far as conversion cares. */
    public sealed interface Kind {
    }

    /** A base type: a built-in scalar, or an extension type (converted through its text form). */
    public record Base() implements Kind {
    }

    /** An enum; {@code labels} in sort order, possibly empty when the connector could not learn them. */
    public record Enum(List<String> labels) implements Kind {
        public Enum {
            labels = List.copyOf(labels);
        }
    }

    /** A domain, converted as its base type (which carries the domain's own type modifier). */
    public record Domain(PgColumnType baseType) implements Kind {
        public Domain {
            Objects.requireNonNull(baseType, "baseType");
        }
    }

    /** An array of {@code elementType}, any number of dimensions. */
    public record Array(PgColumnType elementType) implements Kind {
        public Array {
            Objects.requireNonNull(elementType, "elementType");
        }
    }

    /** A composite (row) type; converted through its text form. */
    public record Composite() implements Kind {
    }

    /** Nothing is known beyond the OID; converted through its text form. */
    public record Unknown() implements Kind {
    }

    /**
     * The description of a built-in type or built-in array type, as pgoutput announces it (no Type message
     * is sent for OIDs below 10000). An OID the catalog does not know becomes {@link Unknown}.
     */
    public static PgColumnType builtIn(int oid, int typmod) {
        BuiltInTypes.Entry entry = BuiltInTypes.byOid(oid);
        if (entry == null) {
            return new PgColumnType(oid, typmod, BuiltInTypes.NAMESPACE, "oid " + Integer.toUnsignedString(oid), new Unknown());
        }
        if (entry.elementOid() != 0) {
            return new PgColumnType(oid, typmod, BuiltInTypes.NAMESPACE, entry.name(),
                    new Array(builtIn(entry.elementOid(), typmod)));
        }
        return new PgColumnType(oid, typmod, BuiltInTypes.NAMESPACE, entry.name(), new Base());
    }

    /** {@code namespace.name}, for messages. */
    public String qualifiedName() {
        return namespace.isEmpty() ? name : namespace + "." + name;
    }

    /** Type name, OID and modifier, for error messages. */
    public String describe() {
        return qualifiedName() + " (oid " + Integer.toUnsignedString(oid) + (typmod == -1 ? "" : ", typmod " + typmod) + ")";
    }
}
