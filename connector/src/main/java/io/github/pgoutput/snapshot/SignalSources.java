package io.github.pgoutput.snapshot;

import io.github.pgoutput.assembly.ChangeEvent;
import io.github.pgoutput.assembly.Delivery;
import io.github.pgoutput.pgoutput.ColumnValue;
import io.github.pgoutput.pgoutput.PgOutputMessage;
import io.github.pgoutput.pgoutput.RelationColumn;
import io.github.pgoutput.replication.TableName;
import java.util.List;
import java.util.Objects;
import java.util.function.BiConsumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where an incremental snapshot's signals come from, and how far each source was read: rows inserted into the signal
 * table and logical decoding messages with the signal prefix, as the stream delivers them, and the records of the
 * Kafka signal topic the connector reads. A signal is applied once: a replayed transaction does not signal twice
 * (the {@link IncrementalSnapshot.Marks} travel in the offsets), and a PREPARED one signals only when committed.
 *
 * <p>Not thread-safe: the task's poll thread.
 */
final class SignalSources {

    private static final Logger log = LoggerFactory.getLogger(SignalSources.class);

    /** The signal table, or null. */
    private final TableName signalTable;
    /** The prefix of logical decoding messages that are signals, or null. */
    private final String messagePrefix;
    /** Applies a signal; the text says where it came from. */
    private final BiConsumer<Signal, String> apply;
    private IncrementalSnapshot.Marks marks;
    private IncrementalSnapshot.Marks handedMarks;
    /** Signal rows seen so far in the delivery being emitted. */
    private int signalRowsSeen;

    SignalSources(TableName signalTable, String messagePrefix, IncrementalSnapshot.Marks marks, BiConsumer<Signal, String> apply) {
        this.signalTable = signalTable;
        this.messagePrefix = messagePrefix;
        this.marks = Objects.requireNonNull(marks, "marks");
        this.handedMarks = marks;
        this.apply = Objects.requireNonNull(apply, "apply");
    }

    IncrementalSnapshot.Marks marks() {
        return marks;
    }

    /**
     * A change of the delivery being emitted: a signal when it is a signal table row or a signal message.
     *
     * @return true when it was a signal not applied before: the marks moved, and only the offsets of records built
     *         from now on say so
     */
    boolean observe(ChangeEvent event, Delivery delivery) {
        PgOutputMessage.StreamScoped message = event.message();
        if (message instanceof PgOutputMessage.LogicalMessage logical) {
            if (messagePrefix != null && messagePrefix.equals(logical.prefix())) {
                String from = "logical decoding message at " + logical.lsn();
                return signalInStream(delivery, from, () -> Signal.ofDocument(logical.lsn().toString(),
                        logical.content().toUtf8()));
            }
            return false;
        }
        TableName table = signalTable;
        if (table != null && message instanceof PgOutputMessage.Insert insert && table.schema().equals(event.relation().namespace())
                && table.table().equals(event.relation().relationName())) {
            return signalInStream(delivery, "signal table " + table + " (transaction committed at " + delivery.lsn() + ")",
                    () -> signalRow(event.relation().columns(), insert));
        }
        return false;
    }

    /** A signal the stream delivered: applied once, when the delivery is committed (not PREPARED); true when applied now. */
    private boolean signalInStream(Delivery delivery, String from, Supplier<Signal> signal) {
        if (delivery.kind() != Delivery.Kind.COMMITTED) {
            // A PREPARED row is not a signal before COMMIT PREPARED (and then it is not sent again).
            return false;
        }
        int row = ++signalRowsSeen;
        if (delivery.lsn().isBefore(marks.signalLsn()) || (delivery.lsn().equals(marks.signalLsn()) && row <= marks.signalRows())) {
            // Replayed after a restart or a reconnect: applied already, as the offset says.
            return false;
        }
        // Applied at once, so that the offsets of the delivery's later records say so: a restart from one of them
        // replays the rest of the transaction, and the mark keeps its signal from being applied twice.
        marks = new IncrementalSnapshot.Marks(marks.signalOffset(), delivery.lsn(), row);
        try {
            apply.accept(signal.get(), from);
        } catch (IllegalArgumentException e) {
            log.warn("Ignored, not a signal: {} ({})", e.getMessage(), from);
        }
        return true;
    }

    /** The signal of a row of the signal table: Debezium's columns id, type and data. */
    private static Signal signalRow(List<RelationColumn> columns, PgOutputMessage.Insert insert) {
        String id = null;
        String type = null;
        String data = null;
        for (int i = 0; i < columns.size() && i < insert.newTuple().size(); i++) {
            String text = insert.newTuple().get(i) instanceof ColumnValue.Text t ? t.asString() : null;
            switch (columns.get(i).name()) {
                case "id" -> id = text;
                case "type" -> type = text;
                case "data" -> data = text;
                default -> { }
            }
        }
        return Signal.parse(id, type, data);
    }

    /** See {@link IncrementalSnapshot#signalFromTopic}. */
    void fromTopic(long offset, Signal signal, String problem) {
        marks = new IncrementalSnapshot.Marks(offset + 1, marks.signalLsn(), marks.signalRows());
        if (problem != null) {
            log.warn("Ignored: {}", problem);
        } else if (signal != null) {
            apply.accept(signal, "signal topic offset " + offset);
        }
    }

    /** A delivery was emitted whole: the next one's signal rows are counted from one. */
    void delivered() {
        signalRowsSeen = 0;
    }

    void handedOver() {
        handedMarks = marks;
    }

    /** Back to the marks of the records handed over; the stream's signal rows come again. */
    void abandoned() {
        marks = handedMarks;
        signalRowsSeen = 0;
    }
}
