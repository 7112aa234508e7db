package io.github.pgoutput.connect.shaping;

import java.sql.Types;
import java.util.Map;

import io.github.pgoutput.converters.BuiltInTypes;
import io.github.pgoutput.converters.PgColumnType;

/**
 * Describes a column as Debezium 3.7's pgoutput decoder does ({@link SourceColumn}), from its type and modifier, with
 * the rules of pgjdbc's {@code TypeInfoCache} that Debezium relies on: the precision, scale and display size of a type
 * and modifier, and the JDBC type of a PostgreSQL type. A streamed and a snapshot record of a table get the same
 * description: Debezium's snapshot reads sizes from {@code DatabaseMetaData.getColumns} instead, which differs for
 * {@code numeric} without a precision (length 0, no scale); the streamed form is the one this connector writes.
 *
 * <p>Stateless and thread-safe.
 */
public final class SourceColumns {

    /** pgjdbc's {@code unknownLength}: the length of types without a bound (text, bytea, json, ...). */
    static final int UNKNOWN_LENGTH = Integer.MAX_VALUE;

    private static final int REF_CURSOR = 1790;

    /** pgjdbc's core types and their JDBC types; every other base type is {@link Types#OTHER}. */
    private static final Map<Integer, Integer> JDBC_TYPES = Map.ofEntries(
            Map.entry(BuiltInTypes.INT2, Types.SMALLINT),
            Map.entry(BuiltInTypes.INT4, Types.INTEGER),
            Map.entry(BuiltInTypes.OID, Types.BIGINT),
            Map.entry(BuiltInTypes.INT8, Types.BIGINT),
            Map.entry(BuiltInTypes.MONEY, Types.DOUBLE),
            Map.entry(BuiltInTypes.NUMERIC, Types.NUMERIC),
            Map.entry(BuiltInTypes.FLOAT4, Types.REAL),
            Map.entry(BuiltInTypes.FLOAT8, Types.DOUBLE),
            Map.entry(BuiltInTypes.CHAR, Types.CHAR),
            Map.entry(BuiltInTypes.BPCHAR, Types.CHAR),
            Map.entry(BuiltInTypes.VARCHAR, Types.VARCHAR),
            Map.entry(BuiltInTypes.TEXT, Types.VARCHAR),
            Map.entry(BuiltInTypes.NAME, Types.VARCHAR),
            Map.entry(BuiltInTypes.BYTEA, Types.BINARY),
            Map.entry(BuiltInTypes.BOOL, Types.BIT),
            Map.entry(BuiltInTypes.BIT, Types.BIT),
            Map.entry(BuiltInTypes.DATE, Types.DATE),
            Map.entry(BuiltInTypes.TIME, Types.TIME),
            Map.entry(BuiltInTypes.TIMETZ, Types.TIME),
            Map.entry(BuiltInTypes.TIMESTAMP, Types.TIMESTAMP),
            Map.entry(BuiltInTypes.TIMESTAMPTZ, Types.TIMESTAMP),
            Map.entry(REF_CURSOR, Types.REF_CURSOR));

    private SourceColumns() {
    }

    /**
     * @param schema            the table's schema
     * @param table             the table's name
     * @param name              the column's name
     * @param type              the column's type as the connector resolved it; its modifier is the column's
     * @param optional          whether the column may hold NULL
     * @param defaultExpression the column's default as the catalog prints it; null without one
     * @param defaultValue      that default as the column's field carries it; null when none is read from it
     */
    public static SourceColumn describe(String schema, String table, String name, PgColumnType type, boolean optional,
                                        String defaultExpression, Object defaultValue) {
        PgColumnType root = root(type);
        int length;
        int scale;
        if (type.typmod() != -1) {
            length = precision(type, type.typmod());
            scale = scale(type, type.typmod());
        } else {
            length = defaultLength(type);
            scale = defaultScale(type);
        }
        String typeName = driverTypeName(type, defaultExpression);
        String expression = length == defaultLength(type) && scale == 0 ? typeName
                : typeName + "(" + length + "," + scale + ")";
        return new SourceColumn(schema + "." + table, name, jdbcType(root), root.oid(), typeName, expression, length, scale,
                optional, defaultValue, defaultExpression != null, type);
    }

    /** The type a domain is ultimately based on; any other type itself. */
    static PgColumnType root(PgColumnType type) {
        PgColumnType current = type;
        while (current.kind() instanceof PgColumnType.Domain domain) {
            current = domain.baseType();
        }
        return current;
    }

    /**
     * The name pgjdbc's {@code getColumns} reports: the type's own name, qualified and quoted when its schema is not
     * one a default search path holds, and an integer column whose default calls {@code nextval} as a serial type.
     */
    static String driverTypeName(PgColumnType type, String defaultExpression) {
        String name = type.namespace().isEmpty() || type.namespace().equals("pg_catalog") || type.namespace().equals("public")
                ? type.name() : "\"" + type.namespace() + "\".\"" + type.name() + "\"";
        if (defaultExpression != null && defaultExpression.contains("nextval(")) {
            switch (name) {
                case "int4" -> name = "serial";
                case "int8" -> name = "bigserial";
                case "int2" -> name = "smallserial";
                default -> {
                }
            }
        }
        return name;
    }

    static int jdbcType(PgColumnType root) {
        PgColumnType.Kind kind = root.kind();
        if (kind instanceof PgColumnType.Array) {
            return Types.ARRAY;
        }
        if (kind instanceof PgColumnType.Enum) {
            return Types.VARCHAR;
        }
        if (kind instanceof PgColumnType.Composite) {
            return Types.STRUCT;
        }
        return JDBC_TYPES.getOrDefault(root.oid(), Types.OTHER);
    }

    /** pgjdbc's default length of a type: that of no modifier, or of a domain's own modifier on its base type. */
    static int defaultLength(PgColumnType type) {
        if (type.kind() instanceof PgColumnType.Domain domain) {
            PgColumnType base = domain.baseType();
            if (base.typmod() == -1) {
                return defaultLength(base);
            }
            int size = precision(base, base.typmod());
            if (size == 0) {
                size = displaySize(baseOid(base), base.typmod());
            }
            if (size != 0 && size != UNKNOWN_LENGTH) {
                return size;
            }
            // As pgjdbc: the domain's own OID is none of its known types.
            return UNKNOWN_LENGTH;
        }
        int size = precision(type, -1);
        return size == 0 ? displaySize(baseOid(type), -1) : size;
    }

    static int defaultScale(PgColumnType type) {
        if (type.kind() instanceof PgColumnType.Domain domain) {
            PgColumnType base = domain.baseType();
            return base.typmod() == -1 ? defaultScale(base) : scale(base, base.typmod());
        }
        return scale(type, -1);
    }

    /** The OID pgjdbc sizes a type by: an array's element type, a domain's own OID (which it does not know). */
    private static int baseOid(PgColumnType type) {
        return type.kind() instanceof PgColumnType.Array array ? array.elementType().oid() : type.oid();
    }

    /** pgjdbc's {@code TypeInfoCache.getPrecision}. */
    static int precision(PgColumnType type, int typmod) {
        int oid = baseOid(type);
        return switch (oid) {
            case BuiltInTypes.INT2 -> 5;
            case BuiltInTypes.OID, BuiltInTypes.INT4 -> 10;
            case BuiltInTypes.INT8 -> 19;
            case BuiltInTypes.FLOAT4 -> 8;
            case BuiltInTypes.FLOAT8 -> 17;
            case BuiltInTypes.NUMERIC -> typmod == -1 ? 0 : ((typmod - 4) & 0xFFFF0000) >> 16;
            case BuiltInTypes.CHAR, BuiltInTypes.BOOL -> 1;
            case BuiltInTypes.BPCHAR, BuiltInTypes.VARCHAR -> typmod == -1 ? UNKNOWN_LENGTH : typmod - 4;
            case BuiltInTypes.DATE, BuiltInTypes.TIME, BuiltInTypes.TIMETZ, BuiltInTypes.INTERVAL, BuiltInTypes.TIMESTAMP,
                    BuiltInTypes.TIMESTAMPTZ -> displaySize(oid, typmod);
            case BuiltInTypes.BIT -> typmod;
            case BuiltInTypes.VARBIT -> typmod == -1 ? UNKNOWN_LENGTH : typmod;
            default -> UNKNOWN_LENGTH;
        };
    }

    /** pgjdbc's {@code TypeInfoCache.getScale}. */
    static int scale(PgColumnType type, int typmod) {
        return switch (baseOid(type)) {
            case BuiltInTypes.FLOAT4 -> 8;
            case BuiltInTypes.FLOAT8 -> 17;
            case BuiltInTypes.NUMERIC -> typmod == -1 ? 0 : (typmod - 4) & 0xFFFF;
            case BuiltInTypes.TIME, BuiltInTypes.TIMETZ, BuiltInTypes.TIMESTAMP, BuiltInTypes.TIMESTAMPTZ ->
                    typmod == -1 ? 6 : typmod;
            case BuiltInTypes.INTERVAL -> typmod == -1 ? 6 : typmod & 0xFFFF;
            default -> 0;
        };
    }

    /** pgjdbc's {@code TypeInfoCache.getDisplaySize}, for the OID it sizes by. */
    static int displaySize(int oid, int typmod) {
        switch (oid) {
            case BuiltInTypes.INT2:
                return 6;
            case BuiltInTypes.INT4:
                return 11;
            case BuiltInTypes.OID:
                return 10;
            case BuiltInTypes.INT8:
                return 20;
            case BuiltInTypes.FLOAT4:
                return 15;
            case BuiltInTypes.FLOAT8:
                return 25;
            case BuiltInTypes.CHAR:
            case BuiltInTypes.BOOL:
                return 1;
            case BuiltInTypes.DATE:
                return 13;
            case BuiltInTypes.TIME:
            case BuiltInTypes.TIMETZ:
            case BuiltInTypes.TIMESTAMP:
            case BuiltInTypes.TIMESTAMPTZ:
                // Seconds' digits and point: 7 without a modifier, none for (0), 3 for (1) as PostgreSQL prints it.
                int seconds = switch (typmod) {
                    case -1 -> 7;
                    case 0 -> 0;
                    case 1 -> 3;
                    default -> typmod + 1;
                };
                return switch (oid) {
                    case BuiltInTypes.TIME -> 8 + seconds;
                    case BuiltInTypes.TIMETZ -> 8 + seconds + 6;
                    case BuiltInTypes.TIMESTAMP -> 13 + 1 + 8 + seconds;
                    default -> 13 + 1 + 8 + seconds + 6;
                };
            case BuiltInTypes.INTERVAL:
                return 49;
            case BuiltInTypes.VARCHAR:
            case BuiltInTypes.BPCHAR:
                return typmod == -1 ? UNKNOWN_LENGTH : typmod - 4;
            case BuiltInTypes.NUMERIC:
                if (typmod == -1) {
                    return 131089;
                }
                int precision = (typmod - 4 >> 16) & 0xffff;
                int scale = (typmod - 4) & 0xffff;
                return 1 + precision + (scale != 0 ? 1 : 0);
            case BuiltInTypes.BIT:
                return typmod;
            case BuiltInTypes.VARBIT:
                return typmod == -1 ? UNKNOWN_LENGTH : typmod;
            default:
                return UNKNOWN_LENGTH;
        }
    }
}
