package io.github.pgoutput.soak;

import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * A {@code read_committed} consumer of single-partition topics of tables without a key, on a thread of its own from
 * offset 0, that rebuilds each table as the rows it holds, counted: a read or an insert adds its {@code after} row, a
 * delete removes one copy of its {@code before} row, an update both (records of such tables have no key to upsert by;
 * under REPLICA IDENTITY FULL the whole old row is in {@code before}). Rows are compared as JSON text. The topics must
 * exist before {@link #start()}. Thread-safe: the consumer thread adds, the caller reads copies.
 */
final class RowMultisetWatcher extends ReadCommittedThread {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Map<String, Map<String, Long>> rows = new HashMap<>();
    private final Map<String, Long> records = new HashMap<>();
    private final Map<String, Long> reads = new HashMap<>();

    RowMultisetWatcher(String bootstrap, List<String> topics) {
        super(bootstrap, topics, "read-committed-rows");
        topics.forEach(t -> rows.put(t, new HashMap<>()));
    }

    /** The rows of {@code topic}'s table so far, each with how often it is there (rows at 0 left out). */
    synchronized Map<String, Long> rows(String topic) {
        Map<String, Long> copy = new HashMap<>(rows.get(topic));
        copy.values().removeIf(n -> n == 0);
        return copy;
    }

    /** The records of {@code topic} so far (tombstones left out). */
    synchronized long records(String topic) {
        return records.getOrDefault(topic, 0L);
    }

    /** The snapshot records ({@code op = r}) of {@code topic} so far. */
    synchronized long reads(String topic) {
        return reads.getOrDefault(topic, 0L);
    }

    @Override
    synchronized void accept(ConsumerRecord<byte[], byte[]> record, long arrivedNanos) {
        if (record.value() == null) {
            return;
        }
        JsonNode value;
        try {
            value = JSON.readTree(record.value());
        } catch (IOException e) {
            throw new IllegalStateException("not JSON in " + record.topic() + " at offset " + record.offset(), e);
        }
        records.merge(record.topic(), 1L, Long::sum);
        if ("r".equals(value.path("op").asText())) {
            reads.merge(record.topic(), 1L, Long::sum);
        }
        Map<String, Long> table = rows.get(record.topic());
        JsonNode before = value.get("before");
        JsonNode after = value.get("after");
        if (before != null && !before.isNull()) {
            table.merge(before.toString(), -1L, Long::sum);
        }
        if (after != null && !after.isNull()) {
            table.merge(after.toString(), 1L, Long::sum);
        }
    }

    /** A row of the database as the topics hold it: {@code row_to_json} text read back the way records are. */
    static String rowJson(String json) {
        try {
            return JSON.readTree(json).toString();
        } catch (IOException e) {
            throw new IllegalArgumentException("not JSON: " + json, e);
        }
    }
}
