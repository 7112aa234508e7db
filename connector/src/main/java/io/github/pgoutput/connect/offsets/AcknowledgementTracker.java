package io.github.pgoutput.connect.offsets;

import java.util.ArrayDeque;
import java.util.Collection;
import java.util.Deque;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Objects;

import io.github.pgoutput.pgoutput.Lsn;

/**
 * Decides how far the replication slot may be confirmed: the durability rule of the connector.
 *
 * <p>Units are tracked in emission order: each delivery that the task started to emit, each heartbeat, and each
 * idle point (a keepalive's walEnd taken while nothing was being emitted). A unit is <em>durable</em> when
 * <ul>
 *   <li>its end LSN is known (a delivery read from the wire learns it only after its last change),</li>
 *   <li>every record emitted for it was acknowledged by Kafka ({@code commitRecord}), and</li>
 *   <li>if it emitted records, or changed what offsets carry besides the position (it applied a signal of an
 *       incremental snapshot, {@link #carriesOffsetState}): the committed source offset has reached its end LSN, so
 *       Connect has stored the position past it, and what it changed, and a restart will not need it again.</li>
 * </ul>
 * {@link #durableThrough} returns the end LSN of the last unit of the longest durable prefix. Why only a prefix:
 * confirming an LSN releases every WAL record before it, so confirming past a unit whose records are still in flight
 * would lose them if the task failed now (Kafka may acknowledge out of order across partitions). An idle point has no
 * records; it becomes durable when every unit before it is, which lets an idle or filtered database release WAL.
 *
 * <p>Thread-safe: the poll thread adds units and records, Kafka's producer thread acknowledges them, and Connect's
 * offset committer asks for the durable LSN.
 */
public final class AcknowledgementTracker {

    /** One delivery, heartbeat or idle point. */
    public static final class Unit {
        private Lsn endLsn;
        private long emitted;
        private long acknowledged;
        /** Given up after a failure: it only waits for its records in flight and confirms nothing itself. */
        private boolean abandoned;
        /** It changed what the offsets carry: only a committed offset at or past its end makes it durable. */
        private boolean offsetState;

        private boolean durable(Lsn committedOffset) {
            if (abandoned) {
                return acknowledged == emitted;
            }
            return endLsn != null && acknowledged == emitted && (emitted == 0 && !offsetState || !committedOffset.isBefore(endLsn));
        }
    }

    private final Deque<Unit> units = new ArrayDeque<>();
    private final Map<Object, Unit> inFlight = new IdentityHashMap<>();
    private Lsn durable = Lsn.INVALID;

    /** A unit whose records follow, in emission order after every unit opened before. */
    public synchronized Unit open() {
        Unit unit = new Unit();
        units.addLast(unit);
        return unit;
    }

    /** {@code record} (compared by identity) was handed to Connect as part of {@code unit}. */
    public synchronized void emitted(Unit unit, Object record) {
        Objects.requireNonNull(record, "record");
        if (unit.endLsn != null) {
            throw new IllegalStateException("a record was emitted for a unit that already ended at " + unit.endLsn);
        }
        unit.emitted++;
        if (inFlight.put(record, unit) != null) {
            throw new IllegalStateException("the same record object was emitted twice");
        }
    }

    /** Every record of {@code unit} has been emitted; confirming {@code endLsn} covers it. */
    public synchronized void ended(Unit unit, Lsn endLsn) {
        unit.endLsn = Objects.requireNonNull(endLsn, "endLsn");
    }

    /**
     * {@code unit} changed what the offsets of later records carry besides the position (it applied a signal of an
     * incremental snapshot): it is durable only once the committed offset has reached its end, also when it has no
     * record of its own. Why: a delivery whose only change is a signal row (the signal table need not be captured) has
     * no record; durable at once, it would let a reconnect, or the slot, pass it while no stored offset says what the
     * signal did, and a failure then would lose the signal for good.
     */
    public synchronized void carriesOffsetState(Unit unit) {
        unit.offsetState = true;
    }

    /** A point with nothing pending: confirming {@code walEnd} is safe once every earlier unit is durable. */
    public synchronized void idleAt(Lsn walEnd) {
        ended(open(), walEnd);
    }

    /**
     * After a failure of the stream: {@code notHandedOver} were built but never returned to Connect. They are
     * forgotten, and the first unit that lost one or has not ended is abandoned together with <em>every unit opened
     * after it</em>: an abandoned unit still holds back later units until its records in flight are acknowledged, but
     * confirms no LSN, because PostgreSQL sends its delivery again after the reconnect and the new unit for it
     * confirms it. Why every later unit too: a later unit that is complete on its own (a delivery with no records,
     * all its changes on tables that are not captured; an idle point) would otherwise confirm its end LSN, and a
     * reconnect from there would never send the abandoned delivery again.
     */
    public synchronized void abandon(Collection<?> notHandedOver) {
        for (Object record : notHandedOver) {
            Unit unit = inFlight.remove(record);
            if (unit != null) {
                unit.emitted--;
                unit.abandoned = true;
            }
        }
        boolean abandonRest = false;
        for (Unit unit : units) {
            if (unit.endLsn == null) {
                unit.abandoned = true;
            }
            abandonRest |= unit.abandoned;
            unit.abandoned |= abandonRest;
        }
    }

    /** Kafka acknowledged {@code record}; an unknown record (emitted before a reset) is ignored. */
    public synchronized void acknowledged(Object record) {
        Unit unit = inFlight.remove(record);
        if (unit != null) {
            unit.acknowledged++;
        }
    }

    /**
     * Drops the durable prefix and returns the highest LSN confirmed so far (never smaller than an earlier result;
     * {@link Lsn#INVALID} while nothing is durable).
     *
     * @param committedOffset the {@code lsn} of the source offset Connect has committed, {@link Lsn#INVALID} if none
     */
    public synchronized Lsn durableThrough(Lsn committedOffset) {
        Objects.requireNonNull(committedOffset, "committedOffset");
        while (!units.isEmpty() && units.peekFirst().durable(committedOffset)) {
            Unit done = units.removeFirst();
            if (!done.abandoned) {
                durable = Lsn.max(durable, done.endLsn);
            }
        }
        return durable;
    }

    /** Records handed to Connect and not yet acknowledged. */
    public synchronized int unacknowledged() {
        return inFlight.size();
    }

    /** Units not yet durable, for logs. */
    synchronized int pendingUnits() {
        return units.size();
    }
}
