package io.github.pgoutput.snapshot;

import io.github.pgoutput.pgoutput.Lsn;
import io.github.pgoutput.pgoutput.RelationColumn;
import io.github.pgoutput.replication.TableName;
import io.github.pgoutput.snapshot.ResumableProgress.Resume;
import io.github.pgoutput.snapshot.SnapshotException.Reason;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Which streamed changes a resumed snapshot already contains. A resumed snapshot reads the rows it had not reached
 * from a new exported snapshot, taken at a later consistent point; streaming still starts at the slot's first
 * consistent point, so the changes committed in between arrive too. For a row read in a resumed part such a change is
 * already in the row as read: delivering it again would replay an older state after a newer one (or an insert of a row
 * already read). For the rows read before the crash it is a change they lack, and must be delivered.
 *
 * <p>So a change is skipped exactly when its row lies, in the snapshot's order ({@link ResumableProgress}), in a part
 * read as of a consistent point after the change's commit. Rows are placed by table index first and, within the table a
 * resumption began in, by comparing keys in PostgreSQL ({@link TableKey#comparison()}) with the bounds of the key
 * ranges that were still to read, so that the order is the key's btree order with its collation, the order the
 * snapshot read in. In a table without a unique key, read in the order of its rows' hashes ({@link RowHashOrder}), the
 * row's hash is computed in PostgreSQL from the change's values, the way the snapshot hashed the table's rows, and
 * compared with the bounds (hex text, in byte order); a change whose columns are not the ones the snapshot hashed
 * (another {@link RowHashOrder#fingerprint}) cannot be placed. Only changes committed before the last
 * resumption's point need a comparison; the caller drops this object once the stream has passed {@link #until()}.
 *
 * <p>Not thread-safe: the task's poll thread.
 */
public final class ResumedRows implements RowPlacement {

    private final ConnectionSource connections;
    private final String publication;
    private final Map<TableName, Integer> indexes = new HashMap<>();
    private final List<Resume> resumes;
    private final Lsn until;
    private final Map<TableName, TableKey> keys = new HashMap<>();
    private final Map<TableName, PreparedStatement> comparisons = new HashMap<>();
    /** Per table, the statement hashing a row of the columns whose fingerprint it is keyed by. */
    private final Map<TableName, Map<String, Hashing>> hashings = new HashMap<>();
    private Connection sql;

    /** A row-hash order and its prepared hash statement. */
    private record Hashing(RowHashOrder order, PreparedStatement statement) {
    }

    /**
     * @param tables      the snapshot's table list, in reading order (its fingerprint was checked by the caller)
     * @param publication for the tables' published columns
     * @param resumes     the resumptions so far, in order; not empty
     */
    public ResumedRows(ConnectionSource connections, List<TableName> tables, String publication, List<Resume> resumes) {
        this.connections = Objects.requireNonNull(connections, "connections");
        this.publication = publication;
        for (int i = 0; i < tables.size(); i++) {
            indexes.put(tables.get(i), i);
        }
        this.resumes = List.copyOf(resumes);
        if (this.resumes.isEmpty()) {
            throw new IllegalArgumentException("no resumption");
        }
        this.until = this.resumes.get(this.resumes.size() - 1).readAt();
    }

    /** The last resumption's consistent point: no change committed at or after it is ever skipped. */
    public Lsn until() {
        return until;
    }

    /**
     * {@inheritDoc} A change whose key (or, in a table read in row-hash order, whose any column) is not known
     * completely is never skipped.
     *
     * @throws SnapshotException {@link Reason#READ_FAILED} when the comparison cannot be made
     */
    @Override
    public boolean contains(Lsn commitLsn, TableName table, ChangedRow row) {
        Integer index = indexes.get(table);
        if (index == null || !commitLsn.isBefore(until)) {
            return false;
        }
        try {
            List<String> key = null;
            for (int i = resumes.size() - 1; i >= 0; i--) {
                Resume r = resumes.get(i);
                boolean after;
                if (index != r.after().table() || r.after().atTableStart()) {
                    after = index >= r.after().table();
                } else if (r.after().rowOrder() != null) {
                    String hash = hashOf(table, row, r.after().rowOrder());
                    if (hash == null) {
                        return false;
                    }
                    after = r.after().rest().stream().anyMatch(range -> RowHashOrder.inRange(hash, range));
                } else {
                    if (key == null) {
                        key = keyOf(table, row);
                        if (key == null) {
                            return false;
                        }
                    }
                    after = inRanges(table, key, r.after().rest());
                }
                if (after) {
                    return commitLsn.isBefore(r.readAt());
                }
            }
            return false; // read before the first crash, as of the slot's own consistent point
        } catch (SQLException e) {
            throw new SnapshotException(Reason.READ_FAILED, "placing a change of table " + table + " against the resumed snapshot failed: "
                    + e.getMessage() + " [SQLState " + e.getSQLState() + "]", e);
        }
    }

    @Override
    public boolean truncateConflicts(Lsn commitLsn, TableName table) {
        Integer index = indexes.get(table);
        if (index == null || !commitLsn.isBefore(until)) {
            return false;
        }
        for (Resume r : resumes) {
            if (r.after().table() <= index && commitLsn.isBefore(r.readAt())) {
                return true;
            }
        }
        return false;
    }

    private List<String> keyOf(TableName table, ChangedRow row) throws SQLException {
        TableKey key = key(table);
        List<String> values = new ArrayList<>();
        for (TableKey.Column c : key.columns()) {
            String v = row.texts().get(c.name());
            if (v == null) {
                return null;
            }
            values.add(v);
        }
        return values;
    }

    /**
     * The hash of {@code row} as a snapshot in row-hash order {@code rowOrder} hashed it, or null when the change's
     * columns are not those (the table's columns changed since) or it lacks a value.
     */
    private String hashOf(TableName table, ChangedRow row, String rowOrder) throws SQLException {
        if (!RowHashOrder.fingerprint(row.columns()).equals(rowOrder)) {
            return null;
        }
        for (RelationColumn c : row.columns()) {
            if (!row.carries(c.name())) {
                return null;
            }
        }
        Map<String, Hashing> byOrder = hashings.computeIfAbsent(table, t -> new HashMap<>());
        Hashing hashing = byOrder.get(rowOrder);
        if (hashing == null) {
            RowHashOrder order = RowHashOrder.of(connection(), table, row.columns());
            hashing = new Hashing(order, connection().prepareStatement(order.streamHashQuery()));
            byOrder.put(rowOrder, hashing);
        }
        PreparedStatement st = hashing.statement();
        List<String> names = hashing.order().columnNames();
        for (int i = 0; i < names.size(); i++) {
            String text = row.texts().get(names.get(i));
            if (text == null) {
                st.setNull(i + 1, Types.VARCHAR);
            } else {
                st.setString(i + 1, text);
            }
        }
        try (ResultSet rs = st.executeQuery()) {
            rs.next();
            return rs.getString(1);
        }
    }

    /** Whether {@code key} lies in one of {@code ranges}: after a range's lower bound and at most its upper bound. */
    private boolean inRanges(TableName table, List<String> key, List<ResumableProgress.KeyRange> ranges) throws SQLException {
        for (ResumableProgress.KeyRange range : ranges) {
            if ((range.after().isEmpty() || greater(table, key, range.after()))
                    && (range.upTo().isEmpty() || !greater(table, key, range.upTo()))) {
                return true;
            }
        }
        return false;
    }

    private boolean greater(TableName table, List<String> a, List<String> b) throws SQLException {
        PreparedStatement st = comparisons.get(table);
        if (st == null) {
            st = connection().prepareStatement(key(table).comparison());
            comparisons.put(table, st);
        }
        for (int i = 0; i < a.size(); i++) {
            st.setString(i + 1, a.get(i));
            st.setString(a.size() + i + 1, b.get(i));
        }
        try (ResultSet rs = st.executeQuery()) {
            rs.next();
            return rs.getBoolean(1);
        }
    }

    private TableKey key(TableName table) throws SQLException {
        TableKey key = keys.get(table);
        if (key == null) {
            key = TableKey.of(connection(), SnapshotTables.describe(connection(), table, publication),
                    TableKey.Reader.RESUMABLE_SNAPSHOT);
            keys.put(table, key);
        }
        return key;
    }

    private Connection connection() throws SQLException {
        if (sql == null) {
            sql = connections.open();
        }
        return sql;
    }

    @Override
    public void close() {
        if (sql != null) {
            try {
                sql.close();
            } catch (SQLException e) {
                // Nothing held but a session.
            }
            sql = null;
            comparisons.clear();
            hashings.clear();
        }
    }
}
