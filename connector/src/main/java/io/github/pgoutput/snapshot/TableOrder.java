package io.github.pgoutput.snapshot;

import io.github.pgoutput.replication.TableName;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Objects;

/**
 * The order a resumable snapshot reads one table in, so that a position in it (after the last key read from each key
 * range) names the same rows in any later exported snapshot, and a streamed change can be placed before or after it:
 * the table's unique key ({@link TableKey}), or, for a table without one, a hash of each row ({@link RowHashOrder}).
 * Rows with equal keys form a group: under a unique key every group is one row; under row hashes a group is the
 * table's identical rows, which a resumed read cannot tell apart, so a group is handed out and committed whole.
 * Immutable.
 */
public sealed interface TableOrder permits TableKey, RowHashOrder {

    /**
     * The order of {@code table} in a resumable snapshot: its primary key (also under REPLICA IDENTITY FULL or NOTHING)
     * or replica identity index, when the publication publishes its columns; otherwise the hash of its published
     * columns.
     */
    static TableOrder of(Connection sql, SnapshotTable table) throws SQLException {
        TableKey key = TableKey.unique(sql, table, true);
        return key != null ? key : RowHashOrder.of(sql, table.name(), table.columns());
    }

    /**
     * The COPY reading the rows of {@code range} in this order: each line the table's published columns, then
     * {@link #extraColumns()} more values that {@link #takeKey} takes.
     */
    String orderedCopy(SnapshotTable table, ResumableProgress.KeyRange range);

    /**
     * The COPY of the distinct keys of a sample of about {@code percent} % of the table's blocks, in this order: where
     * to split the table into {@link KeyRanges} of similar size.
     */
    String sampledKeysCopy(SnapshotTable table, double percent);

    /** How many values a key has: a line of {@link #sampledKeysCopy}. */
    int keyWidth();

    /** How many values an {@link #orderedCopy} line has after the table's columns. */
    int extraColumns();

    /**
     * The key of a row read by {@link #orderedCopy}, taken from its line's values: {@code copied} holds the columns and
     * the {@link #extraColumns()} values, and afterwards the columns only.
     */
    List<String> takeKey(List<String> copied);

    /** {@link ResumableProgress.Position#rowOrder()} inside this table: null for a unique key. */
    String rowOrder();

    /**
     * A position inside {@code table} names its rows by keys of the order they were read in; a resumption must read in
     * the same one, or the keys would mean other rows.
     *
     * @throws SnapshotException {@link SnapshotException.Reason#NOT_RESUMABLE} when {@code now} is another order than
     *                           the one {@code from} was read in
     */
    static void requireSame(TableName table, ResumableProgress.Position from, TableOrder now) {
        String was = from.rowOrder();
        if (Objects.equals(was, now.rowOrder())) {
            return;
        }
        String described = was == null ? "in the order of its unique key" : "in the order of its rows' hashes (" + was + ")";
        String current = now.rowOrder() == null ? "has a unique key now"
                : "is now read in the order of its rows' hashes (" + now.rowOrder() + ")";
        throw new SnapshotException(SnapshotException.Reason.NOT_RESUMABLE, "the interrupted snapshot was reading table " + table
                + " " + described + ", but the table " + current + ": a key was added or dropped, or the columns of a table"
                + " without a unique key changed (the hash covers every published column: names, types and modifiers), while"
                + " the snapshot was interrupted, so the stored position does not name the same rows any more. Restore the table"
                + " as it was, or take the snapshot again: reset the connector's offsets (DELETE /connectors/<name>/offsets while"
                + " it is stopped) and drop its slot");
    }
}
