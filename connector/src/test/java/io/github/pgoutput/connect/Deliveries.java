package io.github.pgoutput.connect;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.List;

import io.github.pgoutput.assembly.ChangeEvent;
import io.github.pgoutput.assembly.Delivery;
import io.github.pgoutput.assembly.PreparedTransactionMode;
import io.github.pgoutput.assembly.TransactionAssembler;
import io.github.pgoutput.assembly.WireMessage;
import io.github.pgoutput.pgoutput.ColumnValue;
import io.github.pgoutput.pgoutput.Bytes;
import io.github.pgoutput.pgoutput.Lsn;
import io.github.pgoutput.pgoutput.PgOutputMessage;
import io.github.pgoutput.pgoutput.PgOutputMessage.Begin;
import io.github.pgoutput.pgoutput.PgOutputMessage.Commit;
import io.github.pgoutput.pgoutput.TupleData;
import io.github.pgoutput.pgoutput.Xid;
import io.github.pgoutput.spill.SpillSettings;
import io.github.pgoutput.spill.TransactionSpill;
import io.github.pgoutput.spill.TransactionSpills;
import io.github.pgoutput.spill.SpillContext;

/**
 * Real {@link Delivery} objects for unit tests of the connect layer, made by the real assembler from non-streamed
 * message sequences (the messages are records; no byte payload is needed outside stream blocks).
 */
public final class Deliveries {

    /** One delivery with the changes its cursor returned. */
    public record Read(Delivery delivery, List<ChangeEvent> changes) {
    }

    private Deliveries() {
    }

    /** An assembler (stage mode) over {@code messages}; its spill lives in {@code spillDirectory}. */
    public static TransactionAssembler assembler(Path spillDirectory, PgOutputMessage... messages) {
        Deque<WireMessage> queue = new ArrayDeque<>();
        long position = 0x1000;
        for (PgOutputMessage message : messages) {
            queue.add(new WireMessage(message, ByteBuffer.allocate(1), Lsn.of(position += 0x10)));
        }
        TransactionSpill spill = TransactionSpills.open(new SpillContext("unit_slot",
                SpillSettings.defaults("unit_slot").withDirectory(spillDirectory), () -> {
                    throw new java.sql.SQLException("no database in unit tests");
                }));
        return new TransactionAssembler(queue::poll, spill, (payload, lsn, insideStreamBlock) -> {
            throw new AssertionError("nothing is spilled here");
        }, PreparedTransactionMode.STAGE, 1L << 20);
    }

    public static List<Read> assemble(Path spillDirectory, PgOutputMessage... messages) {
        List<Read> reads = new ArrayList<>();
        try (TransactionAssembler assembler = assembler(spillDirectory, messages)) {
            Delivery delivery;
            while ((delivery = assembler.nextDelivery()) != null) {
                List<ChangeEvent> changes = new ArrayList<>();
                ChangeEvent change;
                while ((change = delivery.changes().next()) != null) {
                    changes.add(change);
                }
                reads.add(new Read(delivery, changes));
            }
        }
        return reads;
    }

    /** B ... C for {@code xid}, committed at {@code commitLsn} and ending 0x20 later. */
    public static PgOutputMessage[] transaction(long xid, long commitLsn, PgOutputMessage... body) {
        List<PgOutputMessage> all = new ArrayList<>();
        all.add(new Begin(Lsn.of(commitLsn), Instant.parse("2026-01-02T03:04:05Z"), Xid.of(xid)));
        all.addAll(Arrays.asList(body));
        all.add(new Commit(0, Lsn.of(commitLsn), Lsn.of(commitLsn + 0x20), Instant.parse("2026-01-02T03:04:05Z")));
        return all.toArray(PgOutputMessage[]::new);
    }

    public static PgOutputMessage[] concat(PgOutputMessage[]... parts) {
        return Arrays.stream(parts).flatMap(Arrays::stream).toArray(PgOutputMessage[]::new);
    }

    /** A tuple of text values; null stands for SQL NULL, "\u0000u" for an unchanged TOAST value. */
    public static TupleData tuple(String... values) {
        List<ColumnValue> columns = new ArrayList<>();
        for (String value : values) {
            if (value == null) {
                columns.add(ColumnValue.Null.INSTANCE);
            } else if (value.equals("\u0000u")) {
                columns.add(ColumnValue.UnchangedToast.INSTANCE);
            } else {
                columns.add(new ColumnValue.Text(Bytes.utf8(value)));
            }
        }
        return new TupleData(columns);
    }
}
