package io.github.pgoutput.snapshot;

import io.github.pgoutput.assembly.ChangeEvent;
import io.github.pgoutput.assembly.Delivery;
import io.github.pgoutput.pgoutput.Lsn;
import io.github.pgoutput.replication.SqlStates;
import io.github.pgoutput.replication.TableName;
import io.github.pgoutput.snapshot.ChunkReader.Chunk;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.LongSupplier;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An incremental snapshot while streaming, without Kafka: where it stands, the signals that start, stop and pause
 * it, and when its next chunk may go into the stream. The connector turns a {@link DueChunk} into records; this class
 * decides when one is due and what the offsets of its rows say.
 *
 * <p>On an {@code execute-snapshot} signal (and, with {@code snapshot.mode=always}, for every captured table when a
 * start resumes streaming), the named tables are read in chunks of {@code incremental.snapshot.chunk.size} rows in
 * key order ({@link io.github.pgoutput.snapshot.ChunkReader}).
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
 * Kafka but not yet in any snapshot. After a chunk the stream has its turn: the next chunk waits for a delivery, or
 * for the stream to be idle.
 *
 * <p>Offsets: every record carries where the snapshot stands ({@link IncrementalSnapshotState}); a chunk's rows each
 * name themselves as read, so a restarted task reads on after the last row in Kafka. Signals come from the Kafka
 * signal topic (the connector reads it and hands each one to {@link #signalFromTopic}; its next offset is kept in the
 * {@link Marks}), from rows inserted into the signal table and from logical decoding messages with the signal prefix,
 * the last two applied as the stream delivers them (the commit LSN of the transaction of the last one applied, and how
 * many of its signals, are kept, so a replayed transaction does not signal twice).
 *
 * <p>What the connector hands over to Kafka is the line a failure goes back to: {@link #handedOver} marks it and
 * {@link #abandoned} returns to it. Memory: one chunk's rows at most (two with {@link PrefetchedChunks}). Not
 * thread-safe: the task's poll thread.
 */
public final class IncrementalSnapshot implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(IncrementalSnapshot.class);

    /**
     * What the snapshots read and where signals come from besides the Kafka topic.
     *
     * @param chunkSize           rows per chunk
     * @param signalTable         the signal table, or null
     * @param messagePrefix       the prefix of logical decoding messages that are signals, or null
     * @param newTablesCheckNanos with {@code snapshot.new.tables=incremental}, how often the captured tables are
     *                            listed again (the first time at the first boundary); negative: never
     */
    public record Settings(int chunkSize, TableName signalTable, String messagePrefix, long newTablesCheckNanos) {
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

    /** Who watches the snapshot's progress (the connector's MBean). */
    public interface Progress {
        /** The tables still to read, the first being read, and whether a pause holds them. */
        void state(List<String> tablesToRead, boolean paused);

        /** A chunk of {@code rows} rows is going into the stream; its table has about {@code estimatedRows}. */
        void chunk(int rows, long estimatedRows);

        void tableDone(String table);

        /** A due chunk waits, and why. */
        void held(String reason);
    }

    /**
     * How far signals were read: the signal topic's next offset; the commit LSN of the transaction of the last signal
     * row applied, and how many of its signal rows were applied.
     */
    public record Marks(long signalOffset, Lsn signalLsn, long signalRows) {
    }

    /**
     * A chunk to put into the stream now.
     *
     * @param rows        its rows, in key order
     * @param rowStates   where the snapshot stands after each row (the state an offset of that row carries)
     * @param stateBefore where it stood before the chunk
     */
    public record DueChunk(List<SnapshotRow> rows, List<IncrementalSnapshotState> rowStates, IncrementalSnapshotState stateBefore) {
    }

    private final Chunks chunks;
    private final Settings settings;
    private final Progress progress;
    /** With {@code snapshot.new.tables=incremental}; null otherwise. */
    private final NewTables newTables;
    private final DeliveredTransactions deliveredTransactions = new DeliveredTransactions();

    /** Where the snapshot stands as of the records built so far, and as of the last ones handed to Connect. */
    private IncrementalSnapshotState state;
    private IncrementalSnapshotState handedState;
    private final SignalSources signals;
    /** The tables list whose text {@link #encodedTables} is (compared by identity: states share their list). */
    private List<IncrementalSnapshotState.Table> encodedTablesOf;
    private String encodedTables;
    /**
     * With {@code snapshot.mode=always} after the first start: the captured tables this selects are to be queued at the
     * first boundary (null once they are, and when nothing was asked); and the same as of the records handed to
     * Connect, so that a failed poll asks again.
     */
    private Predicate<TableName> snapshotAllRequest;
    private Predicate<TableName> handedSnapshotAllRequest;
    /** A chunk was emitted since the stream last had its turn: the next one waits for a delivery, or for idleness. */
    private boolean streamsTurn;

    /**
     * @param resumed    the stored offset's state text, or null when no snapshot was under way
     * @param marks      how far the stored offset says signals were read
     * @param knownTables the stored offset's captured tables text ({@link #knownTablesText()}), or null
     * @throws IllegalArgumentException when {@code resumed} is not a state's text
     */
    public IncrementalSnapshot(Chunks chunks, Settings settings, Progress progress, LongSupplier nanos, String resumed,
                               Marks marks, String knownTables) {
        this.chunks = Objects.requireNonNull(chunks, "chunks");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.progress = Objects.requireNonNull(progress, "progress");
        this.newTables = settings.newTablesCheckNanos() < 0 ? null : new NewTables(settings.newTablesCheckNanos(), nanos, knownTables);
        this.state = resumed == null ? IncrementalSnapshotState.NONE : IncrementalSnapshotState.decode(resumed);
        this.signals = new SignalSources(settings.signalTable(), settings.messagePrefix(), marks, this::apply);
        this.handedState = state;
        publishState();
        if (state.active()) {
            log.info("Incremental snapshot resumes{}: {} table(s) to read, {} after key {}", state.paused() ? " (paused)" : "",
                    state.tables().size(), state.current().name(), state.after());
        }
    }

    public IncrementalSnapshotState state() {
        return state;
    }

    public Marks marks() {
        return signals.marks();
    }

    /** The known captured tables as an offset keeps them (with {@code snapshot.new.tables=incremental}); else null. */
    public String knownTablesText() {
        return newTables == null ? null : newTables.knownText();
    }

    /** {@code s}'s text for an offset, or null when no snapshot is under way in it; tables' text is made once. */
    public String encoded(IncrementalSnapshotState s) {
        if (!s.active()) {
            return null;
        }
        if (s.tables() != encodedTablesOf) {
            encodedTables = IncrementalSnapshotState.tablesPart(s.tables());
            encodedTablesOf = s.tables();
        }
        return s.encode(encodedTables);
    }

    /**
     * {@code snapshot.mode=always} on a start that resumes streaming: every captured table {@code selected} accepts
     * ({@code snapshot.include.list}) is queued for an incremental snapshot at the first boundary, after any snapshot
     * under way (whose tables are not queued twice). Called once, before the first {@link #nextChunk}.
     */
    public void requestSnapshotOfCapturedTables(Predicate<TableName> selected) {
        snapshotAllRequest = Objects.requireNonNull(selected, "selected");
        handedSnapshotAllRequest = snapshotAllRequest;
    }

    /**
     * Called for every change of the delivery being emitted: a row inserted into the signal table, and a logical
     * decoding message with the signal prefix, is a signal.
     *
     * @return true when a signal was applied now: what it did lives only in the offsets of the records built from now
     *         on, so the delivery must not count as done before such an offset is stored (a delivery whose signal row
     *         is its only change has no record of its own)
     */
    public boolean observe(ChangeEvent event, Delivery delivery) {
        return signals.observe(event, delivery);
    }

    /**
     * A record of the Kafka signal topic, read by the connector: {@code signal} is applied (unless null), and the
     * topic is read on after {@code offset}.
     *
     * @param problem why the record is not a signal, or null
     */
    public void signalFromTopic(long offset, Signal signal, String problem) {
        signals.fromTopic(offset, signal, problem);
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

    /**
     * Called when a delivery has been emitted whole: remembers its transaction for the visibility check.
     *
     * @param replayed whether it was all in Kafka already (PostgreSQL sent it again after a reconnect)
     */
    public void delivered(Delivery delivery, boolean replayed) {
        signals.delivered();
        deliveredTransactions.delivered(delivery, replayed);
    }

    /**
     * Between deliveries: the next chunk when one is due, read now, with the state after each of its rows (the
     * snapshot stands after its last row from now on). None when no snapshot is under way or it is paused, when the
     * stream has its turn, inside a delivery, while a PREPARED delivery awaits its outcome, or when the chunk's
     * snapshot does not see a delivered transaction yet (it is read again at the next boundary). A table that cannot
     * be read is left out, loudly; an empty one is done. Once its records are built, call {@link #prefetchNext}.
     *
     * @param insideDelivery whether the stream stands inside a delivery (resumed from an offset inside one): the rest
     *                       of it comes first
     */
    public Optional<DueChunk> nextChunk(boolean insideDelivery) {
        checkNewTables();
        queueRequestedTables();
        if (!state.active() || state.paused() || streamsTurn || insideDelivery) {
            return Optional.empty();
        }
        Optional<Long> prepared = deliveredTransactions.preparedAwaitingOutcome();
        if (prepared.isPresent()) {
            progress.held("a PREPARED transaction (xid " + prepared.get() + ") awaits its outcome");
            return Optional.empty();
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
                return Optional.empty();
            }
            if (chunk.rows().isEmpty()) {
                finishTable(table);
                continue;
            }
            return Optional.of(placed(chunk));
        }
        return Optional.empty();
    }

    /**
     * The records of the chunk {@link #nextChunk} gave are built: the next chunk may be read in the background now,
     * while Connect converts and sends this one (checked like any chunk when it is placed). Not earlier: building the
     * records may read the catalog.
     */
    public void prefetchNext() {
        if (state.active() && !state.paused()) {
            chunks.prefetch(state.current().name(), state.after(), settings.chunkSize(), state.current().condition());
        }
    }

    /** The chunk goes into the stream: the snapshot stands after each of its rows in turn, after the last from now on. */
    private DueChunk placed(Chunk chunk) {
        IncrementalSnapshotState before = state;
        progress.chunk(chunk.rows().size(), chunk.table().estimatedRows());
        List<SnapshotRow> rows = chunk.rows();
        List<IncrementalSnapshotState> states = new ArrayList<>(rows.size());
        for (int i = 0; i < rows.size(); i++) {
            boolean tableEnds = chunk.lastOfTable() && i == rows.size() - 1;
            if (tableEnds) {
                finishTable(state.current());
            } else {
                state = state.readThrough(chunk.key().of(rows.get(i).values()));
            }
            states.add(state);
        }
        return new DueChunk(rows, states, before);
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

    /** The last record of a chunk has gone into a poll's batch: the stream has its turn before the next chunk. */
    public void chunkEmitted() {
        streamsTurn = true;
    }

    /** The stream takes its turn: a delivery is about to be emitted. */
    public void streamTurnTaken() {
        streamsTurn = false;
    }

    /**
     * The stream has nothing to deliver right now: true when a chunk waits for its turn, which it then has (the
     * caller asks {@link #nextChunk} again).
     */
    public boolean streamIdle() {
        if (streamsTurn && state.active() && !state.paused()) {
            streamsTurn = false;
            return true;
        }
        streamsTurn = false;
        return false;
    }

    /**
     * The records of a poll were handed to Connect: a later failure goes back to what they say.
     *
     * @param partOfChunk where the snapshot stands as of the last chunk row handed over, when a chunk is handed over
     *                    only in part (the rest waits for the next poll); null otherwise
     */
    public void handedOver(IncrementalSnapshotState partOfChunk) {
        handedState = partOfChunk != null ? partOfChunk : state;
        signals.handedOver();
        handedSnapshotAllRequest = snapshotAllRequest;
        if (newTables != null) {
            newTables.handedOver();
        }
    }

    /**
     * The records built since the last hand-over will not reach Kafka (the poll failed): back to where the handed
     * records leave the snapshot and the signals. Signal rows come again with the stream, which is read again from an
     * earlier position; the connector reads the signal topic again from {@link #marks()}' offset.
     */
    public void abandoned() {
        state = handedState;
        signals.abandoned();
        snapshotAllRequest = handedSnapshotAllRequest;
        if (newTables != null) {
            newTables.abandoned();
        }
        streamsTurn = false;
        publishState();
    }

    private void publishState() {
        progress.state(state.tables().stream().map(t -> t.name().toString()).toList(), state.paused());
    }

    @Override
    public void close() {
        chunks.close();
    }
}
