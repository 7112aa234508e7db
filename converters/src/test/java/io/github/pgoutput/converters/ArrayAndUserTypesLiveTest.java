package io.github.pgoutput.converters;

import static io.github.pgoutput.converters.Expected.day;
import static io.github.pgoutput.converters.Expected.decimal;
import static io.github.pgoutput.converters.Expected.list;
import static io.github.pgoutput.converters.Expected.micros;
import static io.github.pgoutput.converters.Expected.variableScale;
import static io.github.pgoutput.converters.TypeCase.failing;
import static io.github.pgoutput.converters.TypeCase.nullOf;
import static io.github.pgoutput.converters.TypeCase.of;
import static io.github.pgoutput.converters.TypeCase.textOnly;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.pgoutput.testing.PostgresDatabase;
import io.github.pgoutput.testing.PostgresTest;
import java.util.List;
import org.apache.kafka.connect.data.Schema;
import org.junit.jupiter.api.Timeout;

/** Arrays, enums, domains and composites as a live server prints and sends them. */
@Timeout(120)
class ArrayAndUserTypesLiveTest {

    private static final PostgresTypeMapper MAPPER = new PostgresTypeMapper(ConverterOptions.DEFAULTS);

    @PostgresTest
    void arraysHandleNullsQuotingEscapesAndFlattenExtraDimensions(PostgresDatabase database) throws Exception {
        List<TypeCase> cases = List.of(
                nullOf("int4[]"), of("int4[]", "'{}'", list()), of("int4[]", "'{1,NULL,3}'", list(1, null, 3)),
                of("int4[]", "'{{1,2},{3,4}}'", list(1, 2, 3, 4)), of("int4[]", "'[0:2]={7,8,9}'", list(7, 8, 9)),
                of("int4[]", "'{{{1}},{{2}}}'", list(1, 2)), of("int4[]", "'{NULL}'", list((Integer) null)),
                of("text[]", "ARRAY['a b', 'q\"x', E'back\\\\slash', NULL, 'NULL', '', '{}', ',', 'é😀', ' lead']",
                        list("a b", "q\"x", "back\\slash", null, "NULL", "", "{}", ",", "é😀", " lead")),
                of("text[]", "ARRAY[['a', 'b'], ['c,d', 'e\"f']]", list("a", "b", "c,d", "e\"f")),
                of("varchar(3)[]", "'{abc,\"\"}'", list("abc", "")), of("char(2)[]", "'{a}'", list("a ")),
                of("name[]", "'{x}'", list("x")), of("\"char\"[]", "'{a,b}'", list("a", "b")),
                of("int2[]", "'{-32768,32767}'", list((short) -32768, (short) 32767)),
                of("int8[]", "'{-9223372036854775808}'", list(Long.MIN_VALUE)), of("oid[]", "'{4294967295}'", list(4_294_967_295L)),
                of("bool[]", "'{t,f,NULL}'", list(true, false, null)),
                of("float4[]", "'{NaN,-0}'", list(Float.NaN, -0.0f)), of("float8[]", "'{-Infinity,4.9e-324}'", list(Double.NEGATIVE_INFINITY, Double.MIN_VALUE)),
                of("numeric(5,2)[]", "'{1.5,NULL,-2}'", list(decimal("1.50"), null, decimal("-2.00"))),
                of("numeric[]", "'{1.5,0.001}'", list(variableScale("1.5"), variableScale("0.001"))),
                failing("numeric[]", "'{1,NaN}'", "element 1"),
                of("money[]", "'{1.5}'", list(decimal("1.50"))),
                of("bytea[]", "ARRAY['\\x01'::bytea, NULL, '\\x'::bytea]", list(new byte[] {1}, null, new byte[0])),
                of("date[]", "'{2024-01-01,infinity,\"0001-01-01 BC\"}'",
                        list(day(2024, 1, 1), 2_146_033_979, day(0, 1, 1))),
                of("time[]", "'{24:00:00}'", list(86_400_000_000L)), of("time(3)[]", "'{00:00:01.5}'", list(1_500)),
                of("timetz[]", "'{12:00:00+01}'", list("11:00:00Z")),
                of("timestamp[]", "'{\"2024-01-02 03:04:05.5\",-infinity}'",
                        list(micros("2024-01-02T03:04:05.5"), Long.MIN_VALUE)),
                of("timestamptz[]", "'{\"2024-01-02 03:04:05+00\"}'", list("2024-01-02T03:04:05.000000Z")),
                of("interval[]", "'{\"1 day -1 sec\",NULL}'", list(86_399_000_000L, null)),
                of("uuid[]", "'{a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11}'", list("a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11")),
                of("json[]", "ARRAY['{\"a\": [1, 2]}'::json]", list("{\"a\": [1, 2]}")),
                of("jsonb[]", "ARRAY['{\"a\": \"x,y\"}'::jsonb, 'null'::jsonb]", list("{\"a\": \"x,y\"}", "null")),
                of("xml[]", "ARRAY['<a>1</a>'::xml]", list("<a>1</a>")),
                of("inet[]", "'{::1,10.0.0.1/8}'", list("::1", "10.0.0.1/8")), of("cidr[]", "'{10.0.0.0/8}'", list("10.0.0.0/8")),
                of("macaddr[]", "'{08:00:2b:01:02:03}'", list("08:00:2b:01:02:03")),
                of("macaddr8[]", "'{08:00:2b:01:02:03:04:05}'", list("08:00:2b:01:02:03:04:05")),
                of("varbit[]", "'{101,\"\"}'", list(new byte[] {5}, new byte[0])),
                // box arrays are delimited by ';' (a box's text has commas): Geometry structs (GeometricTypesTest).
                of("box[]", "'{(1,1),(0,0);(3,3),(2,2)}'",
                        list(GeometricTypes.box(new double[] {1, 1, 0, 0}), GeometricTypes.box(new double[] {3, 3, 2, 2}))),
                of("point[]", "'{\"(1,2)\",NULL}'", list(Points.toStruct(1, 2), null)));
        ConversionChecks.assertConversions(MAPPER, LiveValues.observe(database, cases));
    }

    @PostgresTest
    void enumsAreTheirLabelsAndDomainsConvertAsTheirBaseType(PostgresDatabase database) throws Exception {
        String[] types = {
            "CREATE TYPE mood AS ENUM ('happy', 'very sad', 'it''s \"ok\"', 'ünï 😀', 'a,b', '')",
            "CREATE DOMAIN price AS numeric(10,2) CHECK (VALUE >= 0)",
            "CREATE DOMAIN email AS text",
            "CREATE DOMAIN positive_price AS price CHECK (VALUE > 0)",
            "CREATE DOMAIN int_list AS int4[]",
            "CREATE DOMAIN stamp AS timestamptz",
            "CREATE TYPE pair AS (a int, b text)"};
        List<TypeCase> cases = List.of(
                nullOf("mood"), of("mood", "'happy'", "happy"), of("mood", "'very sad'", "very sad"),
                of("mood", "'it''s \"ok\"'", "it's \"ok\""), of("mood", "'ünï 😀'", "ünï 😀"), of("mood", "'a,b'", "a,b"), of("mood", "''", ""),
                nullOf("mood[]"), of("mood[]", "'{happy,\"very sad\",NULL,\"a,b\",\"\"}'", list("happy", "very sad", null, "a,b", "")),
                nullOf("price"), of("price", "12.3", decimal("12.30")), of("price", "99999999.99", decimal("99999999.99")),
                of("positive_price", "0.01", decimal("0.01")), of("email", "'a@b.c'", "a@b.c"),
                of("price[]", "'{1.5,NULL}'", list(decimal("1.50"), null)),
                of("int_list", "'{1,2}'", list(1, 2)), of("stamp", "'infinity'", "infinity"),
                nullOf("pair"), textOnly("pair", "ROW(1, 'x y')", "(1,\"x y\")"), textOnly("pair", "ROW(NULL, '')", "(,\"\")"),
                textOnly("pair[]", "ARRAY[ROW(1, 'x')::pair, NULL]", list("(1,x)", null)));
        List<LiveValues.Observed> observed = LiveValues.observe(database, cases, types);
        ConversionChecks.assertConversions(MAPPER, observed);

        LiveValues.Observed mood = observed.get(1);
        Schema schema = MAPPER.converterFor(mood.type()).schema(true);
        assertThat(schema.name()).isEqualTo("io.debezium.data.Enum");
        assertThat(schema.version()).isEqualTo(1);
        assertThat(schema.parameters()).containsEntry(SchemaNames.ENUM_ALLOWED_PARAMETER, "happy,very sad,it's \"ok\",ünï 😀,a,b,");
        LiveValues.Observed price = observed.stream().filter(o -> o.testCase().sqlType().equals("price")).findFirst().orElseThrow();
        assertThat(MAPPER.converterFor(price.type()).schema(false).parameters())
                .containsEntry("scale", "2").containsEntry(SchemaNames.DECIMAL_PRECISION_PARAMETER, "10");
    }
}
