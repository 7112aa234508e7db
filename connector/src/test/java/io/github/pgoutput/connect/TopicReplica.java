package io.github.pgoutput.connect;

import io.github.pgoutput.testing.kafka.ConnectWorkerCluster;
import io.github.pgoutput.connect.record.LifecycleHeaders;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * What a consumer of one table topic rebuilds from it, the way a Debezium sink does: {@code c}/{@code u} put the
 * {@code after} row under the key, {@code d} and tombstones remove the key, {@code t} empties the table. Records are
 * JSON without schemas (JsonConverter with {@code schemas.enable=false}). Rows are kept as column -> text value,
 * ordered by the {@code id} column, so they compare with {@code SELECT ... ::text}.
 */
final class TopicReplica {

    static final ObjectMapper JSON = new ObjectMapper();

    private TopicReplica() {
    }

    /** The table rebuilt from {@code records}: id -> (column -> text, null for SQL NULL); absent columns are NULL. */
    static Map<Long, Map<String, String>> rebuild(List<ConsumerRecord<byte[], byte[]>> records, List<String> columns) {
        Map<Long, Map<String, String>> table = new TreeMap<>();
        for (ConsumerRecord<byte[], byte[]> record : records) {
            if (record.value() == null) {
                table.remove(json(record.key()).get("id").asLong());
                continue;
            }
            JsonNode value = json(record.value());
            switch (value.get("op").asText()) {
                case "c", "u", "r" -> table.put(value.get("after").get("id").asLong(), row(value.get("after"), columns));
                case "d" -> table.remove(value.get("before").get("id").asLong());
                case "t" -> table.clear();
                default -> throw new AssertionError("unexpected op in " + value);
            }
        }
        return table;
    }

    /** Database rows in the same form: the query must select {@code columns} in order, the first being {@code id}. */
    static Map<Long, Map<String, String>> fromDatabase(List<List<String>> rows, List<String> columns) {
        Map<Long, Map<String, String>> table = new TreeMap<>();
        for (List<String> row : rows) {
            Map<String, String> values = new TreeMap<>();
            for (int i = 0; i < columns.size(); i++) {
                values.put(columns.get(i), row.get(i));
            }
            table.put(Long.parseLong(row.get(0)), values);
        }
        return table;
    }

    static JsonNode json(byte[] bytes) {
        try {
            return JSON.readTree(new String(bytes, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Map<String, String> row(JsonNode after, List<String> columns) {
        Map<String, String> values = new TreeMap<>();
        for (String column : columns) {
            JsonNode value = after.get(column);
            values.put(column, value == null || value.isNull() ? null : value.asText());
        }
        return values;
    }

    /**
     * How many records repeat one already in {@code records}: a record is identified by its delivery
     * ({@code pg.commit_lsn}) and its position in it ({@code pg.tx_order}), so a delivery written twice after a
     * restart counts once per repeated record.
     */
    static long duplicates(List<ConsumerRecord<byte[], byte[]>> records) {
        Set<String> seen = new HashSet<>();
        long repeated = 0;
        for (ConsumerRecord<byte[], byte[]> record : records) {
            Map<String, String> headers = ConnectWorkerCluster.headerTexts(record);
            if (!seen.add(headers.get(LifecycleHeaders.COMMIT_LSN) + "#" + headers.get(LifecycleHeaders.TX_ORDER))) {
                repeated++;
            }
        }
        return repeated;
    }

    /** Field names of a JSON object, for messages. */
    static List<String> fields(JsonNode node) {
        List<String> names = new ArrayList<>();
        for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
            names.add(it.next());
        }
        return names;
    }
}
