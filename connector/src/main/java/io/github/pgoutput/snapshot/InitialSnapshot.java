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
import io.github.pgoutput.replication.PreflightChecks;
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
    /** For a resumable snapshot: its whole table list, its fingerprint and its resumptions; null otherwise. */
    private final Resumable resumable;

    /**
     * What a resumable snapshot's records need to say where it stands ({@link ResumableProgress}).
     *
     * @param tables      the snapshot's whole table list, in reading order (the reader reads its tail from the stored position)
     * @param fingerprint {@link ResumableProgress#fingerprint} of {@code tables}
     * @param resumes     the resumptions so far, this one included; empty for a snapshot taken from the start
     */
    public record Resumable(List<TableName> tables, String fingerprint, List<ResumableProgress.Resume> resumes) {
        public Resumable {
            tables = List.copyOf(tables);
            resumes = List.copyOf(resumes);
        }
    }

    private InitialSnapshot(SnapshotReader reader, Lsn consistentPoint, ExportedSnapshot temporarySlot, Resumable resumable) {
        this.reader = reader;
        this.consistentPoint = consistentPoint;
        this.temporarySlot = temporarySlot;
        this.resumable = resumable;
    }

    /**
     * What to do at start-up: reads the slot named {@code settings.slotName()} and asks {@link SnapshotPlanner};
     * {@code resumable} for an exactly-once snapshot.
     *
     * @throws SnapshotException as {@link SnapshotPlanner#decide} does
     * @throws SQLException      when the slot cannot be read
     */
    public static SnapshotPlan plan(ReplicationSettings settings, SnapshotMode mode, StoredOffset offset, boolean resumable) throws SQLException {
        Optional<SlotInfo> found = SlotManager.find(settings);
        if (offset instanceof StoredOffset.Debezium debezium) {
            return DebeziumHandover.decide(mode, debezium, found, settings.slotName(), settings.database());
        }
        SlotState slot = slotState(found, offset);
        return SnapshotPlanner.decide(mode, offset, slot, settings.slotName(), resumable);
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
     * @param resumable         an exactly-once snapshot: the tables are read one after another in key order
     *                          ({@link SnapshotReader#startInKeyOrder}), so that it can be resumed, and a plan with
     *                          {@link SnapshotPlan#resumeFrom()} resumes one: it keeps the slot, takes a new exported
     *                          snapshot from a temporary slot, and reads the rows after the stored position from it
     * @throws SnapshotException as {@link SnapshotReader#start} does, and
     *                           {@link SnapshotException.Reason#NOT_RESUMABLE} (resumable only) when the table list is
     *                           not the one the interrupted snapshot read, or a table has no unique key
     * @throws SQLException      when the slot, the publication or the tables cannot be set up
     */
    public static InitialSnapshot start(ReplicationSettings settings, SnapshotPlan plan, boolean temporary,
                                        Predicate<TableName> captured, List<Pattern> captureOrder,
                                        SnapshotSettings snapshotSettings, Duration slotCreationTimeout, boolean resumable) throws SQLException {
        List<TableName> tables;
        try (Connection sql = PgConnections.openSql(settings)) {
            if (plan.dropExistingSlot()) {
                SlotManager.drop(sql, settings.slotName());
                log.info("Dropped replication slot {}: {}", settings.slotName(), plan.reason());
            }
            // The checks validation made, before anything is created: a missing privilege fails the task with the
            // statement that fixes it, as validation said, rather than with the server's bare refusal halfway through.
            PreflightChecks.requireNoFatal(PreflightChecks.check(sql, settings));
            if (!PublicationManager.exists(sql, settings.publicationName()) && settings.publicationMode() != PublicationMode.DISABLED) {
                PublicationManager.create(sql, settings.publicationName(), settings.publicationMode(), settings.publicationTables(),
                        settings.publicationColumns());
                log.info("Created publication {} for the snapshot", settings.publicationName());
            }
            tables = capturedTables(sql, settings, captured, captureOrder);
        }
        if (resumable) {
            return startResumable(settings, plan, temporary, resumableTables(tables, snapshotSettings), snapshotSettings,
                    slotCreationTimeout);
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
        return new InitialSnapshot(reader, exported.consistentPoint(), temporary ? exported : null, null);
    }

    private static InitialSnapshot startResumable(ReplicationSettings settings, SnapshotPlan plan, boolean temporary, List<TableName> tables,
                                                  SnapshotSettings snapshotSettings, Duration slotCreationTimeout) throws SQLException {
        String fingerprint = ResumableProgress.fingerprint(tables);
        StoredOffset.SnapshotInProgress resumeFrom = plan.resumeFrom();
        if (resumeFrom == null) {
            ExportedSnapshot exported = ExportedSnapshot.create(settings, temporary, slotCreationTimeout);
            SnapshotReader reader = null;
            try {
                reader = SnapshotReader.startInKeyOrder(() -> PgConnections.openSql(settings), exported.snapshotName(), tables,
                        settings.user(), snapshotSettings, ResumableProgress.Position.startOf(0), false);
            } finally {
                if (!temporary || reader == null) {
                    exported.close();
                }
            }
            return new InitialSnapshot(reader, exported.consistentPoint(), temporary ? exported : null,
                    new Resumable(tables, fingerprint, List.of()));
        }
        StoredOffset.Progress progress = resumeFrom.progress();
        if (!progress.tables().equals(fingerprint)) {
            throw new SnapshotException(SnapshotException.Reason.NOT_RESUMABLE, "the interrupted resumable snapshot read another"
                    + " list of tables (fingerprint " + progress.tables() + ") than the publication and the include lists give now ("
                    + fingerprint + ": " + tables + "), so it cannot be resumed where it stopped. Restore the publication's tables and"
                    + " the include lists as they were, or reset the connector's offsets (DELETE /connectors/<name>/offsets while it"
                    + " is stopped) and drop its slot to take the snapshot again from the start");
        }
        ResumableProgress.Position at = progress.at();
        if (at.table() >= tables.size()) {
            throw new SnapshotException(SnapshotException.Reason.NOT_RESUMABLE, "the stored snapshot position names table index "
                    + at.table() + ", but the snapshot has " + tables.size() + " tables");
        }
        // The connector's slot keeps its consistent point (streaming starts there); only the export is new.
        ExportedSnapshot exported = ExportedSnapshot.createForSnapshotOnly(settings, resumeSlotName(settings.slotName()), slotCreationTimeout);
        try {
            SnapshotReader reader = SnapshotReader.startInKeyOrder(() -> PgConnections.openSql(settings), exported.snapshotName(),
                    tables, settings.user(), snapshotSettings, at, true);
            List<ResumableProgress.Resume> resumes = new java.util.ArrayList<>(progress.resumes());
            resumes.add(new ResumableProgress.Resume(at, exported.consistentPoint()));
            log.info("Resuming the snapshot of slot {} (consistent point {}) in table {}, key ranges {} still to read, from a new"
                    + " exported snapshot at {}", settings.slotName(), resumeFrom.slotConsistentPoint(), tables.get(at.table()),
                    ResumableProgress.encode(at), exported.consistentPoint());
            return new InitialSnapshot(reader, resumeFrom.slotConsistentPoint(), null, new Resumable(tables, fingerprint, resumes));
        } finally {
            // Imported by the readers (or failed): the temporary slot has served its purpose.
            exported.close();
        }
    }

    /** The published tables {@code captured} accepts, in {@link SnapshotTables#inCaptureOrder}. */
    static List<TableName> capturedTables(Connection sql, ReplicationSettings settings, Predicate<TableName> captured,
                                                  List<Pattern> captureOrder) throws SQLException {
        return SnapshotTables.inCaptureOrder(SnapshotTables.published(sql, settings.publicationName()).stream()
                .filter(captured).toList(), captureOrder);
    }

    /** A resumable snapshot's table list: the captured tables the snapshot include list selects, in order. */
    private static List<TableName> resumableTables(List<TableName> captured, SnapshotSettings snapshotSettings) {
        return captured.stream().filter(snapshotSettings::includes).distinct().toList();
    }

    /**
     * What streaming after a resumed snapshot needs to skip the changes its resumed rows contain: the snapshot's table
     * list, which must still have the fingerprint {@code fingerprint}, and its resumptions.
     *
     * @throws SnapshotException {@link SnapshotException.Reason#NOT_RESUMABLE} when the table list changed
     */
    public static ResumedRows resumedRows(ReplicationSettings settings, Predicate<TableName> captured, List<Pattern> captureOrder,
                                          SnapshotSettings snapshotSettings, String fingerprint, List<ResumableProgress.Resume> resumes)
            throws SQLException {
        List<TableName> tables;
        try (Connection sql = PgConnections.openSql(settings)) {
            tables = resumableTables(capturedTables(sql, settings, captured, captureOrder), snapshotSettings);
        }
        if (!ResumableProgress.fingerprint(tables).equals(fingerprint)) {
            throw new SnapshotException(SnapshotException.Reason.NOT_RESUMABLE, "the stored offset says streaming must still skip the"
                    + " changes a resumed snapshot contains, but its list of tables (fingerprint " + fingerprint + ") is"
                    + " not the one the publication and the include lists give now (" + ResumableProgress.fingerprint(tables) + ": "
                    + tables + "). Restore the publication's tables and the include lists until the stream has passed "
                    + resumes.get(resumes.size() - 1).readAt());
        }
        return new ResumedRows(() -> PgConnections.openSql(settings), tables, settings.publicationName(), resumes);
    }

    /** The temporary slot a resumed snapshot exports from: the connector's slot name with a suffix, within 63 bytes. */
    static String resumeSlotName(String slotName) {
        String suffix = "_resume";
        return (slotName.length() + suffix.length() > 63 ? slotName.substring(0, 63 - suffix.length()) : slotName) + suffix;
    }

    /** For a resumable snapshot, what its records must say; null otherwise. */
    public Resumable resumable() {
        return resumable;
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
