package io.github.pgoutput.connect;

import io.github.pgoutput.connect.config.PgOutputSourceConnectorConfig;
import io.github.pgoutput.connect.metrics.StreamingMetrics;
import io.github.pgoutput.connect.offsets.AcknowledgementTracker;
import io.github.pgoutput.pgoutput.Lsn;
import io.github.pgoutput.replication.ReplicationSettings;
import io.github.pgoutput.replication.ReplicationStream;
import io.github.pgoutput.replication.TypeCatalog;
import io.github.pgoutput.snapshot.SnapshotPlan;
import io.github.pgoutput.snapshot.StoredOffset;
import io.github.pgoutput.snapshot.incremental.IncrementalSnapshot;
import io.github.pgoutput.spill.TransactionSpill;
import java.sql.SQLException;
import java.util.Map;

/**
 * Everything the task reaches outside its own logic: the database (start-up decision, snapshot, replication stream,
 * catalog, metrics probe), the spill and the clock. The task gets a {@link Factory} through its constructor, so a
 * test drives every phase and every fault of the task against scripted parts (the deterministic simulation), and
 * production uses {@link PostgresPipeline}.
 *
 * <p>Used from the task's poll thread only, except {@link ReplicationStream}'s own thread-safe methods.
 */
public interface TaskPipeline extends AutoCloseable {

    /** Builds the pipeline of one task from its configuration. */
    @FunctionalInterface
    interface Factory {
        TaskPipeline create(PgOutputSourceConnectorConfig config);
    }

    /**
     * The start-up decision of {@code snapshot.mode}.
     *
     * @param stored the stored source offset, or null when none is stored
     */
    SnapshotPlan plan(Map<String, Object> stored) throws SQLException;

    /**
     * The start-up decision when the offset to go on from is Debezium's, after an in-place switch of
     * {@code connector.class} ({@link SnapshotPhase#plan(PgOutputSourceConnectorConfig, ReplicationSettings, StoredOffset)}).
     * The scripted pipelines of the simulation never find one.
     */
    default SnapshotPlan planFromDebezium(StoredOffset.Debezium offset) throws SQLException {
        throw new IllegalStateException("this pipeline does not continue from Debezium's offsets, yet one was found: " + offset);
    }

    /** {@code no_data} with an invalidated slot: drops it, so that the stream creates a new one. */
    void dropLostSlot() throws SQLException;

    /**
     * Creates the slot with an exported snapshot (temporary for {@code initial_only}) and starts reading it.
     *
     * @param takenAgain true when an offset is stored: the snapshot then begins with a truncate record per table
     */
    SnapshotPhase startSnapshot(SnapshotPlan plan, boolean temporary, boolean takenAgain, AcknowledgementTracker tracker,
                                Map<String, ?> partition)
            throws SQLException;

    /**
     * What streaming needs after a resumed exactly-once snapshot ({@link SnapshotPhase#resumedFilter}). The scripted
     * pipelines of the simulation take no resumable snapshot, so they never get here.
     */
    default ResumedSnapshotFilter resumedFilter(io.github.pgoutput.connect.offsets.SourceOffsets.Resumed resumed) throws SQLException {
        throw new IllegalStateException("this pipeline takes no resumable snapshot, yet an offset names its resumptions: " + resumed);
    }

    /**
     * The database side of incremental snapshots: the captured tables and their chunks. The scripted pipelines of the
     * simulation configure no signal channel, so they never get here.
     */
    default IncrementalSnapshot.Chunks incrementalChunks() {
        throw new IllegalStateException("this pipeline takes no incremental snapshot");
    }

    /**
     * The reselect of unchanged TOAST values ({@code unchanged.toast.resolution}), or null where the pipeline has none
     * (the scripted pipelines of the simulation: their values are then resolved from the store only).
     */
    default io.github.pgoutput.toast.CurrentRows currentRows() {
        return null;
    }

    /** The spill for streamed transactions; opened once per task and kept across sessions. */
    TransactionSpill openSpill();

    /**
     * Starts replication.
     *
     * @param resumeFrom the end LSN of the last unit stored durably, or {@link Lsn#INVALID}
     */
    ReplicationStream openStream(Lsn resumeFrom);

    /** The catalog the record builder reads user-defined types from. */
    TypeCatalog typeCatalog();

    /** Refreshes the slot's retained-WAL figure in {@code metrics} when it is due; never throws. */
    void refreshRetainedWal(StreamingMetrics metrics);

    TaskClock clock();

    /** Releases what the pipeline holds itself (the metrics connection); never throws. */
    @Override
    void close();
}
