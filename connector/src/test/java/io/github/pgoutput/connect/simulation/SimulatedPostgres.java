package io.github.pgoutput.connect.simulation;

import io.github.pgoutput.assembly.PreparedTransactionMode;
import io.github.pgoutput.connect.TaskClock;
import io.github.pgoutput.connect.TaskPipeline;
import io.github.pgoutput.connect.config.ConnectorSettings;
import io.github.pgoutput.connect.config.PgOutputSourceConnectorConfig;
import io.github.pgoutput.connect.metrics.StreamingMetrics;
import io.github.pgoutput.pgoutput.DecoderSettings;
import io.github.pgoutput.pgoutput.Lsn;
import io.github.pgoutput.pgoutput.StreamingMode;
import io.github.pgoutput.replication.ReplicationConnectionLostException;
import io.github.pgoutput.replication.ReplicationStream;
import io.github.pgoutput.replication.Setting;
import io.github.pgoutput.replication.TypeCatalog;
import io.github.pgoutput.snapshot.InitialSnapshot;
import io.github.pgoutput.snapshot.SnapshotMode;
import io.github.pgoutput.snapshot.ScriptedSnapshots;
import io.github.pgoutput.snapshot.Snapshots;
import io.github.pgoutput.snapshot.SnapshotPlanner;
import io.github.pgoutput.spill.SpillContext;
import io.github.pgoutput.spill.TransactionSpill;
import io.github.pgoutput.spill.TransactionSpills;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.function.Consumer;

/**
 * The simulated PostgreSQL: one slot over a seeded WAL history, and the {@link TaskPipeline} each task gets.
 *
 * <p>The slot holds confirmed_flush (what the server heard in status updates, docs/pgoutput-protocol.md §2.4: it never moves back) and
 * two_phase_at (set for good by the first session started with two-phase decoding, docs/pgoutput-protocol.md §5.3/6.5). A session starts
 * at S = max(resumeFrom, confirmed_flush) (docs/pgoutput-protocol.md §2.1) and sends what {@link SimulatedWalSender} derives.
 *
 * <p>With incremental snapshots ({@link #withTables}) it also holds the tables' contents ({@link SimulatedDatabase}) and
 * serves chunks of them ({@link SimulatedChunks}) as of the moment of the read: never before what the walsender has
 * decoded and sent (every delivery the task emitted is committed), sometimes some records after it (the database is
 * ahead of decoding), never going back. A transaction whose commit was among the last records before the read may not
 * be seen yet (its backend has not left the process array): the case the task must catch and read the chunk again.
 *
 * <p>Faults: a connection loss at chosen read calls (numbered across the run), spill failures at chosen spill
 * operations, a lost connection at chosen chunk operations (reads and listings of the captured tables, numbered across
 * the run). Single-threaded, like the simulated Connect runtime that drives it.
 */
final class SimulatedPostgres {

    static final String SLOT = "sim_slot";

    private final SimulatedWal wal;
    private final SimulatedClock clock;
    private final SplittableRandom random;
    private final Set<Long> lossAtRead;
    private final Set<Long> spillFailAt;
    private final Path spillRoot;
    private final Consumer<Lsn> onDeclared;
    private final SimulationStats stats;
    private final long[] spillOperations = new long[1];
    private Lsn confirmedFlush = Lsn.INVALID;
    private Lsn twoPhaseAt;
    private long reads;
    private int sessions;
    private SimulatedStream current;
    /** With incremental snapshots: the tables; null otherwise. */
    private SimulatedDatabase database;
    private Set<Long> chunkFailAt = Set.of();
    /** The seeded choices of the database side (how far ahead a read is, whether a commit lags), apart from the stream's. */
    private final SplittableRandom tablesRandom;
    private long chunkOperations;
    /** How many WAL records the walsender has decoded and sent frames of, and how many the database has seen. */
    private int decoded;
    private int databaseAt;
    /** Per WAL record the database has seen, the simulated time (ms) it got there. */
    private long[] reachedAt;

    SimulatedPostgres(SimulatedWal wal, SimulatedClock clock, long seed, Set<Long> lossAtRead, Set<Long> spillFailAt, Path spillRoot,
                      Consumer<Lsn> onDeclared, SimulationStats stats) {
        this.wal = wal;
        this.clock = clock;
        this.random = new SplittableRandom(seed);
        this.tablesRandom = new SplittableRandom(~seed);
        this.lossAtRead = lossAtRead;
        this.spillFailAt = spillFailAt;
        this.spillRoot = spillRoot;
        this.onDeclared = onDeclared;
        this.stats = stats;
    }

    /** Incremental snapshots read {@code database}; chunk operations numbered {@code chunkFailAt} lose their connection. */
    SimulatedPostgres withTables(SimulatedDatabase database, Set<Long> chunkFailAt) {
        this.database = database;
        this.chunkFailAt = chunkFailAt;
        return this;
    }

    SimulatedDatabase database() {
        return database;
    }

    SimulationStats stats() {
        return stats;
    }

    /** The moment a chunk is read now: how many WAL records the database has seen (never going back). */
    int readPoint() {
        int ahead = tablesRandom.nextInt(3) == 0 ? 0 : tablesRandom.nextInt(12);
        reach(decoded + ahead);
        return databaseAt;
    }

    /** The database has seen the first {@code records} WAL records (at least), from now on. */
    private void reach(int records) {
        if (reachedAt == null) {
            reachedAt = new long[wal.records().size()];
        }
        int now = Math.min(wal.records().size(), records);
        for (int index = databaseAt; index < now; index++) {
            reachedAt[index] = clock.millis();
        }
        databaseAt = Math.max(databaseAt, now);
    }

    /**
     * The transaction a read at {@code p} does not see yet although it committed, some of the time: the last commit
     * before it, if the database got there at this very moment (the committing backend leaves the process array an
     * instant after its commit record is written, which the walsender may decode and send in that instant); null
     * otherwise. Never a commit of an earlier moment: a restarted task cannot meet one.
     */
    SimulationHistory.Item laggingCommit(int p) {
        SimulationHistory.Item last = database.lastCommitBefore(p);
        if (last == null || tablesRandom.nextInt(100) >= 40) {
            return null;
        }
        for (int index = p - 1; index >= 0 && reachedAt[index] == clock.millis(); index--) {
            SimulatedWal.Record record = wal.records().get(index);
            if (record.item() == last && record.step() instanceof SimulationHistory.EndStep) {
                return last;
            }
        }
        return null;
    }

    /** A chunk operation (a read, a listing): the scripted ones lose their connection. */
    void chunkOperation(String what) throws SQLException {
        if (chunkFailAt.contains(++chunkOperations)) {
            stats.fault("CHUNK_READ_FAILURE");
            throw new SQLException("simulated: the connection was lost " + what + " (chunk operation " + chunkOperations + ")", "08006");
        }
    }

    /** The pipeline factory of the task instances of this run. */
    TaskPipeline.Factory pipelines() {
        return Pipeline::new;
    }

    Lsn confirmedFlush() {
        return confirmedFlush;
    }

    /** two_phase_at of the slot, or null while two-phase decoding is off. */
    Lsn twoPhaseAt() {
        return twoPhaseAt;
    }

    SimulatedWal wal() {
        return wal;
    }

    /** True when the current session has sent everything (the workload is quiet for the task). */
    boolean drained() {
        return current != null && current.drained();
    }

    int sessions() {
        return sessions;
    }

    boolean loseConnectionNow() {
        reads++;
        if (lossAtRead.contains(reads)) {
            stats.fault("CONNECTION_LOSS");
            return true;
        }
        return false;
    }

    long reads() {
        return reads;
    }

    ReplicationConnectionLostException connectionLost(String why) {
        return new ReplicationConnectionLostException(Setting.HOSTNAME, "simulated: " + why + " (read " + reads + ")", null);
    }

    /** A status update reached the server: confirmed_flush moves forward only (docs/pgoutput-protocol.md §2.4). */
    void statusUpdate(Lsn flush) {
        if (flush.isValid() && flush.isAfter(confirmedFlush)) {
            confirmedFlush = flush;
        }
    }

    void declared(Lsn lsn) {
        onDeclared.accept(lsn);
    }

    /** A frame of the record at {@code walIndex} reached the task. */
    void frameSent(int walIndex) {
        stats.count("frames");
        decoded = Math.max(decoded, walIndex + 1);
        if (database != null) {
            reach(decoded); // what the walsender decodes happened in the database
        }
    }

    void closed(SimulatedStream stream) {
        if (current == stream) {
            current = null;
        }
    }

    private SimulatedStream open(Lsn resumeFrom, PgOutputSourceConnectorConfig config) {
        Lsn start = Lsn.max(resumeFrom, confirmedFlush);
        int protocol = Integer.parseInt(config.protocolVersion().configValue());
        StreamingMode streaming = config.streaming().orElse(StreamingMode.OFF);
        DecoderSettings settings = new DecoderSettings(protocol, streaming);
        if (config.preparedTransactionMode() == PreparedTransactionMode.STAGE && twoPhaseAt == null) {
            twoPhaseAt = start; // docs/pgoutput-protocol.md §5.3: START with two_phase flips the slot for good, two_phase_at = start LSN
        }
        sessions++;
        var session = new SimulatedWalSender.Session(start, twoPhaseAt, settings, config.messagesEnabled());
        current = new SimulatedStream(this, SimulatedWalSender.script(wal, session, random.split()), resumeFrom, start,
                settings);
        return current;
    }

    /** The pipeline of one task instance. */
    private final class Pipeline implements TaskPipeline {
        private final PgOutputSourceConnectorConfig config;

        Pipeline(PgOutputSourceConnectorConfig config) {
            this.config = config;
        }

        /**
         * The real start-up decision of snapshot.mode=no_data over the simulated slot (it exists, is usable and
         * inactive at a task start): a stored offset the slot can no longer serve fails the task, as on a server. The
         * simulation takes no initial snapshot; its incremental snapshots read the simulated tables.
         */
        @Override
        public Snapshots snapshots() {
            return new ScriptedSnapshots(stored -> SnapshotPlanner.decide(SnapshotMode.NO_DATA, stored,
                    InitialSnapshot.usableSlot(confirmedFlush, confirmedFlush, false, stored), SLOT), () -> {
                if (database == null) {
                    throw new IllegalStateException("this run takes no incremental snapshot");
                }
                return new SimulatedChunks(SimulatedPostgres.this, config);
            }, (plan, temporary, takenAgain) -> {
                throw new UnsupportedOperationException("the simulation runs snapshot.mode=no_data");
            });
        }

        @Override
        public void dropLostSlot() {
            throw new UnsupportedOperationException("the simulated slot is never lost");
        }

        @Override
        public TransactionSpill openSpill() {
            TransactionSpill real = TransactionSpills.open(new SpillContext(SLOT, ConnectorSettings.spill(config).withDirectory(spillRoot),
                    () -> {
                        throw new SQLException("the simulation has no SQL connection");
                    }));
            return new SimulatedSpill(real, spillOperations, spillFailAt::contains, () -> stats.fault("SPILL_IO_ERROR"));
        }

        @Override
        public ReplicationStream openStream(Lsn resumeFrom) {
            return open(resumeFrom, config);
        }

        @Override
        public TypeCatalog typeCatalog() {
            return oids -> Map.of(); // int4, int8 and text only: built in, never asked for
        }

        @Override
        public void refreshRetainedWal(StreamingMetrics metrics) {
        }

        @Override
        public TaskClock clock() {
            return clock;
        }

        @Override
        public void close() {
        }
    }
}
