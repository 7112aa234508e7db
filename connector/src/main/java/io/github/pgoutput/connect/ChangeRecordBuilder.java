package io.github.pgoutput.connect;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.BiPredicate;

import io.github.pgoutput.assembly.ChangeEvent;
import io.github.pgoutput.assembly.Delivery;
import io.github.pgoutput.converters.PgColumnType;
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
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.errors.ConnectException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns the changes of a delivery into Kafka record contents in Debezium's change-event format:
 * <ul>
 *   <li>Insert: one record, op {@code c}. Update: one record, op {@code u}; when the key changed (the old key tuple
 *       differs from the new row's key) a delete of the old key ({@code d}, then a tombstone) and a create of the
 *       new key ({@code c}) instead, so a compacted topic keeps no row under the old key. Delete: op {@code d},
 *       followed by a tombstone (null value) when {@code tombstones.on.delete} and the table has a key.</li>
 *   <li>Truncate: one record per truncated table, op {@code t}, no key, no before/after.</li>
 *   <li>Logical decoding message: one record on {@code <prefix>.message}, op {@code m}.</li>
 * </ul>
 * The key holds the columns {@link KeyColumns} chooses (message.key.columns, primary key, replica identity index, or
 * none: a null key), for snapshot rows and streamed changes alike. Schemas are cached per relation id and get a new
 * version whenever the table's Relation message or its key changes (ALTER TABLE). The builder also counts records per table for the transaction block and the END record of the
 * current delivery.
 *
 * <p>Not thread-safe: used by the task's poll thread only.
 */
final class ChangeRecordBuilder {

    private static final Logger log = LoggerFactory.getLogger(ChangeRecordBuilder.class);

    static final String OP_CREATE = "c";
    static final String OP_UPDATE = "u";
    static final String OP_DELETE = "d";
    static final String OP_TRUNCATE = "t";
    static final String OP_MESSAGE = "m";
    static final String OP_READ = "r";

    /** The contents of one record, before the task adds partition, offset and headers. */
    record Draft(String topic, Schema keySchema, Object key, Schema valueSchema, Object value, Long timestampMs) {
    }

    private final String serverName;
    private final String database;
    private final String version;
    private final TopicNames topics;
    private final AvroNames names;
    private final PostgresTypeMapper types;
    private final ColumnTypes columnTypes;
    private final KeyColumns keyColumns;
    private final boolean tombstones;
    private final BiPredicate<String, String> captured;
    private final Schema sourceSchema;
    private final Schema transactionSchema;
    private final Schema messageKeySchema;
    private final Schema messageValueSchema;
    private final Map<Long, TableSchema> schemas = new HashMap<>();
    private final Map<Long, Integer> versions = new HashMap<>();
    /** Table versions whose keyless records were logged: once each is enough to name the cause. */
    private final Set<TableSchema> warnedKeyless = Collections.newSetFromMap(new IdentityHashMap<>());
    private final Map<String, Long> perTopicCounts = new LinkedHashMap<>();
    private Delivery countedDelivery;
    private long deliveryOrder;
    /** What consecutive snapshot rows share: rows come table by table. */
    private SnapshotTable snapshotTable;
    private TableSchema snapshotSchema;
    private Struct sharedSource;

    /**
     * @param serverName the {@code topic.prefix}, reported as {@code source.name}
     * @param columnTypes the types of a table's columns, read from the catalog once per new table schema
     * @param captured   whether a table (schema, name) is captured (table.include.list / table.exclude.list); changes
     *                   of other tables give no records
     * @param keyColumns the key columns {@code message.key.columns} names; other tables are keyed by their primary key
     *                   or replica identity index as the catalog of {@code columnTypes} has them
     */
    ChangeRecordBuilder(String serverName, String database, String version, TopicNames topics, AvroNames names,
                        PostgresTypeMapper types, ColumnTypes columnTypes, boolean tombstones,
                        BiPredicate<String, String> captured, MessageKeyColumns keyColumns) {
        this.serverName = Objects.requireNonNull(serverName);
        this.database = Objects.requireNonNull(database);
        this.version = Objects.requireNonNull(version);
        this.topics = Objects.requireNonNull(topics);
        this.names = Objects.requireNonNull(names);
        this.types = Objects.requireNonNull(types);
        this.columnTypes = Objects.requireNonNull(columnTypes);
        this.keyColumns = new KeyColumns(columnTypes.catalog(), keyColumns);
        this.tombstones = tombstones;
        this.captured = Objects.requireNonNull(captured);
        sourceSchema = SchemaBuilder.struct().name(names.fullName("Source"))
                .field("version", Schema.STRING_SCHEMA)
                .field("connector", Schema.STRING_SCHEMA)
                .field("name", Schema.STRING_SCHEMA)
                .field("ts_ms", Schema.INT64_SCHEMA)
                .field("snapshot", Schema.OPTIONAL_STRING_SCHEMA)
                .field("db", Schema.STRING_SCHEMA)
                .field("schema", Schema.OPTIONAL_STRING_SCHEMA)
                .field("table", Schema.OPTIONAL_STRING_SCHEMA)
                .field("txId", Schema.OPTIONAL_INT64_SCHEMA)
                .field("lsn", Schema.OPTIONAL_INT64_SCHEMA)
                .field("commit_lsn", Schema.OPTIONAL_STRING_SCHEMA)
                .build();
        transactionSchema = SchemaBuilder.struct().name(names.fullName("TransactionBlock")).optional()
                .field("id", Schema.STRING_SCHEMA)
                .field("total_order", Schema.INT64_SCHEMA)
                .field("data_collection_order", Schema.INT64_SCHEMA)
                .build();
        messageKeySchema = SchemaBuilder.struct().name(names.fullName("MessageKey"))
                .field("prefix", Schema.STRING_SCHEMA).build();
        messageValueSchema = SchemaBuilder.struct().name(names.fullName("MessageValue"))
                .field(TableSchema.Envelope.OP, Schema.STRING_SCHEMA)
                .field(TableSchema.Envelope.TS_MS, Schema.OPTIONAL_INT64_SCHEMA)
                .field(TableSchema.Envelope.SOURCE, sourceSchema)
                .field("transactional", Schema.BOOLEAN_SCHEMA)
                .field("prefix", Schema.STRING_SCHEMA)
                .field("content", Schema.BYTES_SCHEMA)
                .build();
    }

    /**
     * A builder that names no key columns: every table is keyed by its primary key or replica identity index. The
     * task's constructor until it passes {@code config.messageKeyColumns()} to the one above.
     */
    ChangeRecordBuilder(String serverName, String database, String version, TopicNames topics, AvroNames names,
                        PostgresTypeMapper types, ColumnTypes columnTypes, boolean tombstones,
                        BiPredicate<String, String> captured) {
        this(serverName, database, version, topics, names, types, columnTypes, tombstones, captured, MessageKeyColumns.NONE);
    }

    /**
     * The records of one change, in order.
     *
     * @param firstOrder the 1-based position in its delivery of the first record built here ({@code pg.tx_order});
     *                   also the transaction block's {@code total_order}
     */
    List<Draft> build(ChangeEvent event, Delivery delivery, long firstOrder) {
        if (delivery != countedDelivery) {
            countedDelivery = delivery;
            perTopicCounts.clear();
        }
        deliveryOrder = firstOrder;
        PgOutputMessage.StreamScoped message = event.message();
        if (!(message instanceof LogicalMessage) && !(message instanceof Truncate) && !isCaptured(event.relation())) {
            return List.of();
        }
        List<Draft> drafts = new ArrayList<>(3);
        if (message instanceof Insert insert) {
            TableSchema table = schemaOf(event.relation());
            Struct after = table.row(insert.newTuple(), null);
            drafts.add(change(table, OP_CREATE, null, after, key(table, after), event, delivery));
        } else if (message instanceof Update update) {
            update(event, delivery, update, drafts);
        } else if (message instanceof Delete delete) {
            TableSchema table = schemaOf(event.relation());
            Struct before = before(table, delete.oldTuple());
            Struct key = key(table, before);
            drafts.add(change(table, OP_DELETE, before, null, key, event, delivery));
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
     * The record of one snapshot row: op {@code r}, {@code source.snapshot} from the row's marker, {@code source.lsn}
     * the consistent point, no transaction block. The table goes through the same schema path as a streamed
     * Relation with the same columns, so snapshot and streamed records of a table share their schemas.
     *
     * <p>The caller snapshots captured tables only (table.include.list / table.exclude.list are applied before).
     */
    Draft snapshotRow(SnapshotRow row, Lsn consistentPoint) {
        if (row.table() != snapshotTable) {
            snapshotSchema = schemaOf(relationOf(row.table()));
            snapshotTable = row.table();
            sharedSource = null;
        }
        TableSchema schema = snapshotSchema;
        Struct after = schema.rowFromText(row.values());
        Struct key = key(schema, after);
        long now = System.currentTimeMillis();
        Struct value = new Struct(schema.envelopeSchema())
                .put(TableSchema.Envelope.AFTER, after)
                .put(TableSchema.Envelope.SOURCE, snapshotRowSource(schema.relation(), row.marker().sourceValue(), consistentPoint, now))
                .put(TableSchema.Envelope.OP, OP_READ)
                .put(TableSchema.Envelope.TS_MS, now);
        return new Draft(schema.topic(), key == null ? null : schema.keySchema(), key, schema.envelopeSchema(), value, now);
    }

    /**
     * The truncate record (op {@code t}, no key, {@code source.snapshot} {@code true}) that opens a snapshot's rows of
     * {@code table}: a consumer that applies it discards rows an interrupted earlier snapshot, or a stream whose slot
     * was lost, left behind, which the rows that follow cannot retract.
     */
    Draft snapshotTruncate(SnapshotTable table, Lsn consistentPoint) {
        Relation relation = relationOf(table);
        TableSchema schema = schemaOf(relation);
        long now = System.currentTimeMillis();
        Struct value = new Struct(schema.envelopeSchema())
                .put(TableSchema.Envelope.SOURCE, snapshotSource(relation, "true", consistentPoint, now))
                .put(TableSchema.Envelope.OP, OP_TRUNCATE)
                .put(TableSchema.Envelope.TS_MS, now);
        return new Draft(schema.topic(), null, null, schema.envelopeSchema(), value, now);
    }

    private static Relation relationOf(SnapshotTable table) {
        return new Relation(Xid.INVALID, table.relationId(), table.name().schema(), table.name().table(), ReplicaIdentity.DEFAULT,
                table.columns());
    }

    /**
     * The {@code source} block of a snapshot row. Rows of one table read within the same millisecond share one
     * (a Struct is not changed once built): building and validating it anew for each of tens of thousands of rows
     * per second is a measurable part of a snapshot's cost.
     */
    private Struct snapshotRowSource(Relation relation, String marker, Lsn consistentPoint, long now) {
        Struct last = sharedSource;
        if (last == null || (Long) last.get("ts_ms") != now || !marker.equals(last.get("snapshot"))
                || (Long) last.get("lsn") != consistentPoint.value()) {
            sharedSource = snapshotSource(relation, marker, consistentPoint, now);
        }
        return sharedSource;
    }

    private Struct snapshotSource(Relation relation, String marker, Lsn consistentPoint, long now) {
        return new Struct(sourceSchema)
                .put("version", version)
                .put("connector", "pgoutput")
                .put("name", serverName)
                .put("ts_ms", now)
                .put("snapshot", marker)
                .put("db", database)
                .put("schema", relation.namespace())
                .put("table", relation.relationName())
                .put("lsn", consistentPoint.value());
    }

    /** Records per topic of the delivery the last {@link #build} call was for, in first-seen order. */
    Map<String, Long> countsPerTopic(Delivery delivery) {
        return delivery == countedDelivery ? Collections.unmodifiableMap(new LinkedHashMap<>(perTopicCounts)) : Map.of();
    }

    private boolean isCaptured(Relation relation) {
        return captured.test(relation.namespace(), relation.relationName());
    }

    Schema sourceSchema() {
        return sourceSchema;
    }

    private void update(ChangeEvent event, Delivery delivery, Update update, List<Draft> drafts) {
        TableSchema table = schemaOf(event.relation());
        TupleData old = update.oldTuple().map(OldTuple::tuple).orElse(null);
        boolean fullOld = update.oldTuple().map(o -> o.kind() == OldTuple.Kind.FULL).orElse(false);
        Struct after = table.row(update.newTuple(), fullOld ? old : null);
        Struct before = update.oldTuple().map(o -> before(table, o)).orElse(null);
        Struct newKey = key(table, after);
        // Null too when the old tuple holds the replica identity index's columns but the key is the primary key:
        // then whether the key changed is unknown, and the change stays one update.
        Struct oldKey = before == null ? null : key(table, before);
        if (oldKey != null && !oldKey.equals(newKey)) {
            drafts.add(change(table, OP_DELETE, before, null, oldKey, event, delivery));
            addTombstone(table, oldKey, drafts);
            drafts.add(change(table, OP_CREATE, null, after, newKey, event, delivery));
            return;
        }
        drafts.add(change(table, OP_UPDATE, before, after, newKey, event, delivery));
    }

    /** The row's key; null without one, logged once per table version when the table has a key the row cannot fill. */
    private Struct key(TableSchema table, Struct row) {
        Struct key = table.key(row);
        if (key == null && row != null && table.keySchema() != null && warnedKeyless.add(table)) {
            log.warn("a change of table {} lacks a value of key column(s) {} ({}), so its record gets a null key; it happens"
                    + " when REPLICA IDENTITY USING INDEX names an index other than the primary key, as the old tuple then"
                    + " holds that index's columns only. Use REPLICA IDENTITY DEFAULT or FULL, or name the index's columns"
                    + " in message.key.columns. Logged once per table schema version", table.qualifiedName(),
                    table.keyColumns().columns(), table.keyColumns().origin());
        }
        return key;
    }

    private static Struct before(TableSchema table, OldTuple old) {
        return old.kind() == OldTuple.Kind.KEY ? table.keyOnlyRow(old.tuple()) : table.row(old.tuple(), null);
    }

    private void addTombstone(TableSchema table, Struct key, List<Draft> drafts) {
        if (tombstones && key != null) {
            drafts.add(new Draft(table.topic(), table.keySchema(), key, null, null, drafts.get(drafts.size() - 1).timestampMs()));
            deliveryOrder++;
        }
    }

    private Draft change(TableSchema table, String op, Struct before, Struct after, Struct key, ChangeEvent event, Delivery delivery) {
        Relation relation = table.relation();
        String topic = table.topic();
        Struct value = new Struct(table.envelopeSchema())
                .put(TableSchema.Envelope.BEFORE, before)
                .put(TableSchema.Envelope.AFTER, after)
                .put(TableSchema.Envelope.SOURCE, source(relation.namespace(), relation.relationName(), event, delivery))
                .put(TableSchema.Envelope.OP, op)
                .put(TableSchema.Envelope.TS_MS, System.currentTimeMillis())
                .put(TableSchema.Envelope.TRANSACTION, transactionBlock(topic, delivery));
        Long timestamp = delivery.time() == null ? null : delivery.time().toEpochMilli();
        return new Draft(topic, key == null ? null : table.keySchema(), key, table.envelopeSchema(), value, timestamp);
    }

    private Draft message(LogicalMessage logical, ChangeEvent event, Delivery delivery) {
        String topic = topics.message();
        Struct value = new Struct(messageValueSchema)
                .put(TableSchema.Envelope.OP, OP_MESSAGE)
                .put(TableSchema.Envelope.TS_MS, System.currentTimeMillis())
                .put(TableSchema.Envelope.SOURCE, source(null, null, event, delivery))
                .put("transactional", logical.transactional())
                .put("prefix", logical.prefix())
                .put("content", logical.content().toByteArray());
        count(topic);
        deliveryOrder++;
        Long timestamp = delivery.time() == null ? null : delivery.time().toEpochMilli();
        return new Draft(topic, messageKeySchema, new Struct(messageKeySchema).put("prefix", logical.prefix()), messageValueSchema, value,
                timestamp);
    }

    private Struct source(String schema, String table, ChangeEvent event, Delivery delivery) {
        Instant time = delivery.time() == null ? Instant.now() : delivery.time();
        return new Struct(sourceSchema)
                .put("version", version)
                .put("connector", "pgoutput")
                .put("name", serverName)
                .put("ts_ms", time.toEpochMilli())
                .put("snapshot", "false")
                .put("db", database)
                .put("schema", schema)
                .put("table", table)
                .put("txId", delivery.xid().isValid() ? delivery.xid().value() : null)
                .put("lsn", event.walPosition().value())
                .put("commit_lsn", delivery.endLsn().toString());
    }

    private Struct transactionBlock(String topic, Delivery delivery) {
        long perTopic = count(topic);
        long order = deliveryOrder++;
        if (!delivery.xid().isValid()) {
            return null;
        }
        return new Struct(transactionSchema)
                .put("id", TransactionTopicRecords.transactionId(delivery))
                .put("total_order", order)
                .put("data_collection_order", perTopic);
    }

    private long count(String topic) {
        return perTopicCounts.merge(topic, 1L, Long::sum);
    }

    /** The schemas for this Relation; a new version when it differs from the one cached for its relation id. */
    TableSchema schemaOf(Relation relation) {
        TableSchema cached = schemas.get(relation.relationId());
        // Read again for each new Relation message: an index or replica identity change makes PostgreSQL send one.
        KeyColumns.Choice key = keyColumns.of(relation);
        if (cached != null && relationsMatch(cached.relation(), relation) && cached.keyColumns().equals(key)) {
            return cached;
        }
        // Types first: a failed catalog read must not use up a version number.
        List<PgColumnType> typesOfColumns = columnTypes.of(relation);
        int next = versions.merge(relation.relationId(), 1, Integer::sum);
        TableSchema built = new TableSchema(relation, key, next, names, types, typesOfColumns, sourceSchema, transactionSchema,
                topics.table(relation.namespace(), relation.relationName()));
        schemas.put(relation.relationId(), built);
        return built;
    }

    /**
     * Equal apart from the xid prefix, which differs between a streamed and a plain copy of the same definition, and
     * the replica identity setting, which the snapshot's relation does not know: what the schemas depend on of it,
     * the key flags (which columns a key-only old tuple holds), is in the columns.
     */
    private static boolean relationsMatch(Relation a, Relation b) {
        return a.namespace().equals(b.namespace()) && a.relationName().equals(b.relationName())
                && a.columns().equals(b.columns());
    }
}
