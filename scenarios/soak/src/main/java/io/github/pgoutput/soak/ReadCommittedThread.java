package io.github.pgoutput.soak;

import java.time.Duration;
import java.util.List;
import java.util.Properties;

import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * A {@code read_committed} consumer of single-partition topics on a thread of its own, from offset 0, handing each
 * record to {@link #accept} as it arrives: what the scenarios' watchers have in common. The topics must exist before
 * {@link #start()}; a failure of the thread is rethrown by {@link #check()}.
 */
abstract class ReadCommittedThread implements AutoCloseable {

    private final KafkaConsumer<byte[], byte[]> consumer;
    private final List<TopicPartition> partitions;
    private final Thread thread;
    private volatile boolean stopped;
    private volatile RuntimeException failure;

    ReadCommittedThread(String bootstrap, List<String> topics, String threadName) {
        this.consumer = new KafkaConsumer<>(properties(bootstrap, 5000));
        this.partitions = topics.stream().map(t -> new TopicPartition(t, 0)).toList();
        this.thread = new Thread(this::consume, threadName);
        this.thread.setDaemon(true);
    }

    /** A {@code read_committed} byte-array consumer that commits nothing and reads at most {@code maxPollRecords} a poll. */
    static Properties properties(String bootstrap, int maxPollRecords) {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, String.valueOf(maxPollRecords));
        return props;
    }

    /** Called on the consumer thread for every record, with the time it arrived. */
    abstract void accept(ConsumerRecord<byte[], byte[]> record, long arrivedNanos);

    void start() {
        consumer.assign(partitions);
        partitions.forEach(p -> consumer.seek(p, 0));
        thread.start();
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
                    accept(record, System.nanoTime());
                }
            }
        } catch (WakeupException stopping) {
            // close() woke the poll
        } catch (RuntimeException e) {
            failure = e;
        }
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
