package io.github.pgoutput.assembly;

/** {@code prepared.transaction.mode}: what to do with transactions that PostgreSQL decodes at PREPARE TRANSACTION. */
public enum PreparedTransactionMode {
    /**
     * Any two-phase message (Begin Prepare, Prepare, Stream Prepare, Commit Prepared, Rollback Prepared) stops the
     * stream with an error. For slots created without {@code two_phase}, where COMMIT PREPARED arrives as an
     * ordinary commit.
     */
    FAIL,
    /** Deliver PREPARED at prepare, then COMMITTED (two-phase) or ROLLED_BACK when the GID is finished. */
    STAGE
}
