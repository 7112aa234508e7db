package io.github.pgoutput.snapshot;

import io.github.pgoutput.replication.PgConnections;
import io.github.pgoutput.replication.ReplicationSettings;
import io.github.pgoutput.replication.SqlStates;
import io.github.pgoutput.replication.TableName;
import io.github.pgoutput.snapshot.SnapshotException.Reason;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyOut;

/**
 * Reads the chunks of an incremental snapshot: each chunk is the next {@code size} rows of one table in the order of
 * its {@link TableKey}, after the last key read, in one short {@code REPEATABLE READ READ ONLY} transaction that also
 * reports which transactions its snapshot sees ({@link TransactionSnapshot}). Nothing is written to the database and
 * no lock is held between chunks (within one, ACCESS SHARE on its table), so a role with SELECT on the tables is
 * enough. One connection, kept open between
 * chunks. Not thread-safe: the task's poll thread.
 */
public final class ChunkReader implements AutoCloseable {

    /**
     * One chunk: at most the requested number of rows, in key order.
     *
     * @param rows       the rows, each marked {@link SnapshotRow.Marker#INCREMENTAL}
     * @param visibility which transactions the chunk's snapshot sees
     * @param lastOfTable true when the table has no rows after these
     */
    public record Chunk(SnapshotTable table, TableKey key, List<SnapshotRow> rows, TransactionSnapshot visibility, boolean lastOfTable) {
        public Chunk {
            rows = List.copyOf(rows);
        }
    }

    /**
     * The versions (xmin) of the catalog rows a chunk's description depends on: the table's pg_class row (replica
     * identity, kind), its columns (name, type, position), the indexes of its key and its row in the publication.
     */
    private static final String VERSION_QUERY = "SELECT c.xmin::text"
            + " || ':' || coalesce((SELECT string_agg(a.attnum || ' ' || a.attname || ' ' || a.atttypid || ' ' || a.atttypmod"
            + "   || ' ' || a.xmin::text, ',' ORDER BY a.attnum) FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attnum > 0"
            + "   AND NOT a.attisdropped), '')"
            + " || ':' || coalesce((SELECT string_agg(i.indexrelid || ' ' || i.xmin::text, ',' ORDER BY i.indexrelid) FROM pg_index i"
            + "   WHERE i.indrelid = c.oid AND (i.indisprimary OR i.indisreplident)), '')"
            + " || ':' || coalesce((SELECT string_agg(pr.xmin::text, ',') FROM pg_publication_rel pr JOIN pg_publication p"
            + "   ON p.oid = pr.prpubid WHERE p.pubname = ? AND pr.prrelid = c.oid), '')"
            + " FROM pg_class c WHERE c.oid = ?::regclass";

    private final ReplicationSettings settings;
    private final CopyText parser = new CopyText();
    private Connection connection;
    /** The description of the table last read, and the version of its catalog rows it was made from. */
    private TableName cachedName;
    private String cachedVersion;
    private SnapshotTable cachedTable;
    private TableKey cachedKey;

    public ChunkReader(ReplicationSettings settings) {
        this.settings = Objects.requireNonNull(settings, "settings");
    }

    /**
     * The captured tables of the publication that {@code captured} accepts, in the order of {@code captureOrder}: the
     * tables an {@code execute-snapshot} signal may name.
     */
    public List<TableName> capturedTables(Predicate<TableName> captured, List<Pattern> captureOrder) throws SQLException {
        return InitialSnapshot.capturedTables(connection(), settings, captured, captureOrder);
    }

    /**
     * Reads the rows of {@code table} after the key {@code after} (all rows from the first when empty), at most
     * {@code size}, that also meet {@code condition} (an SQL condition, or null).
     *
     * @throws SnapshotException {@link Reason#PRIVILEGE} when the role may not SELECT from the table,
     *                           {@link Reason#NOT_RESUMABLE} when the table has no unique key to read it in chunks by,
     *                           {@link Reason#READ_FAILED} for a row that cannot be parsed
     */
    public Chunk read(TableName table, List<String> after, int size, String condition) throws SQLException {
        boolean cached = table.equals(cachedName);
        try {
            return readOnce(table, after, size, condition);
        } catch (SQLException e) {
            if (cached && SqlStates.isSyntaxOrAccessRule(e.getSQLState())) {
                // A column renamed or dropped since the description was cached: describe the table afresh, once.
                cachedName = null;
                return readOnce(table, after, size, condition);
            }
            throw e;
        }
    }

    private Chunk readOnce(TableName table, List<String> after, int size, String condition) throws SQLException {
        Connection c = connection();
        try (Statement st = c.createStatement()) {
            st.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
            // The bound of the next chunk is written as literals: a backslash in a key stays a backslash.
            st.execute("SET LOCAL standard_conforming_strings = on");
            // Before the snapshot is taken (by the first query below): no ALTER TABLE can come between the catalog
            // rows read in this snapshot and the COPY, which uses the catalog as it is when it runs. ACCESS SHARE is
            // what the COPY takes anyway; the transaction is short, so an ALTER waits for one chunk at most.
            st.execute("LOCK TABLE " + table.quoted() + " IN ACCESS SHARE MODE");
            TransactionSnapshot visibility;
            // The first query takes the transaction's snapshot: the chunk's rows are as of exactly this one.
            try (ResultSet rs = st.executeQuery("SELECT pg_current_snapshot()::text")) {
                rs.next();
                visibility = TransactionSnapshot.parse(rs.getString(1));
            }
            describe(c, table);
            SnapshotTable described = cachedTable;
            TableKey key = cachedKey;
            List<SnapshotRow> rows = new ArrayList<>(Math.min(size, 4096));
            CopyOut copy = c.unwrap(PGConnection.class).getCopyAPI().copyOut(key.orderedCopy(described, after, condition, size));
            try {
                byte[] line;
                while ((line = copy.readFromCopy()) != null) {
                    try {
                        rows.add(new SnapshotRow(described, parser.parse(line, described.columns().size()), false, false,
                                SnapshotRow.Marker.INCREMENTAL));
                    } catch (IllegalArgumentException e) {
                        throw new SnapshotException(Reason.READ_FAILED, "incremental snapshot of table " + table + ": " + e.getMessage(), e);
                    }
                }
            } finally {
                if (copy.isActive()) {
                    copy.cancelCopy();
                }
            }
            st.execute("COMMIT");
            return new Chunk(described, key, rows, visibility, rows.size() < size);
        } catch (SQLException | RuntimeException e) {
            close();
            throw e;
        }
    }

    /**
     * Describes {@code table} (columns as published, row filter, key) into the cache, unless the cached description is
     * of the same catalog state: one query compares the versions of the table's catalog rows (pg_class, its columns,
     * its key's index, its publication row), so a chunk costs one catalog query, and a table whose columns, key or
     * publication entry changed between chunks is described again. An unchanged description keeps its instance, so
     * the records of its rows keep one schema.
     */
    private void describe(Connection c, TableName table) throws SQLException {
        String version;
        try (PreparedStatement st = c.prepareStatement(VERSION_QUERY)) {
            st.setString(1, settings.publicationName() == null ? "" : settings.publicationName());
            st.setString(2, table.quoted());
            try (ResultSet rs = st.executeQuery()) {
                rs.next();
                version = rs.getString(1);
            }
        }
        if (table.equals(cachedName) && version.equals(cachedVersion)) {
            return;
        }
        SnapshotTables.requireSelectPrivilege(c, List.of(table), settings.user());
        SnapshotTable described = SnapshotTables.describe(c, table, settings.publicationName());
        TableKey key = TableKey.of(c, described, TableKey.Reader.INCREMENTAL_SNAPSHOT);
        if (described.equals(cachedTable)) {
            described = cachedTable;
        }
        cachedName = table;
        cachedVersion = version;
        cachedTable = described;
        cachedKey = key;
    }

    private Connection connection() throws SQLException {
        if (connection == null || connection.isClosed()) {
            connection = PgConnections.openSql(settings);
        }
        return connection;
    }

    @Override
    public void close() {
        Connection c = connection;
        connection = null;
        if (c != null) {
            try {
                c.close();
            } catch (SQLException e) {
                // The chunk's transaction was read-only; nothing is lost with the connection.
            }
        }
    }
}
