package io.github.pgoutput.connect.offsets;

import java.util.Objects;

import io.github.pgoutput.assembly.Delivery;
import io.github.pgoutput.connect.offsets.SourceOffsets.Position;
import io.github.pgoutput.pgoutput.Lsn;

/**
 * Which records of the deliveries PostgreSQL sends after a (re)start the task must not emit again, because Kafka
 * already has them: PostgreSQL re-sends every delivery whose commit or prepare record starts at or after the stream's
 * start LSN, and that may lie before the last emitted position (the slot is confirmed only after Kafka acknowledged,
 * see {@link AcknowledgementTracker}).
 *
 * <ul>
 *   <li>The partly emitted delivery (named by {@code position.txLsn} and, in current offsets, {@code txEndLsn}) has
 *       its first {@code position.txOrder} records skipped, if it is numbered under the same settings
 *       ({@link RecordNumbering}); otherwise it is emitted again whole.</li>
 *   <li>A delivery that was emitted completely (it ends at or before {@code position.lsn}) is skipped whole, unless it
 *       cannot be a replay: a delivery whose commit or prepare record starts before the stream's start LSN was not
 *       re-sent by the resume rule, so it is new. That is a transaction prepared before the slot decoded two-phase
 *       transactions: PostgreSQL sends it at COMMIT PREPARED with its original, older prepare LSNs (docs/pgoutput-protocol.md §6.5).
 *       A ROLLED_BACK outcome names its prepare's end LSN, not its own record's start, and is judged by its end.</li>
 *   <li>After an in-place switch from Debezium ({@code debezium} not null): the transaction Debezium's offset stopped
 *       inside has the changes that offset shows in Kafka skipped ({@link DebeziumPartial}), while it has not been
 *       completed since.</li>
 *   <li>Everything else is emitted.</li>
 * </ul>
 *
 * <p>Immutable and thread-safe.
 *
 * @param position    the position emitted so far
 * @param streamStart the LSN the stream was started at (the larger of the requested LSN and the slot's
 *                    confirmed_flush_lsn); {@link Lsn#INVALID} when unknown
 * @param numbering   the fingerprint of the current numbering settings
 * @param debezium    where inside a transaction Debezium's offset stopped, when the task went on from it; null otherwise
 */
public record ResumePoint(Position position, Lsn streamStart, String numbering, DebeziumPartial debezium) {

    public ResumePoint {
        Objects.requireNonNull(position, "position");
        Objects.requireNonNull(streamStart, "streamStart");
        Objects.requireNonNull(numbering, "numbering");
    }

    public ResumePoint(Position position, Lsn streamStart, String numbering) {
        this(position, streamStart, numbering, null);
    }

    /**
     * For the transaction Debezium's offset stopped inside, while it lies after {@code position}: the walk over its
     * changes that says which are in Kafka already. Null for every other delivery. Its records are numbered as always,
     * so that a position of this connector inside it later counts them.
     */
    public DebeziumPartial.Prefix debeziumPrefix(Delivery delivery) {
        return debezium != null && debezium.names(delivery) && delivery.endLsn().isAfter(position.lsn()) ? debezium.prefix() : null;
    }

    /**
     * How many of the delivery's records (counted from its first) are already in Kafka: 0 for none,
     * {@link Long#MAX_VALUE} for all.
     */
    public long recordsToSkip(Delivery delivery) {
        if (position.isInsideDelivery() && isInProgress(delivery)) {
            if (position.txNumbering() != null && !position.txNumbering().equals(numbering)) {
                return 0;
            }
            return position.txOrder();
        }
        boolean sentBeforeStart = delivery.kind() != Delivery.Kind.ROLLED_BACK && delivery.lsn().isBefore(streamStart);
        if (!sentBeforeStart && !delivery.endLsn().isAfter(position.lsn())) {
            return Long.MAX_VALUE;
        }
        return 0;
    }

    private boolean isInProgress(Delivery delivery) {
        return delivery.lsn().equals(position.txLsn())
                && (position.txEndLsn() == null || delivery.endLsn().equals(position.txEndLsn()));
    }
}
