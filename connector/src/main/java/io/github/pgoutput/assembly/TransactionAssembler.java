package io.github.pgoutput.assembly;

import static io.github.pgoutput.assembly.AssemblyException.unexpected;

import io.github.pgoutput.pgoutput.PgOutputMessage;
import io.github.pgoutput.pgoutput.PgOutputMessage.Begin;
import io.github.pgoutput.pgoutput.PgOutputMessage.BeginPrepare;
import io.github.pgoutput.pgoutput.PgOutputMessage.CommitPrepared;
import io.github.pgoutput.pgoutput.PgOutputMessage.LogicalMessage;
import io.github.pgoutput.pgoutput.PgOutputMessage.Origin;
import io.github.pgoutput.pgoutput.PgOutputMessage.Relation;
import io.github.pgoutput.pgoutput.PgOutputMessage.RollbackPrepared;
import io.github.pgoutput.pgoutput.PgOutputMessage.StreamAbort;
import io.github.pgoutput.pgoutput.PgOutputMessage.StreamCommit;
import io.github.pgoutput.pgoutput.PgOutputMessage.StreamPrepare;
import io.github.pgoutput.pgoutput.PgOutputMessage.StreamStart;
import io.github.pgoutput.pgoutput.PgOutputMessage.StreamStop;
import io.github.pgoutput.pgoutput.PgOutputMessage.Type;
import io.github.pgoutput.pgoutput.Xid;
import io.github.pgoutput.spill.SpillReader;
import io.github.pgoutput.spill.SpillUsage;
import io.github.pgoutput.spill.TransactionSpill;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Turns the pgoutput message stream of one replication session into {@link Delivery deliveries} in commit order.
 *
 * <ul>
 *   <li>A transaction sent whole (B..C) is already decided when it arrives, but only its Commit carries its end LSN,
 *       which the delivery must report from its first record on. So it is collected until the Commit (a
 *       {@link HeldTransaction}: decoded in memory up to the hold limit, the rest in the spill) and handed out
 *       then.</li>
 *   <li>A prepared transaction sent whole (b..P in {@link PreparedTransactionMode#STAGE}) is passed through: Begin
 *       Prepare already carries the end LSN, so its delivery is handed out at once and its cursor pulls the changes
 *       from the {@link MessageSource} as the consumer reads them.</li>
 *   <li>The messages of stream blocks (S..E) go to the {@link TransactionSpill} as raw payloads, keyed by top-level
 *       xid and (sub)transaction xid. Stream Commit / Stream Prepare hand out a delivery whose cursor reads the spill
 *       back (verified complete first) and decodes it; Stream Abort discards the transaction or cuts off the
 *       rolled-back subtransaction.</li>
 *   <li>Relation and Type messages update the session's {@link RelationCache}. Those inside a stream block are
 *       spilled in order with the changes and applied to the cache as the transaction is read back at its commit,
 *       so every change gets the schema in force when it was written, and the cache ends up holding them, as the
 *       server expects (it does not send them again after a stream commit).</li>
 * </ul>
 *
 * <p>Anything that breaks the protocol's sequence rules (Commit without Begin, a change outside a transaction or
 * stream block, nested Begin, Stream Commit for an unknown xid, a two-phase message in
 * {@link PreparedTransactionMode#FAIL}) throws an {@link AssemblyException} naming the message and its WAL position;
 * after that, and after any failure of the source or the spill, every call fails: reconnect with a new assembler.
 *
 * <p>The spill is cleared on construction: PostgreSQL streams unfinished transactions again after a reconnect.
 * The assembler does not own the spill and does not close it. Not thread-safe; memory does not depend on
 * transaction size (the open streamed transactions cost a map entry each; a transaction sent whole is held up to the
 * hold limit).
 */
public final class TransactionAssembler implements AutoCloseable {

    private final AssemblyContext context;
    private final TransactionSpill spill;
    private final long holdLimitBytes;
    /** Streamed transactions seen in this session and not yet finished, with their origin if one was sent. */
    private final Map<Xid, Optional<Origin>> openStreams = new HashMap<>();
    private WireMessage pendingBegin;
    /** The transaction sent whole that is being collected until its Commit, or null. */
    private HeldTransaction holding;
    private Xid streamBlockXid;
    private Delivery current;

    /**
     * @param holdLimitBytes how much of a transaction sent whole is held in memory (decoded; estimated heap bytes)
     *                       until its Commit; the rest goes to the spill. 0 spills everything of it.
     */
    public TransactionAssembler(MessageSource source, TransactionSpill spill, SpilledMessageDecoder decoder,
                                PreparedTransactionMode preparedMode, long holdLimitBytes) {
        this.context = new AssemblyContext(source, spill, decoder, preparedMode);
        this.spill = spill;
        if (holdLimitBytes < 0) {
            throw new IllegalArgumentException("holdLimitBytes must be 0 or more, was " + holdLimitBytes);
        }
        this.holdLimitBytes = holdLimitBytes;
        spill.clear();
    }

    /**
     * Returns the next delivery, or {@code null} when the source has nothing more right now (also while a transaction
     * sent whole is being collected: its delivery comes with its Commit). Does bounded work per message and never
     * blocks.
     *
     * @throws IllegalStateException when the previous delivery's changes were not read to the end
     * @throws AssemblyException     on a protocol violation (see the class comment)
     * @throws RuntimeException      from the source or the spill ({@code SpillException}); the assembler is then failed
     */
    public Delivery nextDelivery() {
        context.checkUsable();
        if (current != null) {
            if (!current.changes().atEnd()) {
                throw new IllegalStateException("read the changes of " + current + " to the end before asking for the next delivery");
            }
            current.changes().close();
            current = null;
        }
        try {
            while (true) {
                WireMessage wire = context.take();
                if (wire == null) {
                    return null;
                }
                Delivery delivery = handle(wire);
                if (delivery != null) {
                    current = delivery;
                    return delivery;
                }
            }
        } catch (RuntimeException e) {
            throw context.fail(e);
        }
    }

    /** The Relation and Type definitions of this session. */
    public RelationCache relations() {
        return context.relations();
    }

    /** Streamed transactions that have started and not yet committed, prepared or aborted. */
    public int openStreamedTransactions() {
        return openStreams.size();
    }

    public SpillUsage spillUsage() {
        return spill.usage();
    }

    /** Closes the current delivery's cursor and forgets a transaction being collected. The spill stays open (its owner closes it). */
    @Override
    public void close() {
        if (current != null) {
            current.changes().close();
        }
        if (holding != null) {
            holding.discard();
            holding = null;
        }
    }

    private Delivery handle(WireMessage wire) {
        if (pendingBegin != null) {
            return openWireTransaction(wire);
        }
        if (holding != null) {
            Delivery delivery = holding.offer(wire);
            if (delivery != null) {
                holding = null;
            }
            return delivery;
        }
        if (streamBlockXid != null) {
            handleInStreamBlock(wire);
            return null;
        }
        PgOutputMessage message = wire.message();
        if (message instanceof Begin || message instanceof BeginPrepare) {
            // Wait for one more message: an Origin may follow and belongs in the delivery's metadata.
            pendingBegin = wire;
            return null;
        }
        if (message instanceof StreamStart start) {
            startStreamBlock(start, wire);
            return null;
        }
        if (message instanceof StreamCommit commit) {
            Optional<Origin> origin = finishStream(commit.xid(), wire, "Stream Commit");
            return Delivery.committed(commit.xid(), commit.commitLsn(), commit.endLsn(), commit.commitTime(),
                    origin.orElse(null), readBack(commit.xid()));
        }
        if (message instanceof StreamPrepare prepare) {
            Optional<Origin> origin = finishStream(prepare.xid(), wire, "Stream Prepare");
            return Delivery.prepared(prepare.xid(), prepare.gid(), prepare.prepareLsn(), prepare.endLsn(),
                    prepare.prepareTime(), origin.orElse(null), readBack(prepare.xid()));
        }
        if (message instanceof StreamAbort abort) {
            abortStream(abort);
            return null;
        }
        if (message instanceof CommitPrepared commit) {
            // Delivered even when this session never saw the PREPARE: it may have been confirmed before a restart.
            return Delivery.commitPrepared(commit);
        }
        if (message instanceof RollbackPrepared rollback) {
            return Delivery.rolledBack(rollback);
        }
        if (message instanceof LogicalMessage logical && !logical.transactional()) {
            return Delivery.nonTransactional(logical, wire.walPosition());
        }
        if (message instanceof Relation relation) {
            context.relations().apply(relation);
            return null;
        }
        if (message instanceof Type type) {
            context.relations().apply(type);
            return null;
        }
        throw unexpected(wire, "outside any transaction and stream block; expected Begin, Begin Prepare, Stream Start,"
                + " Stream Commit/Abort/Prepare, Commit Prepared, Rollback Prepared or a non-transactional message");
    }

    private Delivery openWireTransaction(WireMessage next) {
        WireMessage begin = pendingBegin;
        pendingBegin = null;
        Origin origin = null;
        if (next.message() instanceof Origin sent) {
            origin = sent;
        } else {
            context.pushBack(next);
        }
        if (begin.message() instanceof Begin b) {
            if (openStreams.containsKey(b.xid())) {
                throw unexpected(begin, "for xid " + b.xid() + ", which is streaming in this session; expected its Stream"
                        + " Commit, Abort or Prepare instead");
            }
            holding = new HeldTransaction(context, begin, origin, holdLimitBytes);
            return null;
        }
        BeginPrepare b = (BeginPrepare) begin.message();
        return Delivery.prepared(b.xid(), b.gid(), b.prepareLsn(), b.endLsn(), b.prepareTime(), origin,
                new WireCursor(context, begin));
    }

    private void startStreamBlock(StreamStart start, WireMessage wire) {
        boolean known = openStreams.containsKey(start.xid());
        if (start.firstSegment() && known) {
            throw unexpected(wire, "with first_segment=1 for xid " + start.xid() + ", whose earlier blocks arrived in this"
                    + " session; expected first_segment=0 (a re-stream from the start needs a new session)");
        }
        if (!start.firstSegment() && !known) {
            throw unexpected(wire, "with first_segment=0 for xid " + start.xid() + ", whose first block never arrived in this"
                    + " session; expected first_segment=1 first");
        }
        if (!known) {
            openStreams.put(start.xid(), Optional.empty());
        }
        streamBlockXid = start.xid();
    }

    private void handleInStreamBlock(WireMessage wire) {
        PgOutputMessage message = wire.message();
        if (message instanceof StreamStop) {
            streamBlockXid = null;
            return;
        }
        if (message instanceof Origin origin) {
            openStreams.put(streamBlockXid, Optional.of(origin));
            return;
        }
        boolean spilled = message instanceof Relation || message instanceof Type || message instanceof PgOutputMessage.Change
                || message instanceof LogicalMessage logical && logical.transactional();
        if (!spilled) {
            throw unexpected(wire, "inside the stream block of xid " + streamBlockXid
                    + "; expected changes, Relation, Type, transactional messages or Stream Stop");
        }
        Xid subXid = ((PgOutputMessage.StreamScoped) message).xid();
        spill.append(streamBlockXid, subXid.isValid() ? subXid : streamBlockXid, wire.walPosition(), wire.payload());
    }

    private Optional<Origin> finishStream(Xid xid, WireMessage wire, String what) {
        Optional<Origin> origin = openStreams.remove(xid);
        if (origin == null) {
            throw unexpected(wire, "for xid " + xid + ", which streamed nothing in this session; expected Stream Start"
                    + " with first_segment=1 for it before its " + what);
        }
        return origin;
    }

    private ChangeCursor readBack(Xid xid) {
        // read() verifies the whole transaction before returning, so a damaged spill fails before any delivery.
        SpillReader reader = spill.read(xid);
        return new SpillCursor(context, xid, reader, true);
    }

    private void abortStream(StreamAbort abort) {
        if (!openStreams.containsKey(abort.xid())) {
            // Nothing of this transaction arrived in this session, so there is nothing to discard.
            return;
        }
        if (abort.abortsWholeTransaction()) {
            openStreams.remove(abort.xid());
            spill.discard(abort.xid());
        } else {
            // Also cuts the changes of the subtransaction's children, which were written after its first change.
            spill.discardSubtransaction(abort.xid(), abort.subXid());
        }
    }
}
