package io.github.pgoutput.connect.simulation;

import io.github.pgoutput.connect.PgOutputSourceTask;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Collection;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import org.apache.kafka.common.metrics.PluginMetrics;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.errors.RetriableException;
import org.apache.kafka.connect.source.SourceRecord;
import org.apache.kafka.connect.source.SourceTaskContext;
import org.apache.kafka.connect.storage.OffsetStorageReader;

/**
 * A model of the Connect worker around one source task, single-threaded and seeded: polls, sends each record to the
 * {@link SimulatedKafka}, calls {@code commitRecord} as acknowledgements arrive, and flushes offsets as
 * WorkerSourceTask does: the offset committed per partition is that of the latest record such that it and every
 * record submitted before it were acknowledged (SubmittedRecords), written to the offset store, then
 * {@code task.commit()}. A failed flush writes nothing and calls nothing. A retriable exception from poll is logged
 * and poll called again; any other exception fails the task for good, which the oracle reports.
 *
 * <p>As Connect's exactly-once task with {@code transaction.boundary=connector} ({@code acknowledgesAtCommit}): the
 * task gets a transaction context, {@link SimulatedTransactions} checks that each Kafka transaction it asks for is
 * one delivery, and a record is acknowledged to the task (and its offset flushed) only once its transaction is
 * committed. Otherwise, as a worker without exactly-once support, the task gets no transaction context.
 */
final class SimulatedConnect {

    /** A record handed to the producer, in submission order, and whether Kafka acknowledged it. */
    private static final class Submitted {
        final SourceRecord record;
        boolean acknowledged;

        Submitted(SourceRecord record) {
            this.record = record;
        }
    }

    private final SimulatedPostgres server;
    private final SimulatedKafka kafka;
    private final SplittableRandom random;
    private final SimulationStats stats;
    private final Path spillDirectory;
    /** The offset topic: what a new task reads through its OffsetStorageReader. */
    private final Map<Map<String, ?>, Map<String, Object>> committedOffsets = new HashMap<>();
    private final Deque<Submitted> submitted = new ArrayDeque<>();
    private final Map<SourceRecord, Submitted> bySubmission = new java.util.IdentityHashMap<>();
    private final SimulatedTransactions transactions = new SimulatedTransactions();
    /**
     * With {@link #acknowledgesAtCommit}: records Kafka has acknowledged whose transaction is still open; Connect's
     * exactly-once task calls {@code commitRecord} for a transaction's records only once it has committed it.
     */
    private final Map<SourceRecord, Submitted> heldUntilCommit = new java.util.IdentityHashMap<>();
    private final boolean acknowledgesAtCommit;
    private PgOutputSourceTask task;
    private String failure;
    private int emptyPolls;

    SimulatedConnect(SimulatedPostgres server, SimulatedKafka kafka, SplittableRandom random, SimulationStats stats, Path spillDirectory) {
        this(server, kafka, random, stats, spillDirectory, false);
    }

    /**
     * @param acknowledgesAtCommit as Connect's exactly-once task: a record's {@code commitRecord}, and its offset in
     *                             a flush, only once the Kafka transaction holding it has been committed
     */
    SimulatedConnect(SimulatedPostgres server, SimulatedKafka kafka, SplittableRandom random, SimulationStats stats, Path spillDirectory,
                     boolean acknowledgesAtCommit) {
        this.acknowledgesAtCommit = acknowledgesAtCommit;
        this.server = server;
        this.kafka = kafka;
        this.random = random;
        this.stats = stats;
        this.spillDirectory = spillDirectory;
    }

    void start(SimulationConfig config) {
        task = new PgOutputSourceTask(server.pipelines());
        Map<String, String> props = config.props(spillDirectory);
        task.initialize(new Context(props));
        try {
            task.start(props);
        } catch (RuntimeException e) {
            failure = "start() failed: " + e;
        }
        stats.count("task starts");
    }

    /** One poll of the task; the records go to the producer. */
    void poll() {
        if (failure != null) {
            return;
        }
        try {
            List<SourceRecord> records = task.poll();
            stats.count("polls");
            if (records == null || records.isEmpty()) {
                emptyPolls++;
                return;
            }
            emptyPolls = 0;
            String broken = acknowledgesAtCommit ? transactions.handedOver(records) : null;
            if (broken != null) {
                failure = "transaction.boundary=connector: " + broken;
                return;
            }
            for (SourceRecord record : records) {
                Submitted entry = new Submitted(record);
                submitted.addLast(entry);
                bySubmission.put(record, entry);
                kafka.send(record);
                stats.count("records");
            }
            for (SourceRecord committed : transactions.drainCommitted()) {
                Submitted held = heldUntilCommit.remove(committed);
                if (held != null) {
                    release(held);
                }
            }
        } catch (RetriableException e) {
            stats.count("retriable poll failures");
            emptyPolls = 0;
        } catch (ConnectException e) {
            failure = "poll() failed permanently: " + e.getMessage() + (e.getCause() == null ? "" : " (cause: " + e.getCause() + ")");
        } catch (RuntimeException | InterruptedException e) {
            failure = "poll() threw " + e;
        }
    }

    /** Some acknowledgements arrive (late, in a random order across topics). */
    void acknowledgeSome(int upTo) {
        int count = random.nextInt(upTo + 1);
        for (int i = 0; i < count; i++) {
            if (!kafka.acknowledgeOne(this::acknowledged)) {
                return;
            }
        }
    }

    void acknowledgeAll() {
        while (kafka.acknowledgeOne(this::acknowledged)) {
            // all of them
        }
    }

    private void acknowledged(SourceRecord record) {
        Submitted entry = bySubmission.remove(record);
        if (entry == null) {
            return;
        }
        if (acknowledgesAtCommit && transactions.isOpen(record)) {
            heldUntilCommit.put(record, entry);
            return;
        }
        release(entry);
    }

    private void release(Submitted entry) {
        entry.acknowledged = true;
        task.commitRecord(entry.record, null);
    }

    /** Connect's periodic offset commit; {@code fails}: the offset store write fails. */
    void flush(boolean fails) {
        if (failure != null) {
            return;
        }
        stats.count("offset flushes");
        if (fails) {
            return; // nothing written, commit() not called; the records stay submitted
        }
        Map<String, ?> partition = null;
        Map<String, ?> offset = null;
        while (!submitted.isEmpty() && submitted.peekFirst().acknowledged) {
            SourceRecord record = submitted.removeFirst().record;
            partition = record.sourcePartition();
            offset = record.sourceOffset();
        }
        if (offset != null) {
            committedOffsets.put(partition, new HashMap<>(offset));
        }
        try {
            task.commit();
        } catch (RuntimeException e) {
            failure = "commit() threw " + e;
        }
    }

    /** The worker dies: no stop(), unacknowledged records kept or lost by the seed. */
    void kill() {
        kafka.crash();
        transactions.aborted();
        heldUntilCommit.clear();
        submitted.clear();
        bySubmission.clear();
        task = null;
    }

    /** A clean stop: everything in flight acknowledged, a last flush, stop(). */
    void stopCleanly() {
        acknowledgeAll();
        flush(false);
        if (task != null) {
            task.stop();
        }
        transactions.aborted();
        heldUntilCommit.clear();
        submitted.clear();
        bySubmission.clear();
        task = null;
    }

    String failure() {
        return failure;
    }

    int emptyPolls() {
        return emptyPolls;
    }

    /** The Kafka transactions the task asked Connect to commit. */
    long transactionsCommitted() {
        return transactions.committed();
    }

    int inFlight() {
        return kafka.pending();
    }

    Map<String, Object> committedOffset() {
        return committedOffsets.values().stream().findFirst().orElse(null);
    }

    private final class Context implements SourceTaskContext {
        private final Map<String, String> props;

        Context(Map<String, String> props) {
            this.props = props;
        }

        @Override
        public Map<String, String> configs() {
            return props;
        }

        @Override
        public OffsetStorageReader offsetStorageReader() {
            return new OffsetStorageReader() {
                @Override
                public <T> Map<String, Object> offset(Map<String, T> partition) {
                    Map<String, Object> stored = committedOffsets.get(partition);
                    return stored == null ? null : new HashMap<>(stored);
                }

                @Override
                public <T> Map<Map<String, T>, Map<String, Object>> offsets(Collection<Map<String, T>> partitions) {
                    Map<Map<String, T>, Map<String, Object>> all = new HashMap<>();
                    for (Map<String, T> partition : partitions) {
                        all.put(partition, offset(partition));
                    }
                    return all;
                }
            };
        }

        @Override
        public org.apache.kafka.connect.source.TransactionContext transactionContext() {
            return acknowledgesAtCommit ? transactions : null;
        }

        @Override
        public PluginMetrics pluginMetrics() {
            return null;
        }
    }
}
