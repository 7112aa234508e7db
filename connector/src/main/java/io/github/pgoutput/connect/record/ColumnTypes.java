package io.github.pgoutput.connect.record;


import io.github.pgoutput.converters.PgColumnType;
import io.github.pgoutput.pgoutput.PgOutputMessage.Relation;
import io.github.pgoutput.pgoutput.RelationColumn;
import io.github.pgoutput.replication.CatalogType;
import io.github.pgoutput.replication.TypeCatalog;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The {@link PgColumnType} of each column of a table: built-in types (OID below 16384) from the converters' own table,
 * user-defined types from the source database's catalog through {@link TypeCatalog}. So a domain converts as its
 * base type (with the domain's modifier: a domain over {@code numeric(10,2)} is a Decimal of scale 2), an enum as its
 * labels, an array of a domain or enum as an array of those; composites and extension types as their text form.
 *
 * <p>Descriptions are cached per OID. The cache is emptied of a table's types whenever the table gets a new schema
 * (a new Relation message that differs, or the first one of a session), so its types are read again then. That is
 * enough: a domain's base type and modifier never change (ALTER DOMAIN cannot change them), and a type can get a new
 * meaning under the same OID only after being dropped, which drops or retypes the columns using it, which in turn
 * makes PostgreSQL send the table's Relation again. An enum's labels are read with the table's schema: a label added
 * later (ALTER TYPE ... ADD VALUE) converts like any other and shows in the schema's {@code allowed} parameter from the
 * table's next schema on. The cache holds at most the user types the captured tables use.
 *
 * <p>A failed catalog read fails the schema with a {@link CatalogReadException}, which the task's error classifier makes
 * a {@code RetriableException} (connection lost) or a {@code ConnectException}; nothing falls back to the text form. A type the catalog no longer has (dropped
 * after the change was written) is converted through its text form, which is what pgoutput sent.
 *
 * <p>Not thread-safe: one per record builder.
 */
public final class ColumnTypes {

    private final TypeCatalog catalog;
    private final Map<Long, CatalogType> described = new HashMap<>();

    public ColumnTypes(TypeCatalog catalog) {
        this.catalog = Objects.requireNonNull(catalog, "catalog");
    }

    /** The catalog the types are read from; the record builder reads table keys from the same one. */
    TypeCatalog catalog() {
        return catalog;
    }

    /** The types of the columns of {@code relation}, in column order; reads the table's user types from the catalog again. */
    List<PgColumnType> of(Relation relation) {
        Set<Long> user = new LinkedHashSet<>();
        for (RelationColumn column : relation.columns()) {
            if (isUserType(column.typeOid())) {
                user.add(column.typeOid());
            }
        }
        if (!user.isEmpty()) {
            described.keySet().removeAll(user);
            try {
                described.putAll(catalog.describe(user));
            } catch (SQLException e) {
                throw new CatalogReadException("reading the column types " + user + " of table " + relation.namespace() + "."
                        + relation.relationName() + " from pg_type", e);
            }
        }
        List<PgColumnType> types = new ArrayList<>(relation.columns().size());
        for (RelationColumn column : relation.columns()) {
            types.add(type(column.typeOid(), column.typeModifier()));
        }
        return types;
    }

    private PgColumnType type(long oid, int typmod) {
        if (!isUserType(oid)) {
            return PgColumnType.builtIn((int) oid, typmod);
        }
        CatalogType row = described.get(oid);
        if (row == null) {
            return new PgColumnType((int) oid, typmod, "", "oid " + oid, new PgColumnType.Unknown());
        }
        PgColumnType.Kind kind = switch (row.kind()) {
            // A column of a domain type has no modifier of its own (PostgreSQL refuses one); the domain's applies.
            case DOMAIN -> new PgColumnType.Domain(type(row.baseTypeOid(), typmod != -1 ? typmod : row.baseTypeModifier()));
            case ENUM -> new PgColumnType.Enum(row.enumLabels());
            // An array column's modifier is its element's (numeric(5,2)[]).
            case ARRAY -> new PgColumnType.Array(type(row.elementOid(), typmod));
            case COMPOSITE -> new PgColumnType.Composite();
            case BASE -> new PgColumnType.Base();
        };
        return new PgColumnType((int) oid, typmod, row.namespace(), row.name(), kind);
    }

    private static boolean isUserType(long oid) {
        return oid >= TypeCatalog.FIRST_USER_OID;
    }
}
