package io.github.pgoutput.connect;

import io.github.pgoutput.connect.config.PgOutputSourceConnectorConfig;
import io.github.pgoutput.connect.metrics.StreamingMetrics;
import io.github.pgoutput.pgoutput.Lsn;
import io.github.pgoutput.replication.ReplicationStream;
import io.github.pgoutput.replication.TypeCatalog;
import io.github.pgoutput.snapshot.Snapshots;
import io.github.pgoutput.spill.TransactionSpill;
import java.sql.SQLException;

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
     * Sets the replica identities {@code replica.identity.autoset.values} asks for, before the start-up decision, so
     * that the snapshot or stream decided on already carries the old values asked for. The scripted pipelines of the
     * simulation have none to set.
     */
    default void setReplicaIdentities() throws SQLException {
    }

    /**
     * Snapshots of every kind on this pipeline's database: the start-up decision, the initial snapshot, a resumed
     * snapshot's changes, incremental snapshots. Each call sees the catalog as it is then (the tables of a filtered
     * publication are listed again).
     */
    Snapshots snapshots();

    /** {@code no_data} with an invalidated slot: drops it, so that the stream creates a new one. */
    void dropLostSlot() throws SQLException;

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
