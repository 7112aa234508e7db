package io.github.pgoutput.benchmarks;

import io.github.pgoutput.pgoutput.Lsn;
import io.github.pgoutput.pgoutput.Xid;
import io.github.pgoutput.spill.DatabaseSpill;
import io.github.pgoutput.spill.SourceConnections;
import io.github.pgoutput.spill.SpillContext;
import io.github.pgoutput.spill.SpillReader;
import io.github.pgoutput.spill.SpillSettings;
import io.github.pgoutput.spill.SpilledMessage;
import java.nio.ByteBuffer;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.SplittableRandom;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyIn;

/**
 * One measurement of the database spill, run by {@code bench/spill-database-benchmark.sh} against the server at
 * {@code args[0]} (a JDBC URL): {@code args[1]} MiB in {@code args[2]}-byte payloads (default 8192), first as a plain
 * binary {@code COPY} of the same payloads into an UNLOGGED table with one bytea column (no index) and a plain
 * {@code SELECT} of them back (fetch size as the spill's), then appended to a {@link DatabaseSpill} with default
 * settings and read back through {@code read()} (verification pass included) and the reader.
 *
 * <p>Prints one line of {@code key=value} pairs. MB = 10^6 payload bytes. The spill's append figure ends when the last
 * append returns: at most one front buffer (1 MiB) is then still unsent, and is sent within the read figure.
 */
public final class DatabaseSpillThroughput {

    private static final Xid XID = Xid.of(1);
    private static final byte[] COPY_HEADER = {'P', 'G', 'C', 'O', 'P', 'Y', '\n', (byte) 0xff, '\r', '\n', 0, 0, 0, 0, 0, 0, 0, 0, 0};

    public static void main(String[] args) throws SQLException {
        String url = args[0];
        long totalBytes = Long.parseLong(args[1]) << 20;
        int payloadBytes = args.length > 2 ? Integer.parseInt(args[2]) : 8192;
        byte[] block = new byte[payloadBytes * 16];
        new SplittableRandom(42).nextBytes(block);
        long messages = totalBytes / payloadBytes;
        long payloadTotal = messages * payloadBytes;
        SourceConnections connections = () -> DriverManager.getConnection(url);

        double plainCopy;
        double plainSelect;
        try (Connection connection = connections.open(); Statement statement = connection.createStatement()) {
            statement.execute("DROP TABLE IF EXISTS plain_copy");
            statement.execute("CREATE UNLOGGED TABLE plain_copy (payload bytea NOT NULL)");
            long start = System.nanoTime();
            CopyIn copy = connection.unwrap(PGConnection.class).getCopyAPI().copyIn("COPY plain_copy FROM STDIN (FORMAT binary)");
            copy.writeToCopy(COPY_HEADER, 0, COPY_HEADER.length);
            byte[] chunk = new byte[1 << 20];
            ByteBuffer out = ByteBuffer.wrap(chunk);
            for (long i = 0; i < messages; i++) {
                if (out.remaining() < 6 + payloadBytes) {
                    copy.writeToCopy(chunk, 0, out.position());
                    out.clear();
                }
                out.putShort((short) 1).putInt(payloadBytes).put(block, (int) (i % 16) * payloadBytes, payloadBytes);
            }
            out.putShort((short) -1);
            copy.writeToCopy(chunk, 0, out.position());
            copy.endCopy();
            plainCopy = mbPerSecond(payloadTotal, System.nanoTime() - start);

            connection.setAutoCommit(false);
            start = System.nanoTime();
            long read = 0;
            try (PreparedStatement select = connection.prepareStatement("SELECT payload FROM plain_copy")) {
                select.setFetchSize(256);
                try (ResultSet rows = select.executeQuery()) {
                    while (rows.next()) {
                        read += rows.getBytes(1).length;
                    }
                }
            }
            plainSelect = mbPerSecond(read, System.nanoTime() - start);
            connection.commit();
            connection.setAutoCommit(true);
            statement.execute("DROP TABLE plain_copy");
            if (read != payloadTotal) {
                throw new IllegalStateException("plain SELECT read " + read + " bytes, copied " + payloadTotal);
            }
        }

        SpillSettings settings = SpillSettings.defaults("bench").withBackend(SpillSettings.DATABASE_BACKEND);
        try (DatabaseSpill spill = DatabaseSpill.open(new SpillContext("bench", settings, connections))) {
            spill.clear();
            long start = System.nanoTime();
            for (long i = 0; i < messages; i++) {
                spill.append(XID, XID, Lsn.of(i + 1), ByteBuffer.wrap(block, (int) (i % 16) * payloadBytes, payloadBytes));
            }
            long appended = System.nanoTime();
            long readBytes = 0;
            long verified;
            try (SpillReader reader = spill.read(XID)) {
                verified = System.nanoTime();
                SpilledMessage message;
                while ((message = reader.next()) != null) {
                    readBytes += message.payload().remaining();
                }
            }
            long readEnd = System.nanoTime();
            if (readBytes != payloadTotal) {
                throw new IllegalStateException("spill read back " + readBytes + " bytes, appended " + payloadTotal);
            }
            System.out.printf("payload_bytes=%d plain_copy_mb_s=%.1f plain_select_mb_s=%.1f db_append_mb_s=%.1f"
                            + " db_read_mb_s=%.1f db_verify_s=%.2f db_read_s=%.2f%n",
                    payloadTotal, plainCopy, plainSelect, mbPerSecond(payloadTotal, appended - start),
                    mbPerSecond(payloadTotal, readEnd - appended), (verified - appended) / 1e9, (readEnd - appended) / 1e9);
        }
    }

    private static double mbPerSecond(long bytes, long nanos) {
        return bytes / 1e6 / (nanos / 1e9);
    }
}
