package io.github.pgoutput.snapshot;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.regex.Pattern;

import io.github.pgoutput.pgoutput.Lsn;
import io.github.pgoutput.replication.PgConnections;
import io.github.pgoutput.replication.PublicationManager;
import io.github.pgoutput.replication.PublicationMode;
import io.github.pgoutput.replication.ReplicationSettings;
import io.github.pgoutput.replication.SlotInfo;
import io.github.pgoutput.replication.SlotManager;
import io.github.pgoutput.replication.TableName;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The snapshot's one entry point: {@link #plan} decides, from {@code snapshot.mode}, the stored offset and the slot,
 * whether to take one; {@link #start} takes it (drops the slot when the plan says so, creates the publication when it
 * is missing, creates the slot with an exported snapshot and starts reading the captured tables in it); the caller
 * then reads the rows from {@link #reader()} and streams from {@link #consistentPoint()} once they are done.
 *
 * <p>A started snapshot holds its reader and, for a temporary slot, the replication connection that keeps the slot
 * alive; {@link #close()} releases both. Not thread-safe: one caller thread (the task's poll thread).
 */
public final class InitialSnapshot implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(InitialSnapshot.class);

    private final SnapshotReader reader;
    private final Lsn consistentPoint;
    /** The connection that holds a temporary slot, or null. */
    private final ExportedSnapshot temporarySlot;

    private InitialSnapshot(SnapshotReader reader, Lsn consistentPoint, ExportedSnapshot temporarySlot) {
        this.reader = reader;
        this.consistentPoint = consistentPoint;
        this.temporarySlot = temporarySlot;
    }

    /**
     * What to do at start-up: reads the slot named {@code settings.slotName()} and asks {@link SnapshotPlanner}.
     *
     * @throws SnapshotException as {@link SnapshotPlanner#decide} does
     * @throws SQLException      when the slot cannot be read
     */
    public static SnapshotPlan plan(ReplicationSettings settings, SnapshotMode mode, StoredOffset offset) throws SQLException {
        SlotState slot = slotState(SlotManager.find(settings), offset);
        return SnapshotPlanner.decide(mode, offset, slot, settings.slotName());
    }

    /**
     * The slot as the planner needs it. A usable slot confirmed past the stored offset is reported at the stored
     * offset when it is only the task's own idle confirmation: the task confirms a keepalive's walEnd while nothing
     * is emitted (no record, so no offset moves), which leaves confirmed_flush_lsn ahead of the stored offset with
     * nothing lost. A slot dropped or invalidated behind the connector's back still shows as Missing or Lost; one
     * dropped and re-created by hand under the same name is not detected (see the README's Snapshot section).
     */
    static SlotState slotState(Optional<SlotInfo> found, StoredOffset offset) {
        if (found.isEmpty()) {
            return new SlotState.Missing();
        }
        SlotInfo slot = found.get();
        if (slot.isLost()) {
            return new SlotState.Lost();
        }
        return usableSlot(slot.confirmedFlushLsn(), slot.restartLsn(), slot.isActive(), offset);
    }

    /**
     * A usable slot as the planner sees it: positions past a stored streaming position are reported at that position
     * (the task's own idle confirmations, see {@link #slotState}), also past 0/0, which versions before the stream's
     * start LSN was stored wrote inside the first delivery of a connector without snapshot. Pure.
     */
    public static SlotState usableSlot(Lsn confirmed, Lsn restart, boolean active, StoredOffset offset) {
        if (offset instanceof StoredOffset.At at) {
            Lsn stored = at.lsn();
            confirmed = confirmed.isAfter(stored) ? stored : confirmed;
            restart = restart.isAfter(stored) ? stored : restart;
        }
        return new SlotState.Usable(confirmed, restart, active);
    }

    /**
     * Takes the snapshot {@code plan} asks for: drops the existing slot when the plan says so, creates the publication
     * when it is missing (unless its mode is disabled), lists the published tables that {@code captured} accepts in
     * {@link SnapshotTables#inCaptureOrder}, creates the slot with an exported snapshot (temporary for
     * {@code temporary}), and starts reading. A permanent slot's export is released once the readers have imported
     * it; a temporary slot lives as long as its connection, until {@link #close()}.
     *
     * @param captured          the tables the connector captures, among the publication's
     * @param captureOrder      the table include list, whose order the tables are read in
     * @param snapshotSettings  how the tables are read
     * @param slotCreationTimeout how long slot creation may wait for the transactions open at that moment
     * @throws SnapshotException as {@link SnapshotReader#start} does
     * @throws SQLException      when the slot, the publication or the tables cannot be set up
     */
    public static InitialSnapshot start(ReplicationSettings settings, SnapshotPlan plan, boolean temporary,
                                        Predicate<TableName> captured, List<Pattern> captureOrder,
                                        SnapshotSettings snapshotSettings, Duration slotCreationTimeout) throws SQLException {
        List<TableName> tables;
        try (Connection sql = PgConnections.openSql(settings)) {
            if (plan.dropExistingSlot()) {
                SlotManager.drop(sql, settings.slotName());
                log.info("Dropped replication slot {}: {}", settings.slotName(), plan.reason());
            }
            if (!PublicationManager.exists(sql, settings.publicationName()) && settings.publicationMode() != PublicationMode.DISABLED) {
                PublicationManager.create(sql, settings.publicationName(), settings.publicationMode(), settings.publicationTables());
                log.info("Created publication {} for the snapshot", settings.publicationName());
            }
            tables = SnapshotTables.inCaptureOrder(SnapshotTables.published(sql, settings.publicationName()).stream()
                    .filter(captured).toList(), captureOrder);
        }
        ExportedSnapshot exported = ExportedSnapshot.create(settings, temporary, slotCreationTimeout);
        SnapshotReader reader = null;
        try {
            reader = SnapshotReader.start(() -> PgConnections.openSql(settings), exported.snapshotName(), tables, settings.user(),
                    snapshotSettings);
        } finally {
            if (!temporary || reader == null) {
                // The export is imported (or failed): a permanent slot stays, its walsender has nothing more to do. A
                // temporary slot of a snapshot that could not start goes with its connection: it was made for it.
                exported.close();
            }
        }
        return new InitialSnapshot(reader, exported.consistentPoint(), temporary ? exported : null);
    }

    /** The rows: {@link SnapshotReader#next} until {@link SnapshotReader#finished}. */
    public SnapshotReader reader() {
        return reader;
    }

    /** The slot's consistent point: streaming starts here, and every change committed after it arrives there. */
    public Lsn consistentPoint() {
        return consistentPoint;
    }

    /** Stops the readers and, for a temporary slot, closes the connection that holds it (which drops the slot). */
    @Override
    public void close() {
        reader.close();
        if (temporarySlot != null) {
            temporarySlot.close();
        }
    }
}
