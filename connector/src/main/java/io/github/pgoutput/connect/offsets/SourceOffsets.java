package io.github.pgoutput.connect.offsets;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.Set;

import org.apache.kafka.connect.errors.ConnectException;

import io.github.pgoutput.pgoutput.Lsn;
import io.github.pgoutput.snapshot.ResumableProgress;
import io.github.pgoutput.snapshot.StoredOffset;

/**
 * The one place that knows the names and meaning of the source partition and source offset this connector stores in
 * Kafka Connect's offset topic. The names are persisted: never rename them.
 *
 * <p>Partition: {@code database} (database.dbname) and {@code slot} (slot.name). One slot belongs to one database,
 * and the pair says which replication stream the offset is a position in.
 *
 * <p>Offset ({@link Position}):
 * <ul>
 *   <li>{@code lsn}: end LSN (PostgreSQL's {@code X/Y} text) of the last delivery whose records were all emitted
 *       (before the first one: the LSN the stream started at; earlier versions wrote 0/0 there).
 *       Restarting replication at this LSN does not send that delivery again (a delivery is re-sent if and only if
 *       its commit or prepare record starts at or after the start LSN).</li>
 *   <li>{@code tx_lsn} and {@code tx_order}, both present or both absent: the delivery being emitted when the
 *       offset was taken, named by the start LSN of its commit or prepare record (the delivery's {@code lsn}), and
 *       the 1-based position in it of the last record emitted (the same number as the record's {@code pg.tx_order}
 *       header). After a restart the delivery arrives again, and its records up to {@code tx_order} are skipped.
 *       {@code tx_lsn} may lie before {@code lsn}: a transaction prepared before the slot decoded two-phase
 *       transactions arrives, whole, at COMMIT PREPARED with its original, older prepare LSN (docs/pgoutput-protocol.md §6.5).</li>
 *   <li>{@code tx_end_lsn} (with {@code tx_lsn}; absent in offsets written before it existed): the delivery's end
 *       LSN. With {@code tx_lsn} it names the delivery uniquely: a ROLLED_BACK outcome's {@code lsn} is its prepare's
 *       end LSN, which another delivery may start at.</li>
 *   <li>{@code tx_numbering} (with {@code tx_lsn}; absent in older offsets): a fingerprint of the settings that decide
 *       how a delivery's records are numbered ({@link RecordNumbering}). When it differs after a restart, the
 *       delivery is emitted again from its first record instead of skipping by a number that now means another
 *       record.</li>
 * While the initial snapshot is emitted, every record but its last carries {@code snapshot = "in_progress"} with
 * {@code lsn} 0/0 and {@code snapshot_lsn} = the consistent point of the slot the connector created for it: a restart
 * then knows the snapshot did not finish and takes it again (its exported snapshot died with its connection), and
 * may drop the slot only while its {@code confirmed_flush_lsn} is still that point (nobody has streamed from it).
 * Offsets written before {@code snapshot_lsn} existed lack it and still decode. The snapshot's last record carries the plain position {@code lsn} = the slot's consistent
 * point, where streaming starts.
 *
 * <p>A resumable snapshot (exactly-once, {@link ResumableProgress}) adds to every record but its last
 * {@code snapshot_tables} (the fingerprint of its table list), {@code snapshot_at} (the row: {@code table:key,...})
 * and, once resumed, {@code snapshot_resumed} ({@code position@lsn|...}). A restart then continues after
 * {@code snapshot_at} instead of taking the snapshot again. A resumed snapshot's last record, and the streaming
 * records after it while their {@code lsn} is before the last resumption's point, keep {@code snapshot_tables} and
 * {@code snapshot_resumed}: a restart in that stretch must still skip the changes the resumed rows contain.
 *
 * <p>Any other field, a missing {@code lsn}, or a malformed value is an error: an offset this code cannot read
 * completely is never guessed at.
 *
 * <p>Stateless and thread-safe.
 */
public final class SourceOffsets {

    public static final String PARTITION_DATABASE = "database";
    public static final String PARTITION_SLOT = "slot";

    public static final String OFFSET_LSN = "lsn";
    public static final String OFFSET_TX_LSN = "tx_lsn";
    public static final String OFFSET_TX_ORDER = "tx_order";
    public static final String OFFSET_TX_END_LSN = "tx_end_lsn";
    public static final String OFFSET_TX_NUMBERING = "tx_numbering";
    public static final String OFFSET_SNAPSHOT = "snapshot";
    /** The only value of {@link #OFFSET_SNAPSHOT}. */
    public static final String SNAPSHOT_IN_PROGRESS = "in_progress";
    /** With {@link #OFFSET_SNAPSHOT}: the consistent point of the slot created for the snapshot in progress. */
    public static final String OFFSET_SNAPSHOT_LSN = "snapshot_lsn";

    /** A resumable snapshot's table list fingerprint ({@link ResumableProgress#fingerprint}). */
    public static final String OFFSET_SNAPSHOT_TABLES = "snapshot_tables";
    /** With {@link #OFFSET_SNAPSHOT}: the resumable snapshot's last row ({@link ResumableProgress#encode(ResumableProgress.Position)}). */
    public static final String OFFSET_SNAPSHOT_AT = "snapshot_at";
    /**
     * With {@link #OFFSET_SNAPSHOT_AT}, on the second and later of identical rows of a table without a unique key: the
     * row's place among them. They share their position (it moves past them after the last), and Connect tells records
     * apart by equality (an exactly-once task acknowledges equal records once, and a commit requested on a record is
     * made on the first equal one), so without it two copies built within the resolution of the envelope's timestamps
     * would be one record to Connect, and the snapshot's acknowledgements would never complete. Never read back.
     */
    public static final String OFFSET_SNAPSHOT_COPY = "snapshot_copy";
    /** With {@link #OFFSET_SNAPSHOT_TABLES}: the resumptions ({@link ResumableProgress#encode(List)}). */
    public static final String OFFSET_SNAPSHOT_RESUMED = "snapshot_resumed";
    /**
     * While an incremental snapshot is under way: where it stands (the connect package's
     * {@code IncrementalSnapshotState} text form).
     */
    public static final String OFFSET_INCREMENTAL_SNAPSHOT = "incremental_snapshot";
    /** With the Kafka signal channel: the offset of the next signal message to read from the signal topic. */
    public static final String OFFSET_SIGNAL_OFFSET = "signal_offset";
    /** With the signal table: the commit LSN of the transaction of the last signal row applied. */
    public static final String OFFSET_SIGNAL_LSN = "signal_lsn";
    /** With {@link #OFFSET_SIGNAL_LSN}: how many signal rows of that transaction were applied. */
    public static final String OFFSET_SIGNAL_ROWS = "signal_rows";
    /**
     * With {@code snapshot.new.tables=incremental}: the tables captured when the record was emitted (the connect
     * package's {@code IncrementalSnapshotState#encodeTables} form), so that a table captured later is known as new.
     */
    public static final String OFFSET_CAPTURED_TABLES = "captured_tables";

    private static final Set<String> OFFSET_FIELDS = Set.of(OFFSET_LSN, OFFSET_TX_LSN, OFFSET_TX_ORDER,
            OFFSET_TX_END_LSN, OFFSET_TX_NUMBERING, OFFSET_SNAPSHOT, OFFSET_SNAPSHOT_LSN, OFFSET_SNAPSHOT_TABLES, OFFSET_SNAPSHOT_AT,
            OFFSET_SNAPSHOT_COPY, OFFSET_SNAPSHOT_RESUMED, OFFSET_INCREMENTAL_SNAPSHOT, OFFSET_SIGNAL_OFFSET, OFFSET_SIGNAL_LSN,
            OFFSET_SIGNAL_ROWS, OFFSET_CAPTURED_TABLES);

    /**
     * The resumptions of a resumable snapshot whose rows streaming must still take into account.
     *
     * @param tables  the fingerprint of the snapshot's table list
     * @param resumes not empty
     */
    public record Resumed(String tables, List<ResumableProgress.Resume> resumes) {
        public Resumed {
            Objects.requireNonNull(tables, "tables");
            resumes = List.copyOf(resumes);
            if (resumes.isEmpty()) {
                throw new IllegalArgumentException("no resumption");
            }
        }

        /** The last resumption's consistent point: offsets at or after it no longer carry the resumptions. */
        public Lsn until() {
            return resumes.get(resumes.size() - 1).readAt();
        }
    }

    private SourceOffsets() {
    }

    /**
     * A position in the replication stream, as stored in a source offset.
     *
     * @param lsn         end LSN of the last completely emitted delivery; {@link Lsn#INVALID} before the first one
     * @param txLsn       commit/prepare LSN of the partly emitted delivery, or null when the position lies between deliveries
     * @param txEndLsn    end LSN of that delivery; null between deliveries, and in offsets written before it was stored
     * @param txOrder     1-based position of the last emitted record of that delivery; 0 when {@code txLsn} is null
     * @param txNumbering fingerprint of the numbering settings ({@link RecordNumbering}); null between deliveries and
     *                    in offsets written before it was stored
     */
    public record Position(Lsn lsn, Lsn txLsn, Lsn txEndLsn, long txOrder, String txNumbering) {

        public Position {
            Objects.requireNonNull(lsn, "lsn");
            if (txLsn == null && (txOrder != 0 || txEndLsn != null || txNumbering != null)) {
                throw new IllegalArgumentException("tx_order, tx_end_lsn and tx_numbering go only with tx_lsn");
            }
            if (txLsn != null && txOrder < 1) {
                throw new IllegalArgumentException("tx_order must be at least 1 inside a delivery, was " + txOrder);
            }
            // No order between txLsn and lsn: a transaction prepared before the slot's two_phase_at arrives at COMMIT
            // PREPARED with its original prepare LSN, before deliveries completed earlier (docs/pgoutput-protocol.md §6.5).
        }

        /** All records of the delivery ending at {@code endLsn} (and of every earlier one) have been emitted. */
        public static Position afterDelivery(Lsn endLsn) {
            return new Position(endLsn, null, null, 0, null);
        }

        /**
         * Records 1..{@code txOrder} of the delivery committed (or prepared) at {@code txLsn} and ending at
         * {@code txEndLsn} have been emitted, numbered under the settings whose fingerprint is {@code numbering}.
         */
        public static Position insideDelivery(Lsn lastCompletedEndLsn, Lsn txLsn, Lsn txEndLsn, long txOrder, String numbering) {
            return new Position(lastCompletedEndLsn, Objects.requireNonNull(txLsn, "txLsn"), Objects.requireNonNull(txEndLsn, "txEndLsn"),
                    txOrder, Objects.requireNonNull(numbering, "numbering"));
        }

        /** The form offsets had before {@code tx_end_lsn} and {@code tx_numbering} were stored. */
        public static Position insideDelivery(Lsn lastCompletedEndLsn, Lsn txLsn, long txOrder) {
            return new Position(lastCompletedEndLsn, Objects.requireNonNull(txLsn, "txLsn"), null, txOrder, null);
        }

        public boolean isInsideDelivery() {
            return txLsn != null;
        }
    }

    /**
     * The source partition of the stream of {@code slot} in {@code database}, iterating {@code database} then
     * {@code slot}. The order is part of the persisted format: Connect finds a stored offset by the serialized bytes of
     * its key, so it must not change between JVMs ({@code Map.copyOf}'s order does, with a per-JVM random salt).
     */
    public static Map<String, String> partition(String database, String slot) {
        Map<String, String> partition = new LinkedHashMap<>();
        partition.put(PARTITION_DATABASE, Objects.requireNonNull(database, "database"));
        partition.put(PARTITION_SLOT, Objects.requireNonNull(slot, "slot"));
        return Collections.unmodifiableMap(partition);
    }

    /** The source offset for {@code position}: LSNs as {@code X/Y} text, {@code tx_order} as a Long. */
    public static Map<String, Object> encode(Position position) {
        return encode(position, Lsn::toString);
    }

    private static Map<String, Object> encode(Position position, Function<Lsn, String> text) {
        Map<String, Object> offset = new LinkedHashMap<>();
        offset.put(OFFSET_LSN, text.apply(position.lsn()));
        if (position.isInsideDelivery()) {
            offset.put(OFFSET_TX_LSN, text.apply(position.txLsn()));
            offset.put(OFFSET_TX_ORDER, position.txOrder());
            if (position.txEndLsn() != null) {
                offset.put(OFFSET_TX_END_LSN, text.apply(position.txEndLsn()));
            }
            if (position.txNumbering() != null) {
                offset.put(OFFSET_TX_NUMBERING, position.txNumbering());
            }
        }
        return offset;
    }

    /**
     * {@link #encode(Position)} for the records of a stream, which name the same few LSNs over and over (every record of
     * a delivery its begin, its end and the last completed one): the texts of the last {@value #KEPT_TEXTS} LSNs are
     * kept instead of written anew for each record. Not thread-safe.
     */
    public static final class Encoder {

        private static final int KEPT_TEXTS = 4;
        private final long[] values = new long[KEPT_TEXTS];
        private final String[] texts = new String[KEPT_TEXTS];
        private int next;
        private final Function<Lsn, String> textOf = this::text;

        public Map<String, Object> encode(Position position) {
            return SourceOffsets.encode(position, textOf);
        }

        private String text(Lsn lsn) {
            long value = lsn.value();
            for (int i = 0; i < KEPT_TEXTS; i++) {
                if (texts[i] != null && values[i] == value) {
                    return texts[i];
                }
            }
            String text = lsn.toString();
            values[next] = value;
            texts[next] = text;
            next = (next + 1) % KEPT_TEXTS;
            return text;
        }
    }

    /**
     * The offset of a snapshot record that is not the snapshot's last, as versions before {@code snapshot_lsn} wrote
     * it: the snapshot is in progress, on a slot whose consistent point is not recorded.
     */
    public static Map<String, Object> snapshotInProgress() {
        Map<String, Object> offset = new LinkedHashMap<>();
        offset.put(OFFSET_LSN, Lsn.INVALID.toString());
        offset.put(OFFSET_SNAPSHOT, SNAPSHOT_IN_PROGRESS);
        return offset;
    }

    /**
     * The offset of a snapshot record that is not the snapshot's last: the snapshot is in progress, on the slot this
     * connector created at {@code slotConsistentPoint}.
     */
    public static Map<String, Object> snapshotInProgress(Lsn slotConsistentPoint) {
        if (!slotConsistentPoint.isValid()) {
            throw new IllegalArgumentException("a slot's consistent point is a valid LSN, not " + slotConsistentPoint);
        }
        Map<String, Object> offset = snapshotInProgress();
        offset.put(OFFSET_SNAPSHOT_LSN, slotConsistentPoint.toString());
        return offset;
    }

    /**
     * The offset of a resumable snapshot's record that is not its last: {@link #snapshotInProgress(Lsn)} with where
     * it stands.
     */
    public static Map<String, Object> snapshotInProgress(Lsn slotConsistentPoint, StoredOffset.Progress progress) {
        return snapshotInProgress(slotConsistentPoint, progress, 1);
    }

    /**
     * {@link #snapshotInProgress(Lsn, StoredOffset.Progress)} of the {@code rowInGroup}-th of identical rows (from 1),
     * which {@link #OFFSET_SNAPSHOT_COPY} tells apart from the others.
     */
    public static Map<String, Object> snapshotInProgress(Lsn slotConsistentPoint, StoredOffset.Progress progress, int rowInGroup) {
        Map<String, Object> offset = snapshotInProgress(slotConsistentPoint);
        offset.put(OFFSET_SNAPSHOT_TABLES, progress.tables());
        offset.put(OFFSET_SNAPSHOT_AT, ResumableProgress.encode(progress.at()));
        if (rowInGroup > 1) {
            offset.put(OFFSET_SNAPSHOT_COPY, rowInGroup);
        }
        if (!progress.resumes().isEmpty()) {
            offset.put(OFFSET_SNAPSHOT_RESUMED, ResumableProgress.encode(progress.resumes()));
        }
        return offset;
    }

    /**
     * {@link #encode(Position)}, with the resumptions of a resumed snapshot while {@code position} lies before the last
     * one's point ({@code resumed} null: none).
     */
    public static Map<String, Object> encode(Position position, Resumed resumed) {
        Map<String, Object> offset = encode(position);
        if (resumed != null && position.lsn().isBefore(resumed.until())) {
            offset.put(OFFSET_SNAPSHOT_TABLES, resumed.tables());
            offset.put(OFFSET_SNAPSHOT_RESUMED, ResumableProgress.encode(resumed.resumes()));
        }
        return offset;
    }

    /**
     * {@code offset} with where an incremental snapshot stands and how far the signals were read: {@code incremental}
     * null when no snapshot is under way, {@code signalOffset} negative and {@code signalLsn} invalid when not known,
     * {@code signalRows} the signal rows of the transaction at {@code signalLsn} applied, {@code capturedTables} null
     * unless new tables are watched for.
     * Changes and returns {@code offset}.
     */
    public static Map<String, Object> withSignals(Map<String, Object> offset, String incremental, long signalOffset, Lsn signalLsn,
                                                  long signalRows, String capturedTables) {
        if (capturedTables != null) {
            offset.put(OFFSET_CAPTURED_TABLES, capturedTables);
        }
        if (incremental != null) {
            offset.put(OFFSET_INCREMENTAL_SNAPSHOT, incremental);
        }
        if (signalOffset >= 0) {
            offset.put(OFFSET_SIGNAL_OFFSET, signalOffset);
        }
        if (signalLsn.isValid()) {
            offset.put(OFFSET_SIGNAL_LSN, signalLsn.toString());
            offset.put(OFFSET_SIGNAL_ROWS, signalRows);
        }
        return offset;
    }

    /** The incremental snapshot's position in {@code offset}; null when none is under way (or no offset is stored). */
    public static String incrementalSnapshot(Map<String, ?> offset) {
        if (offset == null || offset.get(OFFSET_INCREMENTAL_SNAPSHOT) == null) {
            return null;
        }
        if (!(offset.get(OFFSET_INCREMENTAL_SNAPSHOT) instanceof String text)) {
            throw invalid(offset, OFFSET_INCREMENTAL_SNAPSHOT, "is " + describe(offset.get(OFFSET_INCREMENTAL_SNAPSHOT)) + "; expected a string");
        }
        return text;
    }

    /** The captured tables {@code offset} names ({@link #OFFSET_CAPTURED_TABLES}); null when it names none. */
    public static String capturedTables(Map<String, ?> offset) {
        Object value = offset == null ? null : offset.get(OFFSET_CAPTURED_TABLES);
        if (value == null) {
            return null;
        }
        if (!(value instanceof String text)) {
            throw invalid(offset, OFFSET_CAPTURED_TABLES, "is " + describe(value) + "; expected a string");
        }
        return text;
    }

    /** The offset of the next message of the signal topic in {@code offset}; -1 when none is stored. */
    public static long signalOffset(Map<String, ?> offset) {
        Object value = offset == null ? null : offset.get(OFFSET_SIGNAL_OFFSET);
        if (value == null) {
            return -1;
        }
        if (!(value instanceof Number n) || n.longValue() < 0) {
            throw invalid(offset, OFFSET_SIGNAL_OFFSET, "is " + describe(value) + "; expected a topic offset");
        }
        return n.longValue();
    }

    /** How many signal rows of the transaction at {@link #signalLsn} were applied; 0 when none is stored. */
    public static long signalRows(Map<String, ?> offset) {
        Object value = offset == null ? null : offset.get(OFFSET_SIGNAL_ROWS);
        if (value == null) {
            return 0;
        }
        if (!(value instanceof Number n) || n.longValue() < 0) {
            throw invalid(offset, OFFSET_SIGNAL_ROWS, "is " + describe(value) + "; expected a count");
        }
        return n.longValue();
    }

    /** The commit LSN of the last applied signal row in {@code offset}; {@link Lsn#INVALID} when none is stored. */
    public static Lsn signalLsn(Map<String, ?> offset) {
        Object value = offset == null ? null : offset.get(OFFSET_SIGNAL_LSN);
        if (value == null) {
            return Lsn.INVALID;
        }
        try {
            return Lsn.parse(String.valueOf(value));
        } catch (IllegalArgumentException e) {
            throw invalid(offset, OFFSET_SIGNAL_LSN, "is " + describe(value) + "; expected an LSN such as 16/B374D848");
        }
    }

    /**
     * Where the resumable snapshot in progress stood, from an offset for which {@link #isSnapshotInProgress} is true;
     * null when it was not a resumable snapshot.
     *
     * @throws ConnectException when a field is malformed
     */
    public static StoredOffset.Progress snapshotProgress(Map<String, ?> offset) {
        Object at = offset.get(OFFSET_SNAPSHOT_AT);
        if (at == null) {
            return null;
        }
        Object tables = offset.get(OFFSET_SNAPSHOT_TABLES);
        if (!(tables instanceof String fingerprint)) {
            throw invalid(offset, OFFSET_SNAPSHOT_TABLES, "is " + describe(tables) + "; expected text with " + OFFSET_SNAPSHOT_AT);
        }
        if (!(at instanceof String text)) {
            throw invalid(offset, OFFSET_SNAPSHOT_AT, "is " + describe(at) + "; expected text such as 0:42");
        }
        try {
            return new StoredOffset.Progress(fingerprint, ResumableProgress.decodePosition(text), resumes(offset));
        } catch (IllegalArgumentException e) {
            throw invalid(offset, OFFSET_SNAPSHOT_AT, e.getMessage());
        }
    }

    /**
     * The resumptions a streaming offset carries ({@link #encode(Position, Resumed)}), or null when it carries none.
     *
     * @throws ConnectException when a field is malformed
     */
    public static Resumed resumed(Map<String, ?> offset) {
        if (offset == null || isSnapshotInProgress(offset) || !offset.containsKey(OFFSET_SNAPSHOT_RESUMED)) {
            return null;
        }
        Object tables = offset.get(OFFSET_SNAPSHOT_TABLES);
        if (!(tables instanceof String fingerprint)) {
            throw invalid(offset, OFFSET_SNAPSHOT_TABLES, "is " + describe(tables) + "; expected text with " + OFFSET_SNAPSHOT_RESUMED);
        }
        List<ResumableProgress.Resume> resumes = resumes(offset);
        if (resumes.isEmpty()) {
            throw invalid(offset, OFFSET_SNAPSHOT_RESUMED, "is empty");
        }
        return new Resumed(fingerprint, resumes);
    }

    private static List<ResumableProgress.Resume> resumes(Map<String, ?> offset) {
        Object value = offset.get(OFFSET_SNAPSHOT_RESUMED);
        if (value == null) {
            return List.of();
        }
        if (!(value instanceof String text)) {
            throw invalid(offset, OFFSET_SNAPSHOT_RESUMED, "is " + describe(value) + "; expected text such as 0:42@0/16B3748");
        }
        try {
            return ResumableProgress.decodeResumes(text);
        } catch (IllegalArgumentException e) {
            throw invalid(offset, OFFSET_SNAPSHOT_RESUMED, e.getMessage());
        }
    }

    /**
     * The consistent point of the slot created for the snapshot in progress, from an offset for which
     * {@link #isSnapshotInProgress} is true; {@link Lsn#INVALID} when the offset does not record it (written by an
     * earlier version).
     *
     * @throws ConnectException when the field is not an LSN, or is present on an offset without {@code snapshot}
     */
    public static Lsn snapshotLsn(Map<String, ?> offset) {
        Lsn lsn = lsnField(offset, OFFSET_SNAPSHOT_LSN);
        if (lsn == null) {
            return Lsn.INVALID;
        }
        if (!isSnapshotInProgress(offset)) {
            throw invalid(offset, OFFSET_SNAPSHOT_LSN, "is present without " + OFFSET_SNAPSHOT + " = '" + SNAPSHOT_IN_PROGRESS + "'");
        }
        return lsn;
    }

    /**
     * Whether {@code offset} says a snapshot was being emitted. {@link #decode} reads such an offset as the position
     * before everything ({@code lsn} 0/0).
     *
     * @throws ConnectException when the field holds another value
     */
    public static boolean isSnapshotInProgress(Map<String, ?> offset) {
        if (offset == null || !offset.containsKey(OFFSET_SNAPSHOT)) {
            return false;
        }
        Object value = offset.get(OFFSET_SNAPSHOT);
        if (!SNAPSHOT_IN_PROGRESS.equals(value)) {
            throw invalid(offset, OFFSET_SNAPSHOT, "is " + describe(value) + "; expected '" + SNAPSHOT_IN_PROGRESS + "'");
        }
        return true;
    }

    /**
     * Reads a stored offset back. Numbers are accepted as any integral {@link Number}, because the offset store's
     * JSON converter may give back an Integer for a small Long.
     *
     * @throws ConnectException naming the offending field, what it held and what was expected
     */
    public static Position decode(Map<String, ?> offset) {
        if (offset == null) {
            throw new ConnectException("stored source offset is missing; expected a map with field '" + OFFSET_LSN
                    + "'");
        }
        for (String field : offset.keySet()) {
            if (!OFFSET_FIELDS.contains(field)) {
                throw invalid(offset, field, "is not a field this connector version knows (known: " + OFFSET_LSN
                        + ", " + OFFSET_TX_LSN + ", " + OFFSET_TX_ORDER + ", " + OFFSET_TX_END_LSN + ", " + OFFSET_TX_NUMBERING
                        + ", " + OFFSET_SNAPSHOT + ", " + OFFSET_SNAPSHOT_LSN + ", " + OFFSET_SNAPSHOT_TABLES + ", " + OFFSET_SNAPSHOT_AT
                        + ", " + OFFSET_SNAPSHOT_COPY + ", " + OFFSET_SNAPSHOT_RESUMED + ", " + OFFSET_INCREMENTAL_SNAPSHOT + ", " + OFFSET_SIGNAL_OFFSET + ", "
                        + OFFSET_SIGNAL_LSN + ", " + OFFSET_SIGNAL_ROWS + ", " + OFFSET_CAPTURED_TABLES
                        + "); was it written by a newer version?");
            }
        }
        snapshotLsn(offset); // validates the field, which says nothing about the position
        if (isSnapshotInProgress(offset)) {
            snapshotProgress(offset);
        } else {
            if (offset.containsKey(OFFSET_SNAPSHOT_AT)) {
                throw invalid(offset, OFFSET_SNAPSHOT_AT, "is present without " + OFFSET_SNAPSHOT + " = '" + SNAPSHOT_IN_PROGRESS + "'");
            }
            resumed(offset);
        }
        Lsn lsn = lsnField(offset, OFFSET_LSN);
        if (lsn == null) {
            throw invalid(offset, OFFSET_LSN, "is missing");
        }
        Lsn txLsn = lsnField(offset, OFFSET_TX_LSN);
        Object txOrderValue = offset.get(OFFSET_TX_ORDER);
        if ((txLsn == null) != (txOrderValue == null)) {
            String missing = txLsn == null ? OFFSET_TX_LSN : OFFSET_TX_ORDER;
            throw invalid(offset, missing, "is missing; " + OFFSET_TX_LSN + " and " + OFFSET_TX_ORDER
                    + " are stored together");
        }
        Lsn txEndLsn = lsnField(offset, OFFSET_TX_END_LSN);
        Object numbering = offset.get(OFFSET_TX_NUMBERING);
        if (txLsn == null) {
            if (txEndLsn != null || numbering != null) {
                throw invalid(offset, txEndLsn != null ? OFFSET_TX_END_LSN : OFFSET_TX_NUMBERING, "is present without "
                        + OFFSET_TX_LSN + "; they are stored together");
            }
            return Position.afterDelivery(lsn);
        }
        if (!(txOrderValue instanceof Long || txOrderValue instanceof Integer || txOrderValue instanceof Short)) {
            throw invalid(offset, OFFSET_TX_ORDER, "is " + describe(txOrderValue) + "; expected a whole number");
        }
        long txOrder = ((Number) txOrderValue).longValue();
        if (txOrder < 1) {
            throw invalid(offset, OFFSET_TX_ORDER, "is " + txOrder + "; expected 1 or more");
        }
        if (numbering != null && !(numbering instanceof String)) {
            throw invalid(offset, OFFSET_TX_NUMBERING, "is " + describe(numbering) + "; expected text");
        }
        return new Position(lsn, txLsn, txEndLsn, txOrder, (String) numbering);
    }

    private static Lsn lsnField(Map<String, ?> offset, String field) {
        Object value = offset.get(field);
        if (value == null) {
            return null;
        }
        if (!(value instanceof String text)) {
            throw invalid(offset, field, "is " + describe(value) + "; expected an LSN as text such as 16/B374D848");
        }
        try {
            return Lsn.parse(text);
        } catch (IllegalArgumentException e) {
            throw invalid(offset, field, "is '" + text + "'; expected an LSN as text such as 16/B374D848");
        }
    }

    private static String describe(Object value) {
        return value == null ? "null" : value.getClass().getSimpleName() + " '" + value + "'";
    }

    private static ConnectException invalid(Map<String, ?> offset, String field, String problem) {
        return new ConnectException("stored source offset field '" + field + "' " + problem + " (offset " + offset
                + "). The offset topic holds a value this connector cannot resume from; reset the connector's "
                + "offsets (DELETE /connectors/<name>/offsets while it is stopped) or correct them with "
                + "PATCH /connectors/<name>/offsets.");
    }
}
