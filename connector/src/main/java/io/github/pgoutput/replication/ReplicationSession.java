package io.github.pgoutput.replication;

import io.github.pgoutput.pgoutput.DecoderSettings;
import io.github.pgoutput.pgoutput.Lsn;
import io.github.pgoutput.replication.ProtocolNegotiation.NegotiatedProtocol;
import org.postgresql.PGConnection;
import org.postgresql.replication.LogSequenceNumber;
import org.postgresql.replication.PGReplicationStream;
import org.postgresql.replication.fluent.logical.ChainedLogicalStreamBuilder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.ByteBuffer;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One logical replication stream from one slot over its own replication connection (docs/pgoutput-protocol.md §8.1: a connection is never
 * reused for a second stream).
 *
 * <p>Feedback contract: the flush LSN reported to the server is only ever what the caller passed to
 * {@link #declareDurable} (or the resume LSN given to {@link #open}); pgjdbc's automatic flush on keepalives is turned
 * off, because it would let the slot pass data that never reached its destination. Status updates go out while the
 * caller reads and, when the caller stops reading, from a background keeper, so a slow caller is not disconnected by
 * {@code wal_sender_timeout}.
 *
 * <p>Thread-safety: {@link #readPending()} must be called from one thread at a time. {@link #declareDurable},
 * {@link #durableLsn}, {@link #serverWalEnd} and {@link #close} may be called from any thread.
 */
public final class ReplicationSession implements ReplicationStream {

    private static final Logger LOG = LoggerFactory.getLogger(ReplicationSession.class);

    private final ReplicationSettings settings;
    private final SessionSetup.Prepared prepared;
    private final Connection connection;
    private final PGReplicationStream stream;
    private final Lsn startLsn;
    /** Guards every use of {@link #stream}: pgjdbc's stream is not thread-safe, and the keeper writes to it too. */
    private final ReentrantLock streamLock = new ReentrantLock();
    private final AtomicReference<Lsn> durable;
    private final AtomicBoolean closed = new AtomicBoolean();
    private final KeepaliveGuard keeper;
    private volatile Lsn serverWalEnd = Lsn.INVALID;
    /** pgjdbc's last-receive LSN as seen after the previous read; a rise without a frame means a keepalive came. */
    private volatile Lsn receiveLsnAfterLastRead;

    /**
     * How long the stream may bring nothing new before a read probes the connection. pgjdbc's non-blocking read takes
     * the end of the stream (a server that died and closed the socket) for "no message yet", so a dead server was
     * noticed only when the next periodic status update failed, status.update.interval.ms or more later. A probe is
     * a status update that asks for a reply: against a live server it costs one small message each way; against a
     * closed socket the first write draws a reset and the next one fails, so a dead server is noticed within about
     * two probe intervals.
     */
    static final Duration SILENCE_PROBE_INTERVAL = Duration.ofMillis(500);
    /** When a frame or a rise of the receive LSN last came; only the reading thread uses these two. */
    private long lastProgressNanos = System.nanoTime();
    private long lastProbeNanos = System.nanoTime();

    private ReplicationSession(ReplicationSettings settings, SessionSetup.Prepared prepared, Connection connection,
                               PGReplicationStream stream, Lsn startLsn) {
        this.settings = settings;
        this.prepared = prepared;
        this.connection = connection;
        this.stream = stream;
        this.startLsn = startLsn;
        this.durable = new AtomicReference<>(startLsn);
        this.receiveLsnAfterLastRead = Lsn.of(stream.getLastReceiveLSN().asLong());
        this.keeper = new KeepaliveGuard(settings.slotName(), prepared.keepaliveGuardInterval(), streamLock, this::sendStatus);
    }

    /**
     * Checks the server, creates the publication and the slot when missing and allowed, and starts streaming.
     *
     * @param resumeFrom the end LSN of the last unit the caller stored durably, or {@link Lsn#INVALID} when it has none.
     *                   Streaming starts there when it is ahead of the slot's confirmed_flush_lsn (which PostgreSQL 15 and
     *                   16 can lose on a clean restart, docs/pgoutput-protocol.md §2.4); otherwise the server starts at confirmed_flush_lsn.
     *                   It also counts as declared durable.
     * @throws ReplicationSetupException          for a problem that needs a change of settings or database
     * @throws ReplicationConnectionLostException for a transient failure; retry later
     */
    public static ReplicationSession open(ReplicationSettings settings, Lsn resumeFrom) {
        Objects.requireNonNull(settings, "settings");
        Lsn start = Objects.requireNonNullElse(resumeFrom, Lsn.INVALID);
        SessionSetup.Prepared prepared = SessionSetup.prepare(settings);
        Connection connection = null;
        try {
            connection = PgConnections.openReplication(settings);
            PGReplicationStream stream = startStream(connection, settings, prepared.protocol(), start);
            ReplicationSession session = new ReplicationSession(settings, prepared, connection, stream, start);
            LOG.info("Replication from slot {} started at {} (slot confirmed_flush_lsn {}), PostgreSQL {}, {}",
                    settings.slotName(), start.isValid() ? start : "the slot's position", prepared.slot().confirmedFlushLsn(),
                    prepared.serverMajorVersion(), prepared.protocol());
            return session;
        } catch (SQLException e) {
            closeQuietly(connection);
            throw SqlErrors.classify(e, "starting replication from slot '" + settings.slotName() + "' with " + prepared.protocol(),
                    Setting.PROTOCOL_VERSION);
        } catch (RuntimeException e) {
            closeQuietly(connection);
            throw e;
        }
    }

    private static PGReplicationStream startStream(Connection connection, ReplicationSettings settings, NegotiatedProtocol protocol,
                                                   Lsn start) throws SQLException {
        ChainedLogicalStreamBuilder builder = connection.unwrap(PGConnection.class).getReplicationAPI().replicationStream().logical()
                .withSlotName(settings.slotName())
                .withSlotOption("proto_version", protocol.protocolVersion())
                // pgoutput splits this value like an identifier list; quoting keeps the name's case and commas.
                .withSlotOption("publication_names", Identifiers.quote(settings.publicationName()))
                .withStartPosition(LogSequenceNumber.valueOf(start.value()))
                .withStatusInterval((int) Math.max(1, settings.statusInterval().toMillis()), TimeUnit.MILLISECONDS)
                .withAutomaticFlush(false);
        // Booleans go as 'true'/'false'; pgoutput rejects '1'/'0' (docs/pgoutput-protocol.md §5.1), so never the int overload.
        switch (protocol.streaming()) {
            case ON -> builder.withSlotOption("streaming", true);
            case PARALLEL -> builder.withSlotOption("streaming", "parallel");
            case OFF -> {
            }
        }
        if (protocol.twoPhase()) {
            builder.withSlotOption("two_phase", true);
        }
        if (protocol.binary()) {
            builder.withSlotOption("binary", true);
        }
        if (protocol.messages()) {
            builder.withSlotOption("messages", true);
        }
        switch (protocol.origin()) {
            case ANY -> builder.withSlotOption("origin", "any");
            case NONE -> builder.withSlotOption("origin", "none");
            case SERVER_DEFAULT -> {
            }
        }
        PGReplicationStream stream = builder.start();
        if (start.isValid()) {
            // The caller's stored position was durable before; confirming it again re-advances a slot that lost it.
            stream.setFlushedLSN(LogSequenceNumber.valueOf(start.value()));
        }
        return stream;
    }

    /**
     * Returns the next buffered XLogData frame, or null when none is buffered. Never blocks waiting for the server.
     * Keepalives are consumed here and answered when the server asks; a periodic status update may be sent.
     *
     * @throws ReplicationConnectionLostException when the connection is gone (retriable)
     * @throws ReplicationSetupException          when the server ends the stream with a permanent error, e.g. a
     *                                            publication that does not exist (PostgreSQL 15-17)
     * @throws IllegalStateException              after {@link #close()}
     */
    @Override
    public WalFrame readPending() {
        if (closed.get()) {
            throw new IllegalStateException("replication session for slot '" + settings.slotName() + "' is closed");
        }
        keeper.rethrowFailure();
        streamLock.lock();
        try {
            ByteBuffer payload = stream.readPending();
            keeper.streamUsed();
            Lsn receive = Lsn.of(stream.getLastReceiveLSN().asLong());
            long now = System.nanoTime();
            if (payload == null) {
                // Only keepalives were read, and pgjdbc raises its receive LSN to a keepalive's walEnd when that is
                // larger. A rise here therefore is a keepalive walEnd, received after every frame handed out so far.
                if (receive.isAfter(receiveLsnAfterLastRead) && receive.isAfter(serverWalEnd)) {
                    serverWalEnd = receive;
                }
                if (receive.isAfter(receiveLsnAfterLastRead)) {
                    lastProgressNanos = now;
                }
                receiveLsnAfterLastRead = receive;
                checkServerWarnings();
                if (stream.isClosed()) {
                    throw new ReplicationConnectionLostException(Setting.HOSTNAME, "the server ended the replication stream of slot '"
                            + settings.slotName() + "'; the task reconnects by itself", null);
                }
                long probe = SILENCE_PROBE_INTERVAL.toNanos();
                if (now - lastProgressNanos >= probe && now - lastProbeNanos >= probe) {
                    lastProbeNanos = now;
                    stream.forceUpdateStatus();
                }
                return null;
            }
            lastProgressNanos = now;
            receiveLsnAfterLastRead = receive;
            return new WalFrame(payload, receive);
        } catch (SQLException e) {
            throw SqlErrors.classify(e, "reading from replication slot '" + settings.slotName() + "'", Setting.PUBLICATION_NAME);
        } finally {
            streamLock.unlock();
        }
    }

    /**
     * Notices the walsender sends inside the stream end up as warnings on the connection. PostgreSQL 18 reports a
     * publication that does not exist (any more) only this way and then skips its changes, where 15-17 end the stream
     * with an error (docs/pgoutput-protocol.md §5.2); silently losing changes is not acceptable, so that warning ends the session too.
     */
    private void checkServerWarnings() throws SQLException {
        SQLWarning warning = connection.getWarnings();
        if (warning == null) {
            return;
        }
        connection.clearWarnings();
        for (SQLWarning w = warning; w != null; w = w.getNextWarning()) {
            String text = String.valueOf(w.getMessage());
            if (text.contains("skipped loading publication")) {
                throw new ReplicationSetupException(Setting.PUBLICATION_NAME, "the server skips changes of slot '" + settings.slotName()
                        + "' because a publication is missing: " + text + "; create the publication '" + settings.publicationName()
                        + "' again (or fix publication.name) and restart from the last stored position");
            }
            LOG.warn("Replication from slot {}: server warning: {}", settings.slotName(), text);
        }
    }

    /**
     * Declares everything up to {@code lsn} durably processed: the server may now release WAL before it. Pass the end
     * LSN of a Commit, Stream Commit, Prepare, Stream Prepare, Commit Prepared or Rollback Prepared, or
     * {@link #serverWalEnd()} when nothing received is still pending. Smaller values than an earlier declaration are
     * ignored; the value is sent with the next status update.
     */
    @Override
    public void declareDurable(Lsn lsn) {
        Objects.requireNonNull(lsn, "lsn");
        Lsn now = durable.accumulateAndGet(lsn, Lsn::max);
        stream.setFlushedLSN(LogSequenceNumber.valueOf(now.value()));
    }

    /** The highest LSN declared durable so far (initially the resume LSN); {@link Lsn#INVALID} if none. */
    @Override
    public Lsn durableLsn() {
        return durable.get();
    }

    /**
     * The walEnd of the latest keepalive that arrived after every frame {@link #readPending()} has returned, or
     * {@link Lsn#INVALID} before the first. When the caller has nothing pending, it may declare this durable, so an idle
     * slot (no published changes, but WAL from elsewhere) does not hold WAL back.
     */
    @Override
    public Lsn serverWalEnd() {
        return serverWalEnd;
    }

    /** The highest LSN received from the server so far (frames and keepalives); readable from any thread, for metrics. */
    @Override
    public Lsn receivedLsn() {
        return receiveLsnAfterLastRead;
    }

    /** The protocol options this session started with; build the decoder from these. */
    public NegotiatedProtocol protocol() {
        return prepared.protocol();
    }

    @Override
    public DecoderSettings decoderSettings() {
        return prepared.protocol().decoderSettings();
    }

    /**
     * True when prepared transactions arrive at PREPARE time (Begin Prepare ... Prepare, later Commit/Rollback
     * Prepared): two-phase was asked for, or the slot already had it (a slot property, docs/pgoutput-protocol.md §6.5).
     */
    public boolean preparedTransactionsDecoded() {
        return prepared.protocol().twoPhase() || prepared.slot().twoPhase();
    }

    public int serverMajorVersion() {
        return prepared.serverMajorVersion();
    }

    /**
     * What the server showed about a failover of the slot before streaming started ({@link FailoverSlots#inspect});
     * empty when it could not be read.
     */
    public Optional<FailoverSlots.Readiness> failoverReadiness() {
        return Optional.ofNullable(prepared.failover());
    }

    /**
     * The larger of the requested start and the slot's confirmed_flush_lsn as read before START_REPLICATION: the
     * slot is inactive then (the task is its only client), so nothing moves it in between.
     */
    @Override
    public Lsn startLsn() {
        return Lsn.max(startLsn, prepared.slot().confirmedFlushLsn());
    }

    /** How long the caller may go without reading before the keeper answers the server for it. */
    public Duration keepaliveGuardInterval() {
        return prepared.keepaliveGuardInterval();
    }

    /** Number of status updates the keeper sent because the caller was not reading; for tests and metrics. */
    public long keeperStatusUpdates() {
        return keeper.updatesSent();
    }

    /**
     * Sends a last status update with the durable LSN, ends the COPY (accepting the server's trailing frames) and
     * closes the connection. Idempotent; never throws for a connection that is already gone.
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        keeper.stop();
        streamLock.lock();
        try {
            if (!stream.isClosed()) {
                stream.forceUpdateStatus();
                stream.close();
            }
            LOG.info("Replication from slot {} closed; last durable LSN {}", settings.slotName(), durable.get());
        } catch (SQLException e) {
            LOG.info("Replication from slot {} closed with the connection already failing ({}); last durable LSN {}",
                    settings.slotName(), e.getMessage(), durable.get());
        } finally {
            streamLock.unlock();
            closeQuietly(connection);
        }
    }

    private void sendStatus() throws SQLException {
        stream.forceUpdateStatus();
    }

    private static void closeQuietly(Connection connection) {
        if (connection == null) {
            return;
        }
        try {
            connection.close();
        } catch (SQLException e) {
            LOG.debug("closing a replication connection failed: {}", e.getMessage());
        }
    }
}
