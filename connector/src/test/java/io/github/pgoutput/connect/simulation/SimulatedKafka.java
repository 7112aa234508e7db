package io.github.pgoutput.connect.simulation;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.function.Consumer;

import org.apache.kafka.connect.header.Header;
import org.apache.kafka.connect.source.SourceRecord;

/**
 * The model Kafka: per topic, the log of records it holds and the records sent but not yet acknowledged. A topic
 * acknowledges in send order (one partition each), topics independently of each other, so acknowledgements arrive
 * late and out of order across topics. A record is in the log once acknowledged; at a crash, each topic keeps a
 * seeded prefix of its unacknowledged records (written, the acknowledgement lost) and loses the rest.
 */
final class SimulatedKafka {

    private final Map<String, List<SourceRecord>> logs = new TreeMap<>();
    private final Map<String, Deque<SourceRecord>> unacknowledged = new TreeMap<>();
    private final SplittableRandom random;

    SimulatedKafka(SplittableRandom random) {
        this.random = random;
    }

    void send(SourceRecord record) {
        unacknowledged.computeIfAbsent(record.topic(), t -> new ArrayDeque<>()).addLast(record);
    }

    int pending() {
        int count = 0;
        for (Deque<SourceRecord> queue : unacknowledged.values()) {
            count += queue.size();
        }
        return count;
    }

    /** Acknowledges the oldest unacknowledged record of a random topic; false when none is pending. */
    boolean acknowledgeOne(Consumer<SourceRecord> acknowledged) {
        List<Deque<SourceRecord>> waiting = new ArrayList<>();
        for (Deque<SourceRecord> queue : unacknowledged.values()) {
            if (!queue.isEmpty()) {
                waiting.add(queue);
            }
        }
        if (waiting.isEmpty()) {
            return false;
        }
        SourceRecord record = waiting.get(random.nextInt(waiting.size())).removeFirst();
        logs.computeIfAbsent(record.topic(), t -> new ArrayList<>()).add(record);
        acknowledged.accept(record);
        return true;
    }

    /** The producer dies: per topic a random prefix of the unacknowledged records was written, the rest is lost. */
    void crash() {
        for (Map.Entry<String, Deque<SourceRecord>> entry : unacknowledged.entrySet()) {
            Deque<SourceRecord> queue = entry.getValue();
            int kept = queue.isEmpty() ? 0 : random.nextInt(queue.size() + 1);
            for (int i = 0; i < kept; i++) {
                logs.computeIfAbsent(entry.getKey(), t -> new ArrayList<>()).add(queue.removeFirst());
            }
            queue.clear();
        }
    }

    Map<String, List<SourceRecord>> logs() {
        return logs;
    }

    static String header(SourceRecord record, String name) {
        Header header = record.headers().lastWithName(name);
        return header == null || header.value() == null ? null : header.value().toString();
    }
}
