package io.github.pgoutput.soak;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.function.Consumer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;

/** Reads topics of the soak's broker from an offset to their end, one record at a time (nothing is kept). */
final class TopicReader implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final KafkaConsumer<byte[], byte[]> consumer;

    TopicReader(String bootstrap) {
        Properties props = ReadCommittedThread.properties(bootstrap, 2000);
        props.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, "false");
        consumer = new KafkaConsumer<>(props);
    }

    /** The topic's end offsets (partition -> offset); empty while the topic does not exist. */
    Map<TopicPartition, Long> endOffsets(String topic) {
        List<TopicPartition> partitions = partitions(topic);
        return partitions.isEmpty() ? Map.of() : consumer.endOffsets(partitions, Duration.ofSeconds(30));
    }

    /** Reads {@code topic} from its beginning to its current end. */
    long readAll(String topic, Consumer<ConsumerRecord<byte[], byte[]>> handler) {
        Map<TopicPartition, Long> from = new HashMap<>();
        partitions(topic).forEach(p -> from.put(p, 0L));
        return read(from, handler);
    }

    /** Reads from the given offsets to the end each partition has now. */
    long read(Map<TopicPartition, Long> from, Consumer<ConsumerRecord<byte[], byte[]>> handler) {
        if (from.isEmpty()) {
            return 0;
        }
        consumer.assign(from.keySet());
        from.forEach(consumer::seek);
        Map<TopicPartition, Long> end = consumer.endOffsets(from.keySet(), Duration.ofSeconds(30));
        long count = 0;
        while (end.entrySet().stream().anyMatch(e -> consumer.position(e.getKey()) < e.getValue())) {
            for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofSeconds(1))) {
                if (record.offset() < end.get(new TopicPartition(record.topic(), record.partition()))) {
                    handler.accept(record);
                    count++;
                }
            }
        }
        return count;
    }

    static JsonNode json(byte[] bytes) {
        if (bytes == null) {
            return null;
        }
        try {
            return JSON.readTree(bytes);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Map<String, String> headers(ConsumerRecord<byte[], byte[]> record) {
        Map<String, String> headers = new LinkedHashMap<>();
        for (Header header : record.headers()) {
            headers.put(header.key(), header.value() == null ? null
                    : new String(header.value(), StandardCharsets.UTF_8));
        }
        return headers;
    }

    private List<TopicPartition> partitions(String topic) {
        var infos = consumer.partitionsFor(topic, Duration.ofSeconds(30));
        return infos == null ? List.of() : infos.stream().map(i -> new TopicPartition(topic, i.partition())).toList();
    }

    @Override
    public void close() {
        consumer.close(CloseOptions.timeout(Duration.ofSeconds(5)));
    }
}
