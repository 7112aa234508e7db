package io.github.pgoutput.connect;

import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

import io.github.pgoutput.assembly.TransactionAssembler;
import io.github.pgoutput.connect.SourceOffsets.Position;
import io.github.pgoutput.converters.PostgresTypeMapper;
import io.github.pgoutput.pgoutput.Lsn;
import io.github.pgoutput.replication.PgConnections;
import io.github.pgoutput.replication.ReplicationSession;
import io.github.pgoutput.replication.ReplicationSettings;
import io.github.pgoutput.replication.TypeCatalog;
import io.github.pgoutput.spill.SpillContext;
import io.github.pgoutput.spill.TransactionSpill;
import io.github.pgoutput.spill.TransactionSpills;
import io.github.pgoutput.snapshot.SnapshotPlan;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.errors.RetriableException;
import org.apache.kafka.connect.source.SourceRecord;
import org.apache.kafka.connect.source.SourceTask;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The source task: one replication session of one slot, turned into Kafka records.
 *
 * <p>Path: {@link ReplicationSession} → decoder → {@link TransactionAssembler} → {@link DeliveryEmitter} → {@code poll()}.
 * {@code poll()} does bounded work: at most {@code max.batch.size} records, none while {@code max.queue.size} records
 * are unacknowledged, and returns {@code null} when nothing is available (the session's keeper answers keepalives
 * meanwhile). Feedback follows durability: in {@link #commit()}, after Connect has flushed offsets, the slot is
 * confirmed up to what {@link AcknowledgementTracker} allows for the committed offset.
 *
 * <p>Errors leave through {@link ErrorClassifier}: a {@link RetriableException} closes the session, and the next
 * {@code poll()} opens a new one (new assembler, spill cleared) from the last confirmed LSN, skipping what was
 * already emitted.
 *
 * <p>Threads: Connect calls {@code poll()} and (since Kafka 3.0) {@code stop()} on the task thread,
 * {@code commitRecord()} from the producer thread and {@code commit()} from the offset committer.
 */
public class PgOutputSourceTask extends SourceTask {

    private static final Logger log = LoggerFactory.getLogger(PgOutputSourceTask.class);
    /** How long an idle poll waits before returning null, so that Connect does not spin. */
    private static final long IDLE_WAIT_MS = 100;
    /** Pause before reconnecting after a transient failure. */
    private static final long RECONNECT_BACKOFF_MS = 2_000;
    /** How long the confirmed LSN may stay behind emitted deliveries before a WARN: the slot retains WAL meanwhile. */
    private static final Duration CONFIRMATION_LAG_WARNING = Duration.ofMinutes(5);

    private final AcknowledgementTracker tracker = new AcknowledgementTracker();
    /** The records of the current poll; emptied when they are handed to Connect. */
    private final List<SourceRecord> batch = new ArrayList<>();
    private PgOutputSourceConnectorConfig config;
    private Map<String, String> partition;
    private ConfirmationLagWatch lagWatch;
    private TransactionSpill spill;
    private volatile ReplicationSession session;
    private TransactionAssembler assembler;
    private DeliveryEmitter emitter;
    private Position emitted;
    private Lsn idleMark = Lsn.INVALID;
    private long lastHeartbeatNanos = System.nanoTime();
    private long reconnectNotBeforeNanos = System.nanoTime();
    private volatile boolean stopping;
    private StreamingMetrics metrics;
    private RetainedWalProbe retainedWal;
    private ReplicationSettings sessionSettings;
    /** Connect's own key for the connector's name, which it passes to the connector and so to the task. */
    private static final String CONNECTOR_NAME_PROPERTY = "name";
    /** The start-up decision; null once it was carried out. */
    private SnapshotPlan plan;
    private SnapshotPhase snapshot;
    /** A snapshot failed with a transient error: decide again on the next poll. */
    private boolean replan;
    /** initial_only after its snapshot, or when it was taken before: no streaming. */
    private boolean idleForever;
    private SnapshotMetrics snapshotMetrics;
    private ChangeRecordBuilder snapshotBuilder;

    @Override
    public String version() {
        return new PgOutputSourceConnector().version();
    }

    @Override
    public void start(Map<String, String> props) {
        config = new PgOutputSourceConnectorConfig(props);
        partition = SourceOffsets.partition(config.databaseDbname(), config.slotName());
        lagWatch = new ConfirmationLagWatch(config.slotName(), CONFIRMATION_LAG_WARNING, System::nanoTime);
        Map<String, Object> stored = context.offsetStorageReader().offset(partition);
        emitted = stored == null ? Position.afterDelivery(Lsn.INVALID) : SourceOffsets.decode(stored);
        String connectorName = props.getOrDefault(CONNECTOR_NAME_PROPERTY, config.slotName());
        // One task per connector (taskConfigs), so the task number is always 0.
        metrics = new StreamingMetrics(connectorName, 0);
        metrics.register();
        retainedWal = new RetainedWalProbe(config.slotName(), metrics);
        snapshotMetrics = SnapshotMetrics.register(connectorName, 0);
        try {
            plan = SnapshotPhase.plan(config, replicationSettings(), stored);
        } catch (SQLException | RuntimeException e) {
            ConnectException classified = ErrorClassifier.classify("deciding on the snapshot (snapshot.mode "
                    + config.snapshotMode().configValue() + ") for slot '" + config.slotName() + "'", e);
            if (classified instanceof RetriableException) {
                // Connect fails a task whose start() throws, retriable or not, and it stays FAILED until restarted by
                // hand: a database that is restarting right now must not do that. The first polls decide instead,
                // and Connect retries what poll() throws as retriable.
                log.warn("Slot {}: {}; deciding on a later poll", config.slotName(), classified.getMessage());
                replan = true;
                reconnectNotBeforeNanos = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(RECONNECT_BACKOFF_MS);
                return;
            }
            snapshotMetrics.unregister();
            metrics.unregister();
            throw classified;
        }
        log.info("Task for slot {} of database {}: stored offset {}, snapshot.mode {}: {} ({}; topic prefix {})", config.slotName(),
                config.databaseDbname(), stored == null ? "none" : stored, config.snapshotMode().configValue(), plan.action(),
                plan.reason(), config.topicPrefix());
    }

    /**
     * Carries out the start-up plan on the first polls: a snapshot's records, then streaming (or idleness).
     *
     * @return true when the caller may stream now
     */
    private boolean snapshotDone() throws InterruptedException {
        if (replan) {
            if (System.nanoTime() - reconnectNotBeforeNanos < 0) {
                return false;
            }
            try {
                plan = SnapshotPhase.plan(config, replicationSettings(), context.offsetStorageReader().offset(partition));
            } catch (SQLException e) {
                throw ErrorClassifier.classify("deciding on the snapshot again for slot '" + config.slotName() + "'", e);
            }
            replan = false;
        }
        if (plan != null) {
            switch (plan.action()) {
                case STREAM -> {
                    if (plan.dropExistingSlot()) {
                        dropLostSlot();
                    }
                    plan = null;
                }
                case IDLE -> {
                    idleForever = true;
                    plan = null;
                }
                case SNAPSHOT_THEN_STREAM, SNAPSHOT_ONLY -> {
                    boolean only = plan.action() == SnapshotPlan.Action.SNAPSHOT_ONLY;
                    try {
                        snapshot = SnapshotPhase.start(config, replicationSettings(), plan, only, tracker, partition);
                    } catch (SQLException e) {
                        throw ErrorClassifier.classify("starting the snapshot for slot '" + config.slotName() + "'", e);
                    }
                    snapshotMetrics.started(snapshot.reader().progress(), snapshot.startNanos());
                    snapshotBuilder = recordBuilder();
                    idleForever = only;
                    emitted = Position.afterDelivery(snapshot.consistentPoint());
                    plan = null;
                }
            }
        }
        if (snapshot != null) {
            int room = Math.min(config.maxBatchSize(), config.maxQueueSize() - tracker.unacknowledged());
            if (room > 0 && snapshot.fill(batch, room, snapshotBuilder)) {
                snapshotMetrics.completed();
                snapshot = null;
                snapshotBuilder = null;
            }
            return false;
        }
        return !idleForever;
    }

    /** no_data with an invalidated slot: it can never stream again, so a new one is created by the session. */
    private void dropLostSlot() {
        try (var sql = PgConnections.openSql(replicationSettings());
             var st = sql.prepareStatement("SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots WHERE slot_name = ?")) {
            st.setString(1, config.slotName());
            st.execute();
            log.warn("Dropped the invalidated replication slot {} (snapshot.mode no_data); streaming starts from a new slot",
                    config.slotName());
        } catch (SQLException e) {
            throw ErrorClassifier.classify("dropping the invalidated replication slot '" + config.slotName() + "'", e);
        }
    }

    @Override
    public List<SourceRecord> poll() throws InterruptedException {
        if (stopping) {
            return null;
        }
        try {
            batch.clear();
            if (!snapshotDone()) {
                return handOver();
            }
            if (session == null && !openSession()) {
                return null;
            }
            int room = Math.min(config.maxBatchSize(), config.maxQueueSize() - tracker.unacknowledged());
            if (room > 0) {
                boolean idle = emitter.fill(batch, room);
                if (idle) {
                    markIdle();
                    heartbeat(batch);
                }
            }
            emitted = emitter.position();
            lagWatch.observe(session.durableLsn(), emitted.lsn()).ifPresent(log::warn);
            updateMetrics();
            return handOver();
        } catch (RuntimeException e) {
            ConnectException classified = ErrorClassifier.classify("streaming from replication slot '" + config.slotName() + "'", e);
            // The records built in this poll never reach Connect; the deliveries come again after the reconnect.
            tracker.abandon(batch);
            batch.clear();
            if (snapshot != null) {
                // The exported snapshot cannot be read again: the next poll decides afresh (the stored offset says
                // "in progress" or nothing), drops the slot and takes a new snapshot.
                snapshot.close();
                snapshot = null;
                replan = true;
            }
            closeSession();
            if (classified instanceof RetriableException) {
                reconnectNotBeforeNanos = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(RECONNECT_BACKOFF_MS);
                log.warn("Slot {}: {}; reconnecting from the last confirmed position", config.slotName(), classified.getMessage());
            }
            throw classified;
        }
    }

    /** Cheap per-poll updates (no per-record work); the retained-WAL query runs only every few seconds. */
    private void updateMetrics() {
        metrics.recordsEmitted(batch.size());
        metrics.session(session.receivedLsn(), session.durableLsn(), session.serverWalEnd());
        metrics.assembly(assembler.openStreamedTransactions(), assembler.spillUsage().bytes());
        metrics.queueRemainingCapacity(Math.max(0, config.maxQueueSize() - tracker.unacknowledged() - batch.size()));
        retainedWal.refreshIfDue(sessionSettings);
    }

    /** The batch as poll()'s result; null after an idle pause when it is empty. */
    private List<SourceRecord> handOver() throws InterruptedException {
        if (batch.isEmpty()) {
            TimeUnit.MILLISECONDS.sleep(IDLE_WAIT_MS);
            return null;
        }
        log.debug("Slot {}: {} records, {} unacknowledged, position {}", config.slotName(), batch.size(),
                tracker.unacknowledged(), SourceOffsets.encode(emitted));
        List<SourceRecord> handedOver = List.copyOf(batch);
        batch.clear();
        return handedOver;
    }

    /** A builder with its own schema and type caches; snapshot and stream read the same catalog, so their schemas agree. */
    private ChangeRecordBuilder recordBuilder() {
        // Compiled once here: the predicate runs for every change, and the config accessors compile the expressions
        // anew on each call (that was ~3% of the worker's CPU on a 1M-row transaction, bench/side-by-side.sh).
        List<Pattern> include = config.tableIncludeList();
        List<Pattern> exclude = config.tableExcludeList();
        return new ChangeRecordBuilder(config.topicPrefix(), config.databaseDbname(), version(), TopicNames.of(config),
                new AvroNames(config.topicPrefix()), new PostgresTypeMapper(ConnectorSettings.converters(config)),
                // Connection coordinates only: no need to list the tables of a filtered publication for this.
                new ColumnTypes(TypeCatalog.of(ConnectorSettings.replication(config, List.of()))),
                config.tombstonesOnDelete(), (schema, table) -> ConnectorSettings.captured(include, exclude, schema + "." + table));
    }

    /** Opens session, assembler and emitter; false while the reconnect back-off lasts. */
    private boolean openSession() {
        if (System.nanoTime() - reconnectNotBeforeNanos < 0) {
            return false;
        }
        ReplicationSettings settings = replicationSettings();
        sessionSettings = settings;
        if (spill == null) {
            spill = TransactionSpills.open(new SpillContext(config.slotName(), ConnectorSettings.spill(config),
                    () -> PgConnections.openSql(settings)));
        }
        // Resume from what is confirmed durable: the committed offset, or what this task confirmed since. Everything
        // emitted after it comes again and is skipped by the resume point.
        Lsn resumeFrom = Lsn.max(durableFromOffsets(), tracker.durableThrough(Lsn.INVALID));
        ReplicationSession opened = ReplicationSession.open(settings, resumeFrom);
        try {
            var decoder = new io.github.pgoutput.pgoutput.PgOutputDecoder(opened.protocol().decoderSettings());
            io.github.pgoutput.assembly.PreparedTransactionMode mode =
                    config.preparedTransactionMode() == PreparedTransactionMode.STAGE
                            ? io.github.pgoutput.assembly.PreparedTransactionMode.STAGE
                            : io.github.pgoutput.assembly.PreparedTransactionMode.FAIL;
            TransactionAssembler newAssembler = new TransactionAssembler(new SessionMessageSource(opened, decoder), spill,
                    decoder::decode, mode, config.spillMemoryBufferBytes());
            TopicNames topics = TopicNames.of(config);
            AvroNames names = new AvroNames(config.topicPrefix());
            ChangeRecordBuilder builder = recordBuilder();
            emitter = new DeliveryEmitter(newAssembler, builder,
                    config.provideTransactionMetadata() ? new TransactionTopicRecords(topics, names) : null,
                    tracker, partition, new ResumePoint(emitted), emitted, metrics::deliveryEmitted);
            assembler = newAssembler;
            session = opened;
            idleMark = Lsn.INVALID;
            return true;
        } catch (RuntimeException e) {
            opened.close();
            throw e;
        }
    }

    private ReplicationSettings replicationSettings() {
        try {
            return CapturedTables.replicationSettings(config);
        } catch (SQLException e) {
            throw ErrorClassifier.classify("listing the tables for publication '" + config.publicationName() + "'", e);
        }
    }

    /**
     * Nothing is being emitted: the server's walEnd may be confirmed once everything before is durable. This also
     * happens while the assembler collects a transaction sent whole, or between the blocks of a streamed one: the
     * keepalives sent meanwhile report a position before that transaction's commit record (the walsender moves its
     * sent position past a record only once it has decoded it), so PostgreSQL sends the transaction again after a
     * restart from there.
     */
    private void markIdle() {
        Lsn walEnd = session.serverWalEnd();
        if (walEnd.isValid() && walEnd.isAfter(idleMark)) {
            idleMark = walEnd;
            tracker.idleAt(walEnd);
        }
    }

    private void heartbeat(List<SourceRecord> batch) {
        int interval = config.heartbeatIntervalMs();
        if (interval <= 0 || System.nanoTime() - lastHeartbeatNanos < TimeUnit.MILLISECONDS.toNanos(interval)) {
            return;
        }
        lastHeartbeatNanos = System.nanoTime();
        Lsn at = Lsn.max(emitted.lsn(), idleMark);
        if (at.isValid()) {
            batch.add(emitter.heartbeat(TopicNames.of(config).heartbeat(), config.topicPrefix(), at));
        }
    }

    @Override
    public void commitRecord(SourceRecord record, RecordMetadata metadata) {
        tracker.acknowledged(record);
    }

    /** Runs after Connect flushed offsets: confirm what the committed offset and the acknowledgements cover. */
    @Override
    public void commit() {
        ReplicationSession current = session;
        if (current == null) {
            return;
        }
        Lsn durable = tracker.durableThrough(durableFromOffsets());
        if (durable.isValid() && durable.isAfter(current.durableLsn())) {
            log.debug("Slot {}: confirming {}", config.slotName(), durable);
            current.declareDurable(durable);
        }
    }

    private Lsn durableFromOffsets() {
        Map<String, Object> stored = context.offsetStorageReader().offset(partition);
        return stored == null ? Lsn.INVALID : SourceOffsets.decode(stored).lsn();
    }

    /**
     * Connect (3.0 and later) calls this on the task thread after the last {@code poll()}, so the session and spill
     * are released here; a concurrent poll sees the flag and returns at once.
     */
    @Override
    public void stop() {
        stopping = true;
        if (snapshot != null) {
            snapshot.close();
            snapshot = null;
        }
        if (snapshotMetrics != null) {
            snapshotMetrics.unregister();
        }
        closeSession();
        if (metrics != null) {
            metrics.unregister();
            retainedWal.close();
        }
        if (spill != null) {
            try {
                spill.close();
            } catch (RuntimeException e) {
                log.warn("Slot {}: closing the transaction spill failed: {}", config.slotName(), e.getMessage());
            }
            spill = null;
        }
    }

    private void closeSession() {
        if (assembler != null) {
            try {
                assembler.close();
            } catch (RuntimeException e) {
                log.debug("closing the assembler failed: {}", e.getMessage());
            }
            assembler = null;
        }
        ReplicationSession open = session;
        session = null;
        emitter = null;
        if (open != null) {
            open.close();
        }
    }
}
