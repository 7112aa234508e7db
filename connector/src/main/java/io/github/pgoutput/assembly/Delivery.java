package io.github.pgoutput.assembly;

import io.github.pgoutput.pgoutput.Lsn;
import io.github.pgoutput.pgoutput.PgOutputMessage.Origin;
import io.github.pgoutput.pgoutput.Xid;
import java.time.Instant;
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
 *   <tr><td>PREPARED</td><td>all, in order</td><td>prepare_lsn</td><td>end_lsn of PREPARE</td><td>prepare time</td><td>yes</td></tr>
 *   <tr><td>COMMITTED, twoPhase=true</td><td>none</td><td>commit_lsn of COMMIT PREPARED</td><td>its end_lsn</td>
 *       <td>commit time</td><td>yes</td></tr>
 *   <tr><td>ROLLED_BACK</td><td>none</td><td>prepare_end_lsn</td><td>rollback_end_lsn</td><td>rollback time</td><td>yes</td></tr>
 * </table>
 *
 * <p>{@link #endLsn()} is the progress point: once Kafka has acknowledged this delivery and every earlier one, it may
 * be confirmed to the slot. For a transaction read straight from the wire it is known only when its changes have
 * been read to the end. Not thread-safe.
 */
public final class Delivery {

    /** The lifecycle state a delivery reports. */
    public enum Kind { COMMITTED, PREPARED, ROLLED_BACK }

    private final Kind kind;
    private final Xid xid;
    private final String gid;
    private final boolean twoPhase;
    private final Lsn lsn;
    private final Instant time;
    private final Instant prepareTime;
    private final Origin origin;
    private final ChangeCursor changes;
    private Lsn endLsn;

    Delivery(Kind kind, Xid xid, String gid, boolean twoPhase, Lsn lsn, Lsn endLsn, Instant time, Instant prepareTime,
             Origin origin, ChangeCursor changes) {
        this.kind = Objects.requireNonNull(kind);
        this.xid = Objects.requireNonNull(xid);
        this.gid = gid;
        this.twoPhase = twoPhase;
        this.lsn = Objects.requireNonNull(lsn);
        this.endLsn = endLsn;
        this.time = time;
        this.prepareTime = prepareTime;
        this.origin = origin;
        this.changes = Objects.requireNonNull(changes);
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

    /** True once {@link #endLsn()} is known. */
    public boolean hasEndLsn() {
        return endLsn != null;
    }

    /**
     * The LSN to confirm once this delivery is durable.
     *
     * @throws IllegalStateException while the changes of a wire transaction have not been read to the end
     */
    public Lsn endLsn() {
        if (endLsn == null) {
            throw new IllegalStateException("the end LSN of transaction " + xid + " is known only after its changes were read to the end");
        }
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

    void end(Lsn end) {
        this.endLsn = end;
    }

    @Override
    public String toString() {
        return kind + (twoPhase ? "(two-phase)" : "") + " xid " + xid + (gid == null ? "" : " gid '" + gid + "'") + " lsn " + lsn
                + (endLsn == null ? "" : " end " + endLsn);
    }
}
