package io.github.pgoutput.connect;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.github.pgoutput.connect.ChangeRecordBuilder.Draft;
import io.github.pgoutput.connect.SourceOffsets.Position;
import io.github.pgoutput.pgoutput.Lsn;
import io.github.pgoutput.replication.PgConnections;
import io.github.pgoutput.replication.PublicationManager;
import io.github.pgoutput.replication.PublicationMode;
import io.github.pgoutput.replication.ReplicationSettings;
import io.github.pgoutput.replication.TableName;
import io.github.pgoutput.snapshot.ExportedSnapshot;
import io.github.pgoutput.snapshot.SlotState;
import io.github.pgoutput.snapshot.SnapshotException;
import io.github.pgoutput.snapshot.SnapshotPlan;
import io.github.pgoutput.snapshot.SnapshotPlanner;
import io.github.pgoutput.snapshot.SnapshotReader;
import io.github.pgoutput.snapshot.SnapshotRow;
import io.github.pgoutput.snapshot.SnapshotSettings;
import io.github.pgoutput.snapshot.SnapshotTable;
import io.github.pgoutput.snapshot.SnapshotTables;
import io.github.pgoutput.snapshot.StoredOffset;
import org.apache.kafka.connect.errors.RetriableException;
import org.apache.kafka.connect.header.ConnectHeaders;
import org.apache.kafka.connect.source.SourceRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The snapshot phase of the task: the start-up decision of {@code snapshot.mode}, then the rows of the snapshot as
 * records, in the order of {@code io.github.pgoutput.snapshot}'s package documentation.
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
final class SnapshotPhase implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(SnapshotPhase.class);
    /** Slot creation waits for open transactions; at most the replication connection's socket timeout. */
    private static final Duration SLOT_CREATION_TIMEOUT = Duration.ofSeconds(50);
    private static final Duration ROW_WAIT = Duration.ofMillis(100);

    private final SnapshotReader reader;
    private final Lsn consistentPoint;
    /** The connection that holds the temporary slot of initial_only, or null. */
    private final ExportedSnapshot temporarySlot;
    private final AcknowledgementTracker tracker;
    private final AcknowledgementTracker.Unit unit;
    private final Map<String, ?> partition;
    private final long startNanos = System.nanoTime();
    /** Truncate records still to emit before the rows: one per table read when the snapshot is taken again. */
    private int truncatesToEmit;
    private boolean done;

    private SnapshotPhase(SnapshotReader reader, Lsn consistentPoint, ExportedSnapshot temporarySlot, AcknowledgementTracker tracker,
                          Map<String, ?> partition, boolean takenAgain) {
        this.reader = reader;
        this.truncatesToEmit = takenAgain ? reader.tables().size() : 0;
        this.temporarySlot = temporarySlot;
        this.consistentPoint = consistentPoint;
        this.tracker = tracker;
        this.partition = partition;
        this.unit = tracker.open();
    }

    /**
     * What to do at start-up, from {@code snapshot.mode}, the stored offset and the slot.
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
        StoredOffset offset = storedOffset(stored);
        SlotState slot;
        try (Connection sql = PgConnections.openSql(settings)) {
            slot = slotState(sql, settings.slotName(), offset);
        }
        try {
            return SnapshotPlanner.decide(config.snapshotMode(), offset, slot,
                    settings.slotName());
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

    /**
     * The slot as the planner needs it. A usable slot confirmed past the stored offset is reported at the stored
     * offset when it is only this task's own idle confirmation: the task confirms a keepalive's walEnd while nothing
     * is emitted (no record, so no offset moves), which leaves confirmed_flush_lsn ahead of the stored offset with
     * nothing lost. A slot dropped or invalidated behind the connector's back still shows as Missing or Lost; one
     * dropped and re-created by hand under the same name is not detected (see the README's Snapshot section).
     */
    private static SlotState slotState(Connection sql, String slotName, StoredOffset offset) throws SQLException {
        try (PreparedStatement st = sql.prepareStatement(
                "SELECT wal_status, confirmed_flush_lsn::text, restart_lsn::text, active FROM pg_replication_slots WHERE slot_name = ?")) {
            st.setString(1, slotName);
            try (ResultSet rs = st.executeQuery()) {
                if (!rs.next()) {
                    return new SlotState.Missing();
                }
                if ("lost".equals(rs.getString(1))) {
                    return new SlotState.Lost();
                }
                Lsn confirmed = rs.getString(2) == null ? Lsn.INVALID : Lsn.parse(rs.getString(2));
                Lsn restart = rs.getString(3) == null ? Lsn.INVALID : Lsn.parse(rs.getString(3));
                return usableSlot(confirmed, restart, rs.getBoolean(4), offset);
            }
        }
    }

    /** The stored offset as the planner sees it; {@code stored} null when none is stored. Pure. */
    static StoredOffset storedOffset(Map<String, Object> stored) {
        if (stored == null) {
            return new StoredOffset.Absent();
        }
        if (SourceOffsets.isSnapshotInProgress(stored)) {
            return new StoredOffset.SnapshotInProgress(SourceOffsets.snapshotLsn(stored));
        }
        return new StoredOffset.At(SourceOffsets.decode(stored).lsn());
    }

    /**
     * A usable slot as the planner sees it: positions past a stored streaming position are reported at that position
     * (the task's own idle confirmations, see {@link #slotState}), also past 0/0, which versions before the stream's
     * start LSN was stored wrote inside the first delivery of a connector without snapshot. Pure.
     */
    static SlotState usableSlot(Lsn confirmed, Lsn restart, boolean active, StoredOffset offset) {
        if (offset instanceof StoredOffset.At at) {
            Lsn stored = at.lsn();
            confirmed = confirmed.isAfter(stored) ? stored : confirmed;
            restart = restart.isAfter(stored) ? stored : restart;
        }
        return new SlotState.Usable(confirmed, restart, active);
    }

    /**
     * Drops the slot when the plan says so, creates the slot with an exported snapshot (temporary for
     * {@code temporary}), and starts reading the captured tables in it.
     *
     * @param takenAgain true when the connector has a stored offset, so a consumer may hold rows of an earlier snapshot
     *                   or stream: the snapshot then begins with a truncate record per table
     */
    static SnapshotPhase start(PgOutputSourceConnectorConfig config, ReplicationSettings settings, SnapshotPlan plan, boolean temporary,
                               boolean takenAgain, AcknowledgementTracker tracker, Map<String, ?> partition) throws SQLException {
        List<TableName> tables;
        try (Connection sql = PgConnections.openSql(settings)) {
            if (plan.dropExistingSlot()) {
                try (PreparedStatement st = sql.prepareStatement(
                        "SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots WHERE slot_name = ?")) {
                    st.setString(1, settings.slotName());
                    st.execute();
                }
                log.info("Dropped replication slot {}: {}", settings.slotName(), plan.reason());
            }
            if (!PublicationManager.exists(sql, settings.publicationName()) && settings.publicationMode() != PublicationMode.DISABLED) {
                PublicationManager.create(sql, settings.publicationName(), settings.publicationMode(), settings.publicationTables());
                log.info("Created publication {} for the snapshot", settings.publicationName());
            }
            tables = SnapshotTables.inCaptureOrder(SnapshotTables.published(sql, settings.publicationName()).stream()
                    .filter(t -> ConnectorSettings.captured(config, t.schema(), t.table())).toList(), config.tableIncludeList());
        }
        SnapshotSettings snapshotSettings = SnapshotSettings.defaults().withMaxThreads(config.snapshotMaxThreads())
                .withIncludeList(config.snapshotIncludeList()).withPublication(settings.publicationName());
        ExportedSnapshot exported = ExportedSnapshot.create(settings, temporary, SLOT_CREATION_TIMEOUT);
        SnapshotReader reader;
        try {
            reader = SnapshotReader.start(() -> PgConnections.openSql(settings), exported.snapshotName(), tables, settings.user(),
                    snapshotSettings);
        } finally {
            if (!temporary) {
                // The export is imported (or failed): the slot stays, its walsender has nothing more to do.
                exported.close();
            }
        }
        // A temporary slot lives as long as its connection; initial_only keeps it until the task stops.
        return new SnapshotPhase(reader, exported.consistentPoint(), temporary ? exported : null, tracker, partition, takenAgain);
    }

    /**
     * Adds up to {@code room} records to {@code out}.
     *
     * @return true once the snapshot's last record was added (or the snapshot had no rows)
     */
    boolean fill(List<SourceRecord> out, int room, ChangeRecordBuilder builder) throws InterruptedException {
        List<SnapshotTable> tables = reader.tables();
        while (truncatesToEmit > 0 && out.size() < room) {
            add(builder.snapshotTruncate(tables.get(tables.size() - truncatesToEmit--), consistentPoint, reader.transactionId()),
                    inProgress(), out, builder.contextHeaders());
        }
        while (!done && out.size() < room) {
            SnapshotRow row = reader.next(out.isEmpty() ? ROW_WAIT : Duration.ZERO);
            if (row == null) {
                if (reader.finished()) {
                    finish();
                }
                return done;
            }
            boolean last = row.marker() == SnapshotRow.Marker.LAST;
            Draft draft = builder.snapshotRow(row, consistentPoint, reader.transactionId());
            Map<String, Object> offset = last ? SourceOffsets.encode(Position.afterDelivery(consistentPoint))
                    : inProgress();
            add(draft, offset, out, builder.contextHeaders());
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
        return SourceOffsets.snapshotInProgress(consistentPoint);
    }

    private void add(Draft draft, Map<String, Object> offset, List<SourceRecord> out, LifecycleHeaders.Context context) {
        ConnectHeaders headers = new ConnectHeaders();
        LifecycleHeaders.addSnapshot(headers, consistentPoint);
        draft.addDebeziumHeaders(headers, context);
        SourceRecord record = new SourceRecord(partition, offset, draft.topic(), null, draft.keySchema(), draft.key(),
                draft.valueSchema(), draft.value(), draft.timestampMs(), headers);
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
        reader.close();
        if (temporarySlot != null) {
            temporarySlot.close();
        }
    }
}
