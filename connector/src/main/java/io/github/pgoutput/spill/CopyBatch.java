package io.github.pgoutput.spill;

import io.github.pgoutput.pgoutput.Xid;
import java.nio.ByteBuffer;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.Set;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyIn;

/**
 * Rows of the database spill waiting to be sent, encoded in PostgreSQL's binary COPY format, and the COPY that sends
 * them. One batch serves every open transaction (they share the slot's table), so a flush is one COPY however many
 * transactions are buffered.
 */
final class CopyBatch {

    private static final byte[] HEADER = {'P', 'G', 'C', 'O', 'P', 'Y', '\n', (byte) 0xff, '\r', '\n', 0, 0, 0, 0, 0, 0, 0, 0, 0};
    private static final byte[] TRAILER = {(byte) 0xff, (byte) 0xff};
    private static final int CHUNK_BYTES = 1 << 16;

    private final DatabaseSpillTable table;
    private byte[] rows = new byte[0];
    private int used;
    private final Set<Xid> xids = new LinkedHashSet<>();

    CopyBatch(DatabaseSpillTable table) {
        this.table = table;
    }

    int bufferedBytes() {
        return used;
    }

    Set<Xid> xids() {
        return xids;
    }

    /** Encodes one row into the batch, growing it by doubling up to {@code maxBytes} (or the row's size). */
    void add(Xid xid, long seq, long walPosition, ByteBuffer payload, int crc, int maxBytes) {
        int rowBytes = (int) DatabaseSpillTable.rowBytes(payload.remaining());
        if (rows.length - used < rowBytes) {
            int grown = Math.max(Math.min(Math.max(rows.length * 2, 4096), maxBytes), used + rowBytes);
            rows = Arrays.copyOf(rows, grown);
        }
        ByteBuffer target = ByteBuffer.wrap(rows, used, rowBytes);
        putRowHeader(target, xid, seq, walPosition, payload.remaining());
        target.put(payload.duplicate());
        target.putInt(4).putInt(crc);
        used += rowBytes;
        xids.add(xid);
    }

    /** Sends the buffered rows in one COPY and empties the batch (also when the COPY fails). */
    void flush(Connection connection) throws SQLException {
        if (used == 0) {
            return;
        }
        try {
            CopyIn copy = connection.unwrap(PGConnection.class).getCopyAPI().copyIn(table.copyIn());
            try {
                copy.writeToCopy(HEADER, 0, HEADER.length);
                copy.writeToCopy(rows, 0, used);
                copy.writeToCopy(TRAILER, 0, TRAILER.length);
                copy.endCopy();
            } finally {
                if (copy.isActive()) {
                    copy.cancelCopy();
                }
            }
        } finally {
            used = 0;
            xids.clear();
        }
    }

    /** Sends one row on its own, streaming the payload in chunks instead of copying it into the batch. */
    void writeThrough(Connection connection, Xid xid, long seq, long walPosition, ByteBuffer payload, int crc)
            throws SQLException {
        CopyIn copy = connection.unwrap(PGConnection.class).getCopyAPI().copyIn(table.copyIn());
        try {
            copy.writeToCopy(HEADER, 0, HEADER.length);
            ByteBuffer header = ByteBuffer.allocate(DatabaseSpillTable.ROW_OVERHEAD_BYTES - 8);
            putRowHeader(header, xid, seq, walPosition, payload.remaining());
            copy.writeToCopy(header.array(), 0, header.position());
            byte[] chunk = new byte[CHUNK_BYTES];
            ByteBuffer rest = payload.duplicate();
            while (rest.hasRemaining()) {
                int length = Math.min(chunk.length, rest.remaining());
                rest.get(chunk, 0, length);
                copy.writeToCopy(chunk, 0, length);
            }
            byte[] trailer = ByteBuffer.allocate(10).putInt(4).putInt(crc).put(TRAILER).array();
            copy.writeToCopy(trailer, 0, trailer.length);
            copy.endCopy();
        } finally {
            if (copy.isActive()) {
                copy.cancelCopy();
            }
        }
    }

    /** Drops the buffered rows without sending them and releases the buffer. */
    void forget() {
        used = 0;
        xids.clear();
        rows = new byte[0];
    }

    private static void putRowHeader(ByteBuffer target, Xid xid, long seq, long walPosition, int payloadLength) {
        target.putShort((short) 5)
                .putInt(8).putLong(xid.value())
                .putInt(8).putLong(seq)
                .putInt(8).putLong(walPosition)
                .putInt(payloadLength);
    }
}
