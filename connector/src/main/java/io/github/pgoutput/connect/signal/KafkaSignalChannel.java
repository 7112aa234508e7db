package io.github.pgoutput.connect.signal;

import io.github.pgoutput.snapshot.Signal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Debezium's Kafka signal channel: reads signals from partition 0 of the signal topic, those whose key is the
 * connector's {@code topic.prefix}, as {@code {"type": ..., "data": {...}}} (an {@code "id"} is optional; the
 * message's offset stands in). Nothing is written to the source database, so a read-only role can take incremental
 * snapshots. Where it reads from is the connector's to keep (in its source offsets, {@link #seek}); the consumer
 * commits nothing. Not thread-safe: the task's poll thread.
 */
public final class KafkaSignalChannel implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(KafkaSignalChannel.class);

    /**
     * One message of the signal topic.
     *
     * @param offset the message's offset: a connector that stores {@code offset + 1} reads on after it
     * @param signal the signal, or null when the message could not be read as one ({@code problem} says why)
     */
    public record Received(long offset, Signal signal, String problem) {
    }

    private final KafkaConsumer<String, String> consumer;
    private final TopicPartition partition;
    private final String key;
    private final long pollIntervalNanos;
    private long nextPollNanos;

    /**
     * @param consumerProperties the consumer's settings ({@code bootstrap.servers}, {@code group.id} and any
     *                           {@code signal.consumer.*} ones); deserializers and offset handling are set here
     * @param key                the key a message must have to be for this connector: its {@code topic.prefix}
     * @param next               the offset to read from (the stored one); negative for the start of the topic
     */
    public KafkaSignalChannel(Map<String, Object> consumerProperties, String topic, String key, long next, Duration pollInterval) {
        Map<String, Object> props = new HashMap<>(consumerProperties);
        props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        props.putIfAbsent(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        this.consumer = new KafkaConsumer<>(props);
        this.partition = new TopicPartition(Objects.requireNonNull(topic, "topic"), 0);
        this.key = Objects.requireNonNull(key, "key");
        this.pollIntervalNanos = pollInterval.toNanos();
        consumer.assign(List.of(partition));
        seek(next);
        log.info("Reading signals from topic {} partition 0 {} (messages with key '{}')", topic,
                next < 0 ? "from its start" : "from offset " + next, key);
    }

    /** Reads from {@code next} on (the start of the topic when negative): after a poll whose records were abandoned. */
    public void seek(long next) {
        if (next < 0) {
            consumer.seekToBeginning(List.of(partition));
        } else {
            consumer.seek(partition, next);
        }
    }

    /**
     * The messages that arrived since the last call, at most once per poll interval (an empty list in between), so
     * that the task's loop does not ask the broker on every record.
     */
    public List<Received> poll(long nowNanos) {
        if (nowNanos - nextPollNanos < 0) {
            return List.of();
        }
        nextPollNanos = nowNanos + pollIntervalNanos;
        List<Received> received = new ArrayList<>();
        for (ConsumerRecord<String, String> r : consumer.poll(Duration.ZERO)) {
            if (!key.equals(r.key())) {
                log.debug("Signal topic {} offset {}: key '{}' is not this connector's '{}'; skipped", r.topic(), r.offset(), r.key(), key);
                received.add(new Received(r.offset(), null, null));
                continue;
            }
            try {
                received.add(new Received(r.offset(), Signal.ofDocument(String.valueOf(r.offset()), r.value()), null));
            } catch (IllegalArgumentException e) {
                received.add(new Received(r.offset(), null, "signal topic " + r.topic() + " offset " + r.offset() + ": "
                        + e.getMessage()));
            }
        }
        return received;
    }

    @Override
    public void close() {
        consumer.close(Duration.ofSeconds(5));
    }
}
