package io.github.pgoutput.snapshot;

import io.github.pgoutput.assembly.Delivery;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;

/**
 * The transactions the stream has delivered lately, for the one condition an incremental snapshot's chunk must meet
 * before it goes between two deliveries: its snapshot sees every transaction already delivered. A transaction's
 * commit can be decoded and delivered a moment before its backend leaves the process array, so a snapshot taken
 * right after may not see it yet; that can only be so for the last few, and {@value #REMEMBERED} is far more than can
 * commit while one chunk is read. A PREPARED delivery (stage mode) stays unseen until COMMIT PREPARED, so it is kept
 * apart until its outcome is delivered. Not thread-safe: the task's poll thread.
 */
public final class DeliveredTransactions {

    static final int REMEMBERED = 4096;

    private final long[] xids = new long[REMEMBERED];
    private int count;
    private int next;
    private final Set<Long> prepared = new HashSet<>();

    /**
     * {@code delivery} was emitted whole; {@code replayed}: it was all in Kafka already.
     *
     * <p>A replayed PREPARED delivery is not awaiting its outcome on that account: the outcome may be in Kafka
     * already too, and a reconnect after this one may start past it, so that it never comes again and chunks would be
     * held back for good. One whose outcome is not in Kafka was noted when it was emitted the first time.
     */
    void delivered(Delivery delivery, boolean replayed) {
        long xid = delivery.xid().value();
        if (delivery.kind() == Delivery.Kind.PREPARED) {
            if (!replayed) {
                prepared.add(xid);
            }
        } else if (delivery.twoPhase() || delivery.kind() == Delivery.Kind.ROLLED_BACK) {
            prepared.remove(xid);
        }
        if (delivery.xid().isValid()) {
            xids[next] = xid;
            next = (next + 1) % REMEMBERED;
            count = Math.min(count + 1, REMEMBERED);
        }
    }

    /** A delivered PREPARED transaction whose outcome is not delivered yet. */
    Optional<Long> preparedAwaitingOutcome() {
        return prepared.stream().findFirst();
    }

    /** A delivered transaction that {@code snapshot} does not see; empty when it sees them all. */
    Optional<Long> unseenBy(TransactionSnapshot snapshot) {
        for (int i = 0; i < count; i++) {
            if (!snapshot.sees(xids[i])) {
                return Optional.of(xids[i]);
            }
        }
        return Optional.empty();
    }
}
