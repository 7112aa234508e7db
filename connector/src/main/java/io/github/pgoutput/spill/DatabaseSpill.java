package io.github.pgoutput.spill;

import io.github.pgoutput.pgoutput.Lsn;
import io.github.pgoutput.pgoutput.Xid;
import java.nio.ByteBuffer;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The {@code database} spill: rows in an UNLOGGED table of the source database (layout in {@link DatabaseSpillTable}),
 * one table per slot in {@code spill.database.schema}, written with binary COPY and read back in append order through
 * a server-side cursor.
 *
 * <p>Appends are encoded into one front batch shared by all open transactions; when it would pass
 * {@code spill.memory.buffer.bytes} it is sent as one COPY. A row larger than the batch is streamed on its own.
 * Discards and reads send the batch first, so SQL always sees every append.
 *
 * <p>Reads are all-or-nothing: {@link #read} opens a REPEATABLE READ transaction on a connection of its own, reads
 * every row of the xid once to check sequence numbers, CRC-32C, count and bytes against what was appended, and only
 * then opens the cursor that delivers — in the same snapshot, so what is delivered is what was verified.
 */
public final class DatabaseSpill implements TransactionSpill {

    private static final String INSUFFICIENT_PRIVILEGE = "42501";
    private static final String LOCK_TIMEOUT = "30s";

    private final DatabaseSpillTable table;
    private final SpillSettings settings;
    private final SourceConnections connections;
    private final Connection writer;
    private final CopyBatch batch;
    private final Map<Xid, Stored> transactions = new HashMap<>();
    private final Set<DatabaseSpillReader> openReaders = new HashSet<>();
    private final SpillQuota quota;

    /** What this spill knows of one transaction's rows. */
    private static final class Stored {
        long rows;
        long bytes;
        SQLException broken;
        final Map<Xid, Mark> firstAppends = new HashMap<>();
    }

    /** Where a subtransaction first appended: the row's sequence number and the bytes before it. */
    private record Mark(long seq, long bytes) {
    }

    private DatabaseSpill(DatabaseSpillTable table, SpillSettings settings, SourceConnections connections, Connection writer) {
        this.table = table;
        this.settings = settings;
        this.connections = connections;
        this.writer = writer;
        this.batch = new CopyBatch(table);
        this.quota = new SpillQuota(settings, "spill table " + table, "");
    }

    /** The factory behind {@code spill.backend=database}. */
    public static TransactionSpillFactory factory() {
        return DatabaseSpill::open;
    }

    /**
     * Opens the spill of {@code context.slotName()}, creating schema and table if they are missing.
     *
     * @throws SpillException when the database cannot be reached or the user may not create what is missing
     */
    public static DatabaseSpill open(SpillContext context) {
        DatabaseSpillTable table = new DatabaseSpillTable(context.settings().databaseSchema(), context.slotName());
        Connection writer;
        try {
            writer = context.connections().open();
        } catch (SQLException e) {
            throw new SpillException("the database spill cannot connect to the source database (" + e.getMessage()
                    + " [SQLState " + e.getSQLState() + "])", e);
        }
        try {
            writer.setAutoCommit(true);
            try (Statement statement = writer.createStatement()) {
                // TRUNCATE in clear() waits for every other session reading the table; fail instead of hanging.
                statement.execute("SET lock_timeout = '" + LOCK_TIMEOUT + "'");
            }
            createIfMissing(writer, table);
            return new DatabaseSpill(table, context.settings(), context.connections(), writer);
        } catch (SQLException | RuntimeException e) {
            closeQuietly(writer, e);
            if (e instanceof SQLException sql) {
                throw new SpillException("cannot prepare spill table " + table + " (" + sql.getMessage() + " [SQLState "
                        + sql.getSQLState() + "])", sql);
            }
            throw (RuntimeException) e;
        }
    }

    private static void createIfMissing(Connection connection, DatabaseSpillTable table) throws SQLException {
        if (!exists(connection, "SELECT 1 FROM pg_namespace WHERE nspname = ?", table.schema)) {
            try (Statement statement = connection.createStatement()) {
                statement.execute("CREATE SCHEMA IF NOT EXISTS " + DatabaseSpillTable.quote(table.schema));
            } catch (SQLException e) {
                if (!INSUFFICIENT_PRIVILEGE.equals(e.getSQLState())) {
                    throw e;
                }
                throw new SpillException("spill.database.schema '" + table.schema + "' does not exist and database user '"
                        + currentUser(connection) + "' lacks the CREATE privilege on the database to create it ("
                        + e.getMessage() + "); create the schema for that user, GRANT CREATE ON DATABASE to it, or set "
                        + "spill.database.schema to a schema where it has the CREATE privilege", e);
            }
        }
        if (!exists(connection, "SELECT 1 WHERE to_regclass(?) IS NOT NULL", table.qualified)) {
            try (Statement statement = connection.createStatement()) {
                statement.execute(table.createTable());
            } catch (SQLException e) {
                if (!INSUFFICIENT_PRIVILEGE.equals(e.getSQLState())) {
                    throw e;
                }
                throw new SpillException("database user '" + currentUser(connection) + "' lacks the CREATE privilege on "
                        + "schema '" + table.schema + "' (spill.database.schema) needed to create spill table " + table
                        + " (" + e.getMessage() + "); GRANT CREATE ON SCHEMA " + DatabaseSpillTable.quote(table.schema)
                        + " to it, or set spill.database.schema to a schema where it has the CREATE privilege", e);
            }
        }
    }

    private static boolean exists(Connection connection, String sql, String parameter) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            statement.setString(1, parameter);
            try (ResultSet rows = statement.executeQuery()) {
                return rows.next();
            }
        }
    }

    private static String currentUser(Connection connection) {
        try (Statement statement = connection.createStatement(); ResultSet rows = statement.executeQuery("SELECT current_user")) {
            rows.next();
            return rows.getString(1);
        } catch (SQLException e) {
            return "(unknown: " + e.getMessage() + ")";
        }
    }

    /** The table this spill writes, quoted as {@code "schema"."table"}. */
    public String tableName() {
        return table.qualified;
    }

    @Override
    public void append(Xid xid, Xid subXid, Lsn walPosition, ByteBuffer payload) {
        Stored stored = transactions.computeIfAbsent(xid, key -> new Stored());
        checkUsable(xid, stored);
        for (DatabaseSpillReader reader : openReaders) {
            if (reader.xid().equals(xid)) {
                throw new IllegalStateException("cannot append to xid " + xid + " while a reader of it is open");
            }
        }
        long rowBytes = DatabaseSpillTable.rowBytes(payload.remaining());
        quota.checkRoom(xid, stored.bytes, rowBytes, "spill table", table);
        if (!subXid.equals(xid)) {
            stored.firstAppends.putIfAbsent(subXid, new Mark(stored.rows, stored.bytes));
        }
        long seq = stored.rows;
        int crc = DatabaseSpillTable.crc(xid, seq, walPosition.value(), payload);
        int limit = settings.memoryBufferBytes();
        if (batch.bufferedBytes() + rowBytes > limit) {
            flush();
        }
        if (rowBytes > limit) {
            try {
                batch.writeThrough(writer, xid, seq, walPosition.value(), payload, crc);
            } catch (SQLException e) {
                stored.broken = e;
                throw storeFailure("cannot write to", List.of(xid), e);
            }
        } else {
            batch.add(xid, seq, walPosition.value(), payload, crc, limit);
        }
        stored.rows++;
        stored.bytes += rowBytes;
        quota.added(rowBytes);
    }

    private void flush() {
        List<Xid> xids = new ArrayList<>(batch.xids());
        try {
            batch.flush(writer);
        } catch (SQLException e) {
            for (Xid xid : xids) {
                Stored stored = transactions.get(xid);
                if (stored != null) {
                    stored.broken = e;
                }
            }
            throw storeFailure("cannot write to", xids, e);
        }
    }

    private SpillException storeFailure(String what, List<Xid> xids, SQLException e) {
        return new SpillException(what + " spill table " + table + " for transaction(s) " + xids + " (" + e.getMessage()
                + " [SQLState " + e.getSQLState() + "]); the transaction(s) cannot be delivered (check that database.user "
                + "still has INSERT, SELECT, DELETE and TRUNCATE on the table, and the database's free space)", e);
    }

    private void checkUsable(Xid xid, Stored stored) {
        if (stored.broken != null) {
            throw new SpillException("writing transaction " + xid + " to spill table " + table + " failed earlier ("
                    + stored.broken.getMessage() + "); it cannot be delivered", stored.broken);
        }
    }

    @Override
    public SpillReader read(Xid xid) {
        Stored stored = transactions.get(xid);
        if (stored != null) {
            checkUsable(xid, stored);
        }
        if (stored == null || stored.rows == 0) {
            return DatabaseSpillReader.EMPTY;
        }
        flush();
        DatabaseSpillReader reader = DatabaseSpillReader.open(connections, table, xid, stored.rows, stored.bytes,
                openReaders::remove);
        openReaders.add(reader);
        return reader;
    }

    @Override
    public void discard(Xid xid) {
        Stored stored = transactions.remove(xid);
        if (stored == null) {
            return;
        }
        quota.released(stored.bytes);
        delete(xid, 0, "discard");
    }

    @Override
    public void discardSubtransaction(Xid xid, Xid subXid) {
        if (xid.equals(subXid)) {
            discard(xid);
            return;
        }
        Stored stored = transactions.get(xid);
        Mark mark = stored == null ? null : stored.firstAppends.get(subXid);
        if (mark == null) {
            return;
        }
        delete(xid, mark.seq(), "cut rolled-back subtransaction " + subXid + " out of");
        quota.released(stored.bytes - mark.bytes());
        stored.rows = mark.seq();
        stored.bytes = mark.bytes();
        stored.firstAppends.values().removeIf(each -> each.seq() >= mark.seq());
    }

    private void delete(Xid xid, long fromSeq, String what) {
        flush();
        try (PreparedStatement statement = writer.prepareStatement("DELETE FROM " + table.qualified + " WHERE xid = ? AND seq >= ?")) {
            statement.setLong(1, xid.value());
            statement.setLong(2, fromSeq);
            statement.executeUpdate();
        } catch (SQLException e) {
            Stored stored = transactions.get(xid);
            if (stored != null) {
                stored.broken = e;
            }
            throw new SpillException("cannot " + what + " transaction " + xid + " in spill table " + table + " ("
                    + e.getMessage() + " [SQLState " + e.getSQLState() + "])", e);
        }
    }

    @Override
    public void clear() {
        for (DatabaseSpillReader reader : new ArrayList<>(openReaders)) {
            reader.close();
        }
        batch.forget();
        transactions.clear();
        quota.releasedAll();
        try (Statement statement = writer.createStatement()) {
            statement.execute("TRUNCATE " + table.qualified);
        } catch (SQLException e) {
            throw new SpillException("cannot clear spill table " + table + " (" + e.getMessage() + " [SQLState "
                    + e.getSQLState() + "]); database.user must own the table or have TRUNCATE on it, and no other session"
                    + " may hold it for longer than lock_timeout=" + LOCK_TIMEOUT + " (is a second connector using slot '"
                    + table.table + "'?)", e);
        }
    }

    @Override
    public SpillUsage usage() {
        return new SpillUsage(transactions.size(), quota.totalBytes(), batch.bufferedBytes());
    }

    @Override
    public void close() {
        try {
            if (!writer.isClosed()) {
                clear();
            }
        } catch (SQLException e) {
            throw new SpillException("cannot close spill table " + table + " (" + e.getMessage() + ")", e);
        } finally {
            closeQuietly(writer, null);
        }
    }

    private static void closeQuietly(Connection connection, Exception primary) {
        try {
            connection.close();
        } catch (SQLException e) {
            if (primary != null) {
                primary.addSuppressed(e);
            }
        }
    }
}
