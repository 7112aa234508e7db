package io.github.pgoutput.assembly;

import io.github.pgoutput.pgoutput.ColumnValue;
import io.github.pgoutput.pgoutput.DecoderSettings;
import io.github.pgoutput.pgoutput.Lsn;
import io.github.pgoutput.pgoutput.PgOutputDecoder;
import io.github.pgoutput.pgoutput.PgOutputMessage;
import io.github.pgoutput.pgoutput.PgOutputMessage.Delete;
import io.github.pgoutput.pgoutput.PgOutputMessage.Insert;
import io.github.pgoutput.pgoutput.PgOutputMessage.Update;
import io.github.pgoutput.pgoutput.StreamingMode;
import io.github.pgoutput.pgoutput.TupleData;
import io.github.pgoutput.pgoutput.Xid;
import io.github.pgoutput.replication.PublicationMode;
import io.github.pgoutput.replication.ReplicationSession;
import io.github.pgoutput.replication.ReplicationSettings;
import io.github.pgoutput.replication.WalFrame;
import io.github.pgoutput.spill.SpillReader;
import io.github.pgoutput.spill.SpillUsage;
import io.github.pgoutput.spill.TransactionSpill;
import io.github.pgoutput.testing.PostgresDatabase;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The real path of the connector without Kafka, for live tests: replication session -> decoder -> assembler (with
 * the given spill) -> a consumer that rebuilds the rows of table {@code t (id int PRIMARY KEY, v text)} from the
 * deliveries. Prepared transactions are held by GID until their COMMIT PREPARED (stage mode), as a sink would.
 */
final class LiveAssembly implements AutoCloseable {

    /** What the consumer saw of one delivery. */
    record Seen(Delivery.Kind kind, Xid xid, String gid, boolean twoPhase, long changes) {
    }

    final ReplicationSession session;
    final TransactionAssembler assembler;
    final CountingSpill spill;
    final Map<Integer, String> rows = new TreeMap<>();
    final List<Seen> deliveries = new ArrayList<>();
    private final Map<String, List<PgOutputMessage>> preparedChanges = new HashMap<>();
    private boolean markerSeen;

    private LiveAssembly(ReplicationSession session, TransactionSpill spill, PreparedTransactionMode mode) {
        this.session = session;
        this.spill = new CountingSpill(spill);
        PgOutputDecoder decoder = new PgOutputDecoder(new DecoderSettings(session.protocol().protocolVersion(),
                session.protocol().streaming()));
        MessageSource source = () -> {
            WalFrame frame = session.readPending();
            if (frame == null) {
                return null;
            }
            return new WireMessage(decoder.decode(frame.payload().duplicate(), frame.headerLsn()), frame.payload(), frame.headerLsn());
        };
        this.assembler = new TransactionAssembler(source, this.spill,
                decoder::decode, mode, 1L << 20);
    }

    /** Creates a FOR ALL TABLES publication and the slot if missing, and starts streaming with streaming=on. */
    static LiveAssembly start(PostgresDatabase db, String slot, PreparedTransactionMode mode, TransactionSpill spill) {
        ReplicationSettings settings = ReplicationSettings.builder(db.host(), db.port(), db.name(), db.user(), slot, "pub_" + slot)
                .publication(PublicationMode.ALL_TABLES, List.of())
                .streaming(StreamingMode.ON)
                .twoPhase(mode == PreparedTransactionMode.STAGE)
                .statusInterval(Duration.ofMillis(200))
                .build();
        return new LiveAssembly(ReplicationSession.open(settings, Lsn.INVALID), spill, mode);
    }

    /**
     * Assembles and consumes deliveries until a transaction inserting into table {@code marker} has been delivered.
     *
     * @throws AssertionError when {@code timeout} passes first
     */
    void consumeUntilMarker(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!markerSeen) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("no marker transaction within " + timeout + "; deliveries so far: " + deliveries);
            }
            Delivery delivery = assembler.nextDelivery();
            if (delivery == null) {
                Thread.sleep(5);
                continue;
            }
            consume(delivery);
            session.declareDurable(delivery.endLsn());
        }
    }

    private void consume(Delivery delivery) {
        List<PgOutputMessage> changes = new ArrayList<>();
        ChangeEvent event;
        while ((event = delivery.changes().next()) != null) {
            if (event.message() instanceof PgOutputMessage.Change change) {
                String table = event.relation().relationName();
                if (table.equals("marker")) {
                    markerSeen = true;
                } else if (table.equals("t")) {
                    changes.add(change);
                }
            }
        }
        String gid = delivery.gid().orElse(null);
        deliveries.add(new Seen(delivery.kind(), delivery.xid(), gid, delivery.twoPhase(), changes.size()));
        switch (delivery.kind()) {
            case PREPARED -> preparedChanges.put(gid, changes);
            case ROLLED_BACK -> preparedChanges.remove(gid);
            case COMMITTED -> {
                List<PgOutputMessage> toApply = delivery.twoPhase() ? preparedChanges.remove(gid) : changes;
                if (toApply == null) {
                    throw new AssertionError("COMMIT PREPARED of " + gid + " without its PREPARED delivery");
                }
                toApply.forEach(this::apply);
            }
        }
    }

    private void apply(PgOutputMessage change) {
        if (change instanceof Insert insert) {
            rows.put(id(insert.newTuple()), text(insert.newTuple(), 1));
        } else if (change instanceof Update update) {
            update.oldTuple().ifPresent(old -> rows.remove(id(old.tuple())));
            rows.put(id(update.newTuple()), text(update.newTuple(), 1));
        } else if (change instanceof Delete delete) {
            rows.remove(id(delete.oldTuple().tuple()));
        } else {
            throw new AssertionError("unexpected change on t: " + change);
        }
    }

    private static int id(TupleData tuple) {
        return Integer.parseInt(text(tuple, 0));
    }

    private static String text(TupleData tuple, int column) {
        ColumnValue value = tuple.get(column);
        return value instanceof ColumnValue.Text text ? text.asString() : null;
    }

    /** The rows of {@code t} as the database holds them. */
    static Map<Integer, String> rowsOf(PostgresDatabase db) {
        Map<Integer, String> rows = new TreeMap<>();
        db.query("SELECT id, v FROM t").forEach(row -> rows.put(Integer.valueOf(row.get(0)), row.get(1)));
        return rows;
    }

    List<Seen> ofKind(Delivery.Kind kind) {
        return deliveries.stream().filter(d -> d.kind() == kind).toList();
    }

    @Override
    public void close() {
        assembler.close();
        session.close();
    }

    /** Passes everything to a real spill and counts what the assembler asked of it. */
    static final class CountingSpill implements TransactionSpill {
        final TransactionSpill delegate;
        long appends;
        long subtransactionDiscards;
        long discards;
        long reads;

        CountingSpill(TransactionSpill delegate) {
            this.delegate = delegate;
        }

        @Override
        public void append(Xid xid, Xid subXid, Lsn walPosition, ByteBuffer payload) {
            appends++;
            delegate.append(xid, subXid, walPosition, payload);
        }

        @Override
        public SpillReader read(Xid xid) {
            reads++;
            return delegate.read(xid);
        }

        @Override
        public void discard(Xid xid) {
            discards++;
            delegate.discard(xid);
        }

        @Override
        public void discardSubtransaction(Xid xid, Xid subXid) {
            subtransactionDiscards++;
            delegate.discardSubtransaction(xid, subXid);
        }

        @Override
        public void clear() {
            delegate.clear();
        }

        @Override
        public SpillUsage usage() {
            return delegate.usage();
        }

        @Override
        public void close() {
            delegate.close();
        }
    }
}
