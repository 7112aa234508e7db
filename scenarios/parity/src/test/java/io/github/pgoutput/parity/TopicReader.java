package io.github.pgoutput.parity;

import io.github.pgoutput.testing.kafka.ConnectWorkerCluster;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.stream.Collectors;

import io.github.pgoutput.parity.CapturedRecord;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Every topic of the test broker at once: end offsets through one Admin request (cheap enough to poll), and all
 * records through one consumer. The parity connectors write single-partition topics.
 */
final class TopicReader implements AutoCloseable {

    private final String bootstrapServers;
    private final Admin admin;

    TopicReader(String bootstrapServers) {
        this.bootstrapServers = bootstrapServers;
        this.admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers));
    }

    /** Topic to the number of records written to it (end offset of partition 0), internal topics left out. */
    Map<String, Long> endOffsets() {
        try {
            Set<String> names = admin.listTopics().names().get();
            Map<TopicPartition, OffsetSpec> request = names.stream()
                    .collect(Collectors.toMap(t -> new TopicPartition(t, 0), t -> OffsetSpec.latest()));
            Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> answer = admin.listOffsets(request).all().get();
            Map<String, Long> ends = new TreeMap<>();
            answer.forEach((partition, info) -> ends.put(partition.topic(), info.offset()));
            return ends;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while reading end offsets", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("cannot read the end offsets: " + e.getCause().getMessage(), e.getCause());
        }
    }

    /**
     * Every record of the topics {@code wanted} selects, up to their end offsets at the time of the call, per topic
     * in offset order.
     */
    Map<String, List<CapturedRecord>> readAll(java.util.function.Predicate<String> wanted) {
        Map<String, Long> ends = new LinkedHashMap<>(endOffsets());
        ends.entrySet().removeIf(e -> e.getValue() == 0 || !wanted.test(e.getKey()));
        Map<String, List<CapturedRecord>> records = new TreeMap<>();
        Map<String, Object> config = Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false", ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "2000");
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = ends.keySet().stream().map(t -> new TopicPartition(t, 0)).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (partitions.stream().anyMatch(p -> consumer.position(p) < ends.get(p.topic()))) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("could not read every record within 60 s");
                }
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(500))) {
                    if (record.offset() < ends.get(record.topic())) {
                        records.computeIfAbsent(record.topic(), t -> new ArrayList<>()).add(new CapturedRecord(record.topic(),
                                CapturedRecord.parse(record.key()), CapturedRecord.parse(record.value()),
                                ConnectWorkerCluster.headerTexts(record)));
                    }
                }
            }
        }
        return records;
    }

    @Override
    public void close() {
        admin.close();
    }
}
