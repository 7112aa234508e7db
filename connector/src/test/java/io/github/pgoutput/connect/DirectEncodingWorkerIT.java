package io.github.pgoutput.connect;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.pgoutput.testing.Nightly;
import io.github.pgoutput.testing.kafka.ConnectWorkerCluster;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import io.github.pgoutput.testing.PostgresDatabase;
import io.github.pgoutput.testing.PostgresTest;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.connect.data.SchemaAndValue;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.json.JsonConverter;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code direct.encoding} on a real Connect worker: two connectors read the same database, one writing JSON bytes
 * itself through {@code ByteArrayConverter}, the other handing Structs to {@code JsonConverter}, each with and without
 * schemas. Snapshot rows, inserts, updates (one of the key), deletes with tombstones, the transaction topic's BEGIN
 * and END records and a logical decoding message come out byte for byte the same on both (after the connector's
 * name and its processing timestamps, the only things that differ between two connectors, are set aside), headers
 * included; heartbeats are JSON that JsonConverter reads back. The worker's validation refuses the mode without
 * ByteArrayConverter, on the keys to change.
 */
@Nightly
class DirectEncodingWorkerIT {

    private static final Duration WAIT = Duration.ofSeconds(90);
    private static final String BYTES = "org.apache.kafka.connect.converters.ByteArrayConverter";
    private static final String JSON = "org.apache.kafka.connect.json.JsonConverter";
    /**
     * What differs between two connectors reading the same changes: processing times, and for snapshot rows the
     * snapshot's own transaction and consistent point (each connector exports its own snapshot).
     */
    private static final Pattern PER_CONNECTOR = Pattern.compile(
            "\"(ts_ms|ts_us|ts_ns|txId|lsn)\":-?[0-9]+|\"sequence\":\"(?:[^\"\\\\]|\\\\.)*\"");

    @RegisterExtension
    static final ConnectWorkerCluster connect = ConnectWorkerCluster.shared();

    // A worker and two connectors per mode: once per build (DirectEncodingIT covers the bytes on every version).
    @PostgresTest(representative = 16)
    @Timeout(240)
    void directBytesEqualJsonConvertersBytesOnEveryTopicWithAndWithoutSchemas(PostgresDatabase db) {
        for (boolean schemas : new boolean[] {true, false}) {
            String mode = schemas ? "json_with_schemas" : "json";
            String table = "items_" + mode;
            db.execute("CREATE TABLE " + table + " (id int PRIMARY KEY, name text NOT NULL DEFAULT 'unnamed', price numeric(8,2),"
                            + " at timestamptz, tags text[], ratio float8)",
                    "INSERT INTO " + table + " VALUES (1, 'snap é', 1.50, '2024-01-02 03:04:05+00', '{a,b}', 'NaN'),"
                            + " (2, 'two', NULL, NULL, NULL, -0.0)");
            String direct = "dx_" + mode + db.majorVersion();
            String structs = "sx_" + mode + db.majorVersion();
            Map<String, String> directConfig = config(db, direct, BYTES, schemas, table);
            directConfig.put("direct.encoding", mode);
            connect.configureConnector(direct, directConfig);
            connect.configureConnector(structs, config(db, structs, JSON, schemas, table));
            // Both snapshots read before any change, so both connectors stream the same changes.
            connect.awaitRecords(structs + ".public." + table, 2, WAIT);
            connect.awaitRecords(direct + ".public." + table, 2, WAIT);

            db.execute("INSERT INTO " + table + " (id, price, tags) VALUES (3, 9.99, '{\"x y\",NULL}')",
                    "UPDATE " + table + " SET name = 'one', ratio = 1e-7 WHERE id = 1",
                    "UPDATE " + table + " SET id = 20 WHERE id = 2",
                    "DELETE FROM " + table + " WHERE id = 3",
                    "BEGIN; SELECT pg_logical_emit_message(true, 'app', 'hello \"m\"');"
                            + " INSERT INTO " + table + " (id) VALUES (4); COMMIT");
            // 2 snapshot rows, then c, u, d + tombstone + c (the key change), d + tombstone, c; 5 BEGIN and 5 END.
            connect.awaitRecords(structs + ".public." + table, 10, WAIT);
            connect.awaitRecords(direct + ".public." + table, 10, WAIT);
            connect.awaitRecords(structs + ".transaction", 10, WAIT);
            connect.awaitRecords(direct + ".transaction", 10, WAIT);

            for (String topic : List.of(".public." + table, ".transaction", ".message")) {
                List<ConsumerRecord<byte[], byte[]>> fromStructs = connect.readAll(structs + topic, Duration.ofSeconds(10));
                List<ConsumerRecord<byte[], byte[]>> fromDirect = connect.readAll(direct + topic, Duration.ofSeconds(10));
                assertThat(fromDirect).as(mode + topic + " records").hasSameSizeAs(fromStructs).isNotEmpty();
                for (int i = 0; i < fromStructs.size(); i++) {
                    ConsumerRecord<byte[], byte[]> s = fromStructs.get(i);
                    ConsumerRecord<byte[], byte[]> d = fromDirect.get(i);
                    String what = mode + topic + " record " + i;
                    assertThat(comparable(d.key(), direct)).as(what + " key").isEqualTo(comparable(s.key(), structs));
                    assertThat(comparable(d.value(), direct)).as(what + " value").isEqualTo(comparable(s.value(), structs));
                    assertThat(d.headers().toArray()).as(what + " header count").hasSameSizeAs(s.headers().toArray());
                    if (s.value() == null) {
                        assertThat(d.value()).as(what + ": a tombstone stays a tombstone").isNull();
                    }
                }
            }
            assertThat(connect.readAll(direct + ".public." + table, Duration.ofSeconds(10)))
                    .as(mode + ": tombstones").filteredOn(r -> r.value() == null).hasSize(2);

            List<ConsumerRecord<byte[], byte[]>> beats = connect.awaitRecords("__debezium-heartbeat." + direct, 1, WAIT);
            JsonConverter reader = new JsonConverter();
            reader.configure(Map.of("schemas.enable", Boolean.toString(schemas)), false);
            SchemaAndValue beat = reader.toConnectData("t", beats.get(0).value());
            Object ts = schemas ? ((Struct) beat.value()).get("ts_ms") : ((Map<?, ?>) beat.value()).get("ts_ms");
            assertThat(ts).as(mode + ": the heartbeat's ts_ms").isInstanceOf(Long.class);

            connect.deleteConnector(direct);
            connect.deleteConnector(structs);
        }
    }

    @PostgresTest(representative = 15)
    @Timeout(120)
    void theWorkersValidationRefusesDirectEncodingWithoutByteArrayConverters(PostgresDatabase db) {
        Map<String, String> config = MixedWorkloadIT.connectorConfig(db, "dv", "dv_slot");
        config.put("name", "dv");
        config.put("direct.encoding", "json");
        Map<String, List<String>> errors = connect.validationErrors(PgOutputSourceConnector.class.getName(), config);
        assertThat(errors).containsOnlyKeys("key.converter", "value.converter");
        assertThat(errors.get("value.converter")).singleElement().asString().contains(JSON).contains(BYTES);

        config.put("key.converter", BYTES);
        config.remove("value.converter");
        config.remove("value.converter.schemas.enable");
        errors = connect.validationErrors(PgOutputSourceConnector.class.getName(), config);
        assertThat(errors).containsOnlyKeys("direct.encoding");
        assertThat(errors.get("direct.encoding")).singleElement().asString().contains("value.converter=" + BYTES);

        config.put("value.converter", BYTES);
        assertThat(connect.validationErrors(PgOutputSourceConnector.class.getName(), config)).isEmpty();
    }

    private static Map<String, String> config(PostgresDatabase db, String name, String converter, boolean schemas,
            String table) {
        Map<String, String> config = MixedWorkloadIT.connectorConfig(db, name, name + "_slot");
        config.put("snapshot.mode", "initial");
        config.put("key.converter", converter);
        config.put("value.converter", converter);
        config.put("key.converter.schemas.enable", Boolean.toString(schemas));
        config.put("value.converter.schemas.enable", Boolean.toString(schemas));
        config.put("provide.transaction.metadata", "true");
        config.put("heartbeat.interval.ms", "500");
        config.put("table.include.list", "public." + table);
        return config;
    }

    /** The record's JSON with its connector's name written as "N" and processing timestamps left out. */
    private static String comparable(byte[] json, String connectorName) {
        if (json == null) {
            return null;
        }
        String text = new String(json, StandardCharsets.UTF_8).replace(connectorName, "N");
        return PER_CONNECTOR.matcher(text).replaceAll("\"$1\":X");
    }
}
