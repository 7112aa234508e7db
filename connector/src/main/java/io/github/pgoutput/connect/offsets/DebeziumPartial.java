package io.github.pgoutput.connect.offsets;

import java.util.Objects;

import io.github.pgoutput.assembly.ChangeEvent;
import io.github.pgoutput.assembly.Delivery;
import io.github.pgoutput.pgoutput.Lsn;
import io.github.pgoutput.pgoutput.PgOutputMessage;
import io.github.pgoutput.pgoutput.Xid;

/**
 * Where inside a transaction Debezium's stored offset stopped ({@link DebeziumOffset#partial()}): the changes of
 * transaction {@code xid} before WAL position {@code lastChange}, and the first {@code changesAtLastChange} at it, are
 * in Kafka. The transaction is named by its xid, as Debezium's offset names it ({@code txId}), not by LSNs: a change's
 * position says nothing about the commit order in which PostgreSQL sends transactions.
 *
 * <p>Changes are counted as Debezium counts events: one per Insert, Update, Delete or logical message, one per table
 * of a Truncate. The changes in Kafka are a prefix of the transaction's (PostgreSQL sends a transaction's changes in WAL
 * order), so the first change that is not covered ends the prefix, and nothing after it is skipped.
 *
 * <p>Immutable and thread-safe; each {@link Prefix} is not.
 */
public record DebeziumPartial(Xid xid, Lsn lastChange, long changesAtLastChange) {

    public DebeziumPartial {
        Objects.requireNonNull(xid, "xid");
        Objects.requireNonNull(lastChange, "lastChange");
        if (changesAtLastChange < 1) {
            throw new IllegalArgumentException("at least the change at " + lastChange + " is in Kafka, not " + changesAtLastChange);
        }
    }

    /** Whether {@code delivery} is the transaction the offset stopped inside. */
    public boolean names(Delivery delivery) {
        return delivery.kind() == Delivery.Kind.COMMITTED && !delivery.twoPhase() && delivery.xid().equals(xid);
    }

    /** A walk over the changes of the transaction this names, from its first. */
    public Prefix prefix() {
        return new Prefix();
    }

    /** Says of each change of the transaction, in order, whether it is in Kafka already. Not thread-safe. */
    public final class Prefix {
        private long atLastChange;
        private boolean ended;

        private Prefix() {
        }

        /** Whether {@code change}, the transaction's next, is in Kafka already; false for it and every later one once not. */
        public boolean covers(ChangeEvent change) {
            if (ended) {
                return false;
            }
            Lsn at = change.walPosition();
            if (at.isBefore(lastChange)) {
                return true;
            }
            if (at.equals(lastChange)) {
                atLastChange += change.message() instanceof PgOutputMessage.Truncate truncate ? Math.max(1, truncate.relationIds().size()) : 1;
                if (atLastChange <= changesAtLastChange) {
                    return true;
                }
            }
            ended = true;
            return false;
        }
    }
}
