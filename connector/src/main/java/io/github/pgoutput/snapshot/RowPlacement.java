package io.github.pgoutput.snapshot;

import io.github.pgoutput.pgoutput.Lsn;
import io.github.pgoutput.replication.TableName;

/**
 * Where the rows of a resumed snapshot were read, as streaming needs it: a change committed before the point a row was
 * read at is in that row as read already. {@link ResumedRows} places rows in PostgreSQL's key order; tests place them
 * by a rule of their own. Implementations need not be thread-safe (the task's poll thread).
 */
public interface RowPlacement extends AutoCloseable {

    /**
     * Whether the change to {@code row} of {@code table}, committed at {@code commitLsn}, is already in the row as the
     * snapshot read it. False when the row cannot be placed (a value it needs is missing), so that the change is
     * delivered rather than lost.
     */
    boolean contains(Lsn commitLsn, TableName table, ChangedRow row);

    /**
     * Whether a part of {@code table} was read as of a consistent point after {@code commitLsn}: a TRUNCATE committed
     * then is in those rows and not in the rows read before, and cannot be delivered for one part only.
     */
    boolean truncateConflicts(Lsn commitLsn, TableName table);

    /** Releases what the placement holds (a connection); it is not used afterwards. */
    @Override
    void close();
}
