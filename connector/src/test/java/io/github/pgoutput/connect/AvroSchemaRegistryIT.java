package io.github.pgoutput.connect;

import static org.assertj.core.api.Assertions.assertThat;

import io.apicurio.registry.utils.converter.AvroConverter;
import io.github.pgoutput.connect.config.ConnectorSettings;
import io.github.pgoutput.connect.config.PgOutputSourceConnectorConfig;
import io.github.pgoutput.converters.PgColumnType;
import io.github.pgoutput.converters.PostgresTypeMapper;
import io.github.pgoutput.testing.Nightly;
import io.github.pgoutput.testing.PostgresDatabase;
import io.github.pgoutput.testing.PostgresTest;
import io.github.pgoutput.testing.kafka.ConnectWorkerCluster;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaAndValue;
import org.apache.kafka.connect.data.Struct;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Issue 6, Avro and Schema Registry: every kind of record the connector emits (a row of every supported type,
 * keys, envelopes, TOAST-unchanged placeholders, tombstones, transaction topic) goes through Apicurio's Avro converter
 * in a real Connect worker against a real registry with Confluent's API, arrives in Confluent's wire format, and reads
 * back to the values the database holds; and the schema changes PostgreSQL users make register new versions under
 * the registry's BACKWARD rule while old records still read.
 */
@Nightly
@Timeout(value = 8, unit = TimeUnit.MINUTES)
class AvroSchemaRegistryIT {

    private static final Duration WAIT = Duration.ofSeconds(120);

    @RegisterExtension
    @Order(1)
    static final ApicurioRegistry registry = new ApicurioRegistry();
    @RegisterExtension
    @Order(2)
    static final ConnectWorkerCluster connect = ConnectWorkerCluster.shared();

    private static Map<String, String> avroConnector(PostgresDatabase db, String prefix, String slot) {
        Map<String, String> config = MixedWorkloadIT.connectorConfig(db, prefix, slot);
        config.put("key.converter", AvroConverter.class.getName());
        config.put("value.converter", AvroConverter.class.getName());
        config.remove("key.converter.schemas.enable");
        config.remove("value.converter.schemas.enable");
        registry.converterConfig().forEach((k, v) -> {
            config.put("key.converter." + k, v);
            config.put("value.converter." + k, v);
        });
        config.put("provide.transaction.metadata", "true");
        return config;
    }

    private static AvroConverter consumerConverter(boolean isKey) {
        AvroConverter converter = new AvroConverter();
        converter.configure(registry.converterConfig(), isKey);
        return converter;
    }

    /** Confluent's wire format: magic byte 0, a 4-byte schema id, then the Avro binary body. */
    private static void assertConfluentWireFormat(byte[] bytes) {
        assertThat(bytes).hasSizeGreaterThan(5);
        assertThat(bytes[0]).isZero();
        assertThat(ByteBuffer.wrap(bytes, 1, 4).getInt()).isPositive();
    }

    @PostgresTest(representative = 18)
    void everyRecordKindRoundTripsThroughTheRegistry(PostgresDatabase db) throws Exception {
        // One worker cluster and registry serve every PostgreSQL version: connector and topics are named per version.
        String name = "avro-types-" + db.majorVersion();
        String prefix = "avro" + db.majorVersion();
        db.execute("CREATE TYPE mood AS ENUM ('sad', 'ok', 'happy')",
                "CREATE DOMAIN positive_int AS int CHECK (VALUE > 0)",
                "CREATE DOMAIN email AS text CHECK (VALUE LIKE '%@%')",
                "CREATE DOMAIN price AS numeric(10,2)",
                "CREATE DOMAIN positive_price AS price CHECK (VALUE > 0)",
                "CREATE DOMAIN int_list AS int[]",
                "CREATE DOMAIN moment AS timestamptz",
                """
                CREATE TABLE all_types (id int PRIMARY KEY, flag bool, i2 smallint, i4 int, i8 bigint, o oid, f4 real,
                  f8 double precision, n_fixed numeric(10,2), n_free numeric, n_neg numeric(3,-2), m money, t text,
                  vc varchar(20), ch char(4), one "char", by bytea, j json, jb jsonb, x xml, u uuid, d date, d_inf date,
                  tm time, ttz timetz, ts timestamp, ts_inf timestamp, tstz timestamptz, tstz_ninf timestamptz,
                  iv interval, ip inet, net cidr, mac macaddr, mac8 macaddr8, bits bit(4), vbits varbit(8),
                  ints int[], texts text[], nums numeric(5,1)[], feeling mood, pos positive_int, pt point,
                  mail email, amount price, least_amount positive_price, positives positive_int[], il int_list,
                  at_end moment, moods mood[], g_box box, g_lseg lseg, g_path path, g_polygon polygon, g_circle circle,
                  g_line line, g_boxes box[], big text)""");
        connect.configureConnector(name, avroConnector(db, prefix, "avro_types_slot"));
        connect.awaitRunning(name, 1, WAIT);
        ConnectWorkerCluster.awaitCondition(WAIT, "slot active", () -> !db.query(
                "SELECT 1 FROM pg_replication_slots WHERE slot_name = 'avro_types_slot' AND active").isEmpty());
        db.execute("""
                INSERT INTO all_types VALUES (1, true, -32768, 2147483647, -9223372036854775808, 4294967295, 1.5,
                  -0.000123456789, 12345678.91, 3.14159265358979323846, 12300, 12.34, 'tëxt ✓', 'varchar', 'ab', 'q',
                  '\\x00ff10', '{"b": 1,  "a": [1, 2]}', '{"b": 1, "a": [1, 2]}', '<a x="1">y</a>',
                  'A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11', '2024-02-29', 'infinity', '23:59:59.999999', '12:00:00+05:30',
                  '2024-02-29 12:34:56.789012', 'infinity', '2024-02-29 12:34:56.789012+01', '-infinity',
                  '1 year 2 mons 3 days 04:05:06.7', '192.168.0.1/24', '10.0.0.0/8', '08:00:2b:01:02:03',
                  '08:00:2b:01:02:03:04:05', B'1010', B'101', '{1,NULL,3}', '{"a b",NULL,"c"}', '{1.5,-2.0}', 'happy',
                  2147483647, '(1,2)', 'ünï@😀.example', -99999999.99, 0.01, '{1,NULL,2147483647}',
                  '{-2147483648,2147483647}', 'infinity', '{sad,NULL,happy}', '((0,0),(1,1))', '[(-1,-1),(1,1)]',
                  '[(0,0),(3,4),(5,0)]', '((0,0),(2,0),(2,2))', '<(1,1),0.5>', '{1,-1,0}', '{(1,1),(0,0);(3,3),(2,2)}',
                  (SELECT string_agg(md5(g::text), '') FROM generate_series(1, 400) g))""");
        Map<String, Object> expectedRow = expectedRow(db, 1);
        db.execute("INSERT INTO all_types (id) VALUES (2)");
        db.execute("UPDATE all_types SET t = 'changed' WHERE id = 1");
        db.execute("DELETE FROM all_types WHERE id = 2");

        String topic = prefix + ".public.all_types";
        // insert 1, insert 2, update 1, delete 2 and its tombstone
        List<ConsumerRecord<byte[], byte[]>> records = connect.awaitRecords(topic, 5, WAIT);
        AvroConverter keys = consumerConverter(true);
        AvroConverter values = consumerConverter(false);
        List<Struct> envelopes = new ArrayList<>();
        int tombstones = 0;
        for (ConsumerRecord<byte[], byte[]> record : records) {
            assertConfluentWireFormat(record.key());
            SchemaAndValue key = keys.toConnectData(topic, record.key());
            assertThat(((Struct) key.value()).get("id")).isIn(1, 2);
            if (record.value() == null) {
                tombstones++;
                continue;
            }
            assertConfluentWireFormat(record.value());
            envelopes.add((Struct) values.toConnectData(topic, record.value()).value());
        }
        assertThat(tombstones).isEqualTo(1);
        List<String> ops = envelopes.stream().map(e -> e.getString("op")).toList();
        assertThat(ops).containsExactly("c", "c", "u", "d");

        Struct inserted = envelopes.get(0).getStruct("after");
        assertThat(normalize(inserted)).isEqualTo(expectedRow);
        // Domains arrive as their base type, also through Avro: int, Decimal with the domain's scale (also for a domain
        // over that domain), arrays of the base type; enums as strings carrying their labels.
        Schema row = inserted.schema();
        assertThat(row.field("pos").schema().type()).isEqualTo(Schema.Type.INT32);
        assertThat(row.field("mail").schema().type()).isEqualTo(Schema.Type.STRING);
        for (String decimal : List.of("amount", "least_amount")) {
            assertThat(row.field(decimal).schema().name()).as(decimal).isEqualTo(Decimal.LOGICAL_NAME);
            assertThat(row.field(decimal).schema().parameters()).as(decimal).containsEntry(Decimal.SCALE_FIELD, "2");
        }
        assertThat(inserted.get("amount")).isEqualTo(new BigDecimal("-99999999.99"));
        assertThat(inserted.get("least_amount")).isEqualTo(new BigDecimal("0.01"));
        assertThat(row.field("positives").schema().valueSchema().type()).isEqualTo(Schema.Type.INT32);
        assertThat(row.field("il").schema().valueSchema().type()).isEqualTo(Schema.Type.INT32);
        assertThat(inserted.get("at_end")).isEqualTo("infinity");
        // Debezium 3.7's geometric structs keep their names, versions and map of extensions through Avro; the
        // circle's required Point and the optional Point of column pt are one Avro record type.
        assertThat(row.field("g_box").schema().name()).isEqualTo("io.debezium.data.geometry.Geometry");
        assertThat(row.field("g_box").schema().version()).isEqualTo(2);
        assertThat(inserted.getStruct("g_path").getMap("extensions")).containsOnly(Map.entry("type", "path"),
                Map.entry("closed", "false"));
        assertThat(row.field("g_circle").schema().field("center").schema().name()).isEqualTo("io.debezium.data.geometry.Point");
        assertThat(row.field("g_line").schema().name()).isEqualTo("io.debezium.data.geometry.Line");
        assertThat(row.field("feeling").schema().parameters()).containsEntry("allowed", "sad,ok,happy");
        assertThat(envelopes.get(0).getStruct("source").getString("db")).isEqualTo(db.name());
        Struct nulls = envelopes.get(1).getStruct("after");
        for (Field field : nulls.schema().fields()) {
            assertThat(nulls.get(field)).as(field.name()).isEqualTo(field.name().equals("id") ? 2 : null);
        }
        Struct updated = envelopes.get(2).getStruct("after");
        assertThat(updated.getString("t")).isEqualTo("changed");
        // Unchanged TOAST value without REPLICA IDENTITY FULL: the placeholder, which the schema allows.
        assertThat(updated.getString("big")).isEqualTo("__debezium_unavailable_value");
        assertThat(envelopes.get(3).getStruct("before").get("id")).isEqualTo(2);

        String transactionTopic = prefix + ".transaction";
        List<ConsumerRecord<byte[], byte[]>> transactions = connect.awaitRecords(transactionTopic, 2 * 4, WAIT);
        AvroConverter transactionValues = consumerConverter(false);
        for (ConsumerRecord<byte[], byte[]> record : transactions) {
            assertConfluentWireFormat(record.value());
            Struct value = (Struct) transactionValues.toConnectData(transactionTopic, record.value()).value();
            assertThat(value.getString("status")).isIn("BEGIN", "END");
        }
        connect.deleteConnector(name);
    }

    @PostgresTest(representative = 17)
    void schemaChangesStayBackwardCompatibleAndOldRecordsStillRead(PostgresDatabase db) throws Exception {
        assertThat(registry.put("/apis/ccompat/v7/config", "{\"compatibility\":\"BACKWARD\"}").statusCode()).isEqualTo(200);
        db.execute("CREATE TYPE level AS ENUM ('low', 'high')",
                "CREATE TABLE evolving (id int PRIMARY KEY, amount int NOT NULL, label varchar(10), gone text NOT NULL DEFAULT 'g',"
                        + " lvl level)");
        // In the full matrix (.ci/nightly) one worker cluster and registry serve every version: names per version.
        String name = "avro-evolution-" + db.majorVersion();
        String prefix = "evo" + db.majorVersion();
        connect.configureConnector(name, avroConnector(db, prefix, "avro_evolution_slot"));
        connect.awaitRunning(name, 1, WAIT);
        ConnectWorkerCluster.awaitCondition(WAIT, "slot active", () -> !db.query(
                "SELECT 1 FROM pg_replication_slots WHERE slot_name = 'avro_evolution_slot' AND active").isEmpty());
        String topic = prefix + ".public.evolving";
        String subject = topic + "-value";

        db.execute("INSERT INTO evolving VALUES (1, 10, 'short', 'x', 'low')");
        connect.awaitRecords(topic, 1, WAIT);
        int versions = versions(subject);
        List<String> steps = List.of(
                "ALTER TABLE evolving ADD COLUMN note text",
                "ALTER TABLE evolving ADD COLUMN score int NOT NULL DEFAULT 7",
                "ALTER TABLE evolving DROP COLUMN gone",
                "ALTER TABLE evolving ALTER COLUMN amount TYPE bigint",
                "ALTER TABLE evolving ALTER COLUMN label TYPE varchar(50)",
                "ALTER TYPE level ADD VALUE 'extreme'");
        int id = 1;
        for (String step : steps) {
            db.execute(step);
            id++;
            db.execute("INSERT INTO evolving (id, amount, label, lvl) VALUES (" + id + ", " + (id * 1_000_000_000L % 2_000_000_000L)
                    + ", '" + "l".repeat(id) + "', '" + (step.contains("extreme") ? "extreme" : "high") + "')");
            connect.awaitRecords(topic, id, WAIT);
            assertThat(connect.status(name).tasks()).allSatisfy(task -> assertThat(task.state()).isEqualTo("RUNNING"));
            int now = versions(subject);
            assertThat(now).as("versions of %s after %s", subject, step).isGreaterThanOrEqualTo(versions);
            versions = now;
        }
        assertThat(versions).as("versions registered for " + steps).isGreaterThanOrEqualTo(5);

        // Every record, old schema or new, reads back with a fresh consumer.
        AvroConverter values = consumerConverter(false);
        List<ConsumerRecord<byte[], byte[]>> records = connect.awaitRecords(topic, id, WAIT);
        for (int i = 0; i < records.size(); i++) {
            assertConfluentWireFormat(records.get(i).value());
            Struct after = ((Struct) values.toConnectData(topic, records.get(i).value()).value()).getStruct("after");
            assertThat(((Number) after.get("id")).intValue()).isEqualTo(i + 1);
        }
        Struct last = ((Struct) values.toConnectData(topic, records.get(records.size() - 1).value()).value()).getStruct("after");
        assertThat(last.get("lvl")).isEqualTo("extreme");
        assertThat(last.get("score")).isEqualTo(7);
        assertThat(last.schema().field("gone")).isNull();
    }

    /** numeric(10,2) as a type modifier: ((precision << 16) | scale) + 4. */
    private static final int NUMERIC_10_2 = (10 << 16 | 2) + 4;

    /** The domain columns of all_types and the built-in type each must convert as. */
    private static final Map<String, PgColumnType> DOMAIN_BASES = Map.of(
            "pos", PgColumnType.builtIn(23, -1),
            "mail", PgColumnType.builtIn(25, -1),
            "amount", PgColumnType.builtIn(1700, NUMERIC_10_2),
            "least_amount", PgColumnType.builtIn(1700, NUMERIC_10_2),
            "positives", PgColumnType.builtIn(1007, -1),
            "il", PgColumnType.builtIn(1007, -1),
            "at_end", PgColumnType.builtIn(1184, -1));

    private static int versions(String subject) throws Exception {
        var response = registry.get("/apis/ccompat/v7/subjects/" + subject + "/versions");
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        String body = response.body().replaceAll("[\\[\\]\\s]", "");
        return body.isEmpty() ? 0 : body.split(",").length;
    }

    /** What the database holds in row {@code id}, as the converters module reads each column's text output. */
    private static Map<String, Object> expectedRow(PostgresDatabase db, int id) {
        PostgresTypeMapper types = new PostgresTypeMapper(ConnectorSettings.converters(
                new PgOutputSourceConnectorConfig(avroConnector(db, "x", "x"))));
        List<List<String>> columns = db.query("SELECT attname, atttypid, atttypmod FROM pg_attribute WHERE attrelid ="
                + " 'all_types'::regclass AND attnum > 0 AND NOT attisdropped ORDER BY attnum");
        Map<String, Object> row = new LinkedHashMap<>();
        for (List<String> column : columns) {
            String name = column.get(0);
            long oid = Long.parseLong(column.get(1));
            // concat() prints each value with its type's output function, as pgoutput sends it (a ::text cast may differ).
            String text = db.queryValue("SELECT concat(\"" + name + "\") FROM all_types WHERE id = " + id);
            // A domain column converts as its base type; an enum (and an array of enums) is its labels' text.
            PgColumnType base = DOMAIN_BASES.get(name);
            Object value = base != null ? types.converterFor(base).fromText(text)
                    : name.equals("feeling") ? text
                    : name.equals("moods") ? Arrays.asList("sad", null, "happy")
                    : types.converterFor(PgColumnType.builtIn((int) oid, Integer.parseInt(column.get(2)))).fromText(text);
            row.put(name, normalize(value));
        }
        return row;
    }

    /** Structs as maps of their fields, bytes as hex: compares values, not schema objects. */
    private static Object normalize(Object value) {
        if (value instanceof Struct struct) {
            Map<String, Object> fields = new LinkedHashMap<>();
            for (Field field : struct.schema().fields()) {
                fields.put(field.name(), normalize(struct.get(field)));
            }
            return fields;
        }
        if (value instanceof byte[] bytes) {
            return HexFormat.of().formatHex(bytes);
        }
        if (value instanceof ByteBuffer buffer) {
            byte[] bytes = new byte[buffer.remaining()];
            buffer.duplicate().get(bytes);
            return HexFormat.of().formatHex(bytes);
        }
        if (value instanceof List<?> list) {
            return list.stream().map(AvroSchemaRegistryIT::normalize).toList();
        }
        return value;
    }
}
