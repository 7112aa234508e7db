package io.github.pgoutput.connect.record;

import io.github.pgoutput.converters.StructFields;
import java.time.Instant;
import java.util.Objects;

import io.github.pgoutput.assembly.ChangeEvent;
import io.github.pgoutput.assembly.Delivery;
import io.github.pgoutput.pgoutput.Lsn;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;

/**
 * The {@code source} block of change and message records: Debezium's {@code io.debezium.connector.postgresql.Source}
 * (version 1) field by field, so consumers and SMTs that read it (Debezium's CloudEvents converter and outbox router
 * look providers up by {@code connector}) treat our records as Debezium's PostgreSQL connector's:
 * <ul>
 *   <li>{@code version}: this connector's version; {@code connector}: {@value #CONNECTOR}; {@code name}: the
 *       topic prefix; {@code db}: the database.</li>
 *   <li>{@code ts_ms}, {@code ts_us}, {@code ts_ns}: the commit time of the transaction (a snapshot row: when the
 *       snapshot's first row was read, the same for all; a non-transactional message: the last commit's time this
 *       task saw, as Debezium, or now before the first).</li>
 *   <li>{@code snapshot}: an {@code io.debezium.data.Enum} of {@value #SNAPSHOT_VALUES}, default {@code false}:
 *       {@code false} when streamed, the row's marker in a snapshot.</li>
 *   <li>{@code sequence}: {@code ["<last commit LSN>","<lsn>"]} as decimal strings, the first null before the first
 *       commit this task saw; {@code lsn}: the change's own WAL position (a snapshot row: the consistent point);
 *       {@code txId}: the xid (a snapshot row: the snapshot transaction's, as Debezium); {@code schema}, {@code table}: the table ({@code ""} for a message).</li>
 *   <li>{@code xmin}, {@code origin}, {@code origin_lsn}: null, as Debezium leaves them without
 *       {@code xmin.fetch.interval.ms} and for changes not replicated from another server.</li>
 * </ul>
 *
 * <p>Not thread-safe: the poll thread only (it remembers the last commit).
 */
public final class SourceBlock {

    static final String CONNECTOR = "postgresql";
    static final String SNAPSHOT_VALUES = "true,first,first_in_data_collection,last_in_data_collection,last,false,incremental";
    static final String TS_MS = "ts_ms";
    static final String LSN = "lsn";

    private final String serverName;
    private final String database;
    private final String version;
    private final Schema schema;
    /** The schema's fields that records set: taken once, not looked up by name for every record. */
    private final Field versionField;
    private final Field connectorField;
    private final Field nameField;
    private final Field tsMsField;
    private final Field snapshotField;
    private final Field dbField;
    private final Field sequenceField;
    private final Field tsUsField;
    private final Field tsNsField;
    private final Field schemaField;
    private final Field tableField;
    private final Field txIdField;
    private final Field lsnField;
    private Lsn lastCommit;
    private Instant lastCommitTime;

    SourceBlock(String serverName, String database, String version) {
        this.serverName = Objects.requireNonNull(serverName);
        this.database = Objects.requireNonNull(database);
        this.version = Objects.requireNonNull(version);
        Schema snapshot = SchemaBuilder.string().name("io.debezium.data.Enum").version(1)
                .parameter("allowed", SNAPSHOT_VALUES).defaultValue("false").optional().build();
        schema = SchemaBuilder.struct().name("io.debezium.connector.postgresql.Source").version(1)
                .field("version", Schema.STRING_SCHEMA)
                .field("connector", Schema.STRING_SCHEMA)
                .field("name", Schema.STRING_SCHEMA)
                .field(TS_MS, Schema.INT64_SCHEMA)
                .field("snapshot", snapshot)
                .field("db", Schema.STRING_SCHEMA)
                .field("sequence", Schema.OPTIONAL_STRING_SCHEMA)
                .field("ts_us", Schema.OPTIONAL_INT64_SCHEMA)
                .field("ts_ns", Schema.OPTIONAL_INT64_SCHEMA)
                .field("schema", Schema.STRING_SCHEMA)
                .field("table", Schema.STRING_SCHEMA)
                .field("txId", Schema.OPTIONAL_INT64_SCHEMA)
                .field(LSN, Schema.OPTIONAL_INT64_SCHEMA)
                .field("xmin", Schema.OPTIONAL_INT64_SCHEMA)
                .field("origin", Schema.OPTIONAL_STRING_SCHEMA)
                .field("origin_lsn", Schema.OPTIONAL_INT64_SCHEMA)
                .build();
        versionField = schema.field("version");
        connectorField = schema.field("connector");
        nameField = schema.field("name");
        tsMsField = schema.field(TS_MS);
        snapshotField = schema.field("snapshot");
        dbField = schema.field("db");
        sequenceField = schema.field("sequence");
        tsUsField = schema.field("ts_us");
        tsNsField = schema.field("ts_ns");
        schemaField = schema.field("schema");
        tableField = schema.field("table");
        txIdField = schema.field("txId");
        lsnField = schema.field(LSN);
    }

    Schema schema() {
        return schema;
    }

    /** A transaction ended at {@code endLsn}: the first element of later records' {@code sequence}. */
    void committed(Lsn endLsn) {
        lastCommit = endLsn;
    }

    /**
     * A transaction ended at {@code endLsn}, committed at {@code time} (null when unknown): also the time a later
     * non-transactional message reports, as Debezium repeats the last commit's time for it.
     */
    void committed(Lsn endLsn, Instant time) {
        committed(endLsn);
        if (time != null) {
            lastCommitTime = time;
        }
    }

    /** The block of a streamed change or message; {@code schema} and {@code table} are {@code ""} for a message. */
    Struct streamed(String schemaName, String table, ChangeEvent event, Delivery delivery) {
        Instant time = delivery.time() != null ? delivery.time() : lastCommitTime != null ? lastCommitTime : Instant.now();
        Lsn lsn = event.walPosition();
        if (!delivery.xid().isValid()) {
            // A non-transactional message is its own commit, counted before its record as Debezium counts it.
            committed(lsn);
        }
        return StructFields.put(common(time, schemaName, table, "false", lsn), txIdField,
                delivery.xid().isValid() ? delivery.xid().value() : null);
    }

    /**
     * The block of a snapshot row of the snapshot taken at {@code now} (its start) at {@code consistentPoint}, read in
     * the transaction {@code txId} (null when unknown).
     */
    Struct snapshot(String schemaName, String table, String marker, Lsn consistentPoint, Instant now, Long txId) {
        return StructFields.put(common(now, schemaName, table, marker, consistentPoint), txIdField, txId);
    }

    private Struct common(Instant time, String schemaName, String table, String snapshot, Lsn lsn) {
        Struct source = new Struct(schema);
        StructFields.put(source, versionField, version);
        StructFields.put(source, connectorField, CONNECTOR);
        StructFields.put(source, nameField, serverName);
        StructFields.put(source, tsMsField, time.toEpochMilli());
        StructFields.put(source, snapshotField, snapshot);
        StructFields.put(source, dbField, database);
        StructFields.put(source, sequenceField, sequence(lastCommit, lsn));
        StructFields.put(source, tsUsField, micros(time));
        StructFields.put(source, tsNsField, nanos(time));
        StructFields.put(source, schemaField, schemaName);
        StructFields.put(source, tableField, table);
        return StructFields.put(source, lsnField, lsn.value());
    }

    /** Debezium's {@code sequence}: a JSON array of the last commit's and this record's LSN as decimal strings. */
    static String sequence(Lsn lastCommit, Lsn lsn) {
        String first = lastCommit == null ? "null" : "\"" + Long.toUnsignedString(lastCommit.value()) + "\"";
        return "[" + first + ",\"" + Long.toUnsignedString(lsn.value()) + "\"]";
    }

    static long micros(Instant time) {
        return time.getEpochSecond() * 1_000_000L + time.getNano() / 1_000;
    }

    static long nanos(Instant time) {
        return time.getEpochSecond() * 1_000_000_000L + time.getNano();
    }
}
