package io.github.pgoutput.converters;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.connect.data.Date;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The schema each type gets (the table in converters/TYPES.md) and the mapper's contract. */
class PostgresTypeMapperTest {

    private final PostgresTypeMapper mapper = new PostgresTypeMapper(ConverterOptions.DEFAULTS);

    private Schema schemaOf(int oid, int typmod) {
        return mapper.converterFor(PgColumnType.builtIn(oid, typmod)).schema(false);
    }

    @ParameterizedTest(name = "{0} -> {2} {3}")
    @CsvSource(nullValues = "-", value = {
        "bool,        16,   BOOLEAN, -",
        "int2,        21,   INT16,   -",
        "int4,        23,   INT32,   -",
        "int8,        20,   INT64,   -",
        "oid,         26,   INT64,   -",
        "float4,      700,  FLOAT32, -",
        "float8,      701,  FLOAT64, -",
        "text,        25,   STRING,  -",
        "varchar,     1043, STRING,  -",
        "bpchar,      1042, STRING,  -",
        "name,        19,   STRING,  -",
        "char,        18,   STRING,  -",
        "bytea,       17,   BYTES,   -",
        "json,        114,  STRING,  io.github.pgoutput.data.Json",
        "jsonb,       3802, STRING,  io.github.pgoutput.data.Json",
        "xml,         142,  STRING,  io.github.pgoutput.data.Xml",
        "uuid,        2950, STRING,  io.github.pgoutput.data.Uuid",
        "date,        1082, INT32,   org.apache.kafka.connect.data.Date",
        "time,        1083, INT64,   io.github.pgoutput.time.MicroTime",
        "timetz,      1266, STRING,  io.github.pgoutput.time.TimeTz",
        "timestamp,   1114, INT64,   io.github.pgoutput.time.MicroTimestamp",
        "timestamptz, 1184, INT64,   io.github.pgoutput.time.MicroTimestampTz",
        "interval,    1186, STRING,  io.github.pgoutput.time.Interval",
        "inet,        869,  STRING,  -",
        "cidr,        650,  STRING,  -",
        "macaddr,     829,  STRING,  -",
        "macaddr8,    774,  STRING,  -",
        "bit,         1560, STRING,  io.github.pgoutput.data.BitString",
        "varbit,      1562, STRING,  io.github.pgoutput.data.BitString",
        "numeric,     1700, STRUCT,  io.github.pgoutput.data.VariableScaleDecimal",
        "money,       790,  BYTES,   org.apache.kafka.connect.data.Decimal",
        "point,       600,  STRING,  -",
        "pg_lsn,      3220, STRING,  -",
    })
    void givesEachBuiltInTypeItsDocumentedSchema(String typeName, int oid, Schema.Type type, String schemaName) {
        Schema schema = schemaOf(oid, -1);
        assertThat(schema.type()).isEqualTo(type);
        assertThat(schema.name()).isEqualTo(schemaName);
        assertThat(PgColumnType.builtIn(oid, -1).name()).isEqualTo(typeName);
    }

    @Test
    void givesNumericWithADeclaredScaleADecimalWithThatScaleAndItsPrecision() {
        Schema schema = schemaOf(BuiltInTypes.NUMERIC, (10 << 16 | 2) + 4);
        assertThat(schema.name()).isEqualTo(Decimal.LOGICAL_NAME);
        assertThat(schema.parameters()).containsEntry(Decimal.SCALE_FIELD, "2").containsEntry("connect.decimal.precision", "10");
    }

    @Test
    void holdsNegativeScalesAsWholeNumbersAndWidensThePrecisionForAvro() {
        // numeric(3,-2): values up to 99900, so 5 digits and scale 0; numeric(2,5): scale 5 needs precision 5.
        assertThat(schemaOf(BuiltInTypes.NUMERIC, 198658).parameters())
                .containsEntry(Decimal.SCALE_FIELD, "0").containsEntry("connect.decimal.precision", "5");
        assertThat(schemaOf(BuiltInTypes.NUMERIC, 131081).parameters())
                .containsEntry(Decimal.SCALE_FIELD, "5").containsEntry("connect.decimal.precision", "5");
    }

    @Test
    void makesTheVariableScaleDecimalStructOptionalInBothVariants() {
        ColumnConverter numeric = mapper.converterFor(PgColumnType.builtIn(BuiltInTypes.NUMERIC, -1));
        assertThat(numeric.schema(false).isOptional()).isTrue();
        assertThat(numeric.schema(false)).isEqualTo(VariableScaleDecimal.SCHEMA);
        assertThat(VariableScaleDecimal.toDecimal((org.apache.kafka.connect.data.Struct) numeric.fromText("-0.00120")))
                .isEqualTo(new java.math.BigDecimal("-0.00120"));
    }

    @Test
    void followsTheDecimalHandlingModeForNumericAndMoney() {
        PostgresTypeMapper doubles = new PostgresTypeMapper(ConverterOptions.DEFAULTS.withDecimalHandlingMode(DecimalHandlingMode.DOUBLE));
        PostgresTypeMapper strings = new PostgresTypeMapper(ConverterOptions.DEFAULTS.withDecimalHandlingMode(DecimalHandlingMode.STRING));
        for (int oid : new int[] {BuiltInTypes.NUMERIC, BuiltInTypes.MONEY}) {
            assertThat(doubles.converterFor(PgColumnType.builtIn(oid, -1)).schema(true).type()).isEqualTo(Schema.Type.FLOAT64);
            assertThat(strings.converterFor(PgColumnType.builtIn(oid, -1)).schema(true).type()).isEqualTo(Schema.Type.STRING);
        }
    }

    @Test
    void usesMoneyFractionDigitsForTheScale() {
        PostgresTypeMapper yen = new PostgresTypeMapper(new ConverterOptions(DecimalHandlingMode.PRECISE, "x", 0));
        ColumnConverter money = yen.converterFor(PgColumnType.builtIn(BuiltInTypes.MONEY, -1));
        assertThat(money.schema(true).parameters()).containsEntry(Decimal.SCALE_FIELD, "0");
        assertThat(money.fromText("￥1,235")).isEqualTo(new java.math.BigDecimal("1235"));
        ColumnConverter cents = mapper.converterFor(PgColumnType.builtIn(BuiltInTypes.MONEY, -1));
        assertThat(cents.fromText("(1.234,56 €)")).isEqualTo(new java.math.BigDecimal("-1234.56"));
        assertThat(cents.fromText("-$0.01")).isEqualTo(new java.math.BigDecimal("-0.01"));
    }

    @Test
    void convertsArraysToArraysOfTheOptionalElementSchema() {
        Schema schema = schemaOf(1182, -1);
        assertThat(schema.type()).isEqualTo(Schema.Type.ARRAY);
        assertThat(schema.valueSchema()).isEqualTo(Date.builder().optional().build());
        assertThat(PgColumnType.builtIn(1231, (5 << 16 | 2) + 4).kind())
                .isEqualTo(new PgColumnType.Array(PgColumnType.builtIn(BuiltInTypes.NUMERIC, (5 << 16 | 2) + 4)));
    }

    @Test
    void producesDatesThatConnectsDateTypeTurnsBackIntoTheSameDayNumbers() {
        ColumnConverter date = mapper.converterFor(PgColumnType.builtIn(BuiltInTypes.DATE, -1));
        Schema schema = date.schema(true);
        assertThat(Date.fromLogical(schema, (java.util.Date) date.fromText("infinity"))).isEqualTo(Integer.MAX_VALUE);
        assertThat(Date.fromLogical(schema, (java.util.Date) date.fromText("-infinity"))).isEqualTo(Integer.MIN_VALUE);
        assertThat(Date.fromLogical(schema, (java.util.Date) date.fromText("4714-11-24 BC")))
                .isEqualTo((int) java.time.LocalDate.of(-4713, 11, 24).toEpochDay());
        assertThat(Date.fromLogical(schema, (java.util.Date) date.fromText("5874897-12-31"))).isEqualTo(2_145_042_905);
    }

    @Test
    void cachesOneConverterPerTypeDescription() {
        assertThat(mapper.converterFor(PgColumnType.builtIn(1007, -1))).isSameAs(mapper.converterFor(PgColumnType.builtIn(1007, -1)));
        assertThat(mapper.converterFor(PgColumnType.builtIn(1700, -1))).isNotSameAs(mapper.converterFor(PgColumnType.builtIn(1700, 327686)));
    }

    @Test
    void convertsUnknownTypesThroughTheirTextAndRefusesTheirBinaryFormByName() {
        PgColumnType citext = new PgColumnType(16500, -1, "public", "citext", new PgColumnType.Base());
        ColumnConverter converter = mapper.converterFor(citext);
        assertThat(converter.schema(true)).isEqualTo(Schema.OPTIONAL_STRING_SCHEMA);
        assertThat(converter.fromText("MiXeD")).isEqualTo("MiXeD");
        assertThatThrownBy(() -> converter.fromBinary(new byte[] {1}))
                .isInstanceOf(ValueConversionException.class)
                .hasMessageContaining("public.citext (oid 16500)")
                .hasMessageContaining("'binary' option off");
        assertThat(mapper.converterFor(PgColumnType.builtIn(99999, -1)).fromText("x")).isEqualTo("x");
    }

    @Test
    void returnsNullForSqlNullInBothForms() {
        ColumnConverter int4 = mapper.converterFor(PgColumnType.builtIn(BuiltInTypes.INT4, -1));
        assertThat(int4.fromText(null)).isNull();
        assertThat(int4.fromBinary(null)).isNull();
    }

    @Test
    void offersThePlaceholderForUnchangedToastOnlyWhereTheSchemaCanHoldIt() {
        PostgresTypeMapper custom = new PostgresTypeMapper(new ConverterOptions(DecimalHandlingMode.PRECISE, "~unavailable~", 2));
        assertThat(custom.converterFor(PgColumnType.builtIn(BuiltInTypes.TEXT, -1)).unchangedToastValue()).contains("~unavailable~");
        assertThat(custom.converterFor(PgColumnType.builtIn(BuiltInTypes.JSONB, -1)).unchangedToastValue()).contains("~unavailable~");
        assertThat((byte[]) custom.converterFor(PgColumnType.builtIn(BuiltInTypes.BYTEA, -1)).unchangedToastValue().orElseThrow())
                .isEqualTo("~unavailable~".getBytes(StandardCharsets.UTF_8));
        assertThat(custom.converterFor(PgColumnType.builtIn(1009, -1)).unchangedToastValue()).contains(List.of("~unavailable~"));
        assertThat(custom.converterFor(PgColumnType.builtIn(BuiltInTypes.NUMERIC, -1)).unchangedToastValue()).isEqualTo(Optional.empty());
        assertThat(custom.converterFor(PgColumnType.builtIn(1007, -1)).unchangedToastValue()).isEmpty();
        PostgresTypeMapper strings = new PostgresTypeMapper(ConverterOptions.DEFAULTS.withDecimalHandlingMode(DecimalHandlingMode.STRING));
        assertThat(strings.converterFor(PgColumnType.builtIn(BuiltInTypes.NUMERIC, -1)).unchangedToastValue())
                .contains(ConverterOptions.DEFAULT_UNAVAILABLE_VALUE_PLACEHOLDER);
    }

    @Test
    void failsClosedOnBinaryTextThatIsNotUtf8() {
        ColumnConverter text = mapper.converterFor(PgColumnType.builtIn(BuiltInTypes.TEXT, -1));
        assertThatThrownBy(() -> text.fromBinary(new byte[] {(byte) 0xE9}))
                .isInstanceOf(ValueConversionException.class).hasMessageContaining("not valid UTF-8");
    }

    @Test
    void namesTheTypeAndValueWhenTextIsMalformed() {
        ColumnConverter date = mapper.converterFor(PgColumnType.builtIn(BuiltInTypes.DATE, -1));
        assertThatThrownBy(() -> date.fromText("02/01/2024"))
                .isInstanceOf(ValueConversionException.class)
                .hasMessageContaining("pg_catalog.date (oid 1082)")
                .hasMessageContaining("'02/01/2024'")
                .hasMessageContaining("DateStyle=ISO");
    }

    @Test
    void refusesTrailingBytesInsteadOfIgnoringThem() {
        ColumnConverter int4 = mapper.converterFor(PgColumnType.builtIn(BuiltInTypes.INT4, -1));
        assertThatThrownBy(() -> int4.fromBinary(new byte[] {0, 0, 0, 1, 0})).hasMessageContaining("trailing");
        assertThatThrownBy(() -> int4.fromBinary(new byte[] {0, 0, 1})).hasMessageContaining("more bytes were expected");
    }

    @Test
    void refusesAnArrayWhoseElementTypeIsNotTheColumns() {
        ColumnConverter int4s = mapper.converterFor(PgColumnType.builtIn(1007, -1));
        // array_send of int8[] {1}: ndim 1, no nulls, element oid 20, length 1, lower bound 1, element of 8 bytes
        byte[] int8Array = java.util.HexFormat.of().parseHex("0000000100000000000000140000000100000001000000080000000000000001");
        assertThatThrownBy(() -> int4s.fromBinary(int8Array)).hasMessageContaining("element type OID 20");
    }

    @Test
    void refusesArrayHeadersThatClaimMoreElementsThanTheBytesHold() {
        ColumnConverter int4s = mapper.converterFor(PgColumnType.builtIn(1007, -1));
        // 6 dimensions of 2^31-1 elements each, no element data
        String header = "00000006" + "00000000" + "00000017" + "7fffffff00000001".repeat(6);
        assertThatThrownBy(() -> int4s.fromBinary(java.util.HexFormat.of().parseHex(header)))
                .isInstanceOf(ValueConversionException.class).hasMessageContaining("cannot fit");
        String negative = "00000001" + "00000000" + "00000017" + "ffffffff00000001";
        assertThatThrownBy(() -> int4s.fromBinary(java.util.HexFormat.of().parseHex(negative)))
                .isInstanceOf(ValueConversionException.class).hasMessageContaining("negative length");
    }
}
