package io.github.pgoutput.assembly;

import static io.github.pgoutput.assembly.AssemblyException.unexpected;

import io.github.pgoutput.pgoutput.Lsn;
import io.github.pgoutput.pgoutput.PgOutputMessage;
import io.github.pgoutput.pgoutput.PgOutputMessage.Begin;
import io.github.pgoutput.pgoutput.PgOutputMessage.Commit;
import io.github.pgoutput.pgoutput.PgOutputMessage.Delete;
import io.github.pgoutput.pgoutput.PgOutputMessage.Insert;
import io.github.pgoutput.pgoutput.PgOutputMessage.LogicalMessage;
import io.github.pgoutput.pgoutput.PgOutputMessage.Origin;
import io.github.pgoutput.pgoutput.PgOutputMessage.Relation;
import io.github.pgoutput.pgoutput.PgOutputMessage.Type;
import io.github.pgoutput.pgoutput.PgOutputMessage.Update;
import io.github.pgoutput.spill.SpillReader;
import java.util.ArrayList;
import java.util.List;

/**
 * A transaction PostgreSQL sends whole (Begin ... Commit), collected until its Commit arrives. Only the Commit
 * carries the transaction's end LSN, and every record of the delivery reports it, so nothing of the transaction can
 * be handed out before.
 *
 * <p>Memory stays bounded: the decoded messages are held while their estimated size stays within the limit; the
 * messages after that go to the spill under the transaction's xid (as raw payloads, like a streamed transaction's)
 * and are read back after the held ones. PostgreSQL streams large transactions itself when streaming is on, so in
 * practice the spill takes over only for large transactions with streaming off (protocol 1) or for transactions
 * between the limit and {@code logical_decoding_work_mem}.
 *
 * <p>Not thread-safe; one per transaction, used by the assembler.
 */
final class HeldTransaction {

    /** Estimated heap of a decoded message beyond its payload: the message object and its tuples. */
    private static final long MESSAGE_OVERHEAD = 64;
    /** Estimated heap of one decoded column value beyond its bytes (value object, byte string, array header). */
    private static final long COLUMN_OVERHEAD = 48;

    /** One held message, decoded, with the WAL position of its frame. */
    record Held(PgOutputMessage message, Lsn walPosition) {
    }

    private final AssemblyContext context;
    private final WireMessage beginWire;
    private final Begin begin;
    private final Origin origin;
    private final long limitBytes;
    private final List<Held> held = new ArrayList<>();
    private long heldBytes;
    private boolean spilling;

    HeldTransaction(AssemblyContext context, WireMessage beginWire, Origin origin, long limitBytes) {
        this.context = context;
        this.beginWire = beginWire;
        this.begin = (Begin) beginWire.message();
        this.origin = origin;
        this.limitBytes = limitBytes;
    }

    Begin begin() {
        return begin;
    }

    /**
     * Takes the next message of the transaction.
     *
     * @return the delivery when {@code wire} is the transaction's Commit, else null
     * @throws AssemblyException for a message that does not belong inside a transaction, or a Commit whose commit_lsn
     *                           is not the Begin's final_lsn
     */
    Delivery offer(WireMessage wire) {
        PgOutputMessage message = wire.message();
        boolean content = message instanceof PgOutputMessage.Change || message instanceof LogicalMessage logical && logical.transactional()
                || message instanceof Relation || message instanceof Type;
        if (content) {
            hold(wire);
            return null;
        }
        if (message instanceof Commit commit) {
            if (!commit.commitLsn().equals(begin.finalLsn())) {
                throw unexpected(wire, "with commit_lsn " + commit.commitLsn() + " for transaction "
                        + begin.xid() + ", whose Begin announced final_lsn " + begin.finalLsn());
            }
            // read() verifies the spilled part before returning, so a damaged spill fails before any delivery.
            SpillReader rest = spilling ? context.spill().read(begin.xid()) : null;
            return Delivery.committed(begin.xid(), begin.finalLsn(), commit.endLsn(), begin.commitTime(), origin,
                    new HeldCursor(context, begin.xid(), held, rest));
        }
        throw unexpected(wire, "inside transaction " + begin.xid() + " (begun by " + beginWire.describe()
                + "); expected changes, Relation, Type or its Commit");
    }

    private void hold(WireMessage wire) {
        if (!spilling) {
            long size = estimatedSize(wire);
            if (heldBytes + size <= limitBytes) {
                held.add(new Held(wire.message(), wire.walPosition()));
                heldBytes += size;
                return;
            }
            spilling = true;
        }
        context.spill().append(begin.xid(), begin.xid(), wire.walPosition(), wire.payload());
    }

    private static long estimatedSize(WireMessage wire) {
        long size = MESSAGE_OVERHEAD + wire.payload().remaining();
        PgOutputMessage message = wire.message();
        if (message instanceof Insert insert) {
            size += COLUMN_OVERHEAD * insert.newTuple().size();
        } else if (message instanceof Update update) {
            size += COLUMN_OVERHEAD * (update.newTuple().size() + update.oldTuple().map(o -> o.tuple().size()).orElse(0));
        } else if (message instanceof Delete delete) {
            size += COLUMN_OVERHEAD * delete.oldTuple().tuple().size();
        } else if (message instanceof Relation relation) {
            size += COLUMN_OVERHEAD * relation.columns().size();
        }
        return size;
    }

    /** Forgets the spilled part, if any (the assembler failed or closes before the Commit arrived). */
    void discard() {
        if (spilling) {
            context.spill().discard(begin.xid());
        }
    }
}
