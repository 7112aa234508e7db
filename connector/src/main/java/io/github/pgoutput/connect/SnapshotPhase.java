package io.github.pgoutput.connect;

import io.github.pgoutput.connect.config.ConnectorSettings;
import io.github.pgoutput.connect.config.PgOutputSourceConnectorConfig;
import io.github.pgoutput.connect.offsets.AcknowledgementTracker;
import io.github.pgoutput.connect.offsets.SourceOffsets.Position;
import io.github.pgoutput.connect.offsets.SourceOffsets;
import io.github.pgoutput.connect.record.ChangeRecordBuilder.Draft;
import io.github.pgoutput.connect.record.ChangeRecordBuilder;
import io.github.pgoutput.connect.record.LifecycleHeaders;
import io.github.pgoutput.pgoutput.Lsn;
import io.github.pgoutput.replication.ReplicationSettings;
import io.github.pgoutput.snapshot.InitialSnapshot;
import io.github.pgoutput.snapshot.ResumedSnapshotChanges;
import io.github.pgoutput.snapshot.SnapshotException;
import io.github.pgoutput.snapshot.SnapshotPlan;
import io.github.pgoutput.snapshot.SnapshotReader;
import io.github.pgoutput.snapshot.SnapshotRow;
import io.github.pgoutput.snapshot.SnapshotSettings;
import io.github.pgoutput.snapshot.SnapshotTable;
import io.github.pgoutput.snapshot.StoredOffset;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.errors.RetriableException;
import org.apache.kafka.connect.header.ConnectHeaders;
import org.apache.kafka.connect.source.SourceRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The snapshot phase of the task: the start-up decision of {@code snapshot.mode}, then the rows of the snapshot as
 * records, in the order of {@link InitialSnapshot} (and {@code io.github.pgoutput.snapshot}'s package documentation).
 *
 * <p>Records: a first snapshot emits the rows only (no truncate records, as Debezium writes none: a sink that applies
 * truncates would empty a table it already holds when a user switches over). A snapshot taken again (the connector
 * has a stored offset: after an interrupted snapshot, or a lost slot under {@code when_needed}) first emits one
 * truncate record per table it reads ({@link ChangeRecordBuilder#snapshotTruncate}), so that a consumer drops the rows
 * it holds from before: rows deleted while no slot recorded changes would otherwise stay. Rows: the table topics, keys and envelope of streaming,
 * op {@code r}, {@code source.snapshot} {@code first} on the very first record of the whole snapshot, {@code last} on
 * the very last, {@code first_in_data_collection} / {@code last_in_data_collection} on a table's first / last row,
 * {@code true} on the others (as Debezium marks them), header {@code pg.snapshot=true} and {@code pg.lsn} = the
 * consistent point. Offsets: every
 * record but the last says "snapshot in progress" ({@link SourceOffsets#snapshotInProgress(Lsn)}); the last carries the
 * position {@code lsn} = consistent point. A task that dies before the last record's offset is committed takes the
 * snapshot again with a new slot, and the rows emitted before come again (at-least-once).
 *
 * <p>Feedback: all records form one unit of the {@link AcknowledgementTracker} that ends at the consistent point, so
 * nothing after it is confirmed to the slot before the last record is acknowledged and its offset committed.
 *
 * <p>Not thread-safe: the task's poll thread only.
 */
public final class SnapshotPhase implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(SnapshotPhase.class);
    /** Slot creation waits for open transactions; at most the replication connection's socket timeout. */
    private static final Duration SLOT_CREATION_TIMEOUT = Duration.ofSeconds(50);
    private static final Duration ROW_WAIT = Duration.ofMillis(100);

    /** The reader and, for initial_only, the connection that holds the temporary slot. */
    private final InitialSnapshot snapshot;
    private final SnapshotReader reader;
    private final Lsn consistentPoint;
    private final AcknowledgementTracker tracker;
    private final AcknowledgementTracker.Unit unit;
    private final Map<String, ?> partition;
    private final long startNanos = System.nanoTime();
    /** Truncate records still to emit before the rows: one per table read when the snapshot is taken again. */
    private int truncatesToEmit;
    private boolean done;

    /** For a resumable snapshot: its table list and resumptions; null otherwise. */
    private final InitialSnapshot.Resumable resumable;

    private java.util.function.Consumer<SnapshotRow> rowObserver;

    private SnapshotPhase(InitialSnapshot snapshot, AcknowledgementTracker tracker, Map<String, ?> partition, boolean takenAgain) {
        this.snapshot = snapshot;
        this.resumable = snapshot.resumable();
        this.reader = snapshot.reader();
        this.truncatesToEmit = takenAgain ? reader.tables().size() : 0;
        this.consistentPoint = snapshot.consistentPoint();
        this.tracker = tracker;
        this.partition = partition;
        this.unit = tracker.open();
    }

    /**
     * What to do at start-up, from {@code snapshot.mode}, the stored offset and the slot ({@link InitialSnapshot#plan}).
     *
     * @param stored the stored offset, or null when none is stored
     * @throws SnapshotException  naming {@code snapshot.mode=when_needed} when the stored offset cannot be honoured in
     *                             the configured mode ({@code MODE_CONFLICT}), or naming the slot and the choices when a
     *                             snapshot would have to drop a slot not shown to be this connector's own and unused
     *                             ({@code SLOT_NOT_OWNED})
     * @throws RetriableException when that slot is this connector's own but a walsender still holds it
     */
    static SnapshotPlan plan(PgOutputSourceConnectorConfig config, ReplicationSettings settings, Map<String, Object> stored)
            throws SQLException {
        return plan(config, settings, storedOffset(stored));
    }

    /** {@link #plan(PgOutputSourceConnectorConfig, ReplicationSettings, Map)} from the stored offset as the planner sees it. */
    static SnapshotPlan plan(PgOutputSourceConnectorConfig config, ReplicationSettings settings, StoredOffset offset)
            throws SQLException {
        try {
            return InitialSnapshot.plan(settings, config.snapshotMode(), offset, config.snapshotResumable());
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
    public static StoredOffset storedOffset(Map<String, Object> stored) {
        if (stored == null) {
            return new StoredOffset.Absent();
        }
        if (SourceOffsets.isSnapshotInProgress(stored)) {
            return new StoredOffset.SnapshotInProgress(SourceOffsets.snapshotLsn(stored), SourceOffsets.snapshotProgress(stored));
        }
        return new StoredOffset.At(SourceOffsets.decode(stored).lsn());
    }

    /**
     * Takes the snapshot ({@link InitialSnapshot#start}): drops the slot when the plan says so, creates the slot with
     * an exported snapshot (temporary for {@code temporary}), and starts reading the captured tables in it.
     *
     * @param takenAgain true when the connector has a stored offset, so a consumer may hold rows of an earlier snapshot
     *                   or stream: the snapshot then begins with a truncate record per table
     */
    static SnapshotPhase start(PgOutputSourceConnectorConfig config, ReplicationSettings settings, SnapshotPlan plan, boolean temporary,
                               boolean takenAgain, AcknowledgementTracker tracker, Map<String, ?> partition) throws SQLException {
        InitialSnapshot snapshot = InitialSnapshot.start(settings, plan, temporary,
                t -> ConnectorSettings.captured(config, t.schema(), t.table()), config.tableIncludeList(), snapshotSettings(config, settings),
                SLOT_CREATION_TIMEOUT, config.snapshotResumable());
        // A resumed snapshot continues one whose rows stay in Kafka: no truncate records before its rows.
        return new SnapshotPhase(snapshot, tracker, partition, takenAgain && plan.resumeFrom() == null);
    }

    private static SnapshotSettings snapshotSettings(PgOutputSourceConnectorConfig config, ReplicationSettings settings) {
        return SnapshotSettings.defaults().withMaxThreads(config.snapshotMaxThreads())
                .withIncludeList(config.snapshotIncludeList()).withPublication(settings.publicationName())
                .withMaxGroupRows(config.transactionMaxRecords());
    }

    /**
     * What streaming needs to skip the changes that the rows of a resumed snapshot contain, while the stored offset
     * carries {@code resumed} ({@link InitialSnapshot#resumedRows}).
     */
    static ResumedSnapshotFilter resumedFilter(PgOutputSourceConnectorConfig config, ReplicationSettings settings,
                                               SourceOffsets.Resumed resumed) throws SQLException {
        return new ResumedSnapshotFilter(resumed, new ResumedSnapshotChanges(resumed.until(), InitialSnapshot.resumedRows(settings,
                t -> ConnectorSettings.captured(config, t.schema(), t.table()), config.tableIncludeList(), snapshotSettings(config, settings),
                resumed.tables(), resumed.resumes())));
    }

    /** The resumptions streaming must take into account after this snapshot; null when it was never resumed. */
    SourceOffsets.Resumed resumedForStreaming() {
        return resumable == null || resumable.resumes().isEmpty() ? null
                : new SourceOffsets.Resumed(resumable.fingerprint(), resumable.resumes());
    }

    /**
     * Adds up to {@code room} records to {@code out}, and past it the rest of a group of identical rows of a table
     * without a unique key ({@link SnapshotReader#groupContinues()}): the poll's records are one Kafka transaction with
     * the last one's offset, and a position inside such a group cannot say which of its rows are in Kafka. A group holds
     * at most {@code transaction.max.records} rows (the reader fails on a larger one).
     *
     * @return true once the snapshot's last record was added (or the snapshot had no rows)
     */
    /** Shows every row read to {@code observer} (the unchanged TOAST store) before its record is built. */
    void observeRows(java.util.function.Consumer<SnapshotRow> observer) {
        this.rowObserver = observer;
    }

    boolean fill(List<SourceRecord> out, int room, ChangeRecordBuilder builder) throws InterruptedException {
        List<SnapshotTable> tables = reader.tables();
        while (truncatesToEmit > 0 && out.size() < room) {
            add(builder.snapshotTruncate(tables.get(tables.size() - truncatesToEmit--), consistentPoint, reader.transactionId()),
                    inProgress(), out, builder);
        }
        while (!done && (out.size() < room || reader.groupContinues())) {
            SnapshotRow row = reader.next(out.isEmpty() ? ROW_WAIT : Duration.ZERO);
            if (row == null) {
                if (reader.finished()) {
                    finish();
                }
                return done;
            }
            boolean last = row.marker() == SnapshotRow.Marker.LAST;
            if (rowObserver != null) {
                rowObserver.accept(row);
            }
            Draft draft = builder.snapshotRow(row, consistentPoint, reader.transactionId());
            Map<String, Object> offset = last ? SourceOffsets.encode(Position.afterDelivery(consistentPoint), resumedForStreaming())
                    : inProgress();
            add(draft, offset, out, builder);
            if (last) {
                finish();
            }
        }
        return done;
    }

    /**
     * The offset of every record but the last. It names the slot's consistent point, the proof a restarted task needs
     * before it may drop the slot (see SnapshotPlanner). A temporary slot (initial_only) is gone by then anyway.
     */
    private Map<String, Object> inProgress() {
        if (resumable != null) {
            // The rows still to read after the row just handed out, whose record this offset goes with.
            return SourceOffsets.snapshotInProgress(consistentPoint, new StoredOffset.Progress(resumable.fingerprint(), reader.position(),
                    resumable.resumes()), reader.rowInGroup());
        }
        return SourceOffsets.snapshotInProgress(consistentPoint);
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
                reader.progress().rowsDone(), reader.progress().tableCount(), (System.nanoTime() - startNanos) / 1_000_000, consistentPoint);
        close();
    }

    /** The slot's consistent point: streaming starts here. */
    Lsn consistentPoint() {
        return consistentPoint;
    }

    SnapshotReader reader() {
        return reader;
    }

    long startNanos() {
        return startNanos;
    }

    @Override
    public void close() {
        snapshot.close();
    }
}
