package io.github.pgoutput.connect.simulation;

import io.github.pgoutput.connect.PgOutputSourceTask;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.apache.kafka.connect.source.SourceRecord;

/**
 * Connect's exactly-once source task (ExactlyOnceWorkerSourceTask) around the task: the records of a poll go to a
 * transactional producer, and a Kafka transaction is committed at the boundaries {@code transaction.boundary} sets:
 * after every poll that dispatched records ({@code poll}), or where the task's transaction context asks
 * ({@code connector}: after a record, or after the batch; an abort request aborts the records so far and then commits
 * the offsets, as Connect does). A transaction begins with its first record. The source offset of each record
 * dispatched is staged, and at the commit the latest one per partition is written to the offset store inside the
 * transaction: a new task reads only offsets of committed transactions. Only after the commit does the task hear of
 * its records ({@code commitRecord}) and get {@code commit()}; there is no periodic offset flush.
 *
 * <p>Faults, by the commit's number or at a step: a commit that fails (the transaction aborts; the task fails, Connect
 * stops it, and it is started again), one that fails at the worker after the broker committed it (in doubt: records
 * and offsets are visible, the task heard nothing), the worker dying right before or right after a commit (killed, no
 * {@code stop()}), and a producer fenced by a newer generation of the task: its open transaction aborts at once, and
 * the fenced task fails at its next send or commit, or is revoked by the rebalance after a few empty polls; either way
 * Connect stops it, and the newer generation goes on from the committed offsets.
 * Single-threaded.
 */
final class ExactlyOnceWorker {

    /** What the worker does with the task after a step. */
    enum Verdict { GOES_ON, TASK_FAILED, WORKER_DIED }

    /** Where a worker scripted to die in a commit dies. */
    enum Death { BEFORE_COMMIT, AFTER_COMMIT }

    /** Polls a fenced task may still make before the rebalance revokes it. */
    private static final int ZOMBIE_POLLS = 5;

    private final SimulatedKafka kafka;
    private final Map<Map<String, ?>, Map<String, Object>> offsetStore;
    /** Under {@code transaction.boundary=connector}; null under {@code poll}. */
    private final SimulatedTransactions context;
    private final SimulationStats stats;
    private final Set<Long> failingCommits;
    private final Set<Long> inDoubtCommits;
    private final List<SourceRecord> open = new ArrayList<>();
    private final Map<Map<String, ?>, Map<String, Object>> staged = new HashMap<>();
    /** The open producer transaction, 0 when none. */
    private long transaction;
    /** Commit attempts so far, across the run: commit number n is the n-th. */
    private long commits;
    private Death dying;
    /** Polls left to a fenced task; negative while the producer is not fenced. */
    private int zombiePolls = -1;
    /** The first broken rule of the transaction context's contract, or null. */
    private String broken;

    /**
     * @param context        the connector-defined boundaries' context, or null for poll boundaries
     * @param failingCommits the numbers of the commits that fail and abort
     * @param inDoubtCommits the numbers of the commits that reach the broker but fail at the worker
     */
    ExactlyOnceWorker(SimulatedKafka kafka, Map<Map<String, ?>, Map<String, Object>> offsetStore, SimulatedTransactions context,
                      SimulationStats stats, Set<Long> failingCommits, Set<Long> inDoubtCommits) {
        this.kafka = kafka;
        this.offsetStore = offsetStore;
        this.context = context;
        this.stats = stats;
        this.failingCommits = failingCommits;
        this.inDoubtCommits = inDoubtCommits;
    }

    /** The context a task gets: Connect's under connector-defined boundaries, none otherwise. */
    SimulatedTransactions context() {
        return context;
    }

    /** The task's contract broken, or null. */
    String broken() {
        return broken;
    }

    /** The worker is to die at its next commit, before or after the broker commits. */
    void dieAtNextCommit(Death death) {
        dying = death;
    }

    /** A newer generation fences this producer: the open transaction aborts now. */
    void fence() {
        if (zombiePolls >= 0) {
            return;
        }
        stats.fault("PRODUCER_FENCED");
        abortOpen();
        zombiePolls = ZOMBIE_POLLS;
    }

    /** A poll of {@code task} returned {@code records} (null or empty: nothing). */
    Verdict polled(PgOutputSourceTask task, List<SourceRecord> records) {
        if (zombiePolls >= 0 && zombiePolls-- == 0) {
            return Verdict.TASK_FAILED; // revoked by the rebalance
        }
        if (records != null) {
            for (SourceRecord record : records) {
                Verdict verdict = dispatch(task, record);
                if (verdict != Verdict.GOES_ON) {
                    return verdict;
                }
            }
        }
        boolean dispatched = records != null && !records.isEmpty();
        Verdict verdict = Verdict.GOES_ON;
        if (context == null) {
            // Poll boundaries: batchDispatched() commits whenever a transaction is open or offsets are staged.
            if (transaction != 0 || !staged.isEmpty()) {
                verdict = commit(task);
            }
        } else {
            if (context.batchAbortRequested()) {
                abortOpen();
                verdict = commit(task);
            } else if (context.batchCommitRequested()) {
                verdict = commit(task);
            }
            if (verdict == Verdict.GOES_ON && dispatched && broken == null) {
                broken = context.checkPollEnd(open);
            }
        }
        return verdict;
    }

    private Verdict dispatch(PgOutputSourceTask task, SourceRecord record) {
        if (zombiePolls >= 0) {
            return Verdict.TASK_FAILED; // the fenced producer fails the send; nothing more reaches the log
        }
        if (transaction == 0) {
            transaction = kafka.beginTransaction();
        }
        kafka.send(record, transaction);
        stats.count("records");
        open.add(record);
        staged.put(record.sourcePartition(), new HashMap<>(record.sourceOffset()));
        if (context == null) {
            return Verdict.GOES_ON;
        }
        if (context.abortRequestedOn(record)) {
            // Connect aborts the records so far, and still commits the offsets so the task does not see them again.
            abortOpen();
            return commit(task);
        }
        return context.commitRequestedOn(record) ? commit(task) : Verdict.GOES_ON;
    }

    private Verdict commit(PgOutputSourceTask task) {
        if (zombiePolls >= 0) {
            return Verdict.TASK_FAILED; // ProducerFencedException
        }
        commits++;
        if (context != null && !open.isEmpty() && broken == null) {
            broken = context.checkCommitted(open);
        }
        if (dying == Death.BEFORE_COMMIT) {
            stats.fault("WORKER_DIED_BEFORE_COMMIT");
            return Verdict.WORKER_DIED;
        }
        if (failingCommits.contains(commits)) {
            stats.fault("COMMIT_FAILURE");
            abortOpen();
            return Verdict.TASK_FAILED;
        }
        if (transaction == 0) {
            transaction = kafka.beginTransaction(); // offsets only
        }
        if (SimulatedConnect.TRACE) {
            System.out.println("TRACE commit of Kafka transaction " + transaction + ", offsets " + staged.values());
        }
        kafka.commit(transaction, r -> { });
        transaction = 0;
        offsetStore.putAll(staged);
        staged.clear();
        List<SourceRecord> committed = new ArrayList<>(open);
        open.clear();
        if (inDoubtCommits.contains(commits)) {
            stats.fault("COMMIT_IN_DOUBT");
            return Verdict.TASK_FAILED;
        }
        if (dying == Death.AFTER_COMMIT) {
            stats.fault("WORKER_DIED_AFTER_COMMIT");
            return Verdict.WORKER_DIED;
        }
        for (SourceRecord record : committed) {
            task.commitRecord(record, null);
        }
        task.commit();
        return Verdict.GOES_ON;
    }

    private void abortOpen() {
        if (transaction != 0) {
            if (SimulatedConnect.TRACE) {
                System.out.println("TRACE abort of Kafka transaction " + transaction);
            }
            kafka.abort(transaction);
            transaction = 0;
        }
        open.clear();
    }

    /**
     * The task is gone (killed, failed, or stopped after the final commit Connect makes): the open transaction aborts,
     * staged offsets are dropped, and the next task starts with a producer of its own.
     */
    void taskGone() {
        abortOpen();
        staged.clear();
        dying = null;
        zombiePolls = -1;
        if (context != null) {
            context.forget();
        }
    }

    /**
     * A clean stop: Connect's final commit (always under poll boundaries, only on the task's batch request under
     * connector boundaries); then the task is stopped and the open transaction, if any, aborts.
     */
    Verdict stopping(PgOutputSourceTask task) {
        boolean commit = context == null ? transaction != 0 || !staged.isEmpty() : context.batchCommitRequested();
        return commit ? commit(task) : Verdict.GOES_ON;
    }

    /** Records of the open transaction, which Connect holds until it commits. */
    int inFlight() {
        return open.size();
    }
}
