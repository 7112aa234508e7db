package io.github.pgoutput.connect;

import io.github.pgoutput.testing.kafka.ConnectWorkerCluster;
import io.github.pgoutput.connect.record.LifecycleHeaders;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.pgoutput.testing.PostgresDatabase;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * A table {@code (id bigint PRIMARY KEY, v int)} rebuilt from its topic while it is read, in arrays indexed by id, so
 * that millions of records need a few megabytes in the test JVM. It also counts ops, {@code source.snapshot} markers
 * and {@code pg.snapshot} headers, and keeps the history ("op:v") of a few chosen ids. Not thread-safe.
 */
final class IntTableReplica implements AutoCloseable {

    private static final int ABSENT = Integer.MIN_VALUE;

    private final KafkaConsumer<byte[], byte[]> consumer;
    private final int[] values;
    private final Map<Long, List<String>> history = new HashMap<>();
    private final Map<String, Long> ops = new HashMap<>();
    private final Map<String, Long> markers = new HashMap<>();
    private long snapshotHeaders;
    private long records;

    /** @param capacity ids 0..capacity-1; a larger id fails the test */
    IntTableReplica(ConnectWorkerCluster connect, String topic, int capacity, long... tracked) {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, connect.bootstrapServers());
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "5000");
        consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        TopicPartition partition = new TopicPartition(topic, 0);
        consumer.assign(List.of(partition));
        consumer.seekToBeginning(List.of(partition));
        values = new int[capacity];
        Arrays.fill(values, ABSENT);
        for (long id : tracked) {
            history.put(id, new ArrayList<>());
        }
    }

    /** Reads what the topic holds now (until a poll of {@code quiet} brings nothing); returns the records read. */
    long catchUp(Duration quiet) {
        long read = 0;
        while (true) {
            var batch = consumer.poll(quiet);
            if (batch.isEmpty()) {
                return read;
            }
            for (ConsumerRecord<byte[], byte[]> record : batch) {
                apply(record);
                read++;
            }
        }
    }

    private void apply(ConsumerRecord<byte[], byte[]> record) {
        records++;
        if (record.value() == null) {
            return; // tombstone: the delete before it removed the row
        }
        JsonNode value = TopicReplica.json(record.value());
        String op = value.get("op").asText();
        ops.merge(op, 1L, Long::sum);
        markers.merge(value.get("source").get("snapshot").asText(), 1L, Long::sum);
        Header header = record.headers().lastHeader(LifecycleHeaders.SNAPSHOT);
        if (header != null && "true".equals(new String(header.value(), StandardCharsets.UTF_8))) {
            snapshotHeaders++;
        }
        if (op.equals("t")) {
            Arrays.fill(values, ABSENT);
            history.values().forEach(h -> h.add("t"));
            return;
        }
        JsonNode row = op.equals("d") ? value.get("before") : value.get("after");
        long id = row.get("id").asLong();
        switch (op) {
            case "r", "c", "u" -> values[(int) id] = row.get("v").asInt();
            case "d" -> values[(int) id] = ABSENT;
            default -> throw new AssertionError("unexpected op in " + value);
        }
        List<String> seen = history.get(id);
        if (seen != null) {
            seen.add(op + ":" + (op.equals("d") ? "" : row.get("v").asText()));
        }
    }

    /** Null when the replica equals {@code table} in the database, else the first difference. */
    String difference(PostgresDatabase db, String table) {
        int[] expected = new int[values.length];
        Arrays.fill(expected, ABSENT);
        try (Connection c = db.connect()) {
            c.setAutoCommit(false);
            try (Statement st = c.createStatement()) {
                st.setFetchSize(20_000);
                try (ResultSet rs = st.executeQuery("SELECT id, v FROM " + table)) {
                    while (rs.next()) {
                        expected[(int) rs.getLong(1)] = rs.getInt(2);
                    }
                }
            }
            c.commit();
        } catch (SQLException e) {
            throw new AssertionError(e);
        }
        for (int id = 0; id < values.length; id++) {
            if (expected[id] != values[id]) {
                return table + " id " + id + ": database " + text(expected[id]) + ", topic " + text(values[id]);
            }
        }
        return null;
    }

    private static String text(int value) {
        return value == ABSENT ? "no row" : Integer.toString(value);
    }

    long records() {
        return records;
    }

    long ops(String op) {
        return ops.getOrDefault(op, 0L);
    }

    long markers(String marker) {
        return markers.getOrDefault(marker, 0L);
    }

    long snapshotHeaders() {
        return snapshotHeaders;
    }

    List<String> history(long id) {
        return history.get(id);
    }

    @Override
    public void close() {
        consumer.close();
    }
}
