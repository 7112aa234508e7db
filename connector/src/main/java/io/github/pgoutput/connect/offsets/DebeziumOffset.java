package io.github.pgoutput.connect.offsets;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

import io.github.pgoutput.pgoutput.Lsn;
import io.github.pgoutput.pgoutput.Xid;
import io.github.pgoutput.snapshot.StoredOffset;
import io.github.pgoutput.snapshot.StoredOffset.DebeziumSnapshot;
import org.apache.kafka.connect.errors.ConnectException;

/**
 * The source offset Debezium's PostgreSQL connector stored, read so that this connector continues where Debezium
 * stopped after an in-place switch of {@code connector.class}: the one place that knows Debezium's persisted names
 * (its {@code PostgresPartition}, {@code PostgresOffsetContext} and {@code SourceInfo}, 1.x to 3.7).
 *
 * <p>Partition: {@code server} = {@code topic.prefix} ({@code database.server.name} before Debezium 2.0), under the
 * connector's name like every offset of Connect, so the offset is found when the name and prefix are kept.
 *
 * <p>Fields read (LSNs and ids are numbers):
 * <ul>
 *   <li>{@code lsn_commit}: the end LSN of the last transaction Debezium processed completely, as pgoutput sends it
 *       with the Commit message; what Debezium confirms to the slot. Every transaction ending at or before it is in
 *       Kafka.</li>
 *   <li>{@code lsn}, {@code txId}, {@code messageType}: the WAL position, transaction and kind ({@code INSERT},
 *       {@code UPDATE}, {@code DELETE}, {@code TRUNCATE}, {@code MESSAGE}, {@code BEGIN}, {@code COMMIT}) of the last
 *       event the offset covers. After a change the transaction {@code txId} was being emitted: its changes up to that
 *       position are in Kafka ({@link DebeziumPartial}).</li>
 *   <li>{@code lsn_events_processed} (Debezium 3.7): how many changes at {@code lsn} are in Kafka, for a WAL record
 *       that carries several (rows written by COPY, a truncate of several tables). Without it one is assumed: a change
 *       more may come twice, none is left out.</li>
 *   <li>{@code snapshot} ({@code INITIAL}, {@code BLOCKING}, {@code INCREMENTAL}; {@code true} before Debezium 2.x) with
 *       {@code snapshot_completed} and {@code last_snapshot_record}: whether a snapshot was under way;
 *       {@code incremental_snapshot_collections}: an incremental snapshot under way.</li>
 * </ul>
 * Debezium's other fields ({@code lsn_proc}, {@code ts_usec}, {@code xmin}, {@code transaction_*}, ...) say nothing this
 * connector needs and are only shown in messages. A field this class needs with a value it cannot read is an error:
 * Debezium's offset is never guessed at.
 *
 * <p>Immutable and thread-safe.
 *
 * @param lsn         {@code lsn}
 * @param lsnCommit   {@code lsn_commit}, or null when absent
 * @param txId        {@code txId}, or null when absent
 * @param messageType {@code messageType}, or null when absent (a snapshot's offset)
 * @param changesAtLsn {@code lsn_events_processed}, 0 when absent
 * @param snapshot    what the offset says about snapshots
 * @param stored      the offset as stored
 */
public record DebeziumOffset(Lsn lsn, Lsn lsnCommit, Xid txId, String messageType, long changesAtLsn, DebeziumSnapshot snapshot,
                             Map<String, ?> stored) {

    public static final String PARTITION_SERVER = "server";
    static final String LSN = "lsn";
    static final String LSN_COMMIT = "lsn_commit";
    static final String TX_ID = "txId";
    static final String MESSAGE_TYPE = "messageType";
    static final String LSN_EVENTS_PROCESSED = "lsn_events_processed";
    static final String SNAPSHOT = "snapshot";
    static final String SNAPSHOT_COMPLETED = "snapshot_completed";
    static final String LAST_SNAPSHOT_RECORD = "last_snapshot_record";
    static final String INCREMENTAL_SNAPSHOT_COLLECTIONS = "incremental_snapshot_collections";

    /** The {@code messageType}s of events that are changes inside a transaction. */
    private static final Set<String> CHANGES = Set.of("INSERT", "UPDATE", "DELETE", "TRUNCATE", "MESSAGE");

    public DebeziumOffset {
        Objects.requireNonNull(lsn, "lsn");
        Objects.requireNonNull(snapshot, "snapshot");
        stored = Collections.unmodifiableMap(new LinkedHashMap<>(stored));
    }

    /** Debezium's source partition for the connector whose {@code topic.prefix} is {@code topicPrefix}. */
    public static Map<String, String> partition(String topicPrefix) {
        return Map.of(PARTITION_SERVER, Objects.requireNonNull(topicPrefix, "topicPrefix"));
    }

    /**
     * Reads Debezium's stored offset.
     *
     * @return null when {@code offset} is null (none stored)
     * @throws ConnectException naming the field, what it held and what was expected
     */
    public static DebeziumOffset decode(Map<String, ?> offset) {
        if (offset == null) {
            return null;
        }
        Long txId = number(offset, TX_ID);
        Xid xid;
        try {
            xid = txId == null ? null : Xid.of(txId);
        } catch (IllegalArgumentException e) {
            throw invalid(offset, TX_ID, "is " + txId + "; expected a transaction id (an unsigned 32-bit number)");
        }
        Object type = offset.get(MESSAGE_TYPE);
        if (type != null && !(type instanceof String)) {
            throw invalid(offset, MESSAGE_TYPE, "is " + describe(type) + "; expected text such as INSERT");
        }
        Long events = number(offset, LSN_EVENTS_PROCESSED);
        if (events != null && events < 0) {
            throw invalid(offset, LSN_EVENTS_PROCESSED, "is " + events + "; expected a count");
        }
        Lsn lsn = lsn(offset, LSN);
        if (lsn == null) {
            // Debezium's PostgreSQL connector writes it in every offset; without it this is no offset of that connector.
            throw invalid(offset, LSN, "is missing");
        }
        return new DebeziumOffset(lsn, lsn(offset, LSN_COMMIT), xid, (String) type, events == null ? 0 : events,
                snapshot(offset), offset);
    }

    /**
     * The end LSN of the last transaction whose records this offset shows in Kafka: streaming goes on after it.
     * {@link Lsn#INVALID} when it shows none: a snapshot was under way, or Debezium stopped inside the first
     * transaction it streamed.
     */
    public Lsn resumeLsn() {
        if (snapshot == DebeziumSnapshot.IN_PROGRESS) {
            return Lsn.INVALID;
        }
        if (lsnCommit != null) {
            return lsnCommit;
        }
        // No transaction completed yet: the offset of a finished snapshot names where streaming starts; an offset
        // inside the first streamed transaction names a change, which is no transaction's end.
        return messageType == null ? lsn : Lsn.INVALID;
    }

    /** Where inside a transaction Debezium stopped, or null when the offset lies between transactions. */
    public DebeziumPartial partial() {
        if (snapshot == DebeziumSnapshot.IN_PROGRESS || txId == null || messageType == null
                || !CHANGES.contains(messageType)) {
            return null;
        }
        // lsn_events_processed counts the changes at an LSN of row events only; after a transactional message it
        // still counts those of an earlier change, and a message has an LSN of its own.
        long changes = "MESSAGE".equals(messageType) ? 1 : Math.max(1, changesAtLsn);
        return new DebeziumPartial(txId, lsn, changes);
    }

    /** The offset as the start-up decision sees it. */
    public StoredOffset.Debezium forPlanning() {
        return new StoredOffset.Debezium(resumeLsn(), snapshot, describe());
    }

    /**
     * Whether this offset is the one to go on from rather than {@code ownOffset}, the offset this connector stored
     * under its own partition (null: none). It is when there is none, and when Debezium ran on after this connector
     * had (it was switched back to Debezium, then to this connector again): its position is then past the one in
     * {@code ownOffset}. Never while {@code ownOffset} says this connector's snapshot was under way, which the
     * snapshot decision must see.
     */
    public boolean supersedes(Map<String, ?> ownOffset) {
        if (ownOffset == null) {
            return true;
        }
        if (SourceOffsets.isSnapshotInProgress(ownOffset)) {
            return false;
        }
        return resumeLsn().isAfter(SourceOffsets.decode(ownOffset).lsn());
    }

    /** The stored fields, with the LSNs also in PostgreSQL's text form. */
    public String describe() {
        StringBuilder text = new StringBuilder().append(stored);
        text.append(" (lsn_commit ").append(lsnCommit == null ? "none" : lsnCommit).append(", lsn ").append(lsn);
        if (txId != null) {
            text.append(", txId ").append(txId);
        }
        return text.append(')').toString();
    }

    private static DebeziumSnapshot snapshot(Map<String, ?> offset) {
        if (offset.get(INCREMENTAL_SNAPSHOT_COLLECTIONS) != null) {
            // Debezium stores the incremental snapshot's fields only while one runs.
            return DebeziumSnapshot.INCREMENTAL_IN_PROGRESS;
        }
        Object value = offset.get(SNAPSHOT);
        if (value == null || "INCREMENTAL".equals(value) || Boolean.FALSE.equals(value) || "false".equals(value)) {
            return DebeziumSnapshot.NONE;
        }
        if (!(Boolean.TRUE.equals(value) || "true".equals(value) || "INITIAL".equals(value) || "BLOCKING".equals(value))) {
            throw invalid(offset, SNAPSHOT, "is " + describe(value) + "; expected INITIAL, BLOCKING, INCREMENTAL or true");
        }
        boolean finished = flag(offset, SNAPSHOT_COMPLETED) || flag(offset, LAST_SNAPSHOT_RECORD);
        return finished ? DebeziumSnapshot.NONE : DebeziumSnapshot.IN_PROGRESS;
    }

    private static boolean flag(Map<String, ?> offset, String field) {
        Object value = offset.get(field);
        if (value == null || Boolean.FALSE.equals(value) || "false".equals(value)) {
            return false;
        }
        if (Boolean.TRUE.equals(value) || "true".equals(value)) {
            return true;
        }
        throw invalid(offset, field, "is " + describe(value) + "; expected true or false");
    }

    private static Lsn lsn(Map<String, ?> offset, String field) {
        Long value = number(offset, field);
        return value == null ? null : Lsn.of(value);
    }

    /** A whole number: the offset store's JSON converter gives back an Integer for a small Long. */
    private static Long number(Map<String, ?> offset, String field) {
        Object value = offset.get(field);
        if (value == null) {
            return null;
        }
        if (!(value instanceof Long || value instanceof Integer || value instanceof Short)) {
            throw invalid(offset, field, "is " + describe(value) + "; expected a whole number");
        }
        return ((Number) value).longValue();
    }

    private static String describe(Object value) {
        return value.getClass().getSimpleName() + " '" + value + "'";
    }

    private static ConnectException invalid(Map<String, ?> offset, String field, String problem) {
        return new ConnectException("Debezium's stored source offset field '" + field + "' " + problem + " (offset " + offset
                + "), so this connector cannot tell where Debezium stopped. Correct it with PATCH /connectors/<name>/offsets"
                + " while the connector is stopped (partition {\"" + PARTITION_SERVER + "\": <topic.prefix>}), or put Debezium back"
                + " (connector.class " + StoredOffset.Debezium.CONNECTOR_CLASS + ")");
    }
}
