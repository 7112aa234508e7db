package io.github.pgoutput.connect;

import io.github.pgoutput.connect.metrics.StreamingMetrics;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.source.SourceRecord;
import org.apache.kafka.connect.source.SourceTaskContext;
import org.apache.kafka.connect.storage.OffsetStorageReader;

/**
 * The real task against a real server, driven as Connect drives it but without a broker: every record a poll returns
 * is acknowledged at once ({@code commitRecord}), its offset becomes the stored offset, and {@code commit()} follows,
 * as after Connect's offset flush. The stored offset outlives the task, so a second task resumes from it.
 */
final class LiveTask implements AutoCloseable {

    /** The offsets topic of one connector: the last offset committed. */
    static final class Offsets {
        volatile Map<String, Object> stored;
    }

    private final String name;
    private final Offsets offsets;
    private final PgOutputSourceTask task = new PgOutputSourceTask();
    private final List<SourceRecord> records = new ArrayList<>();

    LiveTask(String name, Map<String, String> props, Offsets offsets) {
        this.name = name;
        this.offsets = offsets;
        task.initialize(new SourceTaskContext() {
            @Override
            public Map<String, String> configs() {
                return props;
            }

            @Override
            public org.apache.kafka.common.metrics.PluginMetrics pluginMetrics() {
                throw new UnsupportedOperationException("the task registers no plugin metrics");
            }

            @Override
            public OffsetStorageReader offsetStorageReader() {
                return new OffsetStorageReader() {
                    @Override
                    public <T> Map<String, Object> offset(Map<String, T> partition) {
                        return offsets.stored;
                    }

                    @Override
                    public <T> Map<Map<String, T>, Map<String, Object>> offsets(Collection<Map<String, T>> partitions) {
                        throw new UnsupportedOperationException("the task reads its own partition only");
                    }
                };
            }
        });
        Map<String, String> all = new java.util.HashMap<>(props);
        all.put("name", name);
        task.start(all);
    }

    /**
     * The first record polled so far, or polled until one does, that matches {@code until}; every record polled is
     * kept ({@link #records()}).
     */
    SourceRecord pollUntil(Predicate<SourceRecord> until, Duration timeout) throws InterruptedException {
        for (SourceRecord record : records) {
            if (until.test(record)) {
                return record;
            }
        }
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            List<SourceRecord> polled;
            try {
                polled = task.poll();
            } catch (org.apache.kafka.connect.errors.RetriableException e) {
                // Connect polls again after a retriable failure; so does this driver.
                continue;
            }
            if (polled == null) {
                continue;
            }
            SourceRecord found = null;
            for (SourceRecord record : polled) {
                records.add(record);
                task.commitRecord(record, new RecordMetadata(new TopicPartition(record.topic(), 0), 0, 0, 0, 0, 0));
                @SuppressWarnings("unchecked")
                Map<String, Object> offset = (Map<String, Object>) record.sourceOffset();
                offsets.stored = offset;
                if (found == null && until.test(record)) {
                    found = record;
                }
            }
            task.commit();
            if (found != null) {
                return found;
            }
        }
        throw new AssertionError("no matching record within " + timeout + "; polled " + records.size() + " records");
    }

    List<SourceRecord> records() {
        return records;
    }

    /** A long attribute of the task's streaming MBean ({@code ToastStoreHits}, ...). */
    long metric(String attribute) throws Exception {
        return (long) ManagementFactory.getPlatformMBeanServer().getAttribute(StreamingMetrics.objectName(name, 0), attribute);
    }

    @Override
    public void close() {
        task.stop();
    }
}
