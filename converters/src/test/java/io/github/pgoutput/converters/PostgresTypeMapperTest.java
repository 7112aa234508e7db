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

    @ParameterizedTest(name = "{0}({1}) -> {3} {4}")
    @CsvSource(nullValues = "-", value = {
        "bool,        16,   -1, BOOLEAN, -",
        "int2,        21,   -1, INT16,   -",
        "int4,        23,   -1, INT32,   -",
        "int8,        20,   -1, INT64,   -",
        "oid,         26,   -1, INT64,   -",
        "float4,      700,  -1, FLOAT32, -",
        "float8,      701,  -1, FLOAT64, -",
        "text,        25,   -1, STRING,  -",
        "varchar,     1043, -1, STRING,  -",
        "bpchar,      1042, -1, STRING,  -",
        "name,        19,   -1, STRING,  -",
        "char,        18,   -1, STRING,  -",
        "bytea,       17,   -1, BYTES,   -",
        "json,        114,  -1, STRING,  io.debezium.data.Json",
        "jsonb,       3802, -1, STRING,  io.debezium.data.Json",
        "xml,         142,  -1, STRING,  io.debezium.data.Xml",
        "uuid,        2950, -1, STRING,  io.debezium.data.Uuid",
        "date,        1082, -1, INT32,   io.debezium.time.Date",
        "time,        1083, -1, INT64,   io.debezium.time.MicroTime",
        "time,        1083, 6,  INT64,   io.debezium.time.MicroTime",
        "time,        1083, 4,  INT64,   io.debezium.time.MicroTime",
        "time,        1083, 3,  INT32,   io.debezium.time.Time",
        "time,        1083, 0,  INT32,   io.debezium.time.Time",
        "timetz,      1266, -1, STRING,  io.debezium.time.ZonedTime",
        "timestamp,   1114, -1, INT64,   io.debezium.time.MicroTimestamp",
        "timestamp,   1114, 4,  INT64,   io.debezium.time.MicroTimestamp",
        "timestamp,   1114, 3,  INT64,   io.debezium.time.Timestamp",
        "timestamp,   1114, 0,  INT64,   io.debezium.time.Timestamp",
        "timestamptz, 1184, -1, STRING,  io.debezium.time.ZonedTimestamp",
        "timestamptz, 1184, 0,  STRING,  io.debezium.time.ZonedTimestamp",
        "interval,    1186, -1, INT64,   io.debezium.time.MicroDuration",
        "inet,        869,  -1, STRING,  -",
        "cidr,        650,  -1, STRING,  -",
        "macaddr,     829,  -1, STRING,  -",
        "macaddr8,    774,  -1, STRING,  -",
        "bit,         1560, 1,  BOOLEAN, -",
        "bit,         1560, 2,  BYTES,   io.debezium.data.Bits",
        "varbit,      1562, 1,  BOOLEAN, -",
        "varbit,      1562, -1, BYTES,   io.debezium.data.Bits",
        "numeric,     1700, -1, STRUCT,  io.debezium.data.VariableScaleDecimal",
        "money,       790,  -1, BYTES,   org.apache.kafka.connect.data.Decimal",
        "point,       600,  -1, STRUCT,  io.debezium.data.geometry.Point",
        "circle,      718,  -1, STRUCT,  io.debezium.data.geometry.Circle",
        "line,        628,  -1, STRUCT,  io.debezium.data.geometry.Line",
        "tsvector,    3614, -1, STRING,  io.debezium.data.Tsvector",
        "pg_lsn,      3220, -1, STRING,  -",
    })
    void givesEachBuiltInTypeDebeziumsSchemaByDefault(String typeName, int oid, int typmod, Schema.Type type, String schemaName) {
        Schema schema = schemaOf(oid, typmod);
        assertThat(schema.type()).isEqualTo(type);
        assertThat(schema.name()).isEqualTo(schemaName);
        // Debezium versions each of its named schemas 1, as Connect does its own logical types (but Geometry, 2:
        // GeometricTypesTest).
        assertThat(schema.version()).isEqualTo(schemaName == null ? null : 1);
        assertThat(PgColumnType.builtIn(oid, typmod).name()).isEqualTo(typeName);
    }

    @ParameterizedTest(name = "{0}: time({1}) -> {2}, timestamp({1}) -> {3}")
    @CsvSource(nullValues = "-", value = {
        "ADAPTIVE,                   3,  io.debezium.time.Time,             io.debezium.time.Timestamp",
        "ADAPTIVE,                   -1, io.debezium.time.MicroTime,        io.debezium.time.MicroTimestamp",
        "ADAPTIVE_TIME_MICROSECONDS, 3,  io.debezium.time.MicroTime,        io.debezium.time.Timestamp",
        "ADAPTIVE_TIME_MICROSECONDS, 6,  io.debezium.time.MicroTime,        io.debezium.time.MicroTimestamp",
        "MICROSECONDS,               0,  io.debezium.time.MicroTime,        io.debezium.time.MicroTimestamp",
        "NANOSECONDS,                3,  io.debezium.time.NanoTime,         io.debezium.time.NanoTimestamp",
        "ISOSTRING,                  6,  io.debezium.time.IsoTime,          io.debezium.time.IsoTimestamp",
        "CONNECT,                    6,  org.apache.kafka.connect.data.Time, org.apache.kafka.connect.data.Timestamp",
    })
    void followsTheTimePrecisionMode(TemporalPrecisionMode mode, int typmod, String time, String timestamp) {
        PostgresTypeMapper custom = new PostgresTypeMapper(ConverterOptions.DEFAULTS.withTemporalPrecisionMode(mode));
        assertThat(custom.converterFor(PgColumnType.builtIn(BuiltInTypes.TIME, typmod)).schema(true).name()).isEqualTo(time);
        assertThat(custom.converterFor(PgColumnType.builtIn(BuiltInTypes.TIMESTAMP, typmod)).schema(true).name()).isEqualTo(timestamp);
        assertThat(custom.converterFor(PgColumnType.builtIn(BuiltInTypes.DATE, -1)).schema(true).name())
                .isEqualTo(mode == TemporalPrecisionMode.CONNECT ? Date.LOGICAL_NAME
                        : mode == TemporalPrecisionMode.ISOSTRING ? "io.debezium.time.IsoDate" : "io.debezium.time.Date");
        assertThat(custom.converterFor(PgColumnType.builtIn(BuiltInTypes.TIMESTAMPTZ, typmod)).schema(true).name())
                .isEqualTo("io.debezium.time.ZonedTimestamp");
        assertThat(custom.converterFor(PgColumnType.builtIn(BuiltInTypes.TIMETZ, typmod)).schema(true).name())
                .isEqualTo("io.debezium.time.ZonedTime");
    }

    @Test
    void givesBitsTheDeclaredLengthAsParameter() {
        assertThat(schemaOf(BuiltInTypes.BIT, 12).parameters()).containsEntry("length", "12");
        assertThat(schemaOf(BuiltInTypes.VARBIT, -1).parameters()).containsEntry("length", "2147483647");
    }

    @Test
    void writesBitsLeastSignificantByteFirstWithoutLeadingZeroBytes() {
        ColumnConverter bits = mapper.converterFor(PgColumnType.builtIn(BuiltInTypes.VARBIT, -1));
        assertThat((byte[]) bits.fromText("101")).containsExactly(5);
        assertThat((byte[]) bits.fromText("1000000001")).containsExactly(1, 2);
        assertThat((byte[]) bits.fromText("0000000000000001")).containsExactly(1);
        assertThat((byte[]) bits.fromText("0000")).isEmpty();
        assertThat((byte[]) bits.fromText("")).isEmpty();
        ColumnConverter bit = mapper.converterFor(PgColumnType.builtIn(BuiltInTypes.BIT, 1));
        assertThat(bit.fromText("1")).isEqualTo(true);
        assertThat(bit.fromText("0")).isEqualTo(false);
    }

    @Test
    void givesPointDebeziumsStructWithLittleEndianWkb() {
        ColumnConverter point = mapper.converterFor(PgColumnType.builtIn(BuiltInTypes.POINT, -1));
        org.apache.kafka.connect.data.Struct value = (org.apache.kafka.connect.data.Struct) point.fromText("(1.5,-2)");
        assertThat(value.getFloat64("x")).isEqualTo(1.5);
        assertThat(value.getFloat64("y")).isEqualTo(-2.0);
        assertThat(value.getInt32("srid")).isNull();
        assertThat(java.util.HexFormat.of().formatHex(value.getBytes("wkb")))
                .isEqualTo("0101000000" + "000000000000f83f" + "00000000000000c0");
        assertThat(point.schema(false).fields()).extracting(org.apache.kafka.connect.data.Field::name)
                .containsExactly("x", "y", "wkb", "srid");
    }

    @Test
    void writesByteaAsTheBinaryHandlingModeSays() {
        PgColumnType bytea = PgColumnType.builtIn(BuiltInTypes.BYTEA, -1);
        String text = "\\xfbff00";
        assertThat(new PostgresTypeMapper(ConverterOptions.DEFAULTS.withBinaryHandlingMode(BinaryHandlingMode.BASE64))
                .converterFor(bytea).fromText(text)).isEqualTo("+/8A");
        assertThat(new PostgresTypeMapper(ConverterOptions.DEFAULTS.withBinaryHandlingMode(BinaryHandlingMode.BASE64_URL_SAFE))
                .converterFor(bytea).fromText(text)).isEqualTo("-_8A");
        ColumnConverter hex = new PostgresTypeMapper(ConverterOptions.DEFAULTS.withBinaryHandlingMode(BinaryHandlingMode.HEX))
                .converterFor(bytea);
        assertThat(hex.fromText(text)).isEqualTo("fbff00");
        assertThat(hex.schema(true)).isEqualTo(Schema.OPTIONAL_STRING_SCHEMA);
        assertThat(hex.unchangedToastValue()).contains(ConverterOptions.DEFAULT_UNAVAILABLE_VALUE_PLACEHOLDER);
    }

    @Test
    void recognisesTheHstoreExtensionTypeByName() {
        PgColumnType hstore = new PgColumnType(16400, -1, "public", "hstore", new PgColumnType.Base());
        ColumnConverter json = mapper.converterFor(hstore);
        assertThat(json.schema(true).name()).isEqualTo("io.debezium.data.Json");
        assertThat(json.fromText("\"a\"=>\"1\", \"b\"=>NULL")).isEqualTo("{\"a\":\"1\",\"b\":null}");
        assertThat(json.fromText("\"q\\\"x\"=>\"tab\tnew\nline\\\\\"")).isEqualTo("{\"q\\\"x\":\"tab\\tnew\\nline\\\\\"}");
        assertThat(json.fromText("")).isEqualTo("{}");
        ColumnConverter map = new PostgresTypeMapper(ConverterOptions.DEFAULTS.withHStoreHandlingMode(HStoreHandlingMode.MAP))
                .converterFor(hstore);
        assertThat(map.schema(false).type()).isEqualTo(Schema.Type.MAP);
        assertThat(map.schema(false).valueSchema()).isEqualTo(Schema.OPTIONAL_STRING_SCHEMA);
        java.util.Map<String, String> expected = new java.util.HashMap<>();
        expected.put("a", "1");
        expected.put("b", null);
        assertThat(map.fromText("\"a\"=>\"1\", \"b\"=>NULL")).isEqualTo(expected);
        // Unchanged TOAST: Debezium's one-entry placeholder map.
        String placeholder = ConverterOptions.DEFAULT_UNAVAILABLE_VALUE_PLACEHOLDER;
        assertThat(map.unchangedToastValue()).contains(java.util.Map.of(placeholder, placeholder));
        assertThat(json.unchangedToastValue()).contains("{\"" + placeholder + "\":\"" + placeholder + "\"}");
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
    void makesTheVariableScaleDecimalStructOptionalInBothVariantsWithTheSmallestExactScale() {
        ColumnConverter numeric = mapper.converterFor(PgColumnType.builtIn(BuiltInTypes.NUMERIC, -1));
        assertThat(numeric.schema(false).isOptional()).isTrue();
        assertThat(numeric.schema(false)).isEqualTo(VariableScaleDecimal.SCHEMA);
        assertThat(numeric.schema(false).version()).isEqualTo(1);
        assertThat(numeric.schema(false).doc()).isEqualTo("Variable scaled decimal");
        assertThat(VariableScaleDecimal.toDecimal((org.apache.kafka.connect.data.Struct) numeric.fromText("-0.00120")))
                .isEqualTo(new java.math.BigDecimal("-0.0012"));
        assertThat(VariableScaleDecimal.toDecimal((org.apache.kafka.connect.data.Struct) numeric.fromText("1200")))
                .isEqualTo(new java.math.BigDecimal("1200"));
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
        PostgresTypeMapper yen = new PostgresTypeMapper(ConverterOptions.DEFAULTS.withMoneyFractionDigits(0));
        ColumnConverter money = yen.converterFor(PgColumnType.builtIn(BuiltInTypes.MONEY, -1));
        // Debezium gives money's Decimal only its scale.
        assertThat(money.schema(true).parameters()).containsOnly(java.util.Map.entry(Decimal.SCALE_FIELD, "0"));
        assertThat(money.fromText("￥1,235")).isEqualTo(new java.math.BigDecimal("1235"));
        ColumnConverter cents = mapper.converterFor(PgColumnType.builtIn(BuiltInTypes.MONEY, -1));
        assertThat(cents.fromText("(1.234,56 €)")).isEqualTo(new java.math.BigDecimal("-1234.56"));
        assertThat(cents.fromText("-$0.01")).isEqualTo(new java.math.BigDecimal("-0.01"));
    }

    @Test
    void convertsArraysToArraysOfTheOptionalElementSchema() {
        Schema schema = schemaOf(1182, -1);
        assertThat(schema.type()).isEqualTo(Schema.Type.ARRAY);
        assertThat(schema.valueSchema()).isEqualTo(org.apache.kafka.connect.data.SchemaBuilder.int32()
                .name("io.debezium.time.Date").version(1).optional().build());
        assertThat(PgColumnType.builtIn(1231, (5 << 16 | 2) + 4).kind())
                .isEqualTo(new PgColumnType.Array(PgColumnType.builtIn(BuiltInTypes.NUMERIC, (5 << 16 | 2) + 4)));
    }

    @Test
    void writesDebeziumsDayNumbersForInfiniteDates() {
        ColumnConverter date = mapper.converterFor(PgColumnType.builtIn(BuiltInTypes.DATE, -1));
        // The days of +5877611-06-21 and -5877611-06-22, as Debezium 3.7 writes them (InfinityMarkersTest: every mode).
        assertThat(date.fromText("infinity")).isEqualTo(2_146_033_979);
        assertThat(date.fromText("-infinity")).isEqualTo(-2_147_472_691);
        assertThat(date.fromBinary(new byte[] {0x7f, -1, -1, -1})).isEqualTo(2_146_033_979);
        assertThat(date.fromText("4714-11-24 BC")).isEqualTo((int) java.time.LocalDate.of(-4713, 11, 24).toEpochDay());
        assertThat(date.fromText("5874897-12-31")).isEqualTo(2_145_042_905);
        ColumnConverter connect = new PostgresTypeMapper(ConverterOptions.DEFAULTS.withTemporalPrecisionMode(TemporalPrecisionMode.CONNECT))
                .converterFor(PgColumnType.builtIn(BuiltInTypes.DATE, -1));
        assertThat(Date.fromLogical(connect.schema(true), (java.util.Date) connect.fromText("5874897-12-31"))).isEqualTo(2_145_042_905);
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
        PostgresTypeMapper custom = new PostgresTypeMapper(ConverterOptions.DEFAULTS.withUnavailableValuePlaceholder("~unavailable~"));
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
