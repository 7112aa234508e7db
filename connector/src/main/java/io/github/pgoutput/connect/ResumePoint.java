package io.github.pgoutput.connect;

import java.util.Objects;

import io.github.pgoutput.assembly.Delivery;
import io.github.pgoutput.connect.SourceOffsets.Position;

/**
 * Which records of the deliveries PostgreSQL sends after a (re)start the task must not emit again, because Kafka
 * already has them: PostgreSQL re-sends every delivery whose commit or prepare record starts at or after the start
 * LSN, and the start LSN may lie before the last emitted position (the slot is confirmed only after Kafka
 * acknowledged, see {@link AcknowledgementTracker}).
 *
 * <ul>
 *   <li>A delivery that was emitted completely (it ends at or before {@code position.lsn}) is skipped whole.</li>
 *   <li>The partly emitted delivery ({@code position.txLsn}, its commit or prepare LSN) has its first
 *       {@code position.txOrder} records skipped; records are numbered the same way each time it is emitted.</li>
 *   <li>Everything else is emitted.</li>
 * </ul>
 *
 * <p>Immutable and thread-safe.
 */
record ResumePoint(Position position) {

    ResumePoint {
        Objects.requireNonNull(position, "position");
    }

    /**
     * How many of the delivery's records (counted from its first) are already in Kafka: 0 for none,
     * {@link Long#MAX_VALUE} for all.
     */
    long recordsToSkip(Delivery delivery) {
        if (!delivery.endLsn().isAfter(position.lsn())) {
            return Long.MAX_VALUE;
        }
        if (position.isInsideDelivery() && delivery.lsn().equals(position.txLsn())) {
            return position.txOrder();
        }
        return 0;
    }
}
