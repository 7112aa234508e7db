package io.github.pgoutput.soak;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * A {@code read_committed} consumer of one single-partition topic, on a thread of its own from offset 0, that adds
 * the {@code id} of every record's JSON key to a {@link KeyTally} as the record arrives. It also notes when the first
 * record after a mark (the kill) arrived. The topic must exist before {@link #start()}.
 */
final class ReadCommittedWatcher implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final KafkaConsumer<byte[], byte[]> consumer;
    private final TopicPartition partition;
    private final KeyTally tally;
    private final Thread thread;
    private volatile boolean stopped;
    private volatile RuntimeException failure;
    private volatile long markNanos = Long.MAX_VALUE;
    private volatile long firstAfterMarkNanos;

    ReadCommittedWatcher(String bootstrap, String topic, KeyTally tally) {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "5000");
        this.consumer = new KafkaConsumer<>(props);
        this.partition = new TopicPartition(topic, 0);
        this.tally = tally;
        this.thread = new Thread(this::consume, "read-committed-" + topic);
        this.thread.setDaemon(true);
    }

    void start() {
        consumer.assign(List.of(partition));
        consumer.seek(partition, 0);
        thread.start();
    }

    /** From now on, note the arrival of the first record. */
    void mark(long nanos) {
        firstAfterMarkNanos = 0;
        markNanos = nanos;
    }

    /** When the first record after {@link #mark(long)} arrived; 0 if none did yet. */
    long firstAfterMarkNanos() {
        return firstAfterMarkNanos;
    }

    /** Rethrows what stopped the consumer thread, if anything did. */
    void check() {
        if (failure != null) {
            throw failure;
        }
    }

    private void consume() {
        try {
            while (!stopped) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(100))) {
                    long now = System.nanoTime();
                    if (firstAfterMarkNanos == 0 && now > markNanos) {
                        firstAfterMarkNanos = now;
                    }
                    tally.add(id(record.key()), now);
                }
            }
        } catch (WakeupException stopping) {
            // close() woke the poll
        } catch (RuntimeException e) {
            failure = e;
        }
    }

    private static long id(byte[] key) {
        if (key == null) {
            return -1;
        }
        try {
            return JSON.readTree(key).path("id").asLong(-1);
        } catch (IOException e) {
            return -1;
        }
    }

    /** The partition's end offset for this consumer (the last stable offset). */
    static Map<TopicPartition, Long> endOffsets(KafkaConsumer<?, ?> consumer, String topic) {
        return consumer.endOffsets(List.of(new TopicPartition(topic, 0)), Duration.ofSeconds(30));
    }

    @Override
    public void close() {
        stopped = true;
        consumer.wakeup();
        try {
            thread.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        consumer.close(CloseOptions.timeout(Duration.ofSeconds(5)));
    }
}
