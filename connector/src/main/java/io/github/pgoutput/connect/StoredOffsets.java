package io.github.pgoutput.connect;

import io.github.pgoutput.connect.TaskPhases.Origin;
import io.github.pgoutput.connect.offsets.DebeziumOffset;
import io.github.pgoutput.connect.offsets.SourceOffsets.Position;
import io.github.pgoutput.connect.offsets.SourceOffsets;
import io.github.pgoutput.pgoutput.Lsn;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.errors.RetriableException;
import org.apache.kafka.connect.storage.OffsetStorageReader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What Connect's offsets topic holds for the task: this connector's committed offset for its slot, and Debezium's
 * under the same connector name after an in-place switch. Every read asks Connect afresh: the committed offset moves
 * as Connect flushes. Thread-safe as far as Connect's reader is: the task's poll thread and the offset committer's
 * ({@link PgOutputSourceTask#commit()}) both read.
 */
final class StoredOffsets {

    private static final Logger log = LoggerFactory.getLogger(StoredOffsets.class);

    /** Connect's reader, asked for at each read as the task's context hands it out. */
    private final Supplier<OffsetStorageReader> reader;
    private final Map<String, String> partition;
    private final String slotName;
    private final String topicPrefix;

    StoredOffsets(Supplier<OffsetStorageReader> reader, Map<String, String> partition, String slotName, String topicPrefix) {
        this.reader = Objects.requireNonNull(reader, "reader");
        this.partition = Objects.requireNonNull(partition, "partition");
        this.slotName = slotName;
        this.topicPrefix = topicPrefix;
    }

    /**
     * The committed source offset, or null when none is stored. A failure to read the offsets topic (the broker is
     * away, the read timed out) heals by itself: it is retriable, where Connect's own exception would fail the task
     * for good.
     */
    Map<String, Object> stored() {
        return stored(partition);
    }

    private Map<String, Object> stored(Map<String, String> sourcePartition) {
        try {
            return reader.get().offset(sourcePartition);
        } catch (RuntimeException e) {
            throw new RetriableException("reading the stored offset of slot '" + slotName + "' from Connect's offsets topic failed ("
                    + e.getMessage() + "); trying again", e);
        }
    }

    /**
     * Debezium's offset under this connector's name, or null when none is stored. One that cannot be read fails the
     * start when it is the only offset there is; next to an offset of this connector's own it is left aside with a WARN,
     * so that a connector with a position of its own does not stop over another connector's leftovers.
     */
    DebeziumOffset debezium(boolean ownOffsetStored) {
        try {
            return DebeziumOffset.decode(stored(DebeziumOffset.partition(topicPrefix)));
        } catch (ConnectException e) {
            if (!ownOffsetStored || e instanceof RetriableException) {
                throw e;
            }
            log.warn("Slot {}: going on from this connector's own offset; {}", slotName, e.getMessage());
            return null;
        }
    }

    /** This connector's committed offset; null when none is stored, or while it is the older one Debezium's passed. */
    Map<String, Object> own(Origin origin) {
        Map<String, Object> stored = stored();
        return stored != null && stored.equals(origin.supersededOffset()) ? null : stored;
    }

    /**
     * The position the committed offset makes durable: this connector's own, or, until it has one past it,
     * the position of Debezium's offset the task went on from.
     */
    Lsn durable(Origin origin) {
        Map<String, Object> stored = own(origin);
        if (stored == null) {
            return origin.debeziumStart() == null ? Lsn.INVALID : origin.debeziumStart().resumeLsn();
        }
        return SourceOffsets.decode(stored).lsn();
    }

    /** The position a stored offset names; the start of the stream when none is stored. */
    static Position positionOf(Map<String, Object> stored) {
        return stored == null ? Position.afterDelivery(Lsn.INVALID) : SourceOffsets.decode(stored);
    }
}
