package io.github.pgoutput.connect.record;


import io.github.pgoutput.converters.StructFields;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.BiPredicate;
import java.util.function.Predicate;

import io.github.pgoutput.assembly.ChangeEvent;
import io.github.pgoutput.connect.shaping.ColumnShaping;
import io.github.pgoutput.assembly.Delivery;
import io.github.pgoutput.converters.BinaryHandlingMode;
import io.github.pgoutput.converters.PostgresTypeMapper;
import io.github.pgoutput.pgoutput.Lsn;
import io.github.pgoutput.pgoutput.ReplicaIdentity;
import io.github.pgoutput.pgoutput.Xid;
import io.github.pgoutput.snapshot.SnapshotRow;
import io.github.pgoutput.snapshot.SnapshotTable;
import io.github.pgoutput.pgoutput.OldTuple;
import io.github.pgoutput.pgoutput.PgOutputMessage;
import io.github.pgoutput.pgoutput.PgOutputMessage.Delete;
import io.github.pgoutput.pgoutput.PgOutputMessage.Insert;
import io.github.pgoutput.pgoutput.PgOutputMessage.LogicalMessage;
import io.github.pgoutput.pgoutput.PgOutputMessage.Relation;
import io.github.pgoutput.pgoutput.PgOutputMessage.Truncate;
import io.github.pgoutput.pgoutput.PgOutputMessage.Update;
import io.github.pgoutput.pgoutput.TupleData;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.header.Header;
import org.apache.kafka.connect.header.Headers;
import org.apache.kafka.connect.source.SourceRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns the changes of a delivery into Kafka record contents in Debezium's change-event format:
 * <ul>
 *   <li>Insert: one record, op {@code c}. Update: one record, op {@code u}; when the key changed (the old key tuple
 *       differs from the new row's key) a delete of the old key ({@code d}, then a tombstone) and a create of the
 *       new key ({@code c}) instead, so a compacted topic keeps no row under the old key. Delete: op {@code d},
 *       followed by a tombstone (null value) when {@code tombstones.on.delete}, with the delete's key (null for a table
 *       without key, as Debezium writes it).</li>
 *   <li>Truncate: one record per truncated table, op {@code t}, no key, no before/after.</li>
 *   <li>Logical decoding message: one record on {@code <prefix>.message}, op {@code m}, Debezium's
 *       {@code MessageKey}/{@code MessageValue} with the nested {@code message} block.</li>
 * </ul>
 * The key holds the columns {@link KeyColumns} chooses (message.key.columns, primary key, replica identity index, or
 * none: a null key), for snapshot rows and streamed changes alike. Schemas are cached per relation id and built anew
 * whenever the table's Relation message or its key changes (ALTER TABLE). The {@code source} block is Debezium's
 * {@code io.debezium.connector.postgresql.Source} ({@link SourceBlock}). With {@code provide.transaction.metadata} the
 * builder fills the {@code transaction} block and counts records per table for the END record of the current
 * delivery; without, the block is null, as Debezium leaves it.
 *
 * <p>Not thread-safe: used by the task's poll thread only.
 */
public final class ChangeRecordBuilder {

    private static final Logger log = LoggerFactory.getLogger(ChangeRecordBuilder.class);

    static final String OP_CREATE = "c";
    static final String OP_UPDATE = "u";
    static final String OP_DELETE = "d";
    static final String OP_TRUNCATE = "t";
    static final String OP_READ = "r";

    /** Debezium's data collection name of logical decoding messages, in the END record's {@code data_collections}. */
    static final String MESSAGE_DATA_COLLECTION = "LOGICAL_DECODING_MESSAGE";

    /**
     * The contents of one record, before the task adds partition, offset and headers.
     *
     * @param dataChange     a table's change or snapshot row (or its tombstone): gets Debezium's context headers
     * @param keyHeader      {@link LifecycleHeaders#OLD_KEY} or {@link LifecycleHeaders#NEW_KEY} for the records of a
     *                       key-changing update, else null
     * @param keyHeaderValue the key that header carries, of schema {@code keySchema}
     */
    public record Draft(String topic, Schema keySchema, Object key, Schema valueSchema, Object value, Long timestampMs,
                 boolean dataChange, String keyHeader, Struct keyHeaderValue) {

        /** A record that is no table's change (a transaction or logical decoding message record). */
        Draft(String topic, Schema keySchema, Object key, Schema valueSchema, Object value, Long timestampMs) {
            this(topic, keySchema, key, valueSchema, value, timestampMs, false, null, null);
        }

        /** Adds Debezium's headers of this record: the context ones for a data change, the other key's if any. */
        public void addDebeziumHeaders(Headers headers, LifecycleHeaders.Context context) {
            if (keyHeader != null) {
                LifecycleHeaders.addKeyChange(headers, keyHeader, keyHeaderValue == null ? null : keyHeaderValue.schema(),
                        keyHeaderValue);
            }
            if (dataChange) {
                context.addTo(headers);
            }
        }

        private Draft withKeyHeader(String header, Struct otherKey) {
            return new Draft(topic, keySchema, key, valueSchema, value, timestampMs, dataChange, header, otherKey);
        }
    }

    /**
     * What the builder emits beyond the schemas: Debezium's context headers, the operations {@code skipped.operations}
     * names, the form of a logical decoding message's content ({@code binary.handling.mode}) and which message
     * prefixes are captured.
     *
     * @param skippedOperations ops ({@code c}, {@code u}, {@code d}, {@code t}) of streamed changes that give no
     *                          records; an update whose key changed is the delete (with its tombstone) and the create
     *                          it becomes, which {@code d} and {@code c} skip, as Debezium
     * @param messagePrefixes   whether a logical decoding message with that prefix gives a record
     * @param encoder           makes the source records: Structs, or the bytes {@code direct.encoding} asks for
     * @param shaping           what Debezium's column keys do to the columns of the captured tables
     */
    public record Options(LifecycleHeaders.Context context, Set<String> skippedOperations, BinaryHandlingMode messageContent,
                   Predicate<String> messagePrefixes, RecordEncoder encoder, ColumnShaping shaping) {

        /** The builder's own defaults (not the connector's): no context headers, nothing skipped, content as bytes. */
        public static final Options DEFAULTS = new Options(LifecycleHeaders.Context.NONE, Set.of(), BinaryHandlingMode.BYTES, prefix -> true);

        public Options {
            Objects.requireNonNull(context);
            skippedOperations = Set.copyOf(skippedOperations);
            Objects.requireNonNull(messageContent);
            Objects.requireNonNull(messagePrefixes);
            Objects.requireNonNull(encoder);
            Objects.requireNonNull(shaping);
        }

        /** Options that shape no column ({@link ColumnShaping#NONE}). */
        public Options(LifecycleHeaders.Context context, Set<String> skippedOperations, BinaryHandlingMode messageContent,
                Predicate<String> messagePrefixes, RecordEncoder encoder) {
            this(context, skippedOperations, messageContent, messagePrefixes, encoder, ColumnShaping.NONE);
        }

        /** Options whose records carry Structs. */
        public Options(LifecycleHeaders.Context context, Set<String> skippedOperations, BinaryHandlingMode messageContent,
                Predicate<String> messagePrefixes) {
            this(context, skippedOperations, messageContent, messagePrefixes, RecordEncoder.STRUCTS);
        }
    }

    private record Capture(Relation relation, boolean captured) {
    }

    private final Options options;
    private final boolean skipsCreate;
    private final boolean skipsUpdate;
    private final boolean skipsDelete;
    private final boolean skipsTruncate;
    private final TopicNames topics;
    private final boolean tombstones;
    private final BiPredicate<String, String> captured;
    private final SourceBlock source;
    private final TransactionBlock transaction;
    private final LogicalMessageRecords messages;
    private final TableSchemas tableSchemas;
    /** Whether a relation is captured, per relation id, for the last Relation message of each (see {@link #isCaptured}). */
    private final Map<Long, Capture> captures = new HashMap<>();
    private Relation lastCaptureOf;
    private boolean lastCapture;
    /** Table versions whose keyless records were logged: once each is enough to name the cause. */
    private final Set<TableSchema> warnedKeyless = Collections.newSetFromMap(new IdentityHashMap<>());
    /** What consecutive snapshot rows share: rows come table by table. */
    private SnapshotTable snapshotTable;
    private TableSchema snapshotSchema;
    private Struct sharedSource;
    /** What {@link #sharedSource} was made of: its marker, time (ms), consistent point and snapshot transaction. */
    private String sharedMarker;
    private long sharedMillis;
    private Lsn sharedPoint;
    private Long sharedTxId;
    /** When the snapshot's first row was built: every snapshot row's {@code source.ts_ms}, as Debezium's. */
    private Instant snapshotTime;

    /**
     * @param serverName the {@code topic.prefix}, reported as {@code source.name}
     * @param columnTypes the types of a table's columns, read from the catalog once per new table schema
     * @param captured   whether a table (schema, name) is captured (table.include.list / table.exclude.list); changes
     *                   of other tables give no records
     * @param keyColumns the key columns {@code message.key.columns} names; other tables are keyed by their primary key
     *                   or replica identity index as the catalog of {@code columnTypes} has them
     * @param transactionMetadata {@code provide.transaction.metadata}: whether change records carry the transaction block
     */
    public ChangeRecordBuilder(String serverName, String database, String version, TopicNames topics, AvroNames names,
                        PostgresTypeMapper types, ColumnTypes columnTypes, boolean tombstones,
                        BiPredicate<String, String> captured, MessageKeyColumns keyColumns, boolean transactionMetadata) {
        this(serverName, database, version, topics, names, types, columnTypes, tombstones, captured, keyColumns,
                transactionMetadata, Options.DEFAULTS);
    }

    /** @param options context headers, skipped operations and the form of logical decoding messages */
    public ChangeRecordBuilder(String serverName, String database, String version, TopicNames topics, AvroNames names,
                        PostgresTypeMapper types, ColumnTypes columnTypes, boolean tombstones,
                        BiPredicate<String, String> captured, MessageKeyColumns keyColumns, boolean transactionMetadata,
                        Options options) {
        this.options = Objects.requireNonNull(options);
        skipsCreate = options.skippedOperations().contains(OP_CREATE);
        skipsUpdate = options.skippedOperations().contains(OP_UPDATE);
        skipsDelete = options.skippedOperations().contains(OP_DELETE);
        skipsTruncate = options.skippedOperations().contains(OP_TRUNCATE);
        this.source = new SourceBlock(serverName, database, version);
        this.transaction = new TransactionBlock(transactionMetadata);
        this.messages = new LogicalMessageRecords(options.messageContent(), source.schema(), transaction.schema());
        this.topics = Objects.requireNonNull(topics);
        this.tableSchemas = new TableSchemas(names, types, columnTypes, new KeyColumns(columnTypes.catalog(), keyColumns),
                source.schema(), transaction.schema(), this.topics, options.shaping());
        this.tombstones = tombstones;
        this.captured = Objects.requireNonNull(captured);
    }

    /**
     * A builder that names no key columns (every table is keyed by its primary key or replica identity index) and
     * fills the transaction block, as with {@code provide.transaction.metadata=true}.
     */
    public ChangeRecordBuilder(String serverName, String database, String version, TopicNames topics, AvroNames names,
                        PostgresTypeMapper types, ColumnTypes columnTypes, boolean tombstones,
                        BiPredicate<String, String> captured) {
        this(serverName, database, version, topics, names, types, columnTypes, tombstones, captured, MessageKeyColumns.NONE,
                true);
    }

    /**
     * The records of one change, in order.
     */
    public List<Draft> build(ChangeEvent event, Delivery delivery) {
        Delivery finished = transaction.startIfNew(delivery);
        if (finished != null) {
            source.committed(finished.endLsn(), finished.time());
        }
        PgOutputMessage.StreamScoped message = event.message();
        if (!(message instanceof LogicalMessage) && !(message instanceof Truncate) && !isCaptured(event.relation())) {
            return List.of();
        }
        if (skipped(message)) {
            // As a change of a table not captured: the delivery still ends, is acknowledged and moves the offset.
            return List.of();
        }
        List<Draft> drafts = new ArrayList<>(3);
        if (message instanceof Insert insert) {
            TableSchema table = schemaOf(event.relation());
            TableSchema.Row after = table.row(insert.newTuple(), null);
            drafts.add(change(table, OP_CREATE, null, after.value(), key(table, after), event, delivery));
        } else if (message instanceof Update update) {
            update(event, delivery, update, drafts);
        } else if (message instanceof Delete delete) {
            TableSchema table = schemaOf(event.relation());
            TableSchema.Row before = before(table, delete.oldTuple());
            Struct key = oldKey(table, delete.oldTuple(), before);
            drafts.add(change(table, OP_DELETE, before.value(), null, key, event, delivery));
            addTombstone(table, key, drafts);
        } else if (message instanceof Truncate) {
            for (Relation relation : event.relations()) {
                if (!isCaptured(relation)) {
                    continue;
                }
                TableSchema table = schemaOf(relation);
                drafts.add(change(table, OP_TRUNCATE, null, null, null, event, delivery));
            }
        } else if (message instanceof LogicalMessage logical) {
            drafts.add(message(logical, event, delivery));
        } else {
            throw new ConnectException("the assembler handed out " + message.getClass().getSimpleName() + " at " + event.walPosition()
                    + " as a change; expected Insert, Update, Delete, Truncate or a logical message");
        }
        return drafts;
    }

    /**
     * Whether {@code skipped.operations} or the message prefix filter drops this change. Updates are decided in
     * {@link #update}: one whose key changed gives a delete and a create, which {@code d} and {@code c} skip.
     */
    private boolean skipped(PgOutputMessage.StreamScoped message) {
        if (message instanceof Insert) {
            return skipsCreate;
        }
        if (message instanceof Delete) {
            return skipsDelete;
        }
        if (message instanceof Truncate) {
            return skipsTruncate;
        }
        if (message instanceof LogicalMessage logical) {
            return !options.messagePrefixes().test(logical.prefix());
        }
        return false;
    }

    /** Makes this task's source records: Structs, or the key and value bytes {@code direct.encoding} asks for. */
    public RecordEncoder encoder() {
        return options.encoder();
    }

    /** The source record of {@code draft}: its topic, key, value and timestamp, encoded by {@link #encoder()}. */
    public SourceRecord record(Draft draft, Map<String, ?> partition, Map<String, ?> offset, Iterable<Header> headers) {
        return options.encoder().record(partition, offset, draft.topic(), null, draft.keySchema(), draft.key(),
                draft.valueSchema(), draft.value(), draft.timestampMs(), headers);
    }

    /** The header objects of this task run that go on every data change and snapshot record. */
    public LifecycleHeaders.Context contextHeaders() {
        return options.context();
    }

    /**
     * The record of one snapshot row: op {@code r}, {@code source.snapshot} from the row's marker, {@code source.lsn}
     * the consistent point, no transaction block. The table goes through the same schema path as a streamed
     * Relation with the same columns, so snapshot and streamed records of a table share their schemas.
     *
     * <p>The caller snapshots captured tables only (table.include.list / table.exclude.list are applied before).
     */
    public Draft snapshotRow(SnapshotRow row, Lsn consistentPoint) {
        return snapshotRow(row, consistentPoint, null);
    }

    /** @param txId the snapshot transaction's id, {@code source.txId}; null when unknown */
    public Draft snapshotRow(SnapshotRow row, Lsn consistentPoint, Long txId) {
        if (row.table() != snapshotTable) {
            snapshotSchema = schemaOf(relationOf(row.table()));
            snapshotTable = row.table();
            sharedSource = null;
        }
        TableSchema schema = snapshotSchema;
        TableSchema.Row afterRow = schema.rowFromText(row.values());
        Struct after = afterRow.value();
        Struct key = key(schema, afterRow);
        Instant now = Instant.now();
        if (snapshotTime == null) {
            snapshotTime = now;
        }
        TableSchema.EnvelopeFields fields = schema.envelopeFields();
        Struct value = new Struct(schema.envelopeSchema());
        StructFields.put(value, fields.after(), after);
        StructFields.put(value, fields.source(), snapshotRowSource(schema.relation(), snapshotMarker(row), consistentPoint,
                snapshotTime, txId));
        StructFields.put(value, fields.op(), OP_READ);
        putTimestamps(value, fields, now);
        return new Draft(schema.topic(), key == null ? null : schema.keySchema(), key, schema.envelopeSchema(), value,
                now.toEpochMilli(), true, null, null);
    }

    /**
     * The truncate record (op {@code t}, no key, no before/after, {@code source.snapshot} {@code true}) that opens the
     * rows of one table in a snapshot taken again: it tells a consumer to drop the rows an earlier, interrupted or
     * obsolete snapshot of this connector gave it, since rows deleted in between would otherwise stay. A first snapshot
     * has none (as Debezium's), so a sink that applies truncates keeps what it held before a switch-over.
     */
    public Draft snapshotTruncate(SnapshotTable table, Lsn consistentPoint, Long txId) {
        TableSchema schema = schemaOf(relationOf(table));
        Instant now = Instant.now();
        TableSchema.EnvelopeFields fields = schema.envelopeFields();
        Struct value = new Struct(schema.envelopeSchema());
        StructFields.put(value, fields.source(), source.snapshot(schema.relation().namespace(),
                schema.relation().relationName(), "true", consistentPoint, now, txId));
        StructFields.put(value, fields.op(), OP_TRUNCATE);
        putTimestamps(value, fields, now);
        return new Draft(schema.topic(), null, null, schema.envelopeSchema(), value, now.toEpochMilli(), true, null, null);
    }

    /**
     * Debezium's {@code source.snapshot} of a snapshot row: {@code last} for the snapshot's last row, {@code first}
     * for its first, {@code last_in_data_collection} / {@code first_in_data_collection} for a table's last / first
     * row, {@code true} for the others (the earlier one wins for a row that is both).
     */
    static String snapshotMarker(SnapshotRow row) {
        if (row.marker() == SnapshotRow.Marker.LAST) {
            return "last";
        }
        if (row.marker() == SnapshotRow.Marker.FIRST) {
            return "first";
        }
        if (row.marker() == SnapshotRow.Marker.INCREMENTAL) {
            return "incremental";
        }
        if (row.lastInTable()) {
            return "last_in_data_collection";
        }
        if (row.firstInTable()) {
            return "first_in_data_collection";
        }
        return "true";
    }

    private static Relation relationOf(SnapshotTable table) {
        return new Relation(Xid.INVALID, table.relationId(), table.name().schema(), table.name().table(), ReplicaIdentity.DEFAULT,
                table.columns());
    }

    /**
     * The {@code source} block of a snapshot row. Rows of one table with the same marker share one (a Struct is not
     * changed once built): building and validating it anew for each of tens of thousands of rows per second is a
     * measurable part of a snapshot's cost.
     */
    private Struct snapshotRowSource(Relation relation, String marker, Lsn consistentPoint, Instant now, Long txId) {
        long millis = now.toEpochMilli();
        if (sharedSource == null || sharedMillis != millis || !marker.equals(sharedMarker)
                || !consistentPoint.equals(sharedPoint) || !Objects.equals(sharedTxId, txId)) {
            sharedSource = source.snapshot(relation.namespace(), relation.relationName(), marker, consistentPoint, now, txId);
            sharedMarker = marker;
            sharedMillis = millis;
            sharedPoint = consistentPoint;
            sharedTxId = txId;
        }
        return sharedSource;
    }

    /**
     * Records per data collection ({@code schema.table}, or {@value #MESSAGE_DATA_COLLECTION}) of the delivery the last
     * {@link #build} call was for, in first-seen order; empty without {@code provide.transaction.metadata}.
     */
    public Map<String, Long> countsPerDataCollection(Delivery delivery) {
        return transaction.counts(delivery);
    }

    /**
     * Whether the table of {@code relation} is captured, decided once per Relation message: the include and exclude
     * lists are regular expressions, too costly to match for every change.
     */
    private boolean isCaptured(Relation relation) {
        if (relation == lastCaptureOf) {
            return lastCapture;
        }
        Capture capture = captures.get(relation.relationId());
        if (capture == null || capture.relation() != relation) {
            capture = new Capture(relation, captured.test(relation.namespace(), relation.relationName()));
            captures.put(relation.relationId(), capture);
        }
        lastCaptureOf = relation;
        lastCapture = capture.captured();
        return lastCapture;
    }

    Schema sourceSchema() {
        return source.schema();
    }

    /** Envelope's {@code ts_ms}, {@code ts_us}, {@code ts_ns}: when the record was built. */
    private static void putTimestamps(Struct value, TableSchema.EnvelopeFields fields, Instant now) {
        StructFields.put(value, fields.tsMs(), now.toEpochMilli());
        StructFields.put(value, fields.tsUs(), SourceBlock.micros(now));
        StructFields.put(value, fields.tsNs(), SourceBlock.nanos(now));
    }

    private void update(ChangeEvent event, Delivery delivery, Update update, List<Draft> drafts) {
        TableSchema table = schemaOf(event.relation());
        TupleData old = update.oldTuple().map(OldTuple::tuple).orElse(null);
        boolean fullOld = update.oldTuple().map(o -> o.kind() == OldTuple.Kind.FULL).orElse(false);
        TableSchema.Row afterRow = table.row(update.newTuple(), fullOld ? old : null);
        TableSchema.Row beforeRow = update.oldTuple().map(o -> before(table, o)).orElse(null);
        Struct after = afterRow.value();
        Struct before = beforeRow == null ? null : beforeRow.value();
        Struct newKey = key(table, afterRow);
        // Null too when the old tuple holds the replica identity index's columns but the key is the primary key:
        // then whether the key changed is unknown, and the change stays one update.
        Struct oldKey = update.oldTuple().map(o -> oldKey(table, o, beforeRow)).orElse(null);
        if (oldKey != null && !oldKey.equals(newKey)) {
            // As Debezium: the delete and its tombstone name the new key, the create the old one.
            if (!skipsDelete) {
                drafts.add(change(table, OP_DELETE, before, null, oldKey, event, delivery)
                        .withKeyHeader(LifecycleHeaders.NEW_KEY, newKey));
                addTombstone(table, oldKey, drafts);
            }
            if (!skipsCreate) {
                drafts.add(change(table, OP_CREATE, null, after, newKey, event, delivery)
                        .withKeyHeader(LifecycleHeaders.OLD_KEY, oldKey));
            }
            return;
        }
        if (skipsUpdate) {
            return;
        }
        drafts.add(change(table, OP_UPDATE, before, after, newKey, event, delivery));
    }

    /** The row's key; null without one, logged once per table version when the table has a key the row cannot fill. */
    private Struct key(TableSchema table, TableSchema.Row row) {
        Struct key = row == null ? null : row.key();
        if (key == null && row != null) {
            warnKeyless(table);
        }
        return key;
    }

    /** Logs, once per table version that has a key, that a change of it got a null key, and why that happens. */
    private void warnKeyless(TableSchema table) {
        if (table.keySchema() != null && warnedKeyless.add(table)) {
            log.warn("a change of table {} lacks a value of key column(s) {} ({}), so its record gets a null key; it happens"
                    + " when REPLICA IDENTITY USING INDEX names an index other than the primary key, as the old tuple then"
                    + " holds that index's columns only. Use REPLICA IDENTITY DEFAULT or FULL, or name the index's columns"
                    + " in message.key.columns. Logged once per table schema version", table.qualifiedName(),
                    table.keyColumns().columns(), table.keyColumns().origin());
        }
    }

    /**
     * The key of an old tuple: unknown (null) when the tuple is key-only and REPLICA IDENTITY USING INDEX names other
     * columns than the key's, whose fields a key-only before-image fills with zeros rather than values.
     */
    private Struct oldKey(TableSchema table, OldTuple old, TableSchema.Row before) {
        if (old.kind() == OldTuple.Kind.KEY && !table.keyInReplicaIdentity()) {
            warnKeyless(table);
            return null;
        }
        return key(table, before);
    }

    private static TableSchema.Row before(TableSchema table, OldTuple old) {
        return old.kind() == OldTuple.Kind.KEY ? table.keyOnlyRow(old.tuple()) : table.row(old.tuple(), null);
    }

    /** A tombstone after a delete, with the delete's key; as Debezium, also with a null key (a table without key). */
    private void addTombstone(TableSchema table, Struct key, List<Draft> drafts) {
        if (tombstones) {
            Draft delete = drafts.get(drafts.size() - 1);
            drafts.add(new Draft(table.topic(), key == null ? null : table.keySchema(), key, null, null,
                    delete.timestampMs(), true, delete.keyHeader(), delete.keyHeaderValue()));
        }
    }

    private Draft change(TableSchema table, String op, Struct before, Struct after, Struct key, ChangeEvent event, Delivery delivery) {
        Relation relation = table.relation();
        String topic = table.topic();
        TableSchema.EnvelopeFields fields = table.envelopeFields();
        Struct value = new Struct(table.envelopeSchema());
        StructFields.put(value, fields.before(), before);
        StructFields.put(value, fields.after(), after);
        StructFields.put(value, fields.source(), source.streamed(relation.namespace(), relation.relationName(), event, delivery));
        StructFields.put(value, fields.transaction(), transaction.next(table.qualifiedName(), event, delivery));
        StructFields.put(value, fields.op(), op);
        putTimestamps(value, fields, Instant.now());
        Long timestamp = delivery.time() == null ? null : delivery.time().toEpochMilli();
        return new Draft(topic, key == null ? null : table.keySchema(), key, table.envelopeSchema(), value, timestamp, true,
                null, null);
    }

    private Draft message(LogicalMessage logical, ChangeEvent event, Delivery delivery) {
        Long timestamp = delivery.time() == null ? null : delivery.time().toEpochMilli();
        return messages.draft(topics.message(), logical, source.streamed("", "", event, delivery),
                transaction.next(MESSAGE_DATA_COLLECTION, event, delivery), timestamp);
    }

    /** The schemas for this Relation, shared by streamed changes and snapshot rows of the table. */
    TableSchema schemaOf(Relation relation) {
        return tableSchemas.of(relation);
    }
}
