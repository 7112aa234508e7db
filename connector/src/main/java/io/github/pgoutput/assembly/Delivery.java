package io.github.pgoutput.assembly;

import io.github.pgoutput.pgoutput.Lsn;
import io.github.pgoutput.pgoutput.PgOutputMessage.CommitPrepared;
import io.github.pgoutput.pgoutput.PgOutputMessage.LogicalMessage;
import io.github.pgoutput.pgoutput.PgOutputMessage.Origin;
import io.github.pgoutput.pgoutput.PgOutputMessage.RollbackPrepared;
import io.github.pgoutput.pgoutput.Xid;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One outcome of one source transaction, handed out in the order PostgreSQL sent them (commit order).
 *
 * <table>
 *   <caption>What each kind carries</caption>
 *   <tr><th>kind</th><th>changes</th><th>{@link #lsn()}</th><th>{@link #endLsn()}</th><th>{@link #time()}</th><th>gid</th></tr>
 *   <tr><td>COMMITTED, twoPhase=false</td><td>all, in order</td><td>commit_lsn</td><td>end_lsn</td><td>commit time</td>
 *       <td>none</td></tr>
 *   <tr><td>COMMITTED, synthetic for a non-transactional logical message (xid {@link Xid#INVALID})</td>
 *       <td>that one message</td><td>its lsn</td><td>its lsn</td><td>{@code null}</td><td>none</td></tr>
 *   <tr><td>PREPARED</td><td>all, in order</td><td>prepare_lsn</td><td>end_lsn of PREPARE (announced by Begin Prepare)</td>
 *       <td>prepare time</td><td>yes</td></tr>
 *   <tr><td>COMMITTED, twoPhase=true</td><td>none</td><td>commit_lsn of COMMIT PREPARED</td><td>its end_lsn</td>
 *       <td>commit time</td><td>yes</td></tr>
 *   <tr><td>ROLLED_BACK</td><td>none</td><td>prepare_end_lsn</td><td>rollback_end_lsn</td><td>rollback time</td><td>yes</td></tr>
 * </table>
 *
 * <p>{@link #endLsn()} is the progress point: once Kafka has acknowledged this delivery and every earlier one, it may
 * be confirmed to the slot. It is known from the start of every delivery (a transaction sent whole is handed out
 * only when its Commit has arrived). Not thread-safe.
 */
public final class Delivery {

    /** The lifecycle state a delivery reports: what had happened to the transaction when it was handed out. */
    public enum Kind {
        /** Committed: a plain COMMIT, or COMMIT PREPARED when {@link Delivery#twoPhase()} is true. */
        COMMITTED,
        /** Prepared with PREPARE TRANSACTION; COMMITTED or ROLLED_BACK follows later. */
        PREPARED,
        /** A prepared transaction undone with ROLLBACK PREPARED. */
        ROLLED_BACK
    }

    private final Kind kind;
    private final Xid xid;
    private final String gid;
    private final boolean twoPhase;
    private final Lsn lsn;
    private final Lsn endLsn;
    private final Instant time;
    private final Instant prepareTime;
    private final Origin origin;
    private final ChangeCursor changes;

    private Delivery(Kind kind, Xid xid, String gid, boolean twoPhase, Lsn lsn, Lsn endLsn, Instant time,
                     Instant prepareTime, Origin origin, ChangeCursor changes) {
        this.kind = Objects.requireNonNull(kind);
        this.xid = Objects.requireNonNull(xid);
        this.gid = gid;
        this.twoPhase = twoPhase;
        this.lsn = Objects.requireNonNull(lsn);
        this.endLsn = Objects.requireNonNull(endLsn);
        this.time = time;
        this.prepareTime = prepareTime;
        this.origin = origin;
        this.changes = Objects.requireNonNull(changes);
    }

    /** A transaction committed with a plain COMMIT (sent whole or streamed); {@code origin} may be null. */
    static Delivery committed(Xid xid, Lsn commitLsn, Lsn endLsn, Instant commitTime, Origin origin, ChangeCursor changes) {
        return new Delivery(Kind.COMMITTED, xid, null, false, commitLsn, endLsn, commitTime, null, origin, changes);
    }

    /** A non-transactional logical message, delivered on its own as soon as it is decoded. */
    static Delivery nonTransactional(LogicalMessage message, Lsn walPosition) {
        return new Delivery(Kind.COMMITTED, Xid.INVALID, null, false, message.lsn(), message.lsn(), null, null, null,
                FixedCursor.of(new ChangeEvent(message, List.of(), walPosition, 0)));
    }

    /** A transaction prepared with PREPARE TRANSACTION (sent whole or streamed); {@code origin} may be null. */
    static Delivery prepared(Xid xid, String gid, Lsn prepareLsn, Lsn endLsn, Instant prepareTime, Origin origin,
                             ChangeCursor changes) {
        return new Delivery(Kind.PREPARED, xid, gid, false, prepareLsn, endLsn, prepareTime, null, origin, changes);
    }

    /**
     * A prepared transaction finished with COMMIT PREPARED. It has no changes: they came with its PREPARED delivery,
     * possibly in an earlier session.
     */
    static Delivery commitPrepared(CommitPrepared commit) {
        return new Delivery(Kind.COMMITTED, commit.xid(), commit.gid(), true, commit.commitLsn(), commit.endLsn(),
                commit.commitTime(), null, null, FixedCursor.empty());
    }

    /** A prepared transaction undone with ROLLBACK PREPARED. It has no changes. */
    static Delivery rolledBack(RollbackPrepared rollback) {
        return new Delivery(Kind.ROLLED_BACK, rollback.xid(), rollback.gid(), false, rollback.prepareEndLsn(),
                rollback.rollbackEndLsn(), rollback.rollbackTime(), rollback.prepareTime(), null, FixedCursor.empty());
    }

    public Kind kind() {
        return kind;
    }

    /** The top-level transaction id; {@link Xid#INVALID} for a non-transactional logical message. */
    public Xid xid() {
        return xid;
    }

    /** The GID of a two-phase delivery (PREPARED, COMMITTED with twoPhase, ROLLED_BACK). */
    public Optional<String> gid() {
        return Optional.ofNullable(gid);
    }

    /** True for the COMMITTED that finishes a prepared transaction (COMMIT PREPARED); it has no changes. */
    public boolean twoPhase() {
        return twoPhase;
    }

    /** The start LSN of the commit or prepare record (see the class table). */
    public Lsn lsn() {
        return lsn;
    }

    /** The end LSN of the record that completed the delivery (see the class table): the LSN to confirm once it is durable. */
    public Lsn endLsn() {
        return endLsn;
    }

    /** Commit, prepare or rollback time (see the class table); {@code null} for a non-transactional logical message. */
    public Instant time() {
        return time;
    }

    /** For ROLLED_BACK: the time of the PREPARE being rolled back (with {@link #lsn()} it names that PREPARE). */
    public Optional<Instant> prepareTime() {
        return Optional.ofNullable(prepareTime);
    }

    /** The replication origin of the transaction, when PostgreSQL sent one. */
    public Optional<Origin> origin() {
        return Optional.ofNullable(origin);
    }

    public ChangeCursor changes() {
        return changes;
    }

    @Override
    public String toString() {
        return kind + (twoPhase ? "(two-phase)" : "") + " xid " + xid + (gid == null ? "" : " gid '" + gid + "'") + " lsn " + lsn
                + " end " + endLsn;
    }
}
