package io.github.pgoutput.parity;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

import com.fasterxml.jackson.databind.JsonNode;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Reads the change topics of {@link SwitchWorkload}'s tables from their beginning, on a thread of its own, for as
 * long as it is open, so that a test sees when a connector's first record arrives. Values are the JSON converter's
 * without schemas. A record is ours when it carries the {@code pg.lsn} header, which Debezium does not write.
 */
final class TopicCollector implements AutoCloseable {

    /** The header only this connector writes. */
    static final String OUR_HEADER = "pg.lsn";

    /**
     * One change record.
     *
     * @param event   {@link SwitchWorkload#event} for a streamed change; {@code <table>:r:<id>} for a snapshot row
     * @param source  the envelope's {@code source} block
     * @param arrived when this collector read it ({@link System#nanoTime()})
     */
    record Seen(String topic, long offset, boolean ours, String op, String event, JsonNode source, long arrived) {
    }

    private final KafkaConsumer<byte[], byte[]> consumer;
    private final List<Seen> seen = new ArrayList<>();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final Thread thread;
    private volatile boolean closing;

    /** Starts reading {@code topics} (one partition each) from their beginning. */
    TopicCollector(String bootstrapServers, List<String> topics) {
        consumer = new KafkaConsumer<>(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false"), new ByteArrayDeserializer(), new ByteArrayDeserializer());
        List<TopicPartition> partitions = topics.stream().map(t -> new TopicPartition(t, 0)).toList();
        consumer.assign(partitions);
        consumer.seekToBeginning(partitions);
        thread = new Thread(this::run, "switch-collector");
        thread.setDaemon(true);
        thread.start();
    }

    private void run() {
        try {
            while (!closing) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(100))) {
                    Seen one = parse(record);
                    synchronized (seen) {
                        seen.add(one);
                    }
                }
            }
        } catch (RuntimeException e) {
            failure.set(e);
        } finally {
            consumer.close(Duration.ofSeconds(5));
        }
    }

    private static Seen parse(ConsumerRecord<byte[], byte[]> record) {
        JsonNode value = CapturedRecord.parse(record.value());
        String table = record.topic().substring(record.topic().lastIndexOf('.') + 1);
        String op = value.path("op").asText();
        JsonNode after = value.path("after");
        String event = switch (op) {
            case "r" -> table + ":r:" + after.path("id").asLong();
            case "c", "u" -> SwitchWorkload.event(table, after.path(table.equals("orders") ? "id" : "batch").asLong());
            default -> table + ":" + op + ":" + record.offset();
        };
        boolean ours = record.headers().lastHeader(OUR_HEADER) != null;
        return new Seen(record.topic(), record.offset(), ours, op, event, value.path("source"), System.nanoTime());
    }

    /** Everything read so far, per topic in offset order. */
    List<Seen> seen() {
        Throwable failed = failure.get();
        if (failed != null) {
            throw new AssertionError("reading the topics failed", failed);
        }
        synchronized (seen) {
            return List.copyOf(seen);
        }
    }

    @Override
    public void close() throws InterruptedException {
        closing = true;
        thread.join(10_000);
    }
}
