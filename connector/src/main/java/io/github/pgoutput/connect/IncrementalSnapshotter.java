package io.github.pgoutput.connect;

import io.github.pgoutput.assembly.ChangeEvent;
import io.github.pgoutput.assembly.Delivery;
import io.github.pgoutput.connect.metrics.IncrementalSnapshotMetrics;
import io.github.pgoutput.connect.offsets.AcknowledgementTracker;
import io.github.pgoutput.connect.offsets.SourceOffsets.Position;
import io.github.pgoutput.connect.offsets.SourceOffsets;
import io.github.pgoutput.connect.record.ChangeRecordBuilder.Draft;
import io.github.pgoutput.connect.record.ChangeRecordBuilder;
import io.github.pgoutput.connect.record.LifecycleHeaders;
import io.github.pgoutput.connect.signal.KafkaSignalChannel;
import io.github.pgoutput.connect.signal.Signal;
import io.github.pgoutput.pgoutput.ColumnValue;
import io.github.pgoutput.pgoutput.Lsn;
import io.github.pgoutput.pgoutput.PgOutputMessage;
import io.github.pgoutput.pgoutput.RelationColumn;
import io.github.pgoutput.replication.SqlStates;
import io.github.pgoutput.replication.TableName;
import io.github.pgoutput.snapshot.ChunkReader.Chunk;
import io.github.pgoutput.snapshot.SnapshotException;
import io.github.pgoutput.snapshot.SnapshotRow;
import io.github.pgoutput.snapshot.TransactionSnapshot;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.function.Predicate;
import org.apache.kafka.connect.header.ConnectHeaders;
import org.apache.kafka.connect.source.SourceRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Incremental snapshots while streaming: on an {@code execute-snapshot} signal (and, with {@code snapshot.mode=always},
 * for every captured table when a start resumes streaming), the named tables are read in chunks
 * of {@code incremental.snapshot.chunk.size} rows in key order ({@link io.github.pgoutput.snapshot.ChunkReader}),
 * and each chunk's rows are emitted as {@code op=r} records with {@code source.snapshot=incremental} between two
 * deliveries of the stream.
 *
 * <p>Why the result equals the table. A chunk is read, in a snapshot of its own, at a moment when every delivery the
 * stream has emitted is committed and seen by that snapshot, and it is put in the stream right there: every change
 * emitted before it is in the chunk's rows already, and every change to one of its rows that the chunk does not
 * hold comes later in the stream, so a consumer that applies records in order ends with the table's rows. (Changes
 * the chunk holds may also come after it; they repeat what the chunk says, and the last change of a key is the
 * table's row.) A chunk is read only between deliveries, so no watermark has to be written to the database: a role
 * with SELECT on the tables is enough. A delivered transaction the chunk's snapshot does not see (its commit was
 * decoded a moment before the committing backend ended) makes the chunk be read again; a PREPARED delivery (with
 * {@code prepared.transaction.mode=stage}) holds chunks back until its outcome is delivered, as its changes are in
 * Kafka but not yet in any snapshot.
 *
 * <p>Offsets: every record carries where the snapshot stands ({@link IncrementalSnapshotState}); a chunk's rows each
 * name themselves as read, so a restarted task reads on after the last row in Kafka. Signals come from the Kafka
 * signal topic (its next offset is kept in the offsets too), from rows inserted into the signal table and from
 * logical decoding messages with the signal prefix, the last two applied as the stream delivers them (the commit LSN
 * of the transaction of the last one applied, and how many of its signals, are kept, so a replayed transaction does
 * not signal twice).
 *
 * <p>Memory: one chunk's rows at most. Not thread-safe: the task's poll thread.
 */
public final class IncrementalSnapshotter implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(IncrementalSnapshotter.class);
    /**
     * What the snapshots read and where signals come from besides the Kafka topic.
     *
     * @param chunkSize           rows per chunk
     * @param signalTable         the signal table, or null
     * @param messagePrefix       the prefix of logical decoding messages that are signals, or null
     * @param newTablesCheckNanos with {@code snapshot.new.tables=incremental}, how often the captured tables are
     *                            listed again (the first time at the first boundary); negative: never
     */
    record Settings(int chunkSize, TableName signalTable, String messagePrefix, long newTablesCheckNanos) {
    }

    /** The database side: the captured tables, and chunks of them ({@code ChunkReader} in production). */
    public interface Chunks extends AutoCloseable {
        List<TableName> capturedTables() throws SQLException;

        Chunk read(TableName table, List<String> after, int size, String condition) throws SQLException;

        /**
         * A hint: {@link #read} will soon be asked for this chunk, which may be read now in the background
         * ({@link PrefetchedChunks}). Reads nothing by default.
         */
        default void prefetch(TableName table, List<String> after, int size, String condition) {
        }

        @Override
        void close();
    }

    private final Chunks chunks;
    private final Settings settings;
    private final KafkaSignalChannel kafka;
    private final AcknowledgementTracker tracker;
    private final Map<String, ?> partition;
    private final Consumer<SourceRecord> chunkEnded;
    private final LongSupplier nanos;
    private final IncrementalSnapshotMetrics progress;

    /** Where the snapshot stands as of the records built so far, and as of the last ones handed to Connect. */
    private IncrementalSnapshotState state;
    private Marks marks;
    private IncrementalSnapshotState handedState;
    private Marks handedMarks;

    /** The tables list whose text {@link #encodedTables} is (compared by identity: states share their list). */
    private List<IncrementalSnapshotState.Table> encodedTablesOf;
    private String encodedTables;
    /** With {@code snapshot.new.tables=incremental}; null otherwise. */
    private final NewTables newTables;
    /**
     * With {@code snapshot.mode=always} after the first start: the captured tables this selects are to be queued at the
     * first boundary (null once they are, and when nothing was asked); and the same as of the records handed to
     * Connect, so that a failed poll asks again.
     */
    private Predicate<TableName> snapshotAllRequest;
    private Predicate<TableName> handedSnapshotAllRequest;
    /** Signal rows seen so far in the delivery being emitted. */
    private int signalRowsSeen;
    /** A chunk was emitted since the stream last had its turn: the next one waits for a delivery, or for idleness. */
    private boolean streamsTurn;
    /** The rows of the chunk being emitted that are not yet in a poll's batch, and their states. */
    private final List<SourceRecord> chunkRecords = new ArrayList<>();
    private final List<IncrementalSnapshotState> chunkStates = new ArrayList<>();
    private int chunkNext;
    /** The state before the chunk being emitted. */
    private IncrementalSnapshotState chunkStartState;
    private AcknowledgementTracker.Unit chunkUnit;
    private final DeliveredTransactions deliveredTransactions = new DeliveredTransactions();

    /**
     * How far signals were read: the signal topic's next offset; the commit LSN of the transaction of the last signal
     * row applied, and how many of its signal rows were applied.
     */
    record Marks(long signalOffset, Lsn signalLsn, long signalRows) {
    }

    /**
     * @param kafka      the Kafka signal channel, or null
     * @param stored     the stored offset (null when none): where a snapshot under way stands, how far signals were read
     * @param chunkEnded told of each chunk's last record (Kafka transactions under connector-defined boundaries)
     */
    IncrementalSnapshotter(Chunks chunks, Settings settings, KafkaSignalChannel kafka, AcknowledgementTracker tracker,
                           Map<String, ?> partition, Map<String, ?> stored, Consumer<SourceRecord> chunkEnded, LongSupplier nanos,
                           IncrementalSnapshotMetrics progress) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.newTables = settings.newTablesCheckNanos() < 0 ? null : new NewTables(settings.newTablesCheckNanos(), nanos, stored);
        this.chunks = Objects.requireNonNull(chunks, "chunks");
        this.kafka = kafka;
        this.tracker = tracker;
        this.partition = partition;
        this.chunkEnded = chunkEnded;
        this.nanos = nanos;
        this.progress = progress;
        String text = SourceOffsets.incrementalSnapshot(stored);
        this.state = text == null ? IncrementalSnapshotState.NONE : decode(text);
        this.marks = new Marks(SourceOffsets.signalOffset(stored), SourceOffsets.signalLsn(stored), SourceOffsets.signalRows(stored));
        this.handedState = state;
        this.handedMarks = marks;
        publishState();
        if (state.active()) {
            log.info("Incremental snapshot resumes{}: {} table(s) to read, {} after key {}", state.paused() ? " (paused)" : "",
                    state.tables().size(), state.current().name(), state.after());
        }
    }

    private static IncrementalSnapshotState decode(String text) {
        try {
            return IncrementalSnapshotState.decode(text);
        } catch (IllegalArgumentException e) {
            throw new org.apache.kafka.connect.errors.ConnectException("the stored offset's " + SourceOffsets.OFFSET_INCREMENTAL_SNAPSHOT
                    + " is not readable (" + e.getMessage() + "); was it written by another connector?", e);
        }
    }

    IncrementalSnapshotState state() {
        return state;
    }

    /**
     * {@code snapshot.mode=always} on a start that resumes streaming: every captured table {@code selected} accepts
     * ({@code snapshot.include.list}) is queued for an incremental snapshot at the first boundary, after any snapshot
     * under way (whose tables are not queued twice). Called once, before the first {@link #fill}.
     */
    void requestSnapshotOfCapturedTables(Predicate<TableName> selected) {
        snapshotAllRequest = Objects.requireNonNull(selected, "selected");
        handedSnapshotAllRequest = snapshotAllRequest;
    }

    /** {@code offset} with where the snapshot stands and how far the signals were read. */
    Map<String, Object> offset(Map<String, Object> offset) {
        return SourceOffsets.withSignals(offset, state.active() ? encoded(state) : null, marks.signalOffset(), marks.signalLsn(),
                marks.signalRows(), newTables == null ? null : newTables.knownText());
    }

    /** {@code state}'s text; the text of its tables is made again only when they change, not for every row. */
    private String encoded(IncrementalSnapshotState s) {
        if (s.tables() != encodedTablesOf) {
            encodedTables = IncrementalSnapshotState.tablesPart(s.tables());
            encodedTablesOf = s.tables();
        }
        return s.encode(encodedTables);
    }

    /**
     * Called for every change of the delivery being emitted: a row inserted into the signal table, and a logical
     * decoding message with the signal prefix, is a signal.
     */
    void observe(ChangeEvent event, Delivery delivery) {
        PgOutputMessage.StreamScoped message = event.message();
        if (message instanceof PgOutputMessage.LogicalMessage logical) {
            if (settings.messagePrefix() != null && settings.messagePrefix().equals(logical.prefix())) {
                String from = "logical decoding message at " + logical.lsn();
                signalInStream(delivery, from, () -> Signal.ofDocument(logical.lsn().toString(),
                        logical.content().toUtf8()));
            }
            return;
        }
        TableName table = settings.signalTable();
        if (table != null && message instanceof PgOutputMessage.Insert insert && table.schema().equals(event.relation().namespace())
                && table.table().equals(event.relation().relationName())) {
            signalInStream(delivery, "signal table " + table + " (transaction committed at " + delivery.lsn() + ")",
                    () -> signalRow(event.relation().columns(), insert));
        }
    }

    /** A signal the stream delivered: applied once, when the delivery is committed (not PREPARED). */
    private void signalInStream(Delivery delivery, String from, java.util.function.Supplier<Signal> signal) {
        if (delivery.kind() != Delivery.Kind.COMMITTED) {
            // A PREPARED row is not a signal before COMMIT PREPARED (and then it is not sent again).
            return;
        }
        int row = ++signalRowsSeen;
        if (delivery.lsn().isBefore(marks.signalLsn()) || (delivery.lsn().equals(marks.signalLsn()) && row <= marks.signalRows())) {
            // Replayed after a restart or a reconnect: applied already, as the offset says.
            return;
        }
        // Applied at once, so that the offsets of the delivery's later records say so: a restart from one of them
        // replays the rest of the transaction, and the mark keeps its signal from being applied twice.
        marks = new Marks(marks.signalOffset(), delivery.lsn(), row);
        try {
            apply(signal.get(), from);
        } catch (IllegalArgumentException e) {
            log.warn("Ignored, not a signal: {} ({})", e.getMessage(), from);
        }
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

    /** Called when a delivery has been emitted whole: remembers its transaction for the visibility check. */
    void delivered(Delivery delivery) {
        signalRowsSeen = 0;
        deliveredTransactions.delivered(delivery);
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
        checkNewTables();
        queueRequestedTables();
        if (!state.active() || state.paused() || streamsTurn || position.txLsn() != null) {
            // Inside a delivery (resumed from an offset inside one) the rest of it comes first.
            return false;
        }
        Optional<Long> prepared = deliveredTransactions.preparedAwaitingOutcome();
        if (prepared.isPresent()) {
            progress.held("a PREPARED transaction (xid " + prepared.get() + ") awaits its outcome");
            return false;
        }
        for (int emptyTables = 0; emptyTables < 16 && state.active(); emptyTables++) {
            IncrementalSnapshotState.Table table = state.current();
            Chunk chunk;
            try {
                chunk = chunks.read(table.name(), state.after(), settings.chunkSize(), table.condition());
            } catch (SQLException e) {
                // A table that is gone, a filter that is not SQL, a privilege not granted: another signal, a fix or a
                // grant helps, not a retry.
                if (SqlStates.isSyntaxOrAccessRule(e.getSQLState())) {
                    skip(table, e.getMessage() + " [SQLState " + e.getSQLState() + "]");
                    continue;
                }
                throw new SnapshotException(SnapshotException.Reason.READ_FAILED, "incremental snapshot of table " + table.name()
                        + " after key " + state.after() + ": " + e.getMessage() + " [SQLState " + e.getSQLState() + "]", e);
            } catch (SnapshotException e) {
                if (e.reason() == SnapshotException.Reason.NOT_RESUMABLE || e.reason() == SnapshotException.Reason.PRIVILEGE) {
                    skip(table, e.getMessage());
                    continue;
                }
                throw e;
            }
            Optional<Long> unseen = deliveredTransactions.unseenBy(chunk.visibility());
            if (unseen.isPresent()) {
                // Read again at the next boundary: the committing backend is about to end.
                progress.held("transaction " + unseen.get() + " is delivered but not yet seen by a new snapshot");
                return false;
            }
            if (chunk.rows().isEmpty()) {
                finishTable(table);
                continue;
            }
            buildChunk(chunk, position, builder, baseOffset);
            if (state.active() && !state.paused()) {
                // Read while Connect converts and sends this chunk; checked like any chunk when it is placed.
                chunks.prefetch(state.current().name(), state.after(), settings.chunkSize(), state.current().condition());
            }
            return addChunkRecords(out, room, position);
        }
        return false;
    }

    /**
     * A signal asked for what cannot be read (no such table, a condition that is not SQL, no SELECT privilege, no key
     * to read in chunks by): the table is left out, loudly, and the stream goes on. A signal is a request made while
     * the connector runs; failing the task for it would stop the stream of every other table.
     */
    private void skip(IncrementalSnapshotState.Table table, String why) {
        log.error("Incremental snapshot of table {}{} cannot be taken and is left out; the other tables and the stream go on: {}",
                table.name(), table.condition() == null ? "" : " (additional condition: " + table.condition() + ")", why);
        finishTable(table);
    }

    private void finishTable(IncrementalSnapshotState.Table table) {
        state = state.tableDone();
        progress.tableDone(table.name().toString());
        publishState();
        if (!state.active()) {
            log.info("Incremental snapshot finished");
        }
    }

    private void buildChunk(Chunk chunk, Position position, ChangeRecordBuilder builder, Function<Position, Map<String, Object>> baseOffset) {
        chunkStartState = state;
        progress.chunk(chunk.rows().size(), chunk.table().estimatedRows());
        chunkRecords.clear();
        chunkStates.clear();
        chunkNext = 0;
        chunkUnit = tracker.open();
        Lsn at = position.lsn();
        List<SnapshotRow> rows = chunk.rows();
        for (int i = 0; i < rows.size(); i++) {
            SnapshotRow row = rows.get(i);
            Draft draft = builder.snapshotRow(row, at, null);
            boolean tableEnds = chunk.lastOfTable() && i == rows.size() - 1;
            if (tableEnds) {
                finishTable(state.current());
            } else {
                state = state.readThrough(chunk.key().of(row.values()));
            }
            ConnectHeaders headers = new ConnectHeaders();
            LifecycleHeaders.addSnapshot(headers, at);
            draft.addDebeziumHeaders(headers, builder.contextHeaders());
            SourceRecord record = builder.record(draft, partition, offset(baseOffset.apply(position)), headers);
            chunkRecords.add(record);
            chunkStates.add(state);
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
            chunkStates.clear();
            streamsTurn = true;
            chunkNext = 0;
            chunkUnit = null;
            chunkEnded.accept(last);
        }
        return out.size() > before;
    }

    /**
     * {@code snapshot.new.tables=incremental}: a captured table the offsets did not name is queued for an incremental
     * snapshot of its own. Without such a list (the first run with the setting) the tables listed now are the ones
     * known: the initial snapshot, or the stream since, has them.
     */
    private void checkNewTables() {
        if (newTables == null) {
            return;
        }
        boolean knew = newTables.knowsTables();
        List<TableName> added;
        try {
            added = newTables.added(chunks::capturedTables);
        } catch (SQLException e) {
            throw new SnapshotException(SnapshotException.Reason.READ_FAILED, "listing the captured tables (snapshot.new.tables) failed: "
                    + e.getMessage() + " [SQLState " + e.getSQLState() + "]", e);
        }
        if (!knew && newTables.knowsTables()) {
            log.info("snapshot.new.tables=incremental: the captured tables are known; a table captured from now on gets an incremental snapshot");
        }
        if (!added.isEmpty()) {
            boolean underWay = state.active();
            state = state.with(added.stream().map(t -> new IncrementalSnapshotState.Table(t, null)).toList());
            log.info("Newly captured table(s) {}: incremental snapshot (snapshot.new.tables=incremental){}", added,
                    underWay ? ", queued after the tables under way" : "");
            publishState();
        }
    }

    private void queueRequestedTables() {
        if (snapshotAllRequest == null) {
            return;
        }
        List<TableName> captured;
        try {
            captured = chunks.capturedTables().stream().filter(snapshotAllRequest).toList();
        } catch (SQLException e) {
            throw new SnapshotException(SnapshotException.Reason.READ_FAILED, "listing the captured tables (snapshot.mode always) failed: "
                    + e.getMessage() + " [SQLState " + e.getSQLState() + "]", e);
        }
        boolean underWay = state.active();
        state = state.with(captured.stream().map(t -> new IncrementalSnapshotState.Table(t, null)).toList());
        snapshotAllRequest = null;
        log.info("snapshot.mode always: incremental snapshot of the {} captured table(s) {} while streaming{}", captured.size(), captured,
                underWay ? ", after the tables under way" : "");
        publishState();
    }

    /** The stream takes its turn: a delivery is about to be emitted. */
    void streamTurnTaken() {
        streamsTurn = false;
    }

    /**
     * The stream has nothing to deliver right now: true when a chunk waits for its turn, which it then has (the
     * caller asks {@link #fill} again).
     */
    boolean streamIdle() {
        if (streamsTurn && state.active() && !state.paused()) {
            streamsTurn = false;
            return true;
        }
        streamsTurn = false;
        return false;
    }

    private void readKafkaSignals() {
        if (kafka == null) {
            return;
        }
        for (KafkaSignalChannel.Received r : kafka.poll(nanos.getAsLong())) {
            marks = new Marks(r.offset() + 1, marks.signalLsn(), marks.signalRows());
            if (r.problem() != null) {
                log.warn("Ignored: {}", r.problem());
            } else if (r.signal() != null) {
                apply(r.signal(), "signal topic offset " + r.offset());
            }
        }
    }

    private void apply(Signal signal, String from) {
        state = SnapshotSignals.apply(state, signal, from, () -> {
            try {
                return chunks.capturedTables();
            } catch (SQLException e) {
                throw new SnapshotException(SnapshotException.Reason.READ_FAILED, "listing the captured tables for signal '" + signal.id()
                        + "' failed: " + e.getMessage() + " [SQLState " + e.getSQLState() + "]", e);
            }
        });
        publishState();
    }

    /** The records of a poll were handed to Connect: a later failure goes back to what they say. */
    void handedOver() {
        handedState = state;
        handedMarks = marks;
        handedSnapshotAllRequest = snapshotAllRequest;
        if (newTables != null) {
            newTables.handedOver();
        }
        if (chunkNext < chunkRecords.size()) {
            // Part of the chunk is handed over (none of it when the chunk was read after this poll's last record); the
            // rest stays for the next poll, and a failure goes back to the last row handed over.
            handedState = chunkNext == 0 ? chunkStartState : chunkStates.get(chunkNext - 1);
        }
    }

    /**
     * The records built since the last hand-over will not reach Kafka (the poll failed): go back to where the handed
     * records leave the snapshot and the signals. Signal rows come again with the stream, which is read again from an
     * earlier position; the signal topic is read again from the handed offset.
     */
    void abandoned() {
        state = handedState;
        marks = handedMarks;
        snapshotAllRequest = handedSnapshotAllRequest;
        if (newTables != null) {
            newTables.abandoned();
        }
        signalRowsSeen = 0;
        publishState();
        chunkRecords.clear();
        chunkStates.clear();
        chunkNext = 0;
        chunkUnit = null;
        streamsTurn = false;
        if (kafka != null) {
            kafka.seek(marks.signalOffset());
        }
    }

    private void publishState() {
        progress.state(state.tables().stream().map(t -> t.name().toString()).toList(), state.paused());
    }

    @Override
    public void close() {
        chunks.close();
        if (kafka != null) {
            kafka.close();
        }
    }
}
