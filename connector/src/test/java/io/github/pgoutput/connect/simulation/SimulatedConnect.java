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
 * <p>As Connect's exactly-once task ({@link ExactlyOnceWorker}): records go to Kafka in producer transactions, offsets
 * are written inside them, and the task hears of its records only once their transaction is committed; a task that
 * fails there is stopped and started again (the operator's restart), one whose worker dies is only dropped. Otherwise,
 * as a worker without exactly-once support, the task gets no transaction context.
 */
final class SimulatedConnect {

    /** {@code -Dsimulation.trace=true}: every record polled, every Kafka transaction and fault, on standard output. */
    static final boolean TRACE = Boolean.getBoolean("simulation.trace");

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
    private final Map<Map<String, ?>, Map<String, Object>> committedOffsets;
    private final Deque<Submitted> submitted = new ArrayDeque<>();
    private final Map<SourceRecord, Submitted> bySubmission = new java.util.IdentityHashMap<>();
    /** Connect's exactly-once task around the task; null for a worker without exactly-once support. */
    private final ExactlyOnceWorker exactlyOnce;
    /** Connector properties every start adds to the configuration's (exactly-once, signals). */
    private final Map<String, String> extraProps;
    private PgOutputSourceTask task;
    /** The configuration of the last start: a task that failed starts again with it. */
    private SimulationConfig config;
    private String failure;
    private int emptyPolls;

    /**
     * @param offsets     the offset topic (an exactly-once worker writes it inside its transactions)
     * @param exactlyOnce the exactly-once worker around the task, or null
     * @param extraProps  connector properties added to each configuration's
     */
    SimulatedConnect(SimulatedPostgres server, SimulatedKafka kafka, SplittableRandom random, SimulationStats stats, Path spillDirectory,
                     Map<Map<String, ?>, Map<String, Object>> offsets, ExactlyOnceWorker exactlyOnce, Map<String, String> extraProps) {
        this.committedOffsets = offsets;
        this.exactlyOnce = exactlyOnce;
        this.extraProps = extraProps;
        this.server = server;
        this.kafka = kafka;
        this.random = random;
        this.stats = stats;
        this.spillDirectory = spillDirectory;
    }

    void start(SimulationConfig config) {
        if (TRACE) {
            System.out.println("TRACE task starts, committed offsets " + committedOffsets.values());
        }
        this.config = config;
        task = new PgOutputSourceTask(server.pipelines());
        Map<String, String> props = config.props(spillDirectory);
        props.putAll(extraProps);
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
        List<SourceRecord> records;
        boolean retriable = false;
        try {
            records = task.poll();
            stats.count("polls");
        } catch (RetriableException e) {
            if (TRACE) {
                System.out.println("TRACE poll failed, retriable: " + e.getMessage());
            }
            stats.count("retriable poll failures");
            retriable = true;
            records = null; // Connect polls again; under poll boundaries it commits what is open first
        } catch (ConnectException e) {
            failure = "poll() failed permanently: " + e.getMessage() + (e.getCause() == null ? "" : " (cause: " + e.getCause() + ")");
            return;
        } catch (RuntimeException | InterruptedException e) {
            failure = "poll() threw " + e;
            return;
        }
        if (retriable || records != null && !records.isEmpty()) {
            emptyPolls = 0;
        } else {
            emptyPolls++;
        }
        if (TRACE && records != null) {
            records.forEach(r -> System.out.println("TRACE polled " + SimulatedTransactions.describe(r)));
        }
        if (exactlyOnce != null) {
            afterExactlyOnce(exactlyOnce.polled(task, records));
            return;
        }
        if (records == null) {
            return;
        }
        for (SourceRecord record : records) {
            Submitted entry = new Submitted(record);
            submitted.addLast(entry);
            bySubmission.put(record, entry);
            kafka.send(record);
            stats.count("records");
        }
    }

    /** What the exactly-once worker decided: a task that failed is stopped and started again, a dead worker's task dropped. */
    private void afterExactlyOnce(ExactlyOnceWorker.Verdict verdict) {
        if (exactlyOnce.broken() != null && failure == null) {
            failure = "TRANSACTION_CONTRACT: transaction.boundary=connector: " + exactlyOnce.broken();
            return;
        }
        switch (verdict) {
            case GOES_ON -> { }
            case TASK_FAILED -> {
                exactlyOnce.taskGone();
                task.stop();
                task = null;
                start(config);
            }
            case WORKER_DIED -> {
                exactlyOnce.taskGone();
                task = null;
                start(config);
            }
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

    /**
     * Kafka acknowledged {@code record}. Connect's exactly-once task only notes it: the task hears of its records when
     * their transaction commits.
     */
    private void acknowledged(SourceRecord record) {
        Submitted entry = bySubmission.remove(record);
        if (entry == null) {
            return;
        }
        entry.acknowledged = true;
        task.commitRecord(entry.record, null);
    }

    /**
     * Connect's periodic offset commit; {@code fails}: the offset store write fails. An exactly-once task has none:
     * its offsets are written inside its transactions.
     */
    void flush(boolean fails) {
        if (failure != null || exactlyOnce != null) {
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

    /**
     * The worker dies: no stop(); unacknowledged records kept or lost by the seed (exactly-once: the open
     * transaction aborts).
     */
    void kill() {
        if (exactlyOnce != null) {
            exactlyOnce.taskGone();
        } else {
            kafka.crash();
        }
        submitted.clear();
        bySubmission.clear();
        task = null;
    }

    /**
     * A clean stop: everything in flight acknowledged and a last flush, or under exactly-once the final commit Connect
     * makes; then stop().
     */
    void stopCleanly() {
        if (exactlyOnce != null && failure == null && task != null) {
            ExactlyOnceWorker.Verdict verdict = exactlyOnce.stopping(task);
            exactlyOnce.taskGone();
            if (verdict == ExactlyOnceWorker.Verdict.WORKER_DIED) {
                task = null; // died in that commit: no stop()
                return;
            }
        } else {
            acknowledgeAll();
            flush(false);
        }
        if (task != null) {
            task.stop();
        }
        submitted.clear();
        bySubmission.clear();
        task = null;
    }

    /** The exactly-once worker is to die at its next commit; see {@link ExactlyOnceWorker#dieAtNextCommit}. */
    void dieAtNextCommit(ExactlyOnceWorker.Death death) {
        exactlyOnce.dieAtNextCommit(death);
    }

    /** A newer generation of the task fences the exactly-once worker's producer. */
    void fence() {
        exactlyOnce.fence();
    }

    String failure() {
        return failure;
    }

    int emptyPolls() {
        return emptyPolls;
    }

    /** Records sent and not acknowledged, and under exactly-once those of the open transaction. */
    int inFlight() {
        return kafka.pending() + (exactlyOnce == null ? 0 : exactlyOnce.inFlight());
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
            return exactlyOnce == null ? null : exactlyOnce.context();
        }

        @Override
        public PluginMetrics pluginMetrics() {
            return null;
        }
    }
}
