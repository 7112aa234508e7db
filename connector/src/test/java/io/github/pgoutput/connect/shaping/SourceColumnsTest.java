package io.github.pgoutput.connect.shaping;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Types;
import java.util.List;

import io.github.pgoutput.converters.BuiltInTypes;
import io.github.pgoutput.converters.PgColumnType;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/** Columns described as Debezium 3.7's pgoutput decoder describes them (pgjdbc's sizes; see SourceColumnsIT). */
class SourceColumnsTest {

    private static SourceColumn builtIn(int oid, int typmod) {
        return SourceColumns.describe("public", "t", "c", PgColumnType.builtIn(oid, typmod), true, null, null);
    }

    @ParameterizedTest(name = "oid {0} typmod {1}")
    @CsvSource({
        // oid, typmod, type name, length, scale, jdbc type, type expression
        "23,   -1,     int4,        10,         0,  4,    int4",
        "20,   -1,     int8,        19,         0,  -5,   int8",
        "21,   -1,     int2,        5,          0,  5,    int2",
        "700,  -1,     float4,      8,          8,  7,    'float4(8,8)'",
        "701,  -1,     float8,      17,         17, 8,    'float8(17,17)'",
        "1700, 786439, numeric,     12,         3,  2,    'numeric(12,3)'",
        "1700, -1,     numeric,     131089,     0,  2,    numeric",
        "25,   -1,     text,        2147483647, 0,  12,   text",
        "1043, 24,     varchar,     20,         0,  12,   'varchar(20,0)'",
        "1042, 9,      bpchar,      5,          0,  1,    'bpchar(5,0)'",
        "18,   -1,     char,        1,          0,  1,    char",
        "19,   -1,     name,        2147483647, 0,  12,   name",
        "16,   -1,     bool,        1,          0,  -7,   bool",
        "17,   -1,     bytea,       2147483647, 0,  -2,   bytea",
        "1082, -1,     date,        13,         0,  91,   date",
        "1083, 0,      time,        8,          0,  92,   'time(8,0)'",
        "1083, 3,      time,        12,         3,  92,   'time(12,3)'",
        "1114, 3,      timestamp,   26,         3,  93,   'timestamp(26,3)'",
        "1114, -1,     timestamp,   29,         6,  93,   'timestamp(29,6)'",
        "1184, 6,      timestamptz, 35,         6,  93,   'timestamptz(35,6)'",
        "1266, -1,     timetz,      21,         6,  92,   'timetz(21,6)'",
        "1186, -1,     interval,    49,         6,  1111, 'interval(49,6)'",
        "1560, 8,      bit,         8,          0,  -7,   'bit(8,0)'",
        "1562, 16,     varbit,      16,         0,  1111, 'varbit(16,0)'",
        "2950, -1,     uuid,        2147483647, 0,  1111, uuid",
        "3802, -1,     jsonb,       2147483647, 0,  1111, jsonb",
        "1007, -1,     _int4,       10,         0,  2003, _int4",
        "1231, 524294, _numeric,    8,          2,  2003, '_numeric(8,2)'",
    })
    void builtInTypesAreSizedAsPgjdbcSizesThem(int oid, int typmod, String name, int length, int scale, int jdbcType,
                                              String expression) {
        SourceColumn column = builtIn(oid, typmod);

        assertThat(column.typeName()).isEqualTo(name);
        assertThat(column.length()).isEqualTo(length);
        assertThat(column.scale()).isEqualTo(scale);
        assertThat(column.jdbcType()).isEqualTo(jdbcType);
        assertThat(column.typeExpression()).isEqualTo(expression);
    }

    @Test
    void anIntegerColumnWithANextvalDefaultIsASerialType() {
        assertThat(SourceColumns.describe("public", "t", "id", PgColumnType.builtIn(BuiltInTypes.INT8, -1), false,
                "nextval('t_id_seq'::regclass)", 0L).typeName()).isEqualTo("bigserial");
        assertThat(SourceColumns.describe("public", "t", "id", PgColumnType.builtIn(BuiltInTypes.INT4, -1), false,
                "nextval('t_id_seq'::regclass)", 0).typeName()).isEqualTo("serial");
        assertThat(SourceColumns.describe("public", "t", "id", PgColumnType.builtIn(BuiltInTypes.INT2, -1), false,
                "nextval('s'::regclass)", null).typeName()).isEqualTo("smallserial");
    }

    @Test
    void aDomainIsSizedByItsBaseTypeAndItsOwnModifierAndNamedItself() {
        PgColumnType base = PgColumnType.builtIn(BuiltInTypes.NUMERIC, ((10 << 16) | 2) + 4);
        PgColumnType domain = new PgColumnType(16500, -1, "public", "positive_amount", new PgColumnType.Domain(base));

        SourceColumn column = SourceColumns.describe("public", "t", "amount", domain, true, null, null);

        assertThat(column.typeName()).isEqualTo("positive_amount");
        assertThat(column.length()).isEqualTo(10);
        assertThat(column.scale()).isEqualTo(2);
        assertThat(column.jdbcType()).isEqualTo(Types.NUMERIC);
        assertThat(column.nativeType()).isEqualTo(BuiltInTypes.NUMERIC);
    }

    @Test
    void anEnumIsAVarcharOfUnknownLengthAndATypeOutsideTheSearchPathIsQuoted() {
        PgColumnType mood = new PgColumnType(16400, -1, "public", "mood", new PgColumnType.Enum(List.of("sad", "ok")));
        PgColumnType other = new PgColumnType(16401, -1, "shop", "mood", new PgColumnType.Enum(List.of("sad")));

        SourceColumn column = SourceColumns.describe("public", "t", "m", mood, true, null, null);

        assertThat(column.jdbcType()).isEqualTo(Types.VARCHAR);
        assertThat(column.length()).isEqualTo(Integer.MAX_VALUE);
        assertThat(column.isCharacterType()).isTrue();
        assertThat(SourceColumns.describe("public", "t", "m", other, true, null, null).typeName())
                .isEqualTo("\"shop\".\"mood\"");
    }

    @Test
    void namesItsColumnForTheKeysExpressions() {
        SourceColumn column = SourceColumns.describe("inventory", "orders", "total", PgColumnType.builtIn(BuiltInTypes.NUMERIC, -1),
                true, null, null);

        assertThat(column.qualifiedName()).isEqualTo("inventory.orders.total");
        assertThat(column.qualifiedTypeName()).isEqualTo("inventory.orders.numeric");
    }
}
