package io.github.pgoutput.connect;

import io.github.pgoutput.assembly.ChangeEvent;
import io.github.pgoutput.assembly.Delivery;
import io.github.pgoutput.connect.offsets.AcknowledgementTracker;
import io.github.pgoutput.connect.offsets.SourceOffsets.Position;
import io.github.pgoutput.connect.offsets.SourceOffsets;
import io.github.pgoutput.connect.record.ChangeRecordBuilder.Draft;
import io.github.pgoutput.connect.record.ChangeRecordBuilder;
import io.github.pgoutput.connect.record.LifecycleHeaders;
import io.github.pgoutput.connect.signal.KafkaSignalChannel;
import io.github.pgoutput.pgoutput.Lsn;
import io.github.pgoutput.replication.TableName;
import io.github.pgoutput.snapshot.SnapshotRow;
import io.github.pgoutput.snapshot.IncrementalSnapshot;
import io.github.pgoutput.snapshot.IncrementalSnapshotState;
import io.github.pgoutput.snapshot.Snapshots;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.function.Predicate;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.header.ConnectHeaders;
import org.apache.kafka.connect.source.SourceRecord;

/**
 * Incremental snapshots in the Kafka Connect task: {@link IncrementalSnapshot} decides when a chunk is due and where
 * the snapshot stands; this class reads the Kafka signal topic for it, turns a due chunk's rows into {@code op=r}
 * records with {@code source.snapshot=incremental} between two deliveries of the stream, hands them to poll batches
 * (a chunk may span several), and writes where the snapshot stands and how far signals were read into every
 * record's offset.
 *
 * <p>Memory: one chunk's records at most. Not thread-safe: the task's poll thread.
 */
public final class IncrementalSnapshotter implements AutoCloseable {

    private final IncrementalSnapshot snapshot;
    private final KafkaSignalChannel kafka;
    private final AcknowledgementTracker tracker;
    private final Map<String, ?> partition;
    private final Consumer<SourceRecord> chunkEnded;
    private final LongSupplier nanos;

    /** The records of the chunk being emitted that are not yet in a poll's batch, and where each leaves the snapshot. */
    private final List<SourceRecord> chunkRecords = new ArrayList<>();
    private List<IncrementalSnapshotState> chunkStates = List.of();
    private int chunkNext;
    /** Where the snapshot stood before the chunk being emitted. */
    private IncrementalSnapshotState chunkStartState;
    private AcknowledgementTracker.Unit chunkUnit;

    /**
     * @param kafka      the Kafka signal channel, or null
     * @param stored     the stored offset (null when none): where a snapshot under way stands, how far signals were read
     * @param chunkEnded told of each chunk's last record (Kafka transactions under connector-defined boundaries)
     */
    IncrementalSnapshotter(Snapshots snapshots, IncrementalSnapshot.Settings settings, KafkaSignalChannel kafka,
                           AcknowledgementTracker tracker, Map<String, ?> partition, Map<String, ?> stored,
                           Consumer<SourceRecord> chunkEnded, LongSupplier nanos, IncrementalSnapshot.Progress progress) {
        this.kafka = kafka;
        this.tracker = tracker;
        this.partition = partition;
        this.chunkEnded = chunkEnded;
        this.nanos = nanos;
        IncrementalSnapshot.Marks marks = new IncrementalSnapshot.Marks(SourceOffsets.signalOffset(stored),
                SourceOffsets.signalLsn(stored), SourceOffsets.signalRows(stored));
        try {
            this.snapshot = snapshots.incremental(settings, progress, nanos, SourceOffsets.incrementalSnapshot(stored), marks,
                    SourceOffsets.capturedTables(stored));
        } catch (IllegalArgumentException e) {
            throw new ConnectException("the stored offset's " + SourceOffsets.OFFSET_INCREMENTAL_SNAPSHOT
                    + " is not readable (" + e.getMessage() + "); was it written by another connector?", e);
        }
    }

    /** See {@link IncrementalSnapshot#requestSnapshotOfCapturedTables}. */
    void requestSnapshotOfCapturedTables(Predicate<TableName> selected) {
        snapshot.requestSnapshotOfCapturedTables(selected);
    }

    /** {@code offset} with where the snapshot stands and how far the signals were read. */
    Map<String, Object> offset(Map<String, Object> offset) {
        return offset(offset, snapshot.state());
    }

    private Map<String, Object> offset(Map<String, Object> offset, IncrementalSnapshotState state) {
        IncrementalSnapshot.Marks marks = snapshot.marks();
        return SourceOffsets.withSignals(offset, snapshot.encoded(state), marks.signalOffset(), marks.signalLsn(),
                marks.signalRows(), snapshot.knownTablesText());
    }

    /** Called for every change of the delivery being emitted; see {@link IncrementalSnapshot#observe}. */
    boolean observe(ChangeEvent event, Delivery delivery) {
        return snapshot.observe(event, delivery);
    }

    /** Called when a delivery has been emitted whole; see {@link IncrementalSnapshot#delivered}. */
    void delivered(Delivery delivery, boolean replayed) {
        snapshot.delivered(delivery, replayed);
    }

    /**
     * Between deliveries: reads the signal topic, then adds the rest of the current chunk's records to {@code out}, or
     * reads the next chunk when due and adds its records, up to {@code room} in all.
     *
     * @param position the stream's position, which every chunk record carries
     * @return true when records were added
     */
    boolean fill(List<SourceRecord> out, int room, Position position, ChangeRecordBuilder builder,
                 Function<Position, Map<String, Object>> baseOffset) {
        readKafkaSignals();
        if (chunkNext < chunkRecords.size()) {
            return addChunkRecords(out, room, position);
        }
        Optional<IncrementalSnapshot.DueChunk> due = snapshot.nextChunk(position.txLsn() != null);
        if (due.isEmpty()) {
            return false;
        }
        buildChunk(due.get(), position, builder, baseOffset);
        snapshot.prefetchNext();
        return addChunkRecords(out, room, position);
    }

    private void buildChunk(IncrementalSnapshot.DueChunk chunk, Position position, ChangeRecordBuilder builder,
                            Function<Position, Map<String, Object>> baseOffset) {
        chunkStartState = chunk.stateBefore();
        chunkStates = chunk.rowStates();
        chunkRecords.clear();
        chunkNext = 0;
        chunkUnit = tracker.open();
        Lsn at = position.lsn();
        List<SnapshotRow> rows = chunk.rows();
        for (int i = 0; i < rows.size(); i++) {
            Draft draft = builder.snapshotRow(rows.get(i), at, null);
            ConnectHeaders headers = new ConnectHeaders();
            LifecycleHeaders.addSnapshot(headers, at);
            draft.addDebeziumHeaders(headers, builder.contextHeaders());
            SourceRecord record = builder.record(draft, partition, offset(baseOffset.apply(position), chunkStates.get(i)), headers);
            chunkRecords.add(record);
        }
    }

    private boolean addChunkRecords(List<SourceRecord> out, int room, Position position) {
        int before = out.size();
        while (chunkNext < chunkRecords.size() && out.size() < room) {
            SourceRecord record = chunkRecords.get(chunkNext++);
            tracker.emitted(chunkUnit, record);
            out.add(record);
        }
        if (chunkNext == chunkRecords.size()) {
            tracker.ended(chunkUnit, position.lsn());
            SourceRecord last = chunkRecords.get(chunkRecords.size() - 1);
            chunkRecords.clear();
            chunkStates = List.of();
            snapshot.chunkEmitted();
            chunkNext = 0;
            chunkUnit = null;
            chunkEnded.accept(last);
        }
        return out.size() > before;
    }

    /** The stream takes its turn: a delivery is about to be emitted. */
    void streamTurnTaken() {
        snapshot.streamTurnTaken();
    }

    /** See {@link IncrementalSnapshot#streamIdle()}. */
    boolean streamIdle() {
        return snapshot.streamIdle();
    }

    private void readKafkaSignals() {
        if (kafka == null) {
            return;
        }
        for (KafkaSignalChannel.Received r : kafka.poll(nanos.getAsLong())) {
            snapshot.signalFromTopic(r.offset(), r.signal(), r.problem());
        }
    }

    /** The records of a poll were handed to Connect: a later failure goes back to what they say. */
    void handedOver() {
        IncrementalSnapshotState partOfChunk = null;
        if (chunkNext < chunkRecords.size()) {
            // Part of the chunk is handed over (none of it when the chunk was read after this poll's last record); the
            // rest stays for the next poll, and a failure goes back to the last row handed over.
            partOfChunk = chunkNext == 0 ? chunkStartState : chunkStates.get(chunkNext - 1);
        }
        snapshot.handedOver(partOfChunk);
    }

    /**
     * The records built since the last hand-over will not reach Kafka (the poll failed): back to where the handed
     * records leave the snapshot and the signals; the signal topic is read again from the handed offset.
     */
    void abandoned() {
        snapshot.abandoned();
        chunkRecords.clear();
        chunkStates = List.of();
        chunkNext = 0;
        chunkUnit = null;
        if (kafka != null) {
            kafka.seek(snapshot.marks().signalOffset());
        }
    }

    @Override
    public void close() {
        snapshot.close();
        if (kafka != null) {
            kafka.close();
        }
    }
}
