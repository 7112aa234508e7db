package io.github.pgoutput.converters;

import static io.github.pgoutput.converters.TypeCase.nullOf;
import static io.github.pgoutput.converters.TypeCase.of;
import static io.github.pgoutput.converters.TypeCase.textOnly;

import io.github.pgoutput.testing.PostgresDatabase;
import io.github.pgoutput.testing.PostgresTest;
import java.util.List;
import org.junit.jupiter.api.Timeout;

/**
 * Character, binary, document, network, bit-string, point, hstore and text-form-only values as a live server
 * prints and sends them, converted as Debezium 3.7.1 writes them by default and in each other mode (the other geometric
 * types: GeometricTypesLiveTest).
 */
@Timeout(120)
class TextAndOtherTypesLiveTest {

    private static final PostgresTypeMapper MAPPER = new PostgresTypeMapper(ConverterOptions.DEFAULTS);

    @PostgresTest
    void characterTypesKeepEveryCharacterAndPadding(PostgresDatabase database) throws Exception {
        List<TypeCase> cases = List.of(
                nullOf("text"), of("text", "''", ""), of("text", "'héllo wörld Ω≈ç√∫'", "héllo wörld Ω≈ç√∫"),
                of("text", "'😀👍🏽 family: 👨‍👩‍👧'", "😀👍🏽 family: 👨‍👩‍👧"), of("text", "E'tab\\there\\nnew line\\r'", "tab\there\nnew line\r"),
                of("text", "'quote''s \"double\" \\ backslash'", "quote's \"double\" \\ backslash"),
                of("text", "repeat('x', 10000)", "x".repeat(10000)), of("text", "'NULL'", "NULL"),
                nullOf("varchar(5)"), of("varchar(5)", "'abc'", "abc"), of("varchar", "'ü'", "ü"),
                nullOf("char(5)"), of("char(5)", "'ab'", "ab   "), of("char", "'x'", "x"),
                nullOf("name"), of("name", "'pg_catalog'", "pg_catalog"),
                nullOf("\"char\""), of("\"char\"", "'a'", "a"), of("\"char\"", "'é'", "\\303"), of("\"char\"", "''", ""));
        ConversionChecks.assertConversions(MAPPER, LiveValues.observe(database, cases));
    }

    @PostgresTest
    void byteaJsonXmlAndUuidKeepTheirContent(PostgresDatabase database) throws Exception {
        List<TypeCase> cases = List.of(
                nullOf("bytea"), of("bytea", "'\\x'", new byte[0]), of("bytea", "'\\x00ff10'", new byte[] {0, -1, 16}),
                of("bytea", "convert_to('é', 'UTF8')", new byte[] {(byte) 0xC3, (byte) 0xA9}),
                nullOf("json"), of("json", "'{\"b\": [1, 2.50, null],  \"a\" : \"😀\"}'", "{\"b\": [1, 2.50, null],  \"a\" : \"😀\"}"),
                nullOf("jsonb"), of("jsonb", "'{\"b\": [1, 2.50, null],  \"a\" : \"😀\"}'", "{\"a\": \"😀\", \"b\": [1, 2.50, null]}"),
                of("jsonb", "'\"\\u0041\"'", "\"A\""), of("jsonb", "'[]'", "[]"), of("jsonb", "'null'", "null"),
                nullOf("xml"), of("xml", "'<a attr=\"1\">text &amp; more é</a>'", "<a attr=\"1\">text &amp; more é</a>"),
                of("xml", "'<?xml version=\"1.0\"?><r/>'", "<r/>"), of("xml", "'just text'", "just text"),
                nullOf("uuid"), of("uuid", "'A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11'", "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"),
                of("uuid", "'00000000-0000-0000-0000-000000000000'", "00000000-0000-0000-0000-000000000000"),
                of("uuid", "'ffffffff-ffff-ffff-ffff-ffffffffffff'", "ffffffff-ffff-ffff-ffff-ffffffffffff"));
        ConversionChecks.assertConversions(MAPPER, LiveValues.observe(database, cases));
    }

    @PostgresTest
    void byteaIsReadFromTheOlderEscapeOutputToo(PostgresDatabase database) throws Exception {
        List<TypeCase> cases = List.of(
                of("bytea", "'\\x'", new byte[0]), of("bytea", "'\\x005c27ff41'", new byte[] {0, '\\', '\'', -1, 'A'}));
        ConversionChecks.assertConversions(MAPPER, LiveValues.observe(database, cases, "SET bytea_output = 'escape'"));
    }

    @PostgresTest
    void networkAddressesPrintTheSameFromBothForms(PostgresDatabase database) throws Exception {
        List<TypeCase> cases = List.of(
                nullOf("inet"), of("inet", "'192.168.0.1'", "192.168.0.1"), of("inet", "'192.168.0.1/24'", "192.168.0.1/24"),
                of("inet", "'0.0.0.0/0'", "0.0.0.0/0"), of("inet", "'::1'", "::1"), of("inet", "'::'", "::"),
                of("inet", "'2001:DB8::FF00:42:8329/64'", "2001:db8::ff00:42:8329/64"), of("inet", "'::ffff:1.2.3.4'", "::ffff:1.2.3.4"),
                of("inet", "'::1.2.3.4'", "::1.2.3.4"), of("inet", "'1:0:0:1:0:0:0:1'", "1:0:0:1::1"), of("inet", "'1::'", "1::"),
                of("inet", "'1:0:0:2:0:0:3:4'", "1::2:0:0:3:4"), of("inet", "'1:2:3:4:5:6:7:0'", "1:2:3:4:5:6:7:0"),
                of("inet", "'0:0:0:0:0:1:0:0'", "::1:0:0"), of("inet", "'fe80::1:2/10'", "fe80::1:2/10"),
                nullOf("cidr"), of("cidr", "'10.0.0.0/8'", "10.0.0.0/8"), of("cidr", "'192.168.1.1'", "192.168.1.1/32"),
                of("cidr", "'2001:db8::/32'", "2001:db8::/32"), of("cidr", "'::/0'", "::/0"), of("cidr", "'::ffff:0.0.0.0/96'", "::ffff:0.0.0.0/96"),
                nullOf("macaddr"), of("macaddr", "'08:00:2B:01:02:03'", "08:00:2b:01:02:03"), of("macaddr", "'0800.2b01.0203'", "08:00:2b:01:02:03"),
                nullOf("macaddr8"), of("macaddr8", "'08:00:2b:01:02:03:04:05'", "08:00:2b:01:02:03:04:05"),
                of("macaddr8", "'08:00:2b:01:02:03'", "08:00:2b:ff:fe:01:02:03"));
        ConversionChecks.assertConversions(MAPPER, LiveValues.observe(database, cases));
    }

    @PostgresTest
    void bitsAreBooleansForLengthOneAndDebeziumsLittleEndianBytesOtherwise(PostgresDatabase database) throws Exception {
        List<TypeCase> cases = List.of(
                nullOf("bit"), of("bit", "B'1'", true), of("bit", "B'0'", false), of("varbit(1)", "B'1'", true),
                nullOf("bit(3)"), of("bit(3)", "B'101'", new byte[] {5}), of("bit(10)", "B'1000000001'", new byte[] {1, 2}),
                of("bit(16)", "B'0000000000000001'", new byte[] {1}), of("bit(4)", "B'0000'", new byte[0]),
                nullOf("varbit"), of("varbit", "B''", new byte[0]), of("varbit", "B'1010101010101'", new byte[] {0x55, 0x15}),
                of("varbit(20)", "B'10000000'", new byte[] {(byte) 0x80}),
                of("varbit", "repeat('1', 1001)::varbit", ones(1001)));
        ConversionChecks.assertConversions(MAPPER, LiveValues.observe(database, cases));
    }

    private static byte[] ones(int bits) {
        byte[] out = new byte[(bits + 7) / 8];
        for (int i = 0; i < bits; i++) {
            out[i / 8] |= (byte) (1 << (i % 8));
        }
        return out;
    }

    @PostgresTest
    void byteaFollowsTheBinaryHandlingMode(PostgresDatabase database) throws Exception {
        List<TypeCase> base64 = List.of(nullOf("bytea"), of("bytea", "'\\x'", ""), of("bytea", "'\\xfbff00'", "+/8A"));
        ConversionChecks.assertConversions(new PostgresTypeMapper(ConverterOptions.DEFAULTS.withBinaryHandlingMode(BinaryHandlingMode.BASE64)),
                LiveValues.observe(database, base64));
        List<TypeCase> urlSafe = List.of(of("bytea", "'\\xfbff00'", "-_8A"), of("bytea", "'\\x01'", "AQ=="));
        ConversionChecks.assertConversions(new PostgresTypeMapper(
                ConverterOptions.DEFAULTS.withBinaryHandlingMode(BinaryHandlingMode.BASE64_URL_SAFE)), LiveValues.observe(database, urlSafe));
        List<TypeCase> hex = List.of(of("bytea", "'\\xFBff00'", "fbff00"), of("bytea[]", "ARRAY['\\x0a'::bytea, NULL]", Expected.list("0a", null)));
        ConversionChecks.assertConversions(new PostgresTypeMapper(ConverterOptions.DEFAULTS.withBinaryHandlingMode(BinaryHandlingMode.HEX)),
                LiveValues.observe(database, hex));
    }

    @PostgresTest
    void pointsAreDebeziumsGeometryStruct(PostgresDatabase database) throws Exception {
        List<TypeCase> cases = List.of(
                nullOf("point"), of("point", "'(1.5,-2)'", Points.toStruct(1.5, -2)), of("point", "'(0,0)'", Points.toStruct(0, 0)),
                of("point", "'(1e300,-1e-300)'", Points.toStruct(1e300, -1e-300)),
                of("point", "'(NaN,Infinity)'", Points.toStruct(Double.NaN, Double.POSITIVE_INFINITY)));
        ConversionChecks.assertConversions(MAPPER, LiveValues.observe(database, cases));
    }

    @PostgresTest
    void ltreeIsDebeziumsLtreeString(PostgresDatabase database) throws Exception {
        List<TypeCase> cases = List.of(nullOf("ltree"), of("ltree", "'top.middle.leaf'", "top.middle.leaf"), of("ltree", "''", ""));
        ConversionChecks.assertConversions(MAPPER, LiveValues.observe(database, cases, "CREATE EXTENSION ltree"));
    }

    @PostgresTest
    void hstoreIsDebeziumsJsonObjectOrAMap(PostgresDatabase database) throws Exception {
        List<TypeCase> json = List.of(
                nullOf("hstore"), of("hstore", "''", "{}"), of("hstore", "'a=>1, b=>NULL'", "{\"a\":\"1\",\"b\":null}"),
                of("hstore", "E'\"q\\\\\"x\"=>\"tab\\ttab\"'", "{\"q\\\"x\":\"tab\\ttab\"}"),
                of("hstore", "'é=>😀'", "{\"é\":\"😀\"}"));
        ConversionChecks.assertConversions(MAPPER, LiveValues.observe(database, json, "CREATE EXTENSION hstore"));
        java.util.Map<String, String> map = new java.util.HashMap<>();
        map.put("a", "1");
        map.put("b", null);
        ConversionChecks.assertConversions(new PostgresTypeMapper(ConverterOptions.DEFAULTS.withHStoreHandlingMode(HStoreHandlingMode.MAP)),
                LiveValues.observe(database, List.of(nullOf("hstore"), of("hstore", "'a=>1, b=>NULL'", map)),
                        "CREATE EXTENSION IF NOT EXISTS hstore"));
    }

    @PostgresTest
    void typesWithoutADedicatedConversionAreTheirTextFormAndRefuseBinary(PostgresDatabase database) throws Exception {
        List<TypeCase> cases = List.of(
                textOnly("tid", "'(1,2)'", "(1,2)"),
                textOnly("pg_lsn", "'16/B374D848'", "16/B374D848"), textOnly("int4range", "'[1,5]'", "[1,6)"),
                textOnly("tsvector", "'a fat cat'", "'a' 'cat' 'fat'"), textOnly("int8range", "'[1,5]'", "[1,6)"), textOnly("xid8", "'42'", "42"),
                textOnly("regclass", "'pg_class'", "pg_class"), textOnly("int2vector", "'1 2 3'", "1 2 3"));
        ConversionChecks.assertConversions(MAPPER, LiveValues.observe(database, cases));
    }
}
