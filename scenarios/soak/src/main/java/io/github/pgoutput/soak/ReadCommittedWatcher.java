package io.github.pgoutput.soak;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;

/**
 * A {@code read_committed} consumer of one single-partition topic, on a thread of its own from offset 0, that adds
 * the {@code id} of every record's JSON key to a {@link KeyTally} as the record arrives. It also notes when the first
 * record after a mark (the kill) arrived. The topic must exist before {@link #start()}.
 */
final class ReadCommittedWatcher extends ReadCommittedThread {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final KeyTally tally;
    private volatile long markNanos = Long.MAX_VALUE;
    private volatile long firstAfterMarkNanos;

    ReadCommittedWatcher(String bootstrap, String topic, KeyTally tally) {
        super(bootstrap, List.of(topic), "read-committed-" + topic);
        this.tally = tally;
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

    @Override
    void accept(ConsumerRecord<byte[], byte[]> record, long arrivedNanos) {
        if (firstAfterMarkNanos == 0 && arrivedNanos > markNanos) {
            firstAfterMarkNanos = arrivedNanos;
        }
        tally.add(id(record.key()), arrivedNanos);
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
}
