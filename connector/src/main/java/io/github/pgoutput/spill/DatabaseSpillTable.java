package io.github.pgoutput.spill;

import io.github.pgoutput.pgoutput.Xid;
import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

/**
 * The one place that knows the database spill's persisted names and row layout.
 *
 * <p>One UNLOGGED table per slot, named after the slot, in schema {@code spill.database.schema}:
 * <pre>
 *   xid          bigint   top-level transaction
 *   seq          bigint   0, 1, 2 ... per xid, in append order (a cut-off savepoint makes the next append reuse its seq)
 *   wal_position bigint   the message's WAL position
 *   payload      bytea    the raw pgoutput message
 *   crc32c       integer  CRC-32C over xid, seq, wal_position (8 bytes each, big-endian) and payload
 *   PRIMARY KEY (xid, seq)
 * </pre>
 * UNLOGGED because the rows only have to live as long as their transaction is open in this process: after a crash
 * PostgreSQL empties the table, and the server streams the open transactions again anyway.
 */
final class DatabaseSpillTable {

    static final String COLUMNS = "xid, seq, wal_position, payload, crc32c";
    /** Bytes a row takes in a binary COPY stream besides its payload: field count, 5 lengths, 3 int8 and an int4. */
    static final int ROW_OVERHEAD_BYTES = 2 + 5 * 4 + 3 * 8 + 4;

    final String schema;
    final String table;
    /** {@code "schema"."table"}, quoted for SQL. */
    final String qualified;

    DatabaseSpillTable(String schema, String slotName) {
        this.schema = schema;
        this.table = slotName;
        this.qualified = quote(schema) + "." + quote(slotName);
    }

    static String quote(String identifier) {
        return "\"" + identifier.replace("\"", "\"\"") + "\"";
    }

    static long rowBytes(int payloadLength) {
        return (long) ROW_OVERHEAD_BYTES + payloadLength;
    }

    String createTable() {
        return "CREATE UNLOGGED TABLE IF NOT EXISTS " + qualified + " (xid bigint NOT NULL, seq bigint NOT NULL, "
                + "wal_position bigint NOT NULL, payload bytea NOT NULL, crc32c integer NOT NULL, PRIMARY KEY (xid, seq))";
    }

    String copyIn() {
        return "COPY " + qualified + " (" + COLUMNS + ") FROM STDIN (FORMAT binary)";
    }

    String selectInOrder() {
        return "SELECT seq, wal_position, payload, crc32c FROM " + qualified + " WHERE xid = ? ORDER BY seq";
    }

    static int crc(Xid xid, long seq, long walPosition, ByteBuffer payload) {
        CRC32C crc = new CRC32C();
        crc.update(ByteBuffer.allocate(24).putLong(xid.value()).putLong(seq).putLong(walPosition).flip());
        crc.update(payload.duplicate());
        return (int) crc.getValue();
    }

    @Override
    public String toString() {
        return qualified;
    }
}
