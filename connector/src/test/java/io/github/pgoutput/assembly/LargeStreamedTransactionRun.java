package io.github.pgoutput.assembly;

import io.github.pgoutput.pgoutput.Bytes;
import io.github.pgoutput.pgoutput.ColumnValue;
import io.github.pgoutput.pgoutput.DecoderSettings;
import io.github.pgoutput.pgoutput.Lsn;
import io.github.pgoutput.pgoutput.PgOutputDecoder;
import io.github.pgoutput.pgoutput.PgOutputMessage;
import io.github.pgoutput.pgoutput.PgOutputMessage.Insert;
import io.github.pgoutput.pgoutput.StreamingMode;
import io.github.pgoutput.spill.DiskSpill;
import io.github.pgoutput.spill.SpillSettings;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.zip.CRC32;

/**
 * The body of {@link LargeStreamedTransactionIT}, run in its own small-heap JVM: one streamed transaction with
 * {@code args[1]} bytes of change data (in 8 KiB rows, spread over many stream blocks, with a rolled-back savepoint
 * and ordinary transactions in between) is assembled through the disk spill and read back. Prints one line,
 * {@code RESULT changes=<n> expectedChanges=<n> crc=<hex> expectedCrc=<hex> ordinary=<n> peakHeapBytes=<n>}.
 *
 * <p>Messages are generated on the fly and never kept, so only the assembler and the spill could hold them.
 * Stream-block messages are real pgoutput bytes (Relation and Insert with the xid prefix) decoded by the real
 * {@link PgOutputDecoder}, on the way in and again when read back from the spill.
 */
public final class LargeStreamedTransactionRun {

    static final int ROW_BYTES = 8192;
    static final int ROWS_PER_BLOCK = 1000;
    static final long TOP = 900;
    static final long SAVEPOINT = 901;
    static final long RELATION_ID = 16425;
    static final long ORDINARY_RELATION_ID = 16426;

    public static void main(String[] args) {
        Path directory = Path.of(args[0]);
        long totalBytes = Long.parseLong(args[1]);
        long rows = totalBytes / ROW_BYTES;
        Generator generator = new Generator(rows);
        try (DiskSpill spill = DiskSpill.open("large", SpillSettings.defaults("large").withDirectory(directory))) {
            TransactionAssembler assembler = new TransactionAssembler(generator, spill, LargeStreamedTransactionRun::decode,
                    PreparedTransactionMode.FAIL, 1L << 20);
            long changes = 0;
            int ordinary = 0;
            CRC32 crc = new CRC32();
            Delivery delivery;
            while ((delivery = assembler.nextDelivery()) != null) {
                ChangeEvent event;
                long seen = 0;
                while ((event = delivery.changes().next()) != null) {
                    seen++;
                    if (delivery.xid().value() == TOP) {
                        Bytes value = ((ColumnValue.Text) ((Insert) event.message()).newTuple().get(0)).value();
                        crc.update(value.toByteArray());
                    }
                }
                if (delivery.xid().value() == TOP) {
                    changes = seen;
                } else {
                    ordinary++;
                }
            }
            System.out.println("RESULT changes=" + changes + " expectedChanges=" + generator.expectedChanges
                    + " crc=" + Long.toHexString(crc.getValue()) + " expectedCrc=" + Long.toHexString(generator.expectedCrc.getValue())
                    + " ordinary=" + ordinary + " peakHeapBytes=" + peakHeap());
        }
    }

    private static long peakHeap() {
        long peak = 0;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP) {
                peak += pool.getPeakUsage().getUsed();
            }
        }
        return peak;
    }

    private static final PgOutputDecoder DECODER = new PgOutputDecoder(new DecoderSettings(2, StreamingMode.ON));

    static PgOutputMessage decode(ByteBuffer payload, Lsn walPosition, boolean insideStreamBlock) {
        return DECODER.decode(payload, walPosition, insideStreamBlock);
    }

    /** Emits the whole stream message by message, computing what the consumer must receive. */
    static final class Generator implements MessageSource {
        private final long rows;
        private final CRC32 expectedCrc = new CRC32();
        private final ByteBuffer payload = ByteBuffer.allocate(64 + ROW_BYTES);
        private final byte[] row = new byte[ROW_BYTES];
        private long expectedChanges;
        private long sequence;
        private long lsn = 0x1000000;
        private int phase;
        private long inBlock;
        private long block;
        private boolean savepointDone;
        private long ordinaryXid = 5000;
        private long ordinaryCommitLsn;

        Generator(long rows) {
            this.rows = rows;
        }

        @Override
        public WireMessage next() {
            lsn += 0x100;
            switch (phase) {
                case 0 -> {
                    phase = 1;
                    return wire(Script.streamStart(TOP, block == 0));
                }
                case 1 -> {
                    if (block == 0 && inBlock == 0) {
                        inBlock = -1;
                        return decoded(relationPayload());
                    }
                    if (inBlock == ROWS_PER_BLOCK || sequence == rows + ROWS_PER_BLOCK / 2) {
                        phase = 2;
                        return wire(Script.streamStop());
                    }
                    inBlock = Math.max(inBlock, 0) + 1;
                    return row();
                }
                case 2 -> {
                    block++;
                    inBlock = 0;
                    if (sequence >= rows + ROWS_PER_BLOCK / 2) {
                        phase = 5;
                        return wire(Script.streamCommit(TOP, lsn, lsn + 0x30));
                    }
                    if (inSavepoint() && !savepointDone) {
                        savepointDone = true;
                        phase = 0;
                        return wire(Script.streamAbort(TOP, SAVEPOINT));
                    }
                    if (block % 50 == 0) {
                        phase = 3;
                        ordinaryCommitLsn = lsn + 0x300;
                        return wire(Script.begin(++ordinaryXid, ordinaryCommitLsn));
                    }
                    phase = 0;
                    return next();
                }
                case 3 -> {
                    phase = 4;
                    return wire(Script.relation(0, ORDINARY_RELATION_ID, "t_small", "id"));
                }
                case 4 -> {
                    phase = 6;
                    return wire(Script.insert(0, ORDINARY_RELATION_ID, "ordinary"));
                }
                case 6 -> {
                    phase = 0;
                    return wire(Script.commit(ordinaryCommitLsn, ordinaryCommitLsn + 0x30));
                }
                default -> {
                    return null;
                }
            }
        }

        /**
         * The second half of one block in the middle is made by a subtransaction that is rolled back right after
         * the block (ROLLBACK TO SAVEPOINT), as PostgreSQL would stream it.
         */
        private boolean inSavepoint() {
            long start = (rows / 2 / ROWS_PER_BLOCK) * ROWS_PER_BLOCK;
            return sequence > start + ROWS_PER_BLOCK / 2 && sequence <= start + ROWS_PER_BLOCK;
        }

        private WireMessage row() {
            sequence++;
            boolean rolledBack = inSavepoint();
            for (int i = 0; i < ROW_BYTES; i += 8) {
                long value = sequence * 0x9E3779B97F4A7C15L + i;
                for (int b = 0; b < 8; b++) {
                    row[i + b] = (byte) (value >>> (8 * b));
                }
            }
            if (!rolledBack) {
                expectedChanges++;
                expectedCrc.update(row);
            }
            // Insert inside a stream block: 'I', xid prefix, relid, 'N', one text column.
            payload.clear().put((byte) 'I').putInt((int) (rolledBack ? SAVEPOINT : TOP)).putInt((int) RELATION_ID)
                    .put((byte) 'N').putShort((short) 1).put((byte) 't').putInt(ROW_BYTES).put(row).flip();
            return decoded(payload);
        }

        private ByteBuffer relationPayload() {
            payload.clear().put((byte) 'R').putInt((int) TOP).putInt((int) RELATION_ID)
                    .put("public\0t_big\0".getBytes(StandardCharsets.US_ASCII)).put((byte) 'd').putShort((short) 1)
                    .put((byte) 1).put("pad\0".getBytes(StandardCharsets.US_ASCII)).putInt(25).putInt(-1);
            return payload.flip();
        }

        private WireMessage decoded(ByteBuffer bytes) {
            return new WireMessage(decode(bytes, Lsn.of(lsn), true), bytes, Lsn.of(lsn));
        }

        private ByteBuffer header(char tag, long xid) {
            return payload.clear().put((byte) tag).putInt((int) xid);
        }

        private WireMessage wire(PgOutputMessage message) {
            return new WireMessage(message, header(message.tag(), 0).flip(), Lsn.of(lsn));
        }
    }
}
