package io.github.pgoutput.connect;

import io.github.pgoutput.connect.offsets.AcknowledgementTracker;
import io.github.pgoutput.connect.offsets.SourceOffsets.Position;
import io.github.pgoutput.connect.offsets.SourceOffsets;
import io.github.pgoutput.connect.record.ChangeRecordBuilder.Draft;
import io.github.pgoutput.connect.record.ChangeRecordBuilder;
import io.github.pgoutput.connect.record.LifecycleHeaders;
import io.github.pgoutput.pgoutput.Lsn;
import io.github.pgoutput.snapshot.InitialSnapshot;
import io.github.pgoutput.snapshot.InitialSnapshotRun.Item;
import io.github.pgoutput.snapshot.InitialSnapshotRun;
import io.github.pgoutput.snapshot.SnapshotException;
import io.github.pgoutput.snapshot.SnapshotPlan;
import io.github.pgoutput.snapshot.SnapshotProgress;
import io.github.pgoutput.snapshot.SnapshotRow;
import io.github.pgoutput.snapshot.Snapshots;
import io.github.pgoutput.snapshot.StoredOffset;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.kafka.connect.errors.RetriableException;
import org.apache.kafka.connect.header.ConnectHeaders;
import org.apache.kafka.connect.source.SourceRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The snapshot phase of the task: the start-up decision of {@code snapshot.mode} ({@link Snapshots#plan}), then the
 * items of the {@link InitialSnapshotRun} as records.
 *
 * <p>Records: a first snapshot emits the rows only (no truncate records, as Debezium writes none: a sink that applies
 * truncates would empty a table it already holds when a user switches over). A snapshot taken again (the connector
 * has a stored offset: after an interrupted snapshot, or a lost slot under {@code when_needed}) first emits one
 * truncate record per table it reads ({@link ChangeRecordBuilder#snapshotTruncate}), so that a consumer drops the rows
 * it holds from before: rows deleted while no slot recorded changes would otherwise stay. Rows: the table topics, keys
 * and envelope of streaming, op {@code r}, {@code source.snapshot} {@code first} on the very first record of the whole
 * snapshot, {@code last} on the very last, {@code first_in_data_collection} / {@code last_in_data_collection} on a
 * table's first / last row, {@code true} on the others (as Debezium marks them), header {@code pg.snapshot=true} and
 * {@code pg.lsn} = the consistent point. Offsets: every record but the last says "snapshot in progress"
 * ({@link SourceOffsets#snapshotInProgress(Lsn)}); the last carries the position {@code lsn} = consistent point. A task
 * that dies before the last record's offset is committed takes the snapshot again with a new slot, and the rows
 * emitted before come again (at-least-once).
 *
 * <p>Feedback: all records form one unit of the {@link AcknowledgementTracker} that ends at the consistent point, so
 * nothing after it is confirmed to the slot before the last record is acknowledged and its offset committed.
 *
 * <p>Not thread-safe: the task's poll thread only.
 */
public final class SnapshotPhase implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(SnapshotPhase.class);
    private static final Duration ROW_WAIT = Duration.ofMillis(100);

    private final InitialSnapshotRun run;
    private final Lsn consistentPoint;
    private final AcknowledgementTracker tracker;
    private final AcknowledgementTracker.Unit unit;
    private final Map<String, ?> partition;
    private final long startNanos = System.nanoTime();
    private boolean done;
    private Consumer<SnapshotRow> rowObserver;

    SnapshotPhase(InitialSnapshotRun run, AcknowledgementTracker tracker, Map<String, ?> partition) {
        this.run = run;
        this.consistentPoint = run.consistentPoint();
        this.tracker = tracker;
        this.partition = partition;
        this.unit = tracker.open();
    }

    /**
     * What to do at start-up, from {@code snapshot.mode}, the stored offset and the slot.
     *
     * @throws SnapshotException  naming {@code snapshot.mode=when_needed} when the stored offset cannot be honoured in
     *                             the configured mode ({@code MODE_CONFLICT}), or naming the slot and the choices when a
     *                             snapshot would have to drop a slot not shown to be this connector's own and unused
     *                             ({@code SLOT_NOT_OWNED})
     * @throws RetriableException when that slot is this connector's own but a walsender still holds it
     */
    static SnapshotPlan plan(Snapshots snapshots, StoredOffset offset) throws SQLException {
        try {
            return snapshots.plan(offset);
        } catch (SnapshotException e) {
            if (e.reason() == SnapshotException.Reason.SLOT_ACTIVE) {
                // Like SQLState 55006 for a session: the previous task's walsender lets go of the slot by itself, and
                // another consumer's does not, so the task retries it only slot.max.retries times.
                throw new RetriableException(e.getMessage(),
                        io.github.pgoutput.replication.ReplicationConnectionLostException.slotInUse(e.getMessage(), e));
            }
            // MODE_CONFLICT, SLOT_NOT_OWNED: no SQLState, so the task's classifier makes them permanent, as they are
            // until a user acts as the message says.
            throw e;
        }
    }

    /** The stored offset as the planner sees it; {@code stored} null when none is stored. Pure. */
    static StoredOffset storedOffset(Map<String, Object> stored) {
        if (stored == null) {
            return new StoredOffset.Absent();
        }
        if (SourceOffsets.isSnapshotInProgress(stored)) {
            return new StoredOffset.SnapshotInProgress(SourceOffsets.snapshotLsn(stored), SourceOffsets.snapshotProgress(stored));
        }
        return new StoredOffset.At(SourceOffsets.decode(stored).lsn());
    }

    /**
     * What streaming needs to skip the changes that the rows of a resumed snapshot contain, while the stored offset
     * carries {@code resumed}.
     */
    static ResumedSnapshotFilter resumedFilter(Snapshots snapshots, SourceOffsets.Resumed resumed) throws SQLException {
        return new ResumedSnapshotFilter(resumed, snapshots.resumedChanges(resumed.tables(), resumed.resumes()));
    }

    /** The resumptions streaming must take into account after this snapshot; null when it was never resumed. */
    SourceOffsets.Resumed resumedForStreaming() {
        InitialSnapshot.Resumable resumed = run.resumptions();
        return resumed == null ? null : new SourceOffsets.Resumed(resumed.fingerprint(), resumed.resumes());
    }

    /** Shows every row read to {@code observer} (the unchanged TOAST store) before its record is built. */
    void observeRows(Consumer<SnapshotRow> observer) {
        this.rowObserver = observer;
    }

    /**
     * Adds up to {@code room} records to {@code out}, and past it the rest of a group of identical rows of a table
     * without a unique key ({@link InitialSnapshotRun#groupContinues()}): the poll's records are one Kafka transaction
     * with the last one's offset, and a position inside such a group cannot say which of its rows are in Kafka. A group
     * holds at most {@code transaction.max.records} rows (the reader fails on a larger one).
     *
     * @return true once the snapshot's last record was added (or the snapshot had no rows)
     */
    boolean fill(List<SourceRecord> out, int room, ChangeRecordBuilder builder) throws InterruptedException {
        while (!done && (out.size() < room || run.groupContinues())) {
            Item item = run.next(out.isEmpty() ? ROW_WAIT : Duration.ZERO);
            if (item == null) {
                if (run.finished()) {
                    finish();
                }
                return done;
            }
            if (item instanceof Item.Truncate truncate) {
                add(builder.snapshotTruncate(truncate.table(), consistentPoint, run.transactionId()), inProgress(item), out, builder);
                continue;
            }
            Item.Row row = (Item.Row) item;
            if (rowObserver != null) {
                rowObserver.accept(row.row());
            }
            Draft draft = builder.snapshotRow(row.row(), consistentPoint, run.transactionId());
            add(draft, row.last() ? SourceOffsets.encode(Position.afterDelivery(consistentPoint), resumedForStreaming()) : inProgress(item),
                    out, builder);
            if (row.last()) {
                finish();
            }
        }
        return done;
    }

    /**
     * The offset of every record but the last. It names the slot's consistent point, the proof a restarted task needs
     * before it may drop the slot (see SnapshotPlanner). A temporary slot (initial_only) is gone by then anyway.
     */
    private Map<String, Object> inProgress(Item item) {
        return item.progress() == null ? SourceOffsets.snapshotInProgress(consistentPoint)
                : SourceOffsets.snapshotInProgress(consistentPoint, item.progress(), item.rowInGroup());
    }

    private void add(Draft draft, Map<String, Object> offset, List<SourceRecord> out, ChangeRecordBuilder builder) {
        ConnectHeaders headers = new ConnectHeaders();
        LifecycleHeaders.addSnapshot(headers, consistentPoint);
        draft.addDebeziumHeaders(headers, builder.contextHeaders());
        SourceRecord record = builder.record(draft, partition, offset, headers);
        tracker.emitted(unit, record);
        out.add(record);
    }

    private void finish() {
        if (done) {
            return;
        }
        done = true;
        tracker.ended(unit, consistentPoint);
        log.info("Snapshot finished: {} row(s) of {} table(s) in {} ms; streaming starts at the consistent point {}",
                run.progress().rowsDone(), run.progress().tableCount(), (System.nanoTime() - startNanos) / 1_000_000, consistentPoint);
        close();
    }

    /** The slot's consistent point: streaming starts here. */
    Lsn consistentPoint() {
        return consistentPoint;
    }

    /** Tables and rows read so far. */
    SnapshotProgress progress() {
        return run.progress();
    }

    long startNanos() {
        return startNanos;
    }

    @Override
    public void close() {
        run.close();
    }
}
