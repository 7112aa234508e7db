package io.github.pgoutput.connect;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import io.github.pgoutput.connect.record.AvroNames;
import io.github.pgoutput.connect.record.ChangeRecordBuilder;
import io.github.pgoutput.connect.record.ChangeRecordBuilder.Draft;
import io.github.pgoutput.connect.record.ColumnTypes;
import io.github.pgoutput.connect.record.ConnectJsonWriter;
import io.github.pgoutput.connect.record.MessageKeyColumns;
import io.github.pgoutput.connect.record.TopicNames;
import io.github.pgoutput.converters.BinaryHandlingMode;
import io.github.pgoutput.converters.ConverterOptions;
import io.github.pgoutput.converters.DecimalHandlingMode;
import io.github.pgoutput.converters.IntervalHandlingMode;
import io.github.pgoutput.converters.PostgresTypeMapper;
import io.github.pgoutput.converters.TemporalPrecisionMode;
import io.github.pgoutput.testing.PostgresDatabase;
import io.github.pgoutput.testing.PostgresTest;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.json.JsonConverter;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code direct.encoding}'s bytes are {@code JsonConverter}'s, on real records: a table with a column of every built-in
 * PostgreSQL type the connector knows (and arrays of some), streamed from a live server as inserts, updates (one of the
 * key), deletes with their tombstones, a truncate and a logical decoding message, and a keyless table, under each
 * type-handling setting that changes a schema or a value. Every key and value is written by {@link ConnectJsonWriter}
 * and by {@code JsonConverter}, with {@code schemas.enable} false and true, and the bytes must be equal.
 */
class DirectEncodingIT {

    /** One literal per type; each is a value that tests an edge of its conversion. */
    private static final Map<String, String> COLUMNS = new LinkedHashMap<>();

    static {
        COLUMNS.put("bool", "true");
        COLUMNS.put("bytea", "'\\x00ff10'");
        COLUMNS.put("\"char\"", "'c'");
        COLUMNS.put("name", "'n'");
        COLUMNS.put("int8", "-9223372036854775808");
        COLUMNS.put("int2", "-32768");
        COLUMNS.put("int4", "2147483647");
        COLUMNS.put("text", "E'\\u00e9\\U0001F600 \"q\" \\\\ \\t\\n\\x01 \\u2028'");
        COLUMNS.put("oid", "4294967295");
        COLUMNS.put("json", "'{\"a\" : [1, \"\\u00e9\"]}'");
        COLUMNS.put("xml", "'<a>é</a>'");
        COLUMNS.put("cidr", "'2001:db8::/32'");
        COLUMNS.put("float4", "'-0'");
        COLUMNS.put("float8", "'NaN'");
        COLUMNS.put("macaddr8", "'08:00:2b:01:02:03:04:05'");
        COLUMNS.put("money", "'-1234.56'");
        COLUMNS.put("macaddr", "'08:00:2b:01:02:03'");
        COLUMNS.put("inet", "'::ffff:1.2.3.4/100'");
        COLUMNS.put("char(4)", "'ab'");
        COLUMNS.put("varchar(9)", "'abc'");
        COLUMNS.put("date", "'0001-02-03 BC'");
        COLUMNS.put("time", "'24:00:00'");
        COLUMNS.put("timestamp", "'2024-01-02 03:04:05.123456'");
        COLUMNS.put("timestamptz", "'-infinity'");
        COLUMNS.put("interval", "'-1 year +2 days -00:00:01.5'");
        COLUMNS.put("timetz", "'01:02:03.4-05:30'");
        COLUMNS.put("bit(3)", "B'101'");
        COLUMNS.put("varbit", "B'1'");
        COLUMNS.put("numeric", "-1.500");
        COLUMNS.put("numeric(5,2)", "1.5");
        COLUMNS.put("uuid", "'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'");
        COLUMNS.put("jsonb", "'{\"b\": [], \"a\": 1}'");
        COLUMNS.put("point", "'(1.5,-2)'");
        COLUMNS.put("tsvector", "'a fat cat'");
        COLUMNS.put("int2vector", "'1 2'");
        COLUMNS.put("regproc", "'now'");
        COLUMNS.put("tid", "'(1,2)'");
        COLUMNS.put("xid", "'5'");
        COLUMNS.put("cid", "'3'");
        COLUMNS.put("oidvector", "'1 2'");
        COLUMNS.put("lseg", "'[(0,0),(1,1)]'");
        COLUMNS.put("path", "'((0,0),(1,1))'");
        COLUMNS.put("box", "'((0,0),(1,1))'");
        COLUMNS.put("polygon", "'((0,0),(1,1),(1,0))'");
        COLUMNS.put("line", "'{1,-1,0}'");
        COLUMNS.put("circle", "'<(0,0),1>'");
        COLUMNS.put("regclass", "'pg_class'");
        COLUMNS.put("regtype", "'int4'");
        COLUMNS.put("pg_lsn", "'16/B374D848'");
        COLUMNS.put("tsquery", "'fat & cat'");
        COLUMNS.put("int4range", "'[1,5)'");
        COLUMNS.put("numrange", "'(1.5,2]'");
        COLUMNS.put("tsrange", "'[2024-01-01,2024-02-01)'");
        COLUMNS.put("tstzrange", "'[2024-01-01 00:00+00,)'");
        COLUMNS.put("daterange", "'[2024-01-01,2024-01-05)'");
        COLUMNS.put("int8range", "'empty'");
        COLUMNS.put("jsonpath", "'$.a[*] ? (@ > 1)'");
        COLUMNS.put("xid8", "'7'");
        COLUMNS.put("int4[]", "'{1,NULL,-3}'");
        COLUMNS.put("text[]", "'{\"a b\",NULL,\"\"}'");
        COLUMNS.put("numeric[]", "'{1.5,-2}'");
        COLUMNS.put("timestamptz[]", "'{\"2024-01-02 03:04:05+00\"}'");
        COLUMNS.put("bytea[]", "'{\"\\\\x01\"}'");
        COLUMNS.put("date[]", "'{2024-01-01}'");
        COLUMNS.put("box[]", "'{(1,1),(0,0);(3,3),(2,2)}'");
        // Debezium 3.7's infinity values in every mode; date again, named with its schema so that the column is new.
        COLUMNS.put("timestamp(3)", "'-infinity'");
        COLUMNS.put("timestamp(6)", "'infinity'");
        COLUMNS.put("pg_catalog.date", "'infinity'");
    }

    @TempDir
    Path spillDirectory;

    @PostgresTest
    @Timeout(180)
    void everyRecordOfEveryBuiltInTypeIsWrittenAsJsonConverterWritesItUnderEachTypeHandlingSetting(PostgresDatabase db)
            throws Exception {
        List<String> columns = new ArrayList<>();
        int i = 0;
        for (String type : COLUMNS.keySet()) {
            columns.add("c" + i++ + " " + type);
        }
        db.execute("CREATE TABLE marker (id int)",
                "CREATE TABLE every_type (id int PRIMARY KEY, " + String.join(", ", columns)
                        + ", required text NOT NULL DEFAULT 'dflt', counted int NOT NULL DEFAULT 0)",
                "CREATE TABLE keyless (a int, b text)", "ALTER TABLE keyless REPLICA IDENTITY FULL");

        Map<String, ConverterOptions> settings = new LinkedHashMap<>();
        settings.put("defaults (precise, adaptive, numeric, bytes)", ConverterOptions.DEFAULTS);
        settings.put("decimal string, time connect, interval string, binary base64",
                ConverterOptions.DEFAULTS.withDecimalHandlingMode(DecimalHandlingMode.STRING)
                        .withTemporalPrecisionMode(TemporalPrecisionMode.CONNECT)
                        .withIntervalHandlingMode(IntervalHandlingMode.STRING)
                        .withBinaryHandlingMode(BinaryHandlingMode.BASE64));
        settings.put("decimal double, time micro, binary hex",
                ConverterOptions.DEFAULTS.withDecimalHandlingMode(DecimalHandlingMode.DOUBLE)
                        .withTemporalPrecisionMode(TemporalPrecisionMode.MICROSECONDS)
                        .withBinaryHandlingMode(BinaryHandlingMode.HEX));
        settings.put("time nano", ConverterOptions.DEFAULTS.withTemporalPrecisionMode(TemporalPrecisionMode.NANOSECONDS));
        settings.put("time isostring", ConverterOptions.DEFAULTS.withTemporalPrecisionMode(TemporalPrecisionMode.ISOSTRING));

        int run = 0;
        for (Map.Entry<String, ConverterOptions> setting : settings.entrySet()) {
            String slot = "direct_" + run++;
            ConverterOptions options = setting.getValue();
            List<Draft> drafts = FullIdentityRecordKeysIT.stream(db, slot, catalog -> new ChangeRecordBuilder("de", db.name(),
                    "1.0", new TopicNames("de", "__heartbeat"), new AvroNames("de"), new PostgresTypeMapper(options),
                    new ColumnTypes(catalog), true, (schema, table) -> !table.equals("marker"), MessageKeyColumns.NONE, true),
                    spillDirectory, () -> changeEverything(db));

            Set<String> kinds = new TreeSet<>();
            for (Draft draft : drafts) {
                kinds.add(kind(draft));
                assertSameBytes(setting.getKey() + ", " + kind(draft) + " key", draft.keySchema(), draft.key());
                assertSameBytes(setting.getKey() + ", " + kind(draft) + " value", draft.valueSchema(), draft.value());
            }
            assertThat(kinds).as(setting.getKey()).contains("de.public.every_type c", "de.public.every_type u",
                    "de.public.every_type d", "de.public.every_type tombstone", "de.public.every_type t",
                    "de.public.keyless c", "de.public.keyless d", "de.public.keyless tombstone");
            assertThat(kinds.stream().filter(k -> k.contains("message")).collect(Collectors.toList()))
                    .as(setting.getKey() + ": the logical decoding message's record").isNotEmpty();
            Struct inserted = (Struct) drafts.stream().filter(d -> kind(d).equals("de.public.every_type c")).findFirst()
                    .orElseThrow().value();
            assertThat(inserted.getStruct("after").schema().fields()).as("a field per column")
                    .hasSize(COLUMNS.size() + 3);
            db.execute("SELECT pg_drop_replication_slot('" + slot + "')", "TRUNCATE every_type, keyless");
        }
    }

    private static void changeEverything(PostgresDatabase db) {
        List<String> values = new ArrayList<>(COLUMNS.values());
        List<String> nulls = COLUMNS.values().stream().map(v -> "NULL").toList();
        db.execute("INSERT INTO every_type VALUES (1, " + String.join(", ", values) + ", 'r', 1)",
                "INSERT INTO every_type (id) VALUES (2)",
                "INSERT INTO every_type VALUES (3, " + String.join(", ", nulls) + ", '', -1)",
                "UPDATE every_type SET c7 = 'changed', counted = counted + 1 WHERE id = 1",
                "UPDATE every_type SET id = 10 WHERE id = 2",
                "DELETE FROM every_type WHERE id = 3",
                "INSERT INTO keyless VALUES (1, NULL), (NULL, 'x')",
                "DELETE FROM keyless WHERE a IS NULL",
                "BEGIN; SELECT pg_logical_emit_message(true, 'app', 'payload \u00e9'); INSERT INTO keyless VALUES (5, 'm'); COMMIT",
                "TRUNCATE every_type");
    }

    private static String kind(Draft draft) {
        if (draft.value() == null) {
            return draft.topic() + " tombstone";
        }
        Struct value = (Struct) draft.value();
        return value.schema().field("op") == null ? draft.topic() + " message?" : draft.topic() + " " + value.getString("op");
    }

    private static void assertSameBytes(String what, Schema schema, Object value) {
        for (boolean withSchemas : new boolean[] {false, true}) {
            JsonConverter converter = new JsonConverter();
            converter.configure(Map.of("schemas.enable", Boolean.toString(withSchemas)), false);
            byte[] expected = converter.fromConnectData("t", schema, value);
            byte[] written = new ConnectJsonWriter(withSchemas).write(schema, value);
            String label = what + ", schemas.enable=" + withSchemas;
            if (expected == null) {
                assertThat(written).as(label).isNull();
                continue;
            }
            assertThat(new String(written, StandardCharsets.UTF_8)).as(label).isEqualTo(new String(expected, StandardCharsets.UTF_8));
            assertThat(written).as(label).isEqualTo(expected);
        }
    }
}
