package io.github.pgoutput.connect.record;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;

import io.github.pgoutput.converters.BuiltInTypes;
import io.github.pgoutput.converters.ColumnConverter;
import io.github.pgoutput.converters.ConverterOptions;
import io.github.pgoutput.converters.PgColumnType;
import io.github.pgoutput.converters.PostgresTypeMapper;
import io.github.pgoutput.converters.TemporalPrecisionMode;
import org.apache.kafka.connect.data.Date;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.data.Time;
import org.apache.kafka.connect.data.Timestamp;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.json.JsonConverter;
import org.junit.jupiter.api.Test;

/**
 * The writer's bytes are Kafka's JsonConverter's bytes, with and without schemas, for every Connect type, logical
 * type, default and escape; and for seeded random strings and numbers (the seed is in the failure message).
 */
class ConnectJsonWriterTest {

    private static final Schema ROW = SchemaBuilder.struct().name("p.public.t.Value").version(2).doc("a row")
            .field("i8", Schema.INT8_SCHEMA)
            .field("i16", Schema.OPTIONAL_INT16_SCHEMA)
            .field("i32", SchemaBuilder.int32().defaultValue(7).build())
            .field("i64", Schema.INT64_SCHEMA)
            .field("f32", Schema.OPTIONAL_FLOAT32_SCHEMA)
            .field("f64", Schema.OPTIONAL_FLOAT64_SCHEMA)
            .field("flag", SchemaBuilder.bool().optional().defaultValue(true).build())
            .field("text", SchemaBuilder.string().optional().parameter("__debezium.source.column.type", "TEXT")
                    .parameter("z", "last").parameter("a", "\"quoted\"").build())
            .field("raw", Schema.OPTIONAL_BYTES_SCHEMA)
            .field("amount", Decimal.builder(2).optional().parameter("connect.decimal.precision", "8").build())
            .field("day", Date.builder().optional().build())
            .field("at", Time.builder().optional().build())
            .field("ts", Timestamp.builder().optional().build())
            .field("tags", SchemaBuilder.array(Schema.OPTIONAL_STRING_SCHEMA).optional().build())
            .field("attrs", SchemaBuilder.map(Schema.STRING_SCHEMA, Schema.OPTIONAL_STRING_SCHEMA).optional().build())
            .field("counts", SchemaBuilder.map(Schema.INT32_SCHEMA, Schema.INT64_SCHEMA).optional().build())
            .field("nested", SchemaBuilder.struct().name("io.debezium.data.geometry.Point").optional()
                    .field("x", Schema.FLOAT64_SCHEMA).field("y", Schema.OPTIONAL_FLOAT64_SCHEMA).build())
            .field("fallback", SchemaBuilder.string().defaultValue("none").build())
            .build();

    @Test
    void writesEveryConnectTypeAsJsonConverterDoesWithAndWithoutSchemas() {
        Map<String, String> attrs = new LinkedHashMap<>();
        attrs.put("k", "v");
        attrs.put("empty", null);
        Map<Integer, Long> counts = new LinkedHashMap<>();
        counts.put(1, 10L);
        counts.put(-2, Long.MIN_VALUE);
        Struct row = new Struct(ROW).put("i8", (byte) -128).put("i16", (short) 32767).put("i64", Long.MAX_VALUE)
                .put("f32", 1.1f).put("f64", -0.0).put("text", "é😀 \"q\" \\ \u0000\u001f\b\t\n\f\r\u007f\u2028/")
                .put("raw", new byte[] {0, (byte) 0xff, 1}).put("amount", new BigDecimal("-123456.78"))
                .put("day", new java.util.Date(86_400_000L * 19_000)).put("at", new java.util.Date(3_723_004L))
                .put("ts", new java.util.Date(-1L)).put("tags", java.util.Arrays.asList("a", null, ""))
                .put("attrs", attrs).put("counts", counts)
                .put("nested", new Struct(ROW.field("nested").schema()).put("x", 1e300));
        assertSameBytes(ROW, row);
    }

    @Test
    void writesNullsAsJsonConverterDoes() {
        // i32 and fallback are required with defaults: their nulls are written as the defaults, as flag's.
        Struct row = new Struct(ROW).put("i8", (byte) 0).put("i64", 0L);
        assertSameBytes(ROW, row);
        assertSameBytes(Schema.OPTIONAL_STRING_SCHEMA, null);
        assertSameBytes(SchemaBuilder.string().optional().defaultValue("d").build(), null);
        assertThat(new ConnectJsonWriter(true).write(null, null)).isNull();
        assertThat(new ConnectJsonWriter(false).write(null, null)).isNull();
    }

    @Test
    void writesNonFiniteAndEdgeNumbersAsJsonConverterDoes() {
        for (double d : new double[] {Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.MIN_VALUE,
                Double.MAX_VALUE, 1e-7, 1e7, 123456789.125, 0.1 + 0.2, -0.0}) {
            assertSameBytes(Schema.FLOAT64_SCHEMA, d);
        }
        for (float f : new float[] {Float.NaN, Float.NEGATIVE_INFINITY, Float.MIN_VALUE, Float.MAX_VALUE, 1e-7f, 1e7f,
                3.4028235e38f, -0.0f}) {
            assertSameBytes(Schema.FLOAT32_SCHEMA, f);
        }
        assertSameBytes(Decimal.schema(0), new BigDecimal("0"));
        assertSameBytes(Decimal.schema(5), new BigDecimal("-0.00001"));
    }

    @Test
    void writesStringsLongerThanOneSegmentWithEscapesAndSurrogatesAtItsEdges() {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < 3 * 4096 + 5; i++) {
            // Escapes, 2- and 3-byte chars and surrogate pairs land on both sides of every 4,096-char boundary.
            text.append(i % 4096 == 4095 ? '\n' : i % 7 == 0 ? 'é' : i % 11 == 0 ? '\u20ac' : 'a');
            if (i % 4096 == 4094) {
                text.appendCodePoint(0x1F600);
            }
        }
        assertSameBytes(Schema.STRING_SCHEMA, text.toString());
        assertSameBytes(Schema.STRING_SCHEMA, "x".repeat(5 * 1024 * 1024));
    }

    @Test
    void writesAByteBufferAsJsonConverterDoesAndBytesOfEveryLength() {
        assertSameBytes(Schema.BYTES_SCHEMA, ByteBuffer.wrap(new byte[] {1, 2, 3, 4}));
        for (int n = 0; n < 8; n++) {
            byte[] bytes = new byte[n];
            for (int i = 0; i < n; i++) {
                bytes[i] = (byte) (i * 77 - 100);
            }
            assertSameBytes(Schema.BYTES_SCHEMA, bytes);
        }
    }

    @Test
    void writesTheSameBytesAsJsonConverterWhileTheSchemaCacheFillsAndClears() {
        ConnectJsonWriter writer = new ConnectJsonWriter(true);
        JsonConverter converter = converter(true);
        for (int i = 0; i < 2_100; i++) {
            Schema schema = SchemaBuilder.struct().name("t" + (i % 1_500)).field("id", Schema.INT32_SCHEMA).build();
            Struct value = new Struct(schema).put("id", i);
            assertThat(new String(writer.write(schema, value), StandardCharsets.UTF_8))
                    .isEqualTo(new String(converter.fromConnectData("t", schema, value), StandardCharsets.UTF_8));
        }
    }

    @Test
    void refusesARequiredNullWithoutDefaultAsJsonConverterDoes() {
        Schema schema = SchemaBuilder.struct().field("id", Schema.INT32_SCHEMA).build();
        Struct value = new Struct(schema);
        assertThatThrownBy(() -> converter(false).fromConnectData("t", schema, value)).isInstanceOf(DataException.class);
        assertThatThrownBy(() -> new ConnectJsonWriter(false).write(schema, value)).isInstanceOf(DataException.class)
                .hasMessageContaining("null value for field that is required");
    }

    @Test
    void writesRandomStringsAndNumbersAsJsonConverterDoes() {
        long seed = new Random().nextLong();
        Random random = new Random(seed);
        Schema schema = SchemaBuilder.struct().field("s", Schema.OPTIONAL_STRING_SCHEMA).field("d", Schema.FLOAT64_SCHEMA)
                .field("f", Schema.FLOAT32_SCHEMA).field("l", Schema.INT64_SCHEMA).build();
        ConnectJsonWriter plain = new ConnectJsonWriter(false);
        JsonConverter converter = converter(false);
        for (int i = 0; i < 20_000; i++) {
            Struct value = new Struct(schema).put("s", randomString(random))
                    .put("d", random.nextBoolean() ? random.nextDouble() * Math.pow(10, random.nextInt(40) - 20)
                            : Double.longBitsToDouble(random.nextLong()))
                    .put("f", Float.intBitsToFloat(random.nextInt())).put("l", random.nextLong());
            assertThat(plain.write(schema, value)).as("seed %d, value %s", seed, value)
                    .isEqualTo(converter.fromConnectData("t", schema, value));
        }
    }

    /** Any UTF-16 text: ASCII, control characters, 2- and 3-byte characters, pairs and lone surrogates. */
    private static String randomString(Random random) {
        int length = random.nextInt(12);
        StringBuilder text = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            switch (random.nextInt(6)) {
                case 0 -> text.append((char) random.nextInt(0x20));
                case 1 -> text.append((char) (0x20 + random.nextInt(0x60)));
                case 2 -> text.append((char) (0x80 + random.nextInt(0x780)));
                case 3 -> text.append((char) (0x800 + random.nextInt(0xD000)));
                case 4 -> text.appendCodePoint(0x10000 + random.nextInt(0x100000));
                default -> text.append((char) (0xD800 + random.nextInt(0x800)));
            }
        }
        return text.toString();
    }

    @Test
    void writesDebezium37sGeometricStructsAndInfinityMarkersAsJsonConverterDoes() {
        Map<String, Object> columns = new LinkedHashMap<>();
        columns.put("box", "(2,2),(-2,-2)");
        columns.put("lseg", "[(-1,-1),(1,1)]");
        columns.put("path", "((0,0),(3,4))");
        columns.put("polygon", "((0,0),(2,0),(2,2))");
        columns.put("circle", "<(1,1),0.5>");
        columns.put("line", "{0,1,0}");
        columns.put("point", "(NaN,-0)");
        int[] oids = {BuiltInTypes.BOX, BuiltInTypes.LSEG, BuiltInTypes.PATH, BuiltInTypes.POLYGON, BuiltInTypes.CIRCLE,
            BuiltInTypes.LINE, BuiltInTypes.POINT};
        for (TemporalPrecisionMode mode : TemporalPrecisionMode.values()) {
            PostgresTypeMapper types = new PostgresTypeMapper(ConverterOptions.DEFAULTS.withTemporalPrecisionMode(mode));
            SchemaBuilder row = SchemaBuilder.struct().name("p.public.geo.Value");
            java.util.List<Object> values = new java.util.ArrayList<>();
            int i = 0;
            for (Map.Entry<String, Object> column : columns.entrySet()) {
                ColumnConverter converter = types.converterFor(PgColumnType.builtIn(oids[i++], -1));
                row.field(column.getKey(), converter.schema(true));
                values.add(converter.fromText((String) column.getValue()));
            }
            for (String sign : new String[] {"", "-"}) {
                for (int typmod : new int[] {3, 6}) {
                    ColumnConverter timestamp = types.converterFor(PgColumnType.builtIn(BuiltInTypes.TIMESTAMP, typmod));
                    row.field("ts" + typmod + sign, timestamp.schema(false));
                    values.add(timestamp.fromText(sign + "infinity"));
                }
                ColumnConverter date = types.converterFor(PgColumnType.builtIn(BuiltInTypes.DATE, -1));
                row.field("day" + sign, date.schema(false));
                values.add(date.fromText(sign + "infinity"));
            }
            Schema schema = row.build();
            Struct struct = new Struct(schema);
            for (int f = 0; f < values.size(); f++) {
                struct.put(schema.fields().get(f), values.get(f));
            }
            assertSameBytes(schema, struct);
        }
    }

    private static void assertSameBytes(Schema schema, Object value) {
        for (boolean withSchemas : new boolean[] {false, true}) {
            byte[] expected = converter(withSchemas).fromConnectData("t", schema, value);
            byte[] written = new ConnectJsonWriter(withSchemas).write(schema, value);
            assertThat(new String(written, StandardCharsets.UTF_8)).as("schemas.enable=%s", withSchemas)
                    .isEqualTo(new String(expected, StandardCharsets.UTF_8));
            assertThat(written).as("schemas.enable=%s, bytes", withSchemas).isEqualTo(expected);
        }
    }

    static JsonConverter converter(boolean withSchemas) {
        JsonConverter converter = new JsonConverter();
        converter.configure(Map.of("schemas.enable", Boolean.toString(withSchemas)), false);
        return converter;
    }
}
