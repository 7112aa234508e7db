package io.github.pgoutput.connect.shaping;

import java.sql.Types;
import java.util.Objects;

import io.github.pgoutput.converters.PgColumnType;

/**
 * One column as Debezium's PostgreSQL connector describes it to its column mappers and custom converters (its
 * {@code io.debezium.relational.Column}): what {@code column.mask.*} and {@code column.truncate.*} decide by, what
 * {@code column.propagate.source.type} writes into the schema, and what a {@code CustomConverter} sees as its
 * {@code RelationalColumn}. Made by {@link SourceColumns} from what the Relation message and the catalog say.
 *
 * @param dataCollection  {@code schema.table}
 * @param name            the column's name
 * @param jdbcType        the {@link Types} constant pgjdbc reports for the column's root type (a domain's base type)
 * @param nativeType      the root type's OID
 * @param typeName        the type's name as pgjdbc's {@code getColumns} reports it ({@code int4}, {@code _int4} for an
 *                        array, {@code serial} / {@code bigserial} / {@code smallserial} for an integer column whose
 *                        default calls {@code nextval}, a domain's or enum's own name)
 * @param typeExpression  {@code typeName}, followed by {@code (length,scale)} when those differ from the type's
 *                        defaults (for example {@code varchar(20,0)})
 * @param length          pgjdbc's precision of the type and modifier ({@link Integer#MAX_VALUE} for unbounded types)
 * @param scale           pgjdbc's scale of the type and modifier
 * @param optional        whether the column may hold NULL (not NOT NULL in the catalog)
 * @param defaultValue    the column's default as its field carries it (Debezium's parsed default, which a custom
 *                        converter sees and converts for the field's default); null when it has none that is read
 * @param hasDefaultValue whether the column has a default expression at all
 * @param type            the connector's description of the column's type
 */
public record SourceColumn(String dataCollection, String name, int jdbcType, int nativeType, String typeName,
                           String typeExpression, int length, int scale, boolean optional, Object defaultValue,
                           boolean hasDefaultValue, PgColumnType type) {

    public SourceColumn {
        Objects.requireNonNull(dataCollection, "dataCollection");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(typeName, "typeName");
        Objects.requireNonNull(typeExpression, "typeExpression");
        Objects.requireNonNull(type, "type");
    }

    /** {@code schema.table.column}, which the column keys' expressions are matched against. */
    public String qualifiedName() {
        return dataCollection + "." + name;
    }

    /** {@code schema.table.typeName}, which {@code datatype.propagate.source.type} is matched against. */
    public String qualifiedTypeName() {
        return dataCollection + "." + typeName;
    }

    /** Whether values of the column are character strings to Debezium's masks (JDBC's character types). */
    boolean isCharacterType() {
        return switch (jdbcType) {
            case Types.CHAR, Types.VARCHAR, Types.LONGVARCHAR, Types.CLOB, Types.NCHAR, Types.NVARCHAR,
                    Types.LONGNVARCHAR, Types.NCLOB, Types.DATALINK -> true;
            default -> false;
        };
    }
}
