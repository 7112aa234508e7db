package io.github.pgoutput.connect;

import io.github.pgoutput.connect.record.TransactionTopicRecords;
import io.github.pgoutput.connect.record.LifecycleHeaders;
import io.github.pgoutput.connect.offsets.SourceOffsets;
import io.github.pgoutput.connect.record.ChangeRecordBuilder;
import io.github.pgoutput.connect.offsets.RecordNumbering;
import io.github.pgoutput.connect.offsets.AcknowledgementTracker;
import io.github.pgoutput.connect.offsets.ResumePoint;
import io.github.pgoutput.connect.offsets.DebeziumPartial;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import io.github.pgoutput.assembly.ChangeEvent;
import io.github.pgoutput.assembly.Delivery;
import io.github.pgoutput.assembly.TransactionAssembler;
import io.github.pgoutput.connect.record.ChangeRecordBuilder.Draft;
import io.github.pgoutput.connect.offsets.SourceOffsets.Position;
import io.github.pgoutput.pgoutput.Lsn;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.header.ConnectHeaders;
import org.apache.kafka.connect.source.SourceRecord;

/**
 * Pulls deliveries from the assembler and turns them into {@link SourceRecord}s with offsets and lifecycle headers,
 * as many as the caller has room for; the delivery being emitted keeps its place between calls.
 *
 * <p>Numbering and offsets: the records of a delivery are numbered 1, 2, ... in emission order (BEGIN, changes,
 * tombstones, END), the same way every time PostgreSQL sends it. Every record but the delivery's last carries the
 * offset "inside the delivery committed at {@code lsn}, up to this number"; the last carries "after the delivery,
 * at its end LSN". A cursor tells its end only after its last change, so the records of one change are held back
 * until the next change or the end arrives (one change's records, so memory stays bounded). Inside a delivery the
 * offset also names the delivery's end LSN and the numbering's fingerprint ({@link RecordNumbering}).
 * Records already in Kafka before a restart ({@link ResumePoint}) are numbered but not emitted.
 *
 * <p>Not thread-safe: the task's poll thread only.
 */
final class DeliveryEmitter {

    /** Told of each delivery once its last record has been added. */
    @FunctionalInterface
    interface Delivered {
        /**
         * @param lastRecord the delivery's last record, which carries the offset after it; null when the delivery
         *                   added no record (all of its changes filtered out, or all already in Kafka)
         */
        void delivered(Delivery delivery, SourceRecord lastRecord);
    }

    /** @param unresolved the columns whose unchanged TOAST value stayed the placeholder ({@link ToastResolution}) */
    private record Numbered(Draft draft, long order, Lsn lsn, List<String> unresolved) {

        Numbered(Draft draft, long order, Lsn lsn) {
            this(draft, order, lsn, List.of());
        }
    }

    private final TransactionAssembler assembler;
    private final ChangeRecordBuilder builder;
    private final TransactionTopicRecords transactions;
    private final AcknowledgementTracker tracker;
    private final Map<String, ?> partition;
    private final ResumePoint resume;
    private final List<Numbered> held = new ArrayList<>();
    private final SourceOffsets.Encoder offsets = new SourceOffsets.Encoder();
    private final Delivered delivered;
    private Lsn lastCompletedEnd;
    private Position position;
    private Delivery current;
    /** The headers all records of {@link #current} share, made when it begins. */
    private LifecycleHeaders.DeliveryHeaders currentHeaders;
    private AcknowledgementTracker.Unit unit;
    /** The current delivery's record that carries the offset after it, once added. */
    private SourceRecord lastRecord;
    private long skip;
    /**
     * For the transaction Debezium's offset stopped inside, until the first change it does not show in Kafka: which
     * changes are there already ({@link ResumePoint#debeziumPrefix}); null otherwise. Their records are numbered but
     * not emitted, by moving {@link #skip} past them.
     */
    private DebeziumPartial.Prefix debeziumPrefix;
    private long nextOrder;
    /** The number reserved for the current delivery's BEGIN record until it is written; 0 when there is none to write. */
    private long pendingBeginOrder;
    /** After a resumed exactly-once snapshot, until the stream passes its last resumption's point; null otherwise. */
    private ResumedSnapshotFilter resumedSnapshot;
    /** Incremental snapshots and signals; null when the task takes none. */
    private IncrementalSnapshotter incremental;
    /** Unchanged TOAST values resolved before the records are built; null with {@code unchanged.toast.resolution=none}. */
    private ToastResolution toast;
    /** The change {@link #lacking} was last computed for (by identity), and what the resumed snapshot lacks of it. */
    private ChangeEvent lackingAskedFor;
    private ChangeEvent lacking;

    /**
     * @param transactions the transaction topic records, or null when {@code provide.transaction.metadata} is false
     * @param start        the position emitted so far (from the stored offset, or from before a reconnect)
     */
    DeliveryEmitter(TransactionAssembler assembler, ChangeRecordBuilder builder, TransactionTopicRecords transactions,
                    AcknowledgementTracker tracker, Map<String, ?> partition, ResumePoint resume, Position start) {
        this(assembler, builder, transactions, tracker, partition, resume, start, (delivery, lastRecord) -> { });
    }

    /** @param delivered told of each delivery once its last record has been added (metrics, Kafka transactions) */
    DeliveryEmitter(TransactionAssembler assembler, ChangeRecordBuilder builder, TransactionTopicRecords transactions,
                    AcknowledgementTracker tracker, Map<String, ?> partition, ResumePoint resume, Position start,
                    Delivered delivered) {
        this.delivered = Objects.requireNonNull(delivered);
        this.assembler = Objects.requireNonNull(assembler);
        this.builder = Objects.requireNonNull(builder);
        this.transactions = transactions;
        this.tracker = Objects.requireNonNull(tracker);
        this.partition = Objects.requireNonNull(partition);
        this.resume = Objects.requireNonNull(resume);
        this.position = Objects.requireNonNull(start);
        this.lastCompletedEnd = start.lsn();
    }

    /**
     * Skips the changes a resumed snapshot's rows contain, and keeps its resumptions in the offsets, until the stream
     * has passed them ({@link ResumedSnapshotFilter}); the emitter closes the filter then, or on {@link #close()}.
     */
    DeliveryEmitter afterResumedSnapshot(ResumedSnapshotFilter filter) {
        this.resumedSnapshot = filter;
        return this;
    }

    /**
     * Emits the chunks of incremental snapshots between deliveries, and shows it every change (signal rows) and every
     * delivery; the task owns it and closes it.
     */
    DeliveryEmitter withIncrementalSnapshots(IncrementalSnapshotter snapshotter) {
        this.incremental = snapshotter;
        return this;
    }

    /** Resolves unchanged TOAST values before each change's records are built; the task owns it and closes it. */
    DeliveryEmitter withToastResolution(ToastResolution resolution) {
        this.toast = resolution;
        return this;
    }

    /** Releases the resumed snapshot's filter, if any. */
    void close() {
        if (resumedSnapshot != null) {
            resumedSnapshot.close();
            resumedSnapshot = null;
        }
    }

    /**
     * Adds up to about {@code room} records to {@code out} (the records of one change are added together).
     *
     * @return true when idle: no delivery is being emitted and the assembler has none right now
     */
    boolean fill(List<SourceRecord> out, int room) {
        while (out.size() < room) {
            if (current == null) {
                // Between deliveries: the one place an incremental snapshot's chunk may go (see IncrementalSnapshotter).
                if (incremental != null && incremental.fill(out, room, position, builder, this::baseOffset)) {
                    continue;
                }
                Delivery next = assembler.nextDelivery();
                if (next == null) {
                    if (incremental != null && incremental.streamIdle()) {
                        continue;
                    }
                    return true;
                }
                if (incremental != null) {
                    incremental.streamTurnTaken();
                }
                begin(next, out);
                continue;
            }
            ChangeEvent event;
            List<String> unresolved = List.of();
            boolean skipped;
            if (toast == null) {
                event = current.changes().next();
                skipped = event != null && skipsAsResumed(event);
            } else {
                // The records of a delivery already in Kafka are not emitted again: their changes only feed the store.
                var outcome = toast.next(current, skip != Long.MAX_VALUE, this::skipsAsResumed);
                event = outcome == null ? null : outcome.event();
                unresolved = outcome == null ? List.of() : outcome.unresolved();
                skipped = outcome != null && outcome.skipped();
            }
            if (event == null) {
                if (!(toast == null ? current.changes().atEnd() : toast.atEnd(current))) {
                    return false;
                }
                finish(out);
                continue;
            }
            if (incremental != null && incremental.observe(event, current)) {
                // The signal lives in the offsets of the records built from now on, and this delivery may have none.
                tracker.carriesOffsetState(unit);
            }
            if (skipped) {
                // Wholly in the rows of the resumed snapshot as read; numbered the same way after every restart, since
                // the resumptions stay in the offsets until the stream is past them.
                continue;
            }
            if (resumedSnapshot != null) {
                // The side of it the resumed snapshot's rows as read lack (an update read at two points).
                event = lackingSide(event);
            }
            boolean inKafka = debeziumPrefix != null && debeziumPrefix.covers(event);
            if (!inKafka) {
                debeziumPrefix = null;
            }
            if (pendingBeginOrder != 0) {
                if (inKafka) {
                    // Debezium wrote the transaction's BEGIN before its first change.
                    skip = Math.max(skip, pendingBeginOrder);
                }
                emitBegin(event.walPosition(), out);
            }
            List<Draft> drafts = builder.build(event, current);
            if (!drafts.isEmpty()) {
                flushHeld(out, false);
                for (Draft draft : drafts) {
                    held.add(new Numbered(draft, nextOrder++, event.walPosition(), draft.value() == null ? List.of() : unresolved));
                }
            }
            if (inKafka) {
                skip = Math.max(skip, nextOrder - 1);
            }
        }
        return false;
    }

    /** Whether the resumed snapshot's rows as read already hold every side of {@code event}. */
    private boolean skipsAsResumed(ChangeEvent event) {
        return resumedSnapshot != null && lackingSide(event) == null;
    }

    /**
     * {@link ResumedSnapshotFilter#lacking} of {@code event}, asked once per change: the skip decision and the emission
     * both need it, and placing a change of a table without a key costs a query.
     */
    private ChangeEvent lackingSide(ChangeEvent event) {
        if (event != lackingAskedFor) {
            lackingAskedFor = event;
            lacking = resumedSnapshot.lacking(event, current);
        }
        return lacking;
    }

    /** The position of everything emitted so far. */
    Position position() {
        return position;
    }

    /** Debezium's heartbeat key schema: the topic prefix as {@code serverName}. */
    static final Schema HEARTBEAT_KEY_SCHEMA = SchemaBuilder.struct().name("io.debezium.connector.common.ServerNameKey")
            .version(1).field("serverName", Schema.STRING_SCHEMA).build();
    /** Debezium's heartbeat value schema: {@code ts_ms}, when the heartbeat was written. */
    static final Schema HEARTBEAT_VALUE_SCHEMA = SchemaBuilder.struct().name("io.debezium.connector.common.Heartbeat")
            .version(1).field("ts_ms", Schema.INT64_SCHEMA).build();

    /**
     * A heartbeat record at {@code lsn}, to be emitted while idle; it moves the offset on an idle database. Its key and
     * value are Debezium's ({@link #HEARTBEAT_KEY_SCHEMA}, {@link #HEARTBEAT_VALUE_SCHEMA}); the LSN is in its offset.
     */
    SourceRecord heartbeat(String topic, String serverName, Lsn lsn) {
        Schema keySchema = HEARTBEAT_KEY_SCHEMA;
        Schema valueSchema = HEARTBEAT_VALUE_SCHEMA;
        lastCompletedEnd = Lsn.max(lastCompletedEnd, lsn);
        position = Position.afterDelivery(lastCompletedEnd);
        long now = System.currentTimeMillis();
        // Partition 0, as Debezium writes its heartbeats.
        SourceRecord record = builder.encoder().record(partition, offset(position), topic, 0, keySchema,
                new Struct(keySchema).put("serverName", serverName), valueSchema,
                new Struct(valueSchema).put("ts_ms", now), now, null);
        AcknowledgementTracker.Unit beat = tracker.open();
        tracker.emitted(beat, record);
        tracker.ended(beat, lastCompletedEnd);
        return record;
    }

    private void begin(Delivery delivery, List<SourceRecord> out) {
        current = delivery;
        currentHeaders = LifecycleHeaders.ofDelivery(delivery.xid(), delivery.endLsn(), delivery.kind(),
                delivery.gid().orElse(null));
        unit = tracker.open();
        lastRecord = null;
        skip = resume.recordsToSkip(delivery);
        debeziumPrefix = resume.debeziumPrefix(delivery);
        nextOrder = 1;
        if (delivery.twoPhase() || delivery.kind() == Delivery.Kind.ROLLED_BACK) {
            // COMMIT PREPARED / ROLLBACK PREPARED: no changes, one lifecycle record keyed by the GID.
            if (transactions != null) {
                held.add(new Numbered(transactions.outcome(delivery), nextOrder++, delivery.lsn()));
            }
            finish(out);
            return;
        }
        if (transactions != null && TransactionTopicRecords.hasBeginAndEnd(delivery)) {
            // Written with the first change: its id names the WAL position where the transaction's first change is,
            // the position of the Begin message Debezium writes (pgoutput's Begin does not carry it).
            pendingBeginOrder = nextOrder++;
        }
    }

    private void emitBegin(Lsn firstChange, List<SourceRecord> out) {
        Numbered begin = new Numbered(transactions.begin(current, firstChange), pendingBeginOrder, current.lsn());
        pendingBeginOrder = 0;
        emit(begin, false, out);
    }

    private void finish(List<SourceRecord> out) {
        Delivery delivery = current;
        Lsn end = delivery.endLsn();
        debeziumPrefix = null;
        if (pendingBeginOrder != 0) {
            emitBegin(delivery.lsn(), out);
        }
        if (transactions != null && TransactionTopicRecords.hasBeginAndEnd(delivery)) {
            flushHeld(out, false);
            held.add(new Numbered(transactions.end(delivery, builder.countsPerDataCollection(delivery)), nextOrder++, delivery.lsn()));
        }
        flushHeld(out, true);
        tracker.ended(unit, end);
        lastCompletedEnd = Lsn.max(lastCompletedEnd, end);
        if (skip != Long.MAX_VALUE) {
            // A delivery all in Kafka already (sent again after a reconnect) leaves the position where it stands: it
            // may stand inside a later delivery, whose records emitted so far must go on being skipped when it comes.
            position = Position.afterDelivery(lastCompletedEnd);
        }
        if (resumedSnapshot != null && !lastCompletedEnd.isBefore(resumedSnapshot.until())) {
            close();
        }
        SourceRecord last = lastRecord;
        current = null;
        currentHeaders = null;
        unit = null;
        lastRecord = null;
        if (incremental != null) {
            incremental.delivered(delivery, skip == Long.MAX_VALUE);
        }
        if (toast != null) {
            toast.delivered(delivery);
        }
        delivered.delivered(delivery, last);
    }

    private Map<String, Object> offset(Position at) {
        Map<String, Object> base = baseOffset(at);
        return incremental == null ? base : incremental.offset(base);
    }

    /** The offset of a record at {@code at} without an incremental snapshot's position. */
    private Map<String, Object> baseOffset(Position at) {
        return resumedSnapshot == null ? offsets.encode(at) : resumedSnapshot.offset(at);
    }

    /** Emits the held records; with {@code endsDelivery} the last one carries the offset after the delivery. */
    private void flushHeld(List<SourceRecord> out, boolean endsDelivery) {
        for (int i = 0; i < held.size(); i++) {
            emit(held.get(i), endsDelivery && i == held.size() - 1, out);
        }
        held.clear();
    }

    private void emit(Numbered numbered, boolean last, List<SourceRecord> out) {
        if (numbered.order() <= skip) {
            // Already in Kafka. Its position is not computed: a delivery replayed from before the stored position
            // was committed before the last completed one.
            return;
        }
        Delivery delivery = current;
        Position at = last
                ? Position.afterDelivery(Lsn.max(lastCompletedEnd, delivery.endLsn()))
                : Position.insideDelivery(lastCompletedEnd, delivery.lsn(), delivery.endLsn(), numbered.order(),
                        resume.numbering());
        ConnectHeaders headers = new ConnectHeaders();
        currentHeaders.addTo(headers, numbered.lsn(), numbered.order());
        Draft draft = numbered.draft();
        draft.addDebeziumHeaders(headers, builder.contextHeaders());
        if (!numbered.unresolved().isEmpty()) {
            headers.addString(LifecycleHeaders.TOAST_UNRESOLVED, String.join(",", numbered.unresolved()));
        }
        SourceRecord record = builder.record(draft, partition, offset(at), headers);
        tracker.emitted(unit, record);
        out.add(record);
        position = at;
        if (last) {
            lastRecord = record;
        }
    }
}
