package io.github.pgoutput.spill;

import io.github.pgoutput.pgoutput.Lsn;
import io.github.pgoutput.pgoutput.Xid;
import java.nio.ByteBuffer;

/**
 * Buffers the messages of streamed transactions outside the heap until they commit, abort or roll back a savepoint.
 *
 * <p>The SPI is keyed by the top-level xid. Each appended message also names the (sub)transaction that made it, so
 * a rolled-back savepoint can be cut out with {@link #discardSubtransaction}. Messages are opaque payloads
 * (raw pgoutput bytes) with the WAL position they arrived with.
 *
 * <p>Contract, checked by the abstract suite {@code TransactionSpillContract} for every backend:
 * <ul>
 *   <li>{@link #read} returns the messages of an xid in append order, byte for byte; an xid with no appends reads
 *       as empty.</li>
 *   <li>Reads are all-or-nothing: if the store no longer holds everything appended for the xid (missing,
 *       truncated or corrupt data), {@code read} throws {@link SpillException} before returning a reader.</li>
 *   <li>{@code discardSubtransaction(xid, sub)} removes the first message appended with {@code sub} and everything
 *       appended for {@code xid} after it (its own later messages and those of its child subtransactions); it is a
 *       no-op when {@code sub} appended nothing; messages appended afterwards are kept.
 *       {@code discardSubtransaction(xid, xid)} is {@code discard(xid)}.</li>
 *   <li>Limits ({@link SpillSettings#maxTransactionBytes()}, {@link SpillSettings#maxTotalBytes()}) and store
 *       failures raise {@link SpillException} naming the path or table and the setting; the failed append stored
 *       nothing the next read could return as complete.</li>
 *   <li>Memory use (heap and direct buffers) is bounded by {@link SpillSettings#memoryBufferBytes()} plus a fixed amount per open reader and a
 *       few dozen bytes of bookkeeping per transaction and per subtransaction that appended something, whatever the
 *       size of the transactions.</li>
 * </ul>
 *
 * <p>Not thread-safe: one assembler thread uses it. Appending to an xid while a reader of it is open is not allowed.
 */
public interface TransactionSpill extends AutoCloseable {

    /**
     * Appends one message of top-level transaction {@code xid}, made by (sub)transaction {@code subXid}.
     * Reads {@code payload} from its position to its limit without changing them.
     */
    void append(Xid xid, Xid subXid, Lsn walPosition, ByteBuffer payload);

    /** Opens a reader over everything appended for {@code xid}, in append order, after verifying it is complete. */
    SpillReader read(Xid xid);

    /** Forgets everything appended for {@code xid}. No-op for an unknown xid. */
    void discard(Xid xid);

    /** Cuts {@code subXid}'s first message and everything after it out of {@code xid}; see the class contract. */
    void discardSubtransaction(Xid xid, Xid subXid);

    /** Forgets every transaction, including leftovers of an earlier run of the same slot. */
    void clear();

    SpillUsage usage();

    /** Releases the store's resources and forgets what it holds. Idempotent. */
    @Override
    void close();
}
