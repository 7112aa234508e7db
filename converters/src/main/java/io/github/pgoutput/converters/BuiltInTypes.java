package io.github.pgoutput.converters;

import java.util.HashMap;
import java.util.Map;

/**
 * The built-in PostgreSQL types the converters know by OID (stable across versions: they are fixed in
 * {@code pg_type.dat}), with their array types. pgoutput sends no Type message for these, so the OID is all
 * the connector gets.
 */
public final class BuiltInTypes {

    public static final String NAMESPACE = "pg_catalog";

    public static final int BOOL = 16;
    public static final int BYTEA = 17;
    public static final int CHAR = 18;
    public static final int NAME = 19;
    public static final int INT8 = 20;
    public static final int INT2 = 21;
    public static final int INT4 = 23;
    public static final int TEXT = 25;
    public static final int OID = 26;
    public static final int JSON = 114;
    public static final int XML = 142;
    public static final int POINT = 600;
    public static final int LSEG = 601;
    public static final int PATH = 602;
    public static final int BOX = 603;
    public static final int POLYGON = 604;
    public static final int LINE = 628;
    public static final int CIDR = 650;
    public static final int FLOAT4 = 700;
    public static final int FLOAT8 = 701;
    public static final int CIRCLE = 718;
    public static final int MACADDR8 = 774;
    public static final int MONEY = 790;
    public static final int MACADDR = 829;
    public static final int INET = 869;
    public static final int BPCHAR = 1042;
    public static final int VARCHAR = 1043;
    public static final int DATE = 1082;
    public static final int TIME = 1083;
    public static final int TIMESTAMP = 1114;
    public static final int TIMESTAMPTZ = 1184;
    public static final int INTERVAL = 1186;
    public static final int TIMETZ = 1266;
    public static final int BIT = 1560;
    public static final int VARBIT = 1562;
    public static final int NUMERIC = 1700;
    public static final int UUID = 2950;
    public static final int TSVECTOR = 3614;
    public static final int JSONB = 3802;
    /** OIDs from here on are assigned at run time: user and extension types (hstore, ltree, ...). */
    public static final int FIRST_USER_OID = 16384;

    /** One catalog row: {@code elementOid} is 0 for a scalar type. */
    record Entry(int oid, String name, int elementOid) {
    }

    private static final Map<Integer, Entry> BY_OID = new HashMap<>();

    static {
        // Types with a dedicated conversion.
        scalar(BOOL, 1000, "bool");
        scalar(BYTEA, 1001, "bytea");
        scalar(CHAR, 1002, "char");
        scalar(NAME, 1003, "name");
        scalar(INT8, 1016, "int8");
        scalar(INT2, 1005, "int2");
        scalar(INT4, 1007, "int4");
        scalar(TEXT, 1009, "text");
        scalar(OID, 1028, "oid");
        scalar(JSON, 199, "json");
        scalar(XML, 143, "xml");
        scalar(CIDR, 651, "cidr");
        scalar(FLOAT4, 1021, "float4");
        scalar(FLOAT8, 1022, "float8");
        scalar(MACADDR8, 775, "macaddr8");
        scalar(MONEY, 791, "money");
        scalar(MACADDR, 1040, "macaddr");
        scalar(INET, 1041, "inet");
        scalar(BPCHAR, 1014, "bpchar");
        scalar(VARCHAR, 1015, "varchar");
        scalar(DATE, 1182, "date");
        scalar(TIME, 1183, "time");
        scalar(TIMESTAMP, 1115, "timestamp");
        scalar(TIMESTAMPTZ, 1185, "timestamptz");
        scalar(INTERVAL, 1187, "interval");
        scalar(TIMETZ, 1270, "timetz");
        scalar(BIT, 1561, "bit");
        scalar(VARBIT, 1563, "varbit");
        scalar(NUMERIC, 1231, "numeric");
        scalar(UUID, 2951, "uuid");
        scalar(JSONB, 3807, "jsonb");
        scalar(POINT, 1017, "point");
        scalar(LSEG, 1018, "lseg");
        scalar(PATH, 1019, "path");
        scalar(BOX, 1020, "box");
        scalar(POLYGON, 1027, "polygon");
        scalar(LINE, 629, "line");
        scalar(CIRCLE, 719, "circle");
        scalar(TSVECTOR, 3643, "tsvector");
        // Built-ins converted through their text form; listed so that their arrays become lists of strings.
        scalar(22, 1006, "int2vector");
        scalar(24, 1008, "regproc");
        scalar(27, 1010, "tid");
        scalar(28, 1011, "xid");
        scalar(29, 1012, "cid");
        scalar(30, 1013, "oidvector");
        scalar(2205, 2210, "regclass");
        scalar(2206, 2211, "regtype");
        scalar(3220, 3221, "pg_lsn");
        scalar(3615, 3645, "tsquery");
        scalar(3904, 3905, "int4range");
        scalar(3906, 3907, "numrange");
        scalar(3908, 3909, "tsrange");
        scalar(3910, 3911, "tstzrange");
        scalar(3912, 3913, "daterange");
        scalar(3926, 3927, "int8range");
        scalar(4072, 4073, "jsonpath");
        scalar(5069, 271, "xid8");
    }

    private BuiltInTypes() {
    }

    private static void scalar(int oid, int arrayOid, String name) {
        BY_OID.put(oid, new Entry(oid, name, 0));
        BY_OID.put(arrayOid, new Entry(arrayOid, "_" + name, oid));
    }

    /** The catalog row for {@code oid}, or null if the OID is not one of the types listed here. */
    static Entry byOid(int oid) {
        return BY_OID.get(oid);
    }

    /**
     * The element delimiter of arrays of this type in text form ({@code pg_type.typdelim}): {@code ';'} for
     * box, whose values contain commas; {@code ','} for every other built-in type.
     */
    static char arrayDelimiter(int elementOid) {
        return elementOid == BOX ? ';' : ',';
    }
}
