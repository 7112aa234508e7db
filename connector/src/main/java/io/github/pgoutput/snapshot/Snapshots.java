package io.github.pgoutput.snapshot;

import io.github.pgoutput.replication.ReplicationSettings;
import io.github.pgoutput.replication.TableName;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.function.LongSupplier;
import java.util.function.Predicate;
import java.util.regex.Pattern;

/**
 * The one door to snapshots of every kind: the start-up decision of {@code snapshot.mode} ({@link #plan}), the initial
 * snapshot, resumable or not ({@link #initial}), the changes a resumed snapshot already holds ({@link #resumedChanges}),
 * and incremental snapshots with their signals and newly captured tables ({@link #incremental}). It takes and returns
 * plain values: no Kafka, no configuration class. {@link #of} reaches a live server; the task's deterministic
 * simulation supplies its own.
 */
public interface Snapshots {

    /**
     * What a connector captures and how it snapshots, as plain values.
     *
     * @param replication         the server, slot and publication
     * @param mode                {@code snapshot.mode}
     * @param resumable           an exactly-once snapshot: read in key order, so that it can be resumed
     * @param captured            the tables the connector captures, among the publication's
     * @param captureOrder        the table include list, whose order tables are read in
     * @param reading             how the tables are read
     * @param slotCreationTimeout how long slot creation may wait for the transactions open at that moment
     */
    record Scope(ReplicationSettings replication, SnapshotMode mode, boolean resumable, Predicate<TableName> captured,
                 List<Pattern> captureOrder, SnapshotSettings reading, Duration slotCreationTimeout) {
        public Scope {
            Objects.requireNonNull(replication, "replication");
            Objects.requireNonNull(mode, "mode");
            Objects.requireNonNull(captured, "captured");
            captureOrder = List.copyOf(captureOrder);
            Objects.requireNonNull(reading, "reading");
            Objects.requireNonNull(slotCreationTimeout, "slotCreationTimeout");
        }
    }

    /** Snapshots of {@code scope} on its server. */
    static Snapshots of(Scope scope) {
        return new PostgresSnapshots(scope);
    }

    /**
     * What to do at start-up, from {@code snapshot.mode}, the stored offset (this connector's or Debezium's) and the
     * slot.
     *
     * @throws SnapshotException {@code MODE_CONFLICT} naming the mode to choose, {@code SLOT_NOT_OWNED} when a snapshot
     *                           would have to drop a slot not shown to be the connector's own, {@code SLOT_ACTIVE} while
     *                           a walsender still holds the connector's own slot
     */
    SnapshotPlan plan(StoredOffset stored) throws SQLException;

    /**
     * Takes the initial snapshot {@code plan} asks for and starts reading it.
     *
     * @param temporary  a temporary slot ({@code initial_only}), gone when the run is closed
     * @param takenAgain the connector has a stored offset, so a consumer may hold rows of before: a snapshot that is not
     *                   a resumption then begins with a truncate per table
     */
    InitialSnapshotRun initial(SnapshotPlan plan, boolean temporary, boolean takenAgain) throws SQLException;

    /**
     * After a resumed exactly-once snapshot: which streamed changes its rows already hold.
     *
     * @param fingerprint the snapshot's table list as stored ({@link ResumableProgress#fingerprint})
     * @param resumes     its resumptions, in order; streaming skips until the last one's point
     * @throws SnapshotException {@code NOT_RESUMABLE} when the table list is no longer the snapshot's
     */
    ResumedSnapshotChanges resumedChanges(String fingerprint, List<ResumableProgress.Resume> resumes) throws SQLException;

    /** The database side of incremental snapshots: the captured tables and chunks of them. */
    IncrementalSnapshot.Chunks incrementalChunks();

    /**
     * Incremental snapshots while streaming, going on from where the stored offset left them.
     *
     * @param stored       where a snapshot under way stood ({@link IncrementalSnapshot#encoded}), or null
     * @param marks        how far the signals were read
     * @param knownTables  the captured tables as last listed, or null
     * @throws IllegalArgumentException when {@code stored} is not readable
     */
    default IncrementalSnapshot incremental(IncrementalSnapshot.Settings settings, IncrementalSnapshot.Progress progress,
                                            LongSupplier nanos, String stored, IncrementalSnapshot.Marks marks, String knownTables) {
        return new IncrementalSnapshot(incrementalChunks(), settings, progress, nanos, stored, marks, knownTables);
    }
}
