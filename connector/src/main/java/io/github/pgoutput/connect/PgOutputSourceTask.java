package io.github.pgoutput.connect;

import io.github.pgoutput.assembly.TransactionAssembler;
import io.github.pgoutput.connect.TaskPhases.BackingOff;
import io.github.pgoutput.connect.TaskPhases.Connecting;
import io.github.pgoutput.connect.TaskPhases.Decided;
import io.github.pgoutput.connect.TaskPhases.Idle;
import io.github.pgoutput.connect.TaskPhases.IdleMark;
import io.github.pgoutput.connect.TaskPhases.Origin;
import io.github.pgoutput.connect.TaskPhases.Phase;
import io.github.pgoutput.connect.TaskPhases.Planning;
import io.github.pgoutput.connect.TaskPhases.Snapshotting;
import io.github.pgoutput.connect.TaskPhases.Streaming;
import io.github.pgoutput.connect.config.ConfigChoices;
import io.github.pgoutput.connect.config.ConnectKeys;
import io.github.pgoutput.connect.config.NewTableSnapshots;
import io.github.pgoutput.connect.config.PgOutputSourceConnectorConfig;
import io.github.pgoutput.connect.config.SnapshotKeys;
import io.github.pgoutput.connect.metrics.ConfirmationLagWatch;
import io.github.pgoutput.connect.metrics.IncrementalSnapshotMetrics;
import io.github.pgoutput.connect.metrics.SnapshotMetrics;
import io.github.pgoutput.connect.metrics.StreamingMetrics;
import io.github.pgoutput.connect.offsets.AcknowledgementTracker;
import io.github.pgoutput.connect.offsets.DebeziumOffset;
import io.github.pgoutput.connect.offsets.RecordNumbering;
import io.github.pgoutput.connect.offsets.ResumePoint;
import io.github.pgoutput.connect.offsets.SourceOffsets.Position;
import io.github.pgoutput.connect.offsets.SourceOffsets;
import io.github.pgoutput.connect.signal.KafkaSignalChannel;
import io.github.pgoutput.pgoutput.Lsn;
import io.github.pgoutput.pgoutput.PgOutputDecoder;
import io.github.pgoutput.replication.ReplicationStream;
import io.github.pgoutput.snapshot.SnapshotPlan;
import io.github.pgoutput.snapshot.IncrementalSnapshot;
import io.github.pgoutput.spill.TransactionSpill;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
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
 * <p>Path: {@link ReplicationStream} → decoder → {@link TransactionAssembler} → {@link DeliveryEmitter} → {@code poll()}.
 * {@code poll()} does bounded work: at most {@code max.batch.size} records, none while {@code max.queue.size} records
 * are unacknowledged, and returns {@code null} when nothing is available (the session's keeper answers keepalives
 * meanwhile). Feedback follows durability: in {@link #commit()}, after Connect has flushed offsets, the slot is
 * confirmed up to what {@link AcknowledgementTracker} allows for the committed offset.
 *
 * <p>The task is a small state machine over the {@link Phase}s below; each {@code poll()} does the work of the
 * current phase. Errors leave through {@link ErrorClassifier}: a {@link RetriableException} closes the session and
 * moves to {@link BackingOff}, after which a new session starts from the last durable position (new assembler), the
 * records already emitted being skipped by the {@link ResumePoint}. A slot held by another walsender is the one
 * retriable failure that is bounded: after {@code slot.max.retries} refusals ({@code slot.retry.delay.ms} apart)
 * without a session opening in between, the task fails with the holder named.
 *
 * <p>Collaborators come from a {@link TaskPipeline.Factory} (production: {@link PostgresPipeline}), so tests drive
 * every phase without a server.
 *
 * <p>Threads: Connect calls {@code poll()} and (since Kafka 3.0) {@code stop()} on the task thread,
 * {@code commitRecord()} from the producer thread and {@code commit()} from the offset committer.
 */
public class PgOutputSourceTask extends SourceTask {

    private static final Logger log = LoggerFactory.getLogger(PgOutputSourceTask.class);
    /** How long an idle poll waits before returning null, so that Connect does not spin. */
    static final long IDLE_WAIT_MS = 100;
    /** How long the confirmed LSN may stay behind emitted deliveries before a WARN: the slot retains WAL meanwhile. */
    private static final Duration CONFIRMATION_LAG_WARNING = Duration.ofMinutes(5);
    /** How often the captured tables are listed again with {@code snapshot.new.tables=incremental}. */
    private static final long NEW_TABLES_CHECK_NANOS = TimeUnit.SECONDS.toNanos(10);
    /** How often an incremental snapshot's progress is logged. */
    private static final long INCREMENTAL_PROGRESS_LOG_NANOS = TimeUnit.SECONDS.toNanos(10);

    private final TaskPipeline.Factory pipelines;
    private final AcknowledgementTracker tracker = new AcknowledgementTracker();
    /** The records of the current poll; emptied when they are handed to Connect. */
    private final List<SourceRecord> batch = new ArrayList<>();
    private PgOutputSourceConnectorConfig config;
    private TaskPipeline pipeline;
    private TaskClock clock;
    private Map<String, String> partition;
    /** What Connect's offsets topic holds for this task. */
    private StoredOffsets offsets;
    private ConfirmationLagWatch lagWatch;
    private TransactionSpill spill;
    /** Written by the poll thread, read by {@link #commit()} on the offset committer's. */
    private volatile Phase phase;
    /**
     * The position of everything handed to Connect, where a new session resumes: set when a decision is carried out
     * (the stored offset, or the snapshot's consistent point) and moved on only by a poll that hands its records over.
     */
    private Position emitted;
    private long lastHeartbeatNanos;
    /** What happens after a transient failure: a pause and another attempt, or a failed task. */
    private RetryPolicy retries;
    private volatile boolean stopping;
    private StreamingMetrics metrics;
    private SnapshotMetrics snapshotMetrics;
    /** {@link RecordNumbering#fingerprint} of this task's configuration. */
    private String numbering;
    /** Context headers, skipped operations, message filter: built once per start (one runId per task run). */
    private RecordBuilders recordBuilders;
    /** With {@code transaction.boundary=connector}: one Kafka transaction per delivery. */
    private DeliveryTransactions transactions = new DeliveryTransactions(null);
    /** Incremental snapshots and signals, from the first session on; null before it and when none are configured. */
    private IncrementalSnapshotter incremental;
    private IncrementalSnapshotMetrics incrementalMetrics;
    /** {@code unchanged.toast.resolution}: the store and the reselect; null with {@code none}. */
    private ToastResolution toast;

    /** The task Connect instantiates: against PostgreSQL. */
    public PgOutputSourceTask() {
        this(PostgresPipeline::new);
    }

    /**
     * A task over the given pipeline: the seam through which the deterministic simulation (package
     * {@code connect.simulation} of the tests) and the phase tests drive the real task against scripted parts.
     */
    public PgOutputSourceTask(TaskPipeline.Factory pipelines) {
        this.pipelines = Objects.requireNonNull(pipelines, "pipelines");
    }

    @Override
    public String version() {
        return new PgOutputSourceConnector().version();
    }

    @Override
    public void start(Map<String, String> props) {
        config = new PgOutputSourceConnectorConfig(props);
        retries = new RetryPolicy(config.slotName(), config.errorsMaxRetries(), config.slotMaxRetries(), config.slotRetryDelayMs());
        pipeline = pipelines.create(config);
        try {
            toast = ToastResolution.open(config, pipeline::currentRows);
        } catch (RuntimeException e) {
            pipeline.close();
            throw e;
        }
        clock = pipeline.clock();
        lastHeartbeatNanos = clock.nanoTime();
        partition = SourceOffsets.partition(config.databaseDbname(), config.slotName());
        offsets = new StoredOffsets(() -> context.offsetStorageReader(), partition, config.slotName(), config.topicPrefix());
        numbering = RecordNumbering.fingerprint(config.recordNumbering());
        recordBuilders = new RecordBuilders(config, version());
        lagWatch = new ConfirmationLagWatch(config.slotName(), CONFIRMATION_LAG_WARNING, clock::nanoTime);
        emitted = Position.afterDelivery(Lsn.INVALID);
        transactions = DeliveryTransactions.of(context, props, clock::nanoTime, config.slotName(),
                config.transactionMaxRecords(), config.transactionBatchMaxDeliveries());
        if (transactions.connectorDefined()) {
            log.info("Slot {}: {}=connector: each delivery and its offset are one Kafka transaction, which must end within"
                    + " the producer's transaction.timeout.ms ({} ms)", config.slotName(),
                    ConnectKeys.TRANSACTION_BOUNDARY_CONFIG, transactions.timeoutMs());
            OpenTransactionHeap.warning(config.slotName(), config.transactionMaxRecords(), Runtime.getRuntime().maxMemory())
                    .ifPresent(log::warn);
        }
        DeliveryTransactions.crashRecoveryAdvice(props, transactions.timeoutMs())
                .ifPresent(advice -> log.info("Slot {}: exactly-once: {}", config.slotName(), advice));
        String connectorName = props.getOrDefault(ConnectKeys.NAME_CONFIG, config.slotName());
        // One task per connector (taskConfigs), so the task number is always 0.
        metrics = new StreamingMetrics(connectorName, 0);
        if (toast != null) {
            metrics.toast(toast.stats());
        }
        metrics.register();
        snapshotMetrics = SnapshotMetrics.register(connectorName, 0);
        incrementalMetrics = new IncrementalSnapshotMetrics(clock::nanoTime, INCREMENTAL_PROGRESS_LOG_NANOS).register(connectorName, 0);
        try {
            phase = decide();
        } catch (SQLException | RuntimeException e) {
            ConnectException classified = ErrorClassifier.classify("deciding on the snapshot (" + SnapshotKeys.SNAPSHOT_MODE_CONFIG + " "
                    + ConfigChoices.SNAPSHOT_MODE.text(config.snapshotMode()) + ") for slot '" + config.slotName() + "'", e);
            if (classified instanceof RetriableException) {
                // Connect fails a task whose start() throws, retriable or not, and it stays FAILED until restarted by
                // hand: a database that is restarting right now must not do that. The first polls decide instead,
                // and Connect retries what poll() throws as retriable.
                log.warn("Slot {}: {}; deciding on a later poll", config.slotName(), classified.getMessage());
                phase = backOff(new Planning(), retries.atStart(e));
                return;
            }
            snapshotMetrics.unregister();
            incrementalMetrics.unregister();
            metrics.unregister();
            pipeline.close();
            throw classified;
        }
    }

    @Override
    public List<SourceRecord> poll() throws InterruptedException {
        if (stopping) {
            return null;
        }
        Phase current = phase;
        try {
            batch.clear();
            phase = step(current);
            return handOver();
        } catch (RuntimeException | SQLException e) {
            ConnectException classified = ErrorClassifier.classify(Phase.failureContext(current, config.slotName()), e);
            // The records built in this poll never reach Connect; the deliveries come again after the reconnect.
            tracker.abandon(batch);
            transactions.abandoned();
            if (incremental != null) {
                incremental.abandoned();
            }
            if (toast != null) {
                toast.abandoned();
            }
            batch.clear();
            Phase next = Phase.recoveryOf(phase);
            release(phase);
            phase = next;
            if (classified instanceof RetriableException) {
                phase = backOff(next, retries.afterPollFailure(classified, e).delayMillis());
            }
            throw classified;
        }
    }

    /** The work of one poll in {@code current}; returns the phase the task is in afterwards. */
    private Phase step(Phase current) throws SQLException, InterruptedException {
        // Java 17: instanceof chains instead of a pattern switch; the phases are a closed set.
        if (current instanceof BackingOff b) {
            return clock.nanoTime() - b.untilNanos() < 0 ? b : step(b.then());
        }
        if (current instanceof Planning) {
            Decided decided = decide();
            phase = decided;
            return step(decided);
        }
        if (current instanceof Decided d) {
            emitted = d.stored();
            Phase next = carryOut(d);
            phase = next;
            return step(next);
        }
        if (current instanceof Snapshotting s) {
            return snapshot(s);
        }
        if (current instanceof Connecting c) {
            Streaming opened = openSession(c);
            retries.sessionOpened();
            phase = opened;
            return stream(opened);
        }
        if (current instanceof Streaming s) {
            return stream(s);
        }
        return current; // Idle
    }

    /**
     * The start-up decision of {@code snapshot.mode}, from the stored offset to go on from: this connector's own, or
     * Debezium's when the connector's class was switched from Debezium's in place and Debezium's offset is the later
     * one ({@link DebeziumOffset#supersedes}).
     */
    private Decided decide() throws SQLException {
        Map<String, Object> stored = offsets.stored();
        DebeziumOffset debezium = offsets.debezium(stored != null);
        if (debezium != null && debezium.supersedes(stored)) {
            SnapshotPlan plan = SnapshotPhase.plan(pipeline.snapshots(), debezium.forPlanning());
            log.info("Task for slot {} of database {}: switched in place from Debezium ({}; Debezium's partition {}); {} {}: {} ({};"
                    + " topic prefix {})", config.slotName(), config.databaseDbname(), stored == null ? "no offset of this connector"
                    : "this connector's offset " + stored + " is older", DebeziumOffset.partition(config.topicPrefix()),
                    SnapshotKeys.SNAPSHOT_MODE_CONFIG, ConfigChoices.SNAPSHOT_MODE.text(config.snapshotMode()),
                    plan.action(), plan.reason(), config.topicPrefix());
            return new Decided(plan, Position.afterDelivery(debezium.resumeLsn()), true, new Origin(debezium, stored), null);
        }
        pipeline.setReplicaIdentities();
        SnapshotPlan plan = SnapshotPhase.plan(pipeline.snapshots(), SnapshotPhase.storedOffset(stored));
        log.info("Task for slot {} of database {}: stored offset {}, {} {}: {} ({}; topic prefix {})", config.slotName(),
                config.databaseDbname(), stored == null ? "none" : stored, SnapshotKeys.SNAPSHOT_MODE_CONFIG,
                ConfigChoices.SNAPSHOT_MODE.text(config.snapshotMode()), plan.action(), plan.reason(), config.topicPrefix());
        return new Decided(plan, StoredOffsets.positionOf(stored), stored != null, Origin.OWN, SourceOffsets.resumed(stored));
    }

    private BackingOff backOff(Phase then, long millis) {
        return new BackingOff(clock.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis), then);
    }

    /** The phase that carries out the start-up decision {@code decided}. */
    private Phase carryOut(Decided decided) throws SQLException {
        SnapshotPlan plan = decided.plan();
        // With a stored offset a snapshot is one taken again.
        boolean offsetStored = decided.offsetStored();
        return switch (plan.action()) {
            case STREAM -> {
                if (plan.dropExistingSlot()) {
                    pipeline.dropLostSlot();
                }
                yield new Connecting(decided.origin(), decided.resumedSnapshot(), false);
            }
            case STREAM_AND_SNAPSHOT -> new Connecting(decided.origin(), decided.resumedSnapshot(), true);
            case IDLE -> new Idle();
            case SNAPSHOT_THEN_STREAM, SNAPSHOT_ONLY -> {
                boolean only = plan.action() == SnapshotPlan.Action.SNAPSHOT_ONLY;
                SnapshotPhase snapshot = new SnapshotPhase(pipeline.snapshots().initial(plan, only, offsetStored), tracker, partition);
                snapshotMetrics.started(snapshot.progress(), snapshot.startNanos());
                emitted = Position.afterDelivery(snapshot.consistentPoint());
                if (toast != null) {
                    toast.snapshotStarts(snapshot.consistentPoint());
                    snapshot.observeRows(row -> toast.snapshotRow(row, snapshot.consistentPoint()));
                }
                yield new Snapshotting(snapshot, recordBuilders.create(pipeline.typeCatalog()), !only, decided.origin());
            }
        };
    }

    private Phase snapshot(Snapshotting s) throws InterruptedException {
        int room = Math.min(config.maxBatchSize(), config.maxQueueSize() - queued());
        boolean completed = room > 0 && s.snapshot().fill(batch, room, s.builder());
        if (!batch.isEmpty()) {
            // Snapshot rows are not deliveries: with connector-defined boundaries each poll's rows are one transaction.
            transactions.ended(batch.get(batch.size() - 1));
        }
        if (completed) {
            snapshotMetrics.completed();
            if (toast != null) {
                toast.snapshotFinished(s.snapshot().consistentPoint());
            }
            return s.thenStream() ? new Connecting(s.origin(), s.snapshot().resumedForStreaming(), false) : new Idle();
        }
        return s;
    }

    private Phase stream(Streaming s) {
        int room = Math.min(config.maxBatchSize(), config.maxQueueSize() - queued());
        if (room > 0) {
            boolean idle = s.emitter().fill(batch, room);
            if (idle) {
                markIdle(s);
                heartbeat(s);
            }
        }
        Position position = s.emitter().position();
        lagWatch.observe(s.stream().durableLsn(), position.lsn()).ifPresent(log::warn);
        updateMetrics(s);
        // Last: only a poll that hands its batch to Connect moves the position a reconnect resumes from. A failure
        // above leaves it before this poll's records, which are abandoned and come again.
        emitted = position;
        return s;
    }

    /**
     * The records that count against {@code max.queue.size}: the unacknowledged ones, less those of an open Kafka
     * transaction under connector-defined boundaries, which Connect acknowledges only once the delivery's last record
     * lets it commit.
     */
    private int queued() {
        return (int) Math.max(0, tracker.unacknowledged() - transactions.openRecords());
    }

    /** Cheap per-poll updates (no per-record work); the retained-WAL query runs only every few seconds. */
    private void updateMetrics(Streaming s) {
        metrics.recordsEmitted(batch.size());
        metrics.session(s.stream().receivedLsn(), s.stream().durableLsn(), s.stream().serverWalEnd());
        metrics.assembly(s.assembler().openStreamedTransactions(), s.assembler().spillUsage().bytes());
        metrics.queueRemainingCapacity(Math.max(0, config.maxQueueSize() - queued() - batch.size()));
        pipeline.refreshRetainedWal(metrics);
    }

    /** The batch as poll()'s result; null after an idle pause when it is empty. */
    private List<SourceRecord> handOver() throws InterruptedException {
        if (incremental != null) {
            // Also when no record goes: the position a reconnect resumes from has moved past this poll's deliveries,
            // a signal among them (in a transaction that made no record) included. A later failure must not undo the
            // signal while the position stays past it, or the next record's offset would store the position without it.
            incremental.handedOver();
        }
        if (batch.isEmpty()) {
            transactions.idle();
            clock.sleep(IDLE_WAIT_MS);
            return null;
        }
        log.debug("Slot {}: {} records, {} unacknowledged, position {}", config.slotName(), batch.size(),
                tracker.unacknowledged(), SourceOffsets.encode(emitted));
        List<SourceRecord> handedOver = List.copyOf(batch);
        batch.clear();
        transactions.handedOver(handedOver);
        return handedOver;
    }

    /** Opens the stream, the assembler and the emitter from the durable position. */
    private Streaming openSession(Connecting connecting) throws SQLException {
        Origin origin = connecting.origin();
        SourceOffsets.Resumed resumedSnapshot = connecting.resumedSnapshot();
        if (spill == null) {
            spill = pipeline.openSpill();
        }
        // Resume from what is confirmed durable: the committed offset, or what this task confirmed since. Everything
        // emitted after it comes again and is skipped by the resume point.
        Lsn resumeFrom = Lsn.max(offsets.durable(origin), tracker.durableThrough(Lsn.INVALID));
        if (toast != null) {
            // Not after what the TOAST store has seen: what it missed comes again (its records are skipped).
            resumeFrom = toast.resumeLimit(resumeFrom);
        }
        ReplicationStream opened = pipeline.openStream(resumeFrom);
        if (toast != null) {
            toast.streamStarted(opened.startLsn());
        }
        if (!emitted.lsn().isValid()) {
            // No delivery completed yet (a new connector without snapshot): everything before the stream's start is
            // done as far as the slot is concerned, so offsets name that LSN instead of 0/0. A stored 0/0 could not
            // be told from a slot that moved on behind the connector's back once the task confirms idle positions.
            emitted = new Position(opened.startLsn(), emitted.txLsn(), emitted.txEndLsn(), emitted.txOrder(), emitted.txNumbering());
        }
        try {
            var decoder = new PgOutputDecoder(opened.decoderSettings());
            TransactionAssembler assembler = new TransactionAssembler(new SessionMessageSource(opened, decoder), spill,
                    decoder::decode, config.preparedTransactionMode(), config.spillMemoryBufferBytes());
            DeliveryEmitter emitter = new DeliveryEmitter(assembler, recordBuilders.create(pipeline.typeCatalog()),
                    recordBuilders.transactionTopicRecords(),
                    tracker, partition, new ResumePoint(emitted, opened.startLsn(), numbering,
                            origin.debeziumStart() == null ? null : origin.debeziumStart().partial()), emitted,
                    (delivery, lastRecord) -> {
                        metrics.deliveryEmitted(delivery);
                        if (lastRecord != null) {
                            transactions.ended(lastRecord);
                        }
                    });
            // Skipping the changes a resumed snapshot's rows contain is right only where Kafka holds nothing past the
            // stored offset, that is under exactly-once. An at-least-once task may have handed rows to Kafka after the
            // last offset Connect stored; a continuation does not read such a row again once it is deleted, so only
            // streaming's Delete removes it. There every change since the first snapshot is streamed again, in order:
            // a row then ends where the table has it, as after any at-least-once replay.
            if (resumedSnapshot != null && config.exactlyOnceRequired() && emitted.lsn().isBefore(resumedSnapshot.until())) {
                emitter.afterResumedSnapshot(SnapshotPhase.resumedFilter(pipeline.snapshots(), resumedSnapshot));
            }
            if (incremental == null) {
                incremental = incrementalSnapshotter(origin, connecting.snapshotCapturedTables());
            }
            if (connecting.snapshotCapturedTables()) {
                List<Pattern> snapshotOnly = config.snapshotIncludeList();
                incremental.requestSnapshotOfCapturedTables(t -> snapshotOnly.isEmpty()
                        || snapshotOnly.stream().anyMatch(p -> p.matcher(t.toString()).matches()));
            }
            if (incremental != null) {
                emitter.withIncrementalSnapshots(incremental);
            }
            if (toast != null) {
                emitter.withToastResolution(toast);
            }
            return new Streaming(opened, assembler, emitter, origin, resumedSnapshot, new IdleMark());
        } catch (RuntimeException | SQLException e) {
            opened.close();
            throw e;
        }
    }

    /**
     * The incremental snapshots of this task run, when a signal channel is configured, the stored offset says one is
     * under way or {@code snapshot.mode=always} asks for one; null otherwise. Made once, at the first session, from the stored offset (where a snapshot under way
     * stands, how far the signals were read).
     */
    private IncrementalSnapshotter incrementalSnapshotter(Origin origin, boolean snapshotCapturedTables) {
        Map<String, Object> stored = offsets.own(origin);
        boolean underWay = SourceOffsets.incrementalSnapshot(stored) != null;
        boolean kafka = config.kafkaSignals();
        boolean newTables = config.snapshotNewTables() == NewTableSnapshots.INCREMENTAL;
        if (!underWay && !kafka && !newTables && !snapshotCapturedTables && config.signalDataCollection() == null
                && config.signalMessagePrefix() == null) {
            return null;
        }
        KafkaSignalChannel channel = kafka ? new KafkaSignalChannel(config.signalConsumerProperties(), config.signalKafkaTopic(),
                config.topicPrefix(), SourceOffsets.signalOffset(stored), Duration.ofMillis(config.signalKafkaPollTimeoutMs())) : null;
        IncrementalSnapshot.Settings settings = new IncrementalSnapshot.Settings(config.incrementalSnapshotChunkSize(),
                config.signalDataCollection(), config.signalMessagePrefix(), newTables ? NEW_TABLES_CHECK_NANOS : -1);
        return new IncrementalSnapshotter(pipeline.snapshots(), settings, channel, tracker, partition, stored, transactions::ended,
                clock::nanoTime, incrementalMetrics);
    }

    /**
     * Nothing is being emitted: the server's walEnd may be confirmed once everything before is durable. This also
     * happens while the assembler collects a transaction sent whole, or between the blocks of a streamed one: the
     * keepalives sent meanwhile report a position before that transaction's commit record (the walsender moves its
     * sent position past a record only once it has decoded it), so PostgreSQL sends the transaction again after a
     * restart from there.
     */
    private void markIdle(Streaming s) {
        Lsn walEnd = s.stream().serverWalEnd();
        if (s.idleMark().advanceTo(walEnd)) {
            if (toast != null) {
                // Before the tracker may confirm it: the store's watermark must never be behind the slot.
                toast.idleAt(walEnd);
            }
            tracker.idleAt(walEnd);
        }
    }

    private void heartbeat(Streaming s) {
        int interval = config.heartbeatIntervalMs();
        if (interval <= 0 || clock.nanoTime() - lastHeartbeatNanos < TimeUnit.MILLISECONDS.toNanos(interval)) {
            return;
        }
        if (transactions.insideDelivery() || s.emitter().position().isInsideDelivery()) {
            // Idle after a reconnect inside a delivery: the rest of it comes first (under connector boundaries in the
            // same Kafka transaction). A heartbeat's offset names the end of the last whole delivery, before this one:
            // committed, it would move the stored offset back out of the part already in Kafka, and a restart would
            // emit that part again. Under poll boundaries, where an offset can stand inside a delivery, a
            // read_committed consumer would then see it twice.
            return;
        }
        lastHeartbeatNanos = clock.nanoTime();
        Lsn at = Lsn.max(emitted.lsn(), s.idleMark().lsn());
        if (at.isValid()) {
            SourceRecord beat = s.emitter().heartbeat(config.topicNames().heartbeat(), config.topicPrefix(), at);
            batch.add(beat);
            transactions.ended(beat);
        }
    }

    @Override
    public void commitRecord(SourceRecord record, RecordMetadata metadata) {
        tracker.acknowledged(record);
    }

    /** Runs after Connect flushed offsets: confirm what the committed offset and the acknowledgements cover. */
    @Override
    public void commit() {
        if (!(phase instanceof Streaming current)) {
            return;
        }
        Lsn committedOffset;
        try {
            committedOffset = offsets.durable(current.origin());
        } catch (RetriableException e) {
            log.debug("Slot {}: not confirming this time: {}", config.slotName(), e.getMessage());
            return;
        }
        Lsn durable = tracker.durableThrough(committedOffset);
        if (durable.isValid() && durable.isAfter(current.stream().durableLsn())) {
            if (toast != null) {
                // The slot will not send again what it confirms: the store must keep what it saw up to there.
                toast.sync();
            }
            log.debug("Slot {}: confirming {}", config.slotName(), durable);
            current.stream().declareDurable(durable);
        }
    }

    /**
     * Connect (3.0 and later) calls this on the task thread after the last {@code poll()}, so the session and spill
     * are released here; a concurrent poll sees the flag and returns at once.
     */
    @Override
    public void stop() {
        stopping = true;
        Phase last = phase;
        phase = new Idle();
        if (last != null) {
            release(last);
        }
        if (snapshotMetrics != null) {
            snapshotMetrics.unregister();
        }
        if (incrementalMetrics != null) {
            incrementalMetrics.unregister();
        }
        if (incremental != null) {
            closeQuietly(incremental::close, "the incremental snapshot's connections");
            incremental = null;
        }
        if (metrics != null) {
            metrics.unregister();
        }
        if (pipeline != null) {
            pipeline.close();
        }
        if (spill != null) {
            closeQuietly(spill::close, "the transaction spill");
            spill = null;
        }
        if (toast != null) {
            closeQuietly(toast::close, "the unchanged TOAST store");
            toast = null;
        }
    }

    /** Stopping goes on when one part fails to close: the others still hold connections and files. */
    private void closeQuietly(Runnable close, String what) {
        try {
            close.run();
        } catch (RuntimeException e) {
            log.warn("Slot {}: closing {} failed: {}", config.slotName(), what, e.getMessage());
        }
    }

    /** Closes what {@code left} holds open: the snapshot's connections, or the session and its assembler. */
    private void release(Phase left) {
        if (left instanceof BackingOff b) {
            release(b.then());
        } else if (left instanceof Snapshotting s) {
            s.snapshot().close();
        } else if (left instanceof Streaming s) {
            s.emitter().close();
            try {
                s.assembler().close();
            } catch (RuntimeException e) {
                log.debug("closing the assembler failed: {}", e.getMessage());
            }
            s.stream().close();
        }
    }
}
