package io.github.pgoutput.bench;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Watches topics from outside the worker: how many records a topic holds (its end offset; one partition, so that is
 * the record count), the average size of its records, and deleting a leg's topics afterwards.
 */
final class KafkaProbe implements AutoCloseable {

    /** Checked between two end-offset polls, e.g. that the connector has not FAILED. */
    interface Check {
        void run() throws Exception;
    }

    private final String bootstrap;
    private final Admin admin;

    KafkaProbe(String bootstrap) {
        this.bootstrap = bootstrap;
        Properties props = new Properties();
        props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        this.admin = Admin.create(props);
    }

    /**
     * When a leg's records arrived, as {@link System#nanoTime()} of the end-offset polls that saw them.
     *
     * @param first the first poll that saw a record in the topic
     * @param last  the first poll that saw every expected record
     */
    record Arrival(long first, long last) {
    }

    /**
     * Polls the end offset of {@code topic}'s partition 0 every 100 ms until it reaches {@code expected}; returns when
     * the first record and the last were seen. Fails when the topic holds more than expected, or when it has not grown
     * for {@code stallSeconds}.
     */
    Arrival awaitRecords(String topic, long expected, int stallSeconds, Check check) throws Exception {
        TopicPartition partition = new TopicPartition(topic, 0);
        long last = -1;
        long lastGrowth = System.nanoTime();
        long lastCheck = 0;
        long first = 0;
        while (true) {
            long count = endOffset(partition);
            long now = System.nanoTime();
            if (count > 0 && first == 0) {
                first = now;
            }
            if (count >= expected) {
                if (count > expected) {
                    throw new IllegalStateException(topic + " holds " + count + " records, expected " + expected);
                }
                return new Arrival(first, now);
            }
            if (count > last) {
                last = count;
                lastGrowth = now;
            } else if (now - lastGrowth > TimeUnit.SECONDS.toNanos(stallSeconds)) {
                throw new IllegalStateException(topic + " stalled at " + count + " of " + expected + " records for "
                        + stallSeconds + " s");
            }
            if (now - lastCheck > TimeUnit.SECONDS.toNanos(5)) {
                check.run();
                lastCheck = now;
            }
            Thread.sleep(100);
        }
    }

    /**
     * Like {@link #awaitRecords}, but counts the records a {@code read_committed} consumer of partition 0 receives
     * (polled with 100 ms timeouts): under exactly-once each Kafka transaction's commit marker takes an offset, so the
     * end offset overstates the records. Returns {@link System#nanoTime()} right after the poll that brought the
     * count to {@code expected}; fails when more arrive (a duplicate) or nothing new for {@code stallSeconds}.
     */
    Arrival awaitCommittedRecords(String topic, long expected, int stallSeconds, Check check) throws Exception {
        TopicPartition partition = new TopicPartition(topic, 0);
        long lastCheck = 0;
        long waitStart = System.nanoTime();
        while (!admin.listTopics().names().get().contains(topic)) {
            if (System.nanoTime() - waitStart > TimeUnit.SECONDS.toNanos(stallSeconds)) {
                throw new IllegalStateException(topic + " was not created within " + stallSeconds + " s");
            }
            if (System.nanoTime() - lastCheck > TimeUnit.SECONDS.toNanos(5)) {
                check.run();
                lastCheck = System.nanoTime();
            }
            Thread.sleep(100);
        }
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "10000");
        props.put(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, String.valueOf(8 << 20));
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            consumer.assign(List.of(partition));
            consumer.seekToBeginning(List.of(partition));
            long count = 0;
            long lastGrowth = System.nanoTime();
            long first = 0;
            while (true) {
                int got = consumer.poll(Duration.ofMillis(100)).count();
                long now = System.nanoTime();
                count += got;
                if (count > 0 && first == 0) {
                    first = now;
                }
                if (count >= expected) {
                    if (count > expected) {
                        throw new IllegalStateException(topic + " delivered " + count + " committed records, expected "
                                + expected);
                    }
                    // A duplicate arriving just after the last expected record would fail here, not pass unseen.
                    int late = consumer.poll(Duration.ofMillis(500)).count();
                    if (late > 0) {
                        throw new IllegalStateException(topic + " delivered " + (count + late)
                                + " committed records, expected " + expected);
                    }
                    return new Arrival(first, now);
                }
                if (got > 0) {
                    lastGrowth = now;
                } else if (now - lastGrowth > TimeUnit.SECONDS.toNanos(stallSeconds)) {
                    throw new IllegalStateException(topic + " stalled at " + count + " of " + expected
                            + " committed records for " + stallSeconds + " s");
                }
                if (now - lastCheck > TimeUnit.SECONDS.toNanos(5)) {
                    check.run();
                    lastCheck = now;
                }
            }
        }
    }

    long endOffset(TopicPartition partition) throws InterruptedException, ExecutionException {
        // Asking for the offsets of a topic that does not exist yet makes the admin client log an ERROR per poll.
        if (!admin.listTopics().names().get().contains(partition.topic())) {
            return 0;
        }
        try {
            ListOffsetsResult result = admin.listOffsets(Map.of(partition, OffsetSpec.latest()));
            return result.partitionResult(partition).get(10, TimeUnit.SECONDS).offset();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof UnknownTopicOrPartitionException) {
                return 0;
            }
            throw e;
        } catch (java.util.concurrent.TimeoutException e) {
            return 0;
        }
    }

    /** Average key + value bytes of the first {@code sample} records of {@code topic} (tombstones included). */
    int averageRecordBytes(String topic, int sample) {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            TopicPartition partition = new TopicPartition(topic, 0);
            consumer.assign(List.of(partition));
            consumer.seekToBeginning(List.of(partition));
            long bytes = 0;
            int records = 0;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (records < sample && System.nanoTime() < deadline) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(500))) {
                    if (records < sample) {
                        bytes += record.serializedKeySize() + Math.max(0, record.serializedValueSize());
                        records++;
                    }
                }
            }
            if (records == 0) {
                throw new IllegalStateException("no record could be read from " + topic);
            }
            return (int) (bytes / records);
        }
    }

    /** Deletes every topic whose name starts with {@code prefix}. */
    /** Creates {@code topic} with one partition. */
    void createTopic(String topic) throws InterruptedException, ExecutionException {
        admin.createTopics(java.util.List.of(new org.apache.kafka.clients.admin.NewTopic(topic, 1, (short) 1))).all().get();
    }

    /** Sends one record of text key and value to {@code topic} and waits for its acknowledgement. */
    void send(String topic, String key, String value) throws InterruptedException, ExecutionException {
        Properties props = new Properties();
        props.put(org.apache.kafka.clients.producer.ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        try (var producer = new org.apache.kafka.clients.producer.KafkaProducer<>(props,
                new org.apache.kafka.common.serialization.StringSerializer(), new org.apache.kafka.common.serialization.StringSerializer())) {
            producer.send(new org.apache.kafka.clients.producer.ProducerRecord<>(topic, key, value)).get();
        }
    }

    void deleteTopics(String prefix) throws InterruptedException, ExecutionException {
        Set<String> topics = admin.listTopics().names().get().stream().filter(t -> t.startsWith(prefix))
                .collect(Collectors.toSet());
        if (!topics.isEmpty()) {
            admin.deleteTopics(topics).all().get();
        }
    }

    @Override
    public void close() {
        admin.close();
    }
}
