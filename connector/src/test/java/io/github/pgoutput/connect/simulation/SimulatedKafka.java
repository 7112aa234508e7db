package io.github.pgoutput.connect.simulation;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.function.Consumer;

import org.apache.kafka.connect.header.Header;
import org.apache.kafka.connect.source.SourceRecord;

/**
 * The model Kafka: per topic, the log of records written and the records sent but not yet acknowledged. A topic
 * acknowledges in send order (one partition each), topics independently of each other, so acknowledgements arrive
 * late and out of order across topics. A record is in the log once acknowledged; at a crash, each topic keeps a
 * seeded prefix of its unacknowledged records (written, the acknowledgement lost) and loses the rest.
 *
 * <p>Producer transactions, as Connect's exactly-once source task uses them: records sent in a transaction are
 * written to the log like any other, but a {@code read_committed} consumer ({@link #logs()}) sees them only once the
 * transaction is committed, and never when it is aborted. A commit first writes every record of the transaction still
 * unacknowledged (the producer flushes before it commits). An abort (a killed or fenced producer, a failed commit)
 * leaves a seeded prefix of the unacknowledged records in the log, invisible, and loses the rest. Records sent
 * without a transaction are visible once written. Single-threaded.
 */
final class SimulatedKafka {

    /** A record in a topic's log, written in transaction {@code txn} (0: without one). */
    private record Written(SourceRecord record, long txn) {
    }

    private final Map<String, List<Written>> logs = new TreeMap<>();
    private final Map<String, Deque<Written>> unacknowledged = new TreeMap<>();
    /** The outcome of each transaction that ended: true committed, false aborted; open ones are absent. */
    private final Map<Long, Boolean> outcomes = new HashMap<>();
    private final SplittableRandom random;
    private long lastTransaction;
    private long committed;
    private long aborted;

    SimulatedKafka(SplittableRandom random) {
        this.random = random;
    }

    /** Sends {@code record} without a transaction. */
    void send(SourceRecord record) {
        send(record, 0);
    }

    /** Sends {@code record} in the open transaction {@code txn} ({@link #beginTransaction}), or without one for 0. */
    void send(SourceRecord record, long txn) {
        if (txn != 0 && (txn > lastTransaction || outcomes.containsKey(txn))) {
            throw new IllegalStateException("record sent in transaction " + txn + ", which is not open");
        }
        unacknowledged.computeIfAbsent(record.topic(), t -> new ArrayDeque<>()).addLast(new Written(record, txn));
    }

    /** A new producer transaction; its id. */
    long beginTransaction() {
        return ++lastTransaction;
    }

    /**
     * Commits {@code txn}: its records still unacknowledged are written first, each passed to {@code acknowledged},
     * then they all become visible to a {@code read_committed} consumer.
     */
    void commit(long txn, Consumer<SourceRecord> acknowledged) {
        for (Map.Entry<String, Deque<Written>> entry : unacknowledged.entrySet()) {
            Deque<Written> queue = entry.getValue();
            while (!queue.isEmpty()) {
                Written written = queue.removeFirst();
                if (written.txn() != txn) {
                    throw new IllegalStateException("the producer flushes transaction " + txn + " but holds a record of " + written.txn());
                }
                logs.computeIfAbsent(entry.getKey(), t -> new ArrayList<>()).add(written);
                acknowledged.accept(written.record());
            }
        }
        end(txn, true);
    }

    /** Aborts {@code txn}: per topic a seeded prefix of its unacknowledged records is written (invisible), the rest lost. */
    void abort(long txn) {
        crash();
        end(txn, false);
    }

    private void end(long txn, boolean commit) {
        if (outcomes.put(txn, commit) != null) {
            throw new IllegalStateException("transaction " + txn + " ended twice");
        }
        if (commit) {
            committed++;
        } else {
            aborted++;
        }
    }

    int pending() {
        int count = 0;
        for (Deque<Written> queue : unacknowledged.values()) {
            count += queue.size();
        }
        return count;
    }

    /** Acknowledges the oldest unacknowledged record of a random topic; false when none is pending. */
    boolean acknowledgeOne(Consumer<SourceRecord> acknowledged) {
        List<Deque<Written>> waiting = new ArrayList<>();
        for (Deque<Written> queue : unacknowledged.values()) {
            if (!queue.isEmpty()) {
                waiting.add(queue);
            }
        }
        if (waiting.isEmpty()) {
            return false;
        }
        Written written = waiting.get(random.nextInt(waiting.size())).removeFirst();
        logs.computeIfAbsent(written.record().topic(), t -> new ArrayList<>()).add(written);
        acknowledged.accept(written.record());
        return true;
    }

    /** The producer dies: per topic a random prefix of the unacknowledged records was written, the rest is lost. */
    void crash() {
        for (Map.Entry<String, Deque<Written>> entry : unacknowledged.entrySet()) {
            Deque<Written> queue = entry.getValue();
            int kept = queue.isEmpty() ? 0 : random.nextInt(queue.size() + 1);
            for (int i = 0; i < kept; i++) {
                logs.computeIfAbsent(entry.getKey(), t -> new ArrayList<>()).add(queue.removeFirst());
            }
            queue.clear();
        }
    }

    /**
     * What a {@code read_committed} consumer reads, per topic in log order: the records written without a
     * transaction and those of committed transactions.
     */
    Map<String, List<SourceRecord>> logs() {
        Map<String, List<SourceRecord>> visible = new TreeMap<>();
        logs.forEach((topic, written) -> {
            List<SourceRecord> records = new ArrayList<>(written.size());
            for (Written w : written) {
                if (w.txn() == 0 || Boolean.TRUE.equals(outcomes.get(w.txn()))) {
                    records.add(w.record());
                }
            }
            visible.put(topic, records);
        });
        return visible;
    }

    /** Records in the logs that a {@code read_committed} consumer skips: written in transactions aborted or still open. */
    long invisibleRecords() {
        long count = 0;
        for (List<Written> written : logs.values()) {
            for (Written w : written) {
                if (w.txn() != 0 && !Boolean.TRUE.equals(outcomes.get(w.txn()))) {
                    count++;
                }
            }
        }
        return count;
    }

    long transactionsCommitted() {
        return committed;
    }

    long transactionsAborted() {
        return aborted;
    }

    static String header(SourceRecord record, String name) {
        Header header = record.headers().lastWithName(name);
        return header == null || header.value() == null ? null : header.value().toString();
    }
}
