package io.github.pgoutput.spill;

import io.github.pgoutput.pgoutput.Lsn;
import io.github.pgoutput.pgoutput.Xid;
import java.nio.ByteBuffer;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.function.Consumer;

/**
 * Reads one transaction back from the database spill on a connection of its own, inside one REPEATABLE READ
 * transaction: a first pass over every row checks it, a second pass (same snapshot) delivers. Both passes fetch
 * {@link #FETCH_ROWS} rows at a time through a server-side cursor, so memory does not grow with the transaction.
 */
final class DatabaseSpillReader implements SpillReader {

    static final int FETCH_ROWS = 256;

    static final SpillReader EMPTY = new SpillReader() {
        @Override
        public SpilledMessage next() {
            return null;
        }

        @Override
        public void close() {
        }
    };

    private final DatabaseSpillTable table;
    private final Xid xid;
    private final Connection connection;
    private final Consumer<DatabaseSpillReader> onClose;
    private PreparedStatement statement;
    private ResultSet rows;
    private long nextSeq;
    private boolean closed;

    private DatabaseSpillReader(DatabaseSpillTable table, Xid xid, Connection connection, Consumer<DatabaseSpillReader> onClose) {
        this.table = table;
        this.xid = xid;
        this.connection = connection;
        this.onClose = onClose;
    }

    /**
     * Verifies the rows of {@code xid} against the {@code expectedRows} and {@code expectedBytes} appended and opens
     * the delivering cursor.
     *
     * @throws SpillException naming the table and xid when rows are missing, extra, out of sequence or corrupt
     */
    static DatabaseSpillReader open(SourceConnections connections, DatabaseSpillTable table, Xid xid, long expectedRows,
                                    long expectedBytes, Consumer<DatabaseSpillReader> onClose) {
        Connection connection;
        try {
            connection = connections.open();
        } catch (SQLException e) {
            throw new SpillException("cannot connect to read transaction " + xid + " from spill table " + table + " ("
                    + e.getMessage() + " [SQLState " + e.getSQLState() + "])", e);
        }
        DatabaseSpillReader reader = new DatabaseSpillReader(table, xid, connection, onClose);
        try {
            connection.setAutoCommit(false);
            connection.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
            connection.setReadOnly(true);
            reader.verify(expectedRows, expectedBytes);
            reader.openCursor();
            return reader;
        } catch (SQLException e) {
            reader.closeQuietly();
            throw new SpillException("cannot read transaction " + xid + " from spill table " + table + " (" + e.getMessage()
                    + " [SQLState " + e.getSQLState() + "]); the transaction cannot be delivered", e);
        } catch (RuntimeException e) {
            reader.closeQuietly();
            throw e;
        }
    }

    Xid xid() {
        return xid;
    }

    private void verify(long expectedRows, long expectedBytes) throws SQLException {
        openCursor();
        long bytes = 0;
        try {
            while (rows.next()) {
                byte[] payload = checkedPayload();
                bytes += DatabaseSpillTable.rowBytes(payload.length);
            }
        } finally {
            rows.close();
            statement.close();
        }
        if (nextSeq != expectedRows || bytes != expectedBytes) {
            throw damaged("holds " + nextSeq + " rows (" + bytes + " bytes) for it but " + expectedRows + " rows ("
                    + expectedBytes + " bytes) were appended; rows were deleted behind the connector's back");
        }
        nextSeq = 0;
    }

    private void openCursor() throws SQLException {
        statement = connection.prepareStatement(table.selectInOrder());
        statement.setFetchSize(FETCH_ROWS);
        statement.setLong(1, xid.value());
        rows = statement.executeQuery();
    }

    /** Checks the current row's sequence number and CRC-32C and returns its payload. */
    private byte[] checkedPayload() throws SQLException {
        long seq = rows.getLong(1);
        if (seq != nextSeq) {
            throw damaged("has row seq " + seq + " where seq " + nextSeq + " was expected (a row is missing)");
        }
        long walPosition = rows.getLong(2);
        byte[] payload = rows.getBytes(3);
        int stored = rows.getInt(4);
        int computed = DatabaseSpillTable.crc(xid, seq, walPosition, ByteBuffer.wrap(payload));
        if (stored != computed) {
            throw damaged("has a CRC-32C mismatch in row seq " + seq + " (stored " + Integer.toHexString(stored)
                    + ", computed " + Integer.toHexString(computed) + "); the row was changed behind the connector's back");
        }
        nextSeq++;
        return payload;
    }

    private SpillException damaged(String what) {
        return new SpillException("spill table " + table + " " + what + " (transaction " + xid + "); the transaction "
                + "cannot be delivered from it (restart the connector to have PostgreSQL stream it again)");
    }

    @Override
    public SpilledMessage next() {
        if (closed) {
            throw new IllegalStateException("spill reader of transaction " + xid + " in " + table + " is closed");
        }
        try {
            if (!rows.next()) {
                return null;
            }
            long walPosition = rows.getLong(2);
            byte[] payload = checkedPayload();
            return new SpilledMessage(Lsn.of(walPosition), ByteBuffer.wrap(payload).asReadOnlyBuffer());
        } catch (SQLException e) {
            throw new SpillException("cannot read transaction " + xid + " from spill table " + table + " at row seq "
                    + nextSeq + " (" + e.getMessage() + " [SQLState " + e.getSQLState() + "])", e);
        }
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closeQuietly();
    }

    private void closeQuietly() {
        closed = true;
        onClose.accept(this);
        try {
            connection.close();
        } catch (SQLException e) {
            // The connection is gone either way; an open read-only transaction on it is rolled back by the server.
        }
    }
}
