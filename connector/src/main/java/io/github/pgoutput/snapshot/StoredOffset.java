package io.github.pgoutput.snapshot;

import io.github.pgoutput.pgoutput.Lsn;

import java.util.List;
import java.util.Objects;

/** What the connector's stored offset says, as far as the snapshot decision needs it. Immutable. */
public sealed interface StoredOffset {

    /** No offset stored: the connector never ran (or its offsets were deleted). */
    record Absent() implements StoredOffset {
    }

    /**
     * A snapshot was being emitted when the task stopped. Its exported snapshot died with its replication connection,
     * so it cannot be read again; a resumable snapshot ({@code progress} not null) can be continued from a new one.
     *
     * @param slotConsistentPoint the consistent point the connector created the slot at for that snapshot; the slot's
     *                            {@code confirmed_flush_lsn} equals it until someone streams from the slot. Never null;
     *                            {@link Lsn#INVALID} when the offset does not record it (written by an older version)
     * @param progress            where a resumable snapshot stood, or null for a snapshot read in COPY order
     */
    record SnapshotInProgress(Lsn slotConsistentPoint, Progress progress) implements StoredOffset {
        public SnapshotInProgress {
            Objects.requireNonNull(slotConsistentPoint, "slotConsistentPoint");
        }

        public SnapshotInProgress(Lsn slotConsistentPoint) {
            this(slotConsistentPoint, null);
        }
    }

    /**
     * Where a resumable snapshot stood ({@link ResumableProgress}).
     *
     * @param tables  the fingerprint of its table list
     * @param at      the last row whose record is in Kafka
     * @param resumes its resumptions so far
     */
    record Progress(String tables, ResumableProgress.Position at, List<ResumableProgress.Resume> resumes) {
        public Progress {
            Objects.requireNonNull(tables, "tables");
            Objects.requireNonNull(at, "at");
            resumes = List.copyOf(resumes);
        }
    }

    /**
     * No offset of this connector (or an older one), but Debezium's PostgreSQL connector stored one under the same
     * connector name: Connect keys offsets by connector name, so this is the connector's own history before its
     * {@code connector.class} was switched in place.
     *
     * @param resumeLsn the end LSN of the last transaction whose records Debezium's offset shows in Kafka: streaming
     *                  continues after it; {@link Lsn#INVALID} when the offset names none (Debezium stopped inside the
     *                  first transaction it streamed)
     * @param snapshot  what the offset says about Debezium's snapshots
     * @param described the offset as found, for log lines and messages
     */
    record Debezium(Lsn resumeLsn, DebeziumSnapshot snapshot, String described) implements StoredOffset {

        /** The {@code connector.class} of Debezium's PostgreSQL connector, for the messages that tell a user to put it back. */
        public static final String CONNECTOR_CLASS = "io.debezium.connector.postgresql.PostgresConnector";

        public Debezium {
            Objects.requireNonNull(resumeLsn, "resumeLsn");
            Objects.requireNonNull(snapshot, "snapshot");
            Objects.requireNonNull(described, "described");
        }
    }

    /** What Debezium's stored offset says about its snapshots. */
    enum DebeziumSnapshot {
        /** No snapshot under way: its initial snapshot finished (or was never taken), and streaming had begun. */
        NONE,
        /** Its initial snapshot (or a blocking one a signal asked for) did not finish. */
        IN_PROGRESS,
        /** An incremental snapshot, asked for by a signal, did not finish. */
        INCREMENTAL_IN_PROGRESS
    }

    /** Streaming position: the end LSN of the last change unit stored (or the consistent point of a finished snapshot). */
    record At(Lsn lsn) implements StoredOffset {
        public At {
            Objects.requireNonNull(lsn, "lsn");
        }
    }
}
