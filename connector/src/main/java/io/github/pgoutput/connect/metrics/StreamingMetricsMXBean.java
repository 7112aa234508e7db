package io.github.pgoutput.connect.metrics;


/**
 * The streaming metrics of one task, registered as
 * {@code io.github.pgoutput:type=streaming,connector=<connector name>,task=<task number>} while the task runs.
 * LSNs are in PostgreSQL's text form ({@code 16/B374D848}), empty before the first value is known; counts are since
 * the task started. Every getter is safe to call from any thread.
 */
public interface StreamingMetricsMXBean {

    /** Now minus the commit (or prepare / rollback) time of the last delivery emitted completely; -1 before the first. */
    long getMillisBehindSource();

    /** The highest LSN received from the server (data or keepalive). */
    String getReceivedLsn();

    /** The LSN last declared durable to the server (the slot may release WAL before it). */
    String getFlushedLsn();

    /** The server's WAL end as reported by its latest keepalive. */
    String getServerWalEndLsn();

    /** Bytes of WAL the slot retains ({@code pg_current_wal_lsn() - restart_lsn}), asked every 10 s; -1 until known. */
    long getRetainedWalBytes();

    /** Streamed transactions (protocol 2+) begun but not yet committed, aborted or prepared. */
    int getOpenStreamedTransactions();

    /** Bytes of spilled transaction data held by the spill backend right now. */
    long getSpillBytes();

    /** Deliveries emitted completely with outcome COMMITTED (one-phase, and COMMIT PREPARED). */
    long getCommittedDeliveries();

    /** Deliveries emitted completely with outcome PREPARED. */
    long getPreparedDeliveries();

    /** Deliveries emitted completely with outcome ROLLED_BACK (ROLLBACK PREPARED). */
    long getRolledBackDeliveries();

    /** Records handed to Connect (change, tombstone, transaction topic and heartbeat records). */
    long getRecordsEmitted();

    /** Records handed to Connect per second, over the time since the previous read of this value (at least 1 s). */
    double getRecordsPerSecond();

    /** How many more records may be emitted before {@code max.queue.size} unacknowledged records stop polling. */
    int getQueueRemainingCapacity();

    /** Whether the slot was a failover slot (PostgreSQL 17+) when streaming last started; false before that. */
    boolean getFailoverSlot();

    /** The server's {@code synchronized_standby_slots} when streaming last started; empty when unset, below 17 or unknown. */
    String getSynchronizedStandbySlots();

    /** Physical standbys streaming from the server when streaming last started ({@code pg_stat_replication}); -1 until known. */
    int getPhysicalStandbys();

    /** Unchanged TOAST values the store put in ({@code unchanged.toast.resolution=store}); 0 when not resolving. */
    long getToastStoreHits();

    /** Unchanged TOAST values a reselect proved. */
    long getToastReselectHits();

    /** Unchanged TOAST values left as the placeholder (their records carry the {@code pg.toast.unresolved} header). */
    long getToastUnresolved();

    /** Reselect queries sent to the source (one per table and batch). */
    long getToastReselectQueries();

    /** Rows those queries read. */
    long getToastReselectRows();
}
