package io.github.pgoutput.connect.config;

import io.github.pgoutput.snapshot.SnapshotMode;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Width;
import org.apache.kafka.common.config.ConfigDef;

/**
 * The keys of the configuration group "Snapshot": initial and incremental snapshots, and signals. Each key is
 * declared here once, with its documentation, default, order and single-key validator;
 * {@link PgOutputSourceConnectorConfig} reads it.
 */
public final class SnapshotKeys {

    /** The group the keys are listed under in the documentation and in Connect's configuration forms. */
    static final String GROUP = "Snapshot";

    public static final String SNAPSHOT_MODE_CONFIG = "snapshot.mode";
    private static final String SNAPSHOT_MODE_DOC = "initial: snapshot the captured tables when no offset is stored, "
            + "then stream. no_data: never snapshot, stream from the slot's position. initial_only: snapshot, then "
            + "stop. when_needed: snapshot when no offset is stored or the stored offset can no longer be resumed "
            + "from (the slot is gone or has moved past it). always: a snapshot at every start; the first as initial "
            + "takes it, and each later start resumes streaming from the stored offset and reads every captured table "
            + "(narrowed by snapshot.include.list) again meanwhile, as an incremental snapshot in chunks between the "
            + "stream's transactions, so no change is lost or reordered (a table without a primary key or replica identity "
            + "index cannot be read that way and is left out with an ERROR in the log); a stored offset the slot cannot "
            + "serve is answered as when_needed answers it. Debezium's other values: never and exported, its old names "
            + "of no_data and initial, are read as those (with a WARN); configuration_based is read as always or no_data "
            + "when its snapshot.mode.configuration.based.* settings ask for what one of them does, else refused naming "
            + "the mode to write; custom (a Snapshotter class) is refused. A snapshot creates slot.name itself: when no "
            + "offset is stored and a slot of that name already exists, the task fails rather than drop a slot that may "
            + "hold another consumer's position (drop it yourself, or use no_data to stream from it).";
    private static final String SNAPSHOT_MODE_DEFAULT = ConfigChoices.SNAPSHOT_MODE.text(SnapshotMode.INITIAL);
    private static final String SNAPSHOT_MODE_DISPLAY = "Snapshot mode";

    public static final String SNAPSHOT_MAX_THREADS_CONFIG = "snapshot.max.threads";
    private static final String SNAPSHOT_MAX_THREADS_DOC = "Connections reading the initial snapshot at once, each "
            + "importing the one exported snapshot. Tables are taken in Debezium's order (per table.include.list "
            + "expression, by name); with more than 1, a plain table of 16 MB or more is also split into up to this many "
            + "ranges read at once, so one big table is read by every connection (Debezium reads a table with one): block "
            + "ranges (ctid), or key ranges for a resumable or exactly-once snapshot, which reads one table after another, "
            + "each range in key order. Default 1, as Debezium: with more, rows read at once interleave, and which row is "
            + "the snapshot's last (source.snapshot=last) depends on which part finishes last.";
    private static final int SNAPSHOT_MAX_THREADS_DEFAULT = 1;
    private static final String SNAPSHOT_MAX_THREADS_DISPLAY = "Snapshot threads";

    public static final String SNAPSHOT_RESUMABLE_CONFIG = "snapshot.resumable";
    private static final String SNAPSHOT_RESUMABLE_DOC = "true: the initial snapshot reads each table in key order "
            + "(a big one in up to snapshot.max.threads key ranges at once), and a snapshot interrupted by a stop, a crash "
            + "or a rebalance continues after the last row whose record Kafka holds (the stored offset), each key range "
            + "after its own last row, from a new exported snapshot, instead of being taken again from the start; "
            + "streaming then skips the changes the continued rows already contain. A table without a primary key or "
            + "replica identity index is read in the order of its rows' hashes, its identical rows together (at most "
            + "transaction.max.records of them). The slot must be the one the snapshot created. false (the default, as "
            + "Debezium): an interrupted snapshot is taken again. Always on with exactly.once.support=required.";
    private static final String SNAPSHOT_RESUMABLE_DISPLAY = "Resumable snapshot";

    public static final String SNAPSHOT_INCLUDE_LIST_CONFIG = "snapshot.include.list";
    private static final String SNAPSHOT_INCLUDE_LIST_DOC = "Comma-separated regular expressions matched against the "
            + "whole schema.table name (ignoring case), narrowing the snapshot to some of the captured tables. Empty: all "
            + "captured tables.";
    private static final String SNAPSHOT_INCLUDE_LIST_DISPLAY = "Tables to snapshot";

    public static final String SNAPSHOT_INCLUDE_COLLECTION_LIST_CONFIG = "snapshot.include.collection.list";
    private static final String SNAPSHOT_INCLUDE_COLLECTION_LIST_DOC = "Debezium's name of snapshot.include.list, with the "
            + "same meaning; set one of the two.";
    private static final String SNAPSHOT_INCLUDE_COLLECTION_LIST_DISPLAY = "Tables to snapshot (Debezium's name)";

    public static final String INCREMENTAL_SNAPSHOT_CHUNK_SIZE_CONFIG = "incremental.snapshot.chunk.size";
    private static final String INCREMENTAL_SNAPSHOT_CHUNK_SIZE_DOC = "Rows per chunk of an incremental snapshot (an "
            + "execute-snapshot signal): each chunk is read in key order in one short read-only transaction and emitted "
            + "between two transactions of the stream. Larger chunks read faster; the worker holds one chunk at a time.";
    private static final int INCREMENTAL_SNAPSHOT_CHUNK_SIZE_DEFAULT = 1024;
    private static final String INCREMENTAL_SNAPSHOT_CHUNK_SIZE_DISPLAY = "Incremental snapshot chunk size";

    public static final String SIGNAL_ENABLED_CHANNELS_CONFIG = "signal.enabled.channels";
    private static final String SIGNAL_ENABLED_CHANNELS_DOC = "Where signals (execute-snapshot, stop-snapshot, "
            + "pause-snapshot, resume-snapshot, log) come from: source (rows inserted into the table "
            + "signal.data.collection, which must be in the publication) and kafka (messages of signal.kafka.topic whose "
            + "key is topic.prefix), and message (logical decoding messages with the prefix signal.message.prefix; not "
            + "a Debezium channel). Other channels Debezium or its extensions read (jmx, file, in-process, http, ...) are "
            + "accepted, and each is named in a WARN: signals sent through it are not read. No channel makes the connector "
            + "write to the database.";
    private static final String SIGNAL_ENABLED_CHANNELS_DEFAULT = "source";
    private static final String SIGNAL_ENABLED_CHANNELS_DISPLAY = "Signal channels";

    public static final String SIGNAL_DATA_COLLECTION_CONFIG = "signal.data.collection";
    private static final String SIGNAL_DATA_COLLECTION_DOC = "The signal table, as schema.table, with Debezium's columns "
            + "id, type and data (text): a row inserted into it is a signal once its transaction commits. Empty: no "
            + "signal table. The connector only reads it through the stream, so it must be in the publication.";
    private static final String SIGNAL_DATA_COLLECTION_DISPLAY = "Signal table";

    public static final String SIGNAL_KAFKA_TOPIC_CONFIG = "signal.kafka.topic";
    private static final String SIGNAL_KAFKA_TOPIC_DOC = "The signal topic of the kafka channel (its partition 0 is "
            + "read). Empty: <topic.prefix>-signal.";
    private static final String SIGNAL_KAFKA_TOPIC_DISPLAY = "Signal topic";

    public static final String SIGNAL_KAFKA_BOOTSTRAP_SERVERS_CONFIG = "signal.kafka.bootstrap.servers";
    private static final String SIGNAL_KAFKA_BOOTSTRAP_SERVERS_DOC = "The brokers of the signal topic; required with the "
            + "kafka channel. Further consumer settings go in signal.consumer.* (for example signal.consumer.security.protocol).";
    private static final String SIGNAL_KAFKA_BOOTSTRAP_SERVERS_DISPLAY = "Signal topic brokers";

    public static final String SIGNAL_KAFKA_GROUP_ID_CONFIG = "signal.kafka.groupId";
    private static final String SIGNAL_KAFKA_GROUP_ID_DOC = "The consumer group id of the signal topic's consumer. It "
            + "commits nothing: how far the signals were read is kept in the connector's offsets.";
    private static final String SIGNAL_KAFKA_GROUP_ID_DEFAULT = "kafka-signal";
    private static final String SIGNAL_KAFKA_GROUP_ID_DISPLAY = "Signal consumer group";

    public static final String SIGNAL_KAFKA_POLL_TIMEOUT_MS_CONFIG = "signal.kafka.poll.timeout.ms";
    private static final String SIGNAL_KAFKA_POLL_TIMEOUT_MS_DOC = "How often the signal topic is asked for new "
            + "signals, in milliseconds; the task never waits on it.";
    private static final int SIGNAL_KAFKA_POLL_TIMEOUT_MS_DEFAULT = 100;
    private static final String SIGNAL_KAFKA_POLL_TIMEOUT_MS_DISPLAY = "Signal topic poll interval";

    public static final String SIGNAL_MESSAGE_PREFIX_CONFIG = "signal.message.prefix";
    private static final String SIGNAL_MESSAGE_PREFIX_DOC = "With the message channel in signal.enabled.channels: the "
            + "prefix of the logical decoding messages that are signals, SELECT pg_logical_emit_message(false, "
            + "'<prefix>', '{\"type\": \"execute-snapshot\", \"data\": {...}}'), which a role without any write "
            + "privilege may send (not a Debezium key). Needs messages.enabled=true; the messages are also records of "
            + "the message topic unless message.prefix.exclude.list leaves them out.";
    private static final String SIGNAL_MESSAGE_PREFIX_DEFAULT = "pgoutput-signal";
    private static final String SIGNAL_MESSAGE_PREFIX_DISPLAY = "Signal message prefix";

    /** Consumer settings of the signal topic's consumer, passed on without the prefix. */
    public static final String SIGNAL_CONSUMER_PREFIX = "signal.consumer.";

    public static final String SNAPSHOT_NEW_TABLES_CONFIG = "snapshot.new.tables";
    private static final String SNAPSHOT_NEW_TABLES_DOC = "What a table that becomes captured gets (it starts matching "
            + "table.include.list after a configuration change, or enters the publication, for example a new table under "
            + "FOR ALL TABLES): off, nothing, its changes stream from then on; incremental, an incremental snapshot of "
            + "that table alone, without reading the others again. The captured tables are compared with those the "
            + "offsets last named at each task start and every 10 seconds while streaming.";
    private static final String SNAPSHOT_NEW_TABLES_DEFAULT = ConfigChoices.NEW_TABLE_SNAPSHOTS.text(NewTableSnapshots.OFF);
    private static final String SNAPSHOT_NEW_TABLES_DISPLAY = "Snapshots of new tables";

    public static final String READ_ONLY_CONFIG = "read.only";
    private static final String READ_ONLY_DOC = "Debezium's switch for incremental snapshots that write no watermarks "
            + "to the database. This connector never writes for a snapshot (chunks are read between the stream's "
            + "transactions), so true and false behave the same; the key is accepted so that a Debezium configuration "
            + "carries over.";
    private static final boolean READ_ONLY_DEFAULT = false;
    private static final String READ_ONLY_DISPLAY = "Read-only snapshots";

    private SnapshotKeys() {
    }

    /** Declares the keys of the group in {@code def}, in the order the documentation lists them. */
    static void define(ConfigDef def) {
        int order = 0;
        def.define(SNAPSHOT_MODE_CONFIG, Type.STRING, SNAPSHOT_MODE_DEFAULT, DebeziumSnapshotModes.validator(),
                Importance.HIGH, SNAPSHOT_MODE_DOC, GROUP, ++order, Width.SHORT, SNAPSHOT_MODE_DISPLAY);
        def.define(SNAPSHOT_MAX_THREADS_CONFIG, Type.INT, SNAPSHOT_MAX_THREADS_DEFAULT, ConfigDef.Range.atLeast(1),
                Importance.LOW, SNAPSHOT_MAX_THREADS_DOC, GROUP, ++order, Width.SHORT,
                SNAPSHOT_MAX_THREADS_DISPLAY);
        def.define(SNAPSHOT_RESUMABLE_CONFIG, Type.BOOLEAN, false, Importance.MEDIUM, SNAPSHOT_RESUMABLE_DOC, GROUP,
                ++order, Width.SHORT, SNAPSHOT_RESUMABLE_DISPLAY);
        def.define(SNAPSHOT_INCLUDE_LIST_CONFIG, Type.LIST, "", ConfigValidators.regexList(),
                Importance.LOW, SNAPSHOT_INCLUDE_LIST_DOC, GROUP, ++order, Width.LONG,
                SNAPSHOT_INCLUDE_LIST_DISPLAY);
        def.define(SNAPSHOT_INCLUDE_COLLECTION_LIST_CONFIG, Type.LIST, "", ConfigValidators.regexList(),
                Importance.LOW, SNAPSHOT_INCLUDE_COLLECTION_LIST_DOC, GROUP, ++order, Width.LONG,
                SNAPSHOT_INCLUDE_COLLECTION_LIST_DISPLAY);
        def.define(INCREMENTAL_SNAPSHOT_CHUNK_SIZE_CONFIG, Type.INT, INCREMENTAL_SNAPSHOT_CHUNK_SIZE_DEFAULT,
                ConfigDef.Range.between(1, 1_000_000), Importance.LOW, INCREMENTAL_SNAPSHOT_CHUNK_SIZE_DOC, GROUP, ++order,
                Width.SHORT, INCREMENTAL_SNAPSHOT_CHUNK_SIZE_DISPLAY);
        def.define(SIGNAL_ENABLED_CHANNELS_CONFIG, Type.LIST, SIGNAL_ENABLED_CHANNELS_DEFAULT, ConfigValidators.signalChannels(),
                Importance.MEDIUM, SIGNAL_ENABLED_CHANNELS_DOC, GROUP, ++order, Width.MEDIUM, SIGNAL_ENABLED_CHANNELS_DISPLAY);
        def.define(SIGNAL_DATA_COLLECTION_CONFIG, Type.STRING, "", ConfigValidators.optionalTableName(),
                Importance.MEDIUM, SIGNAL_DATA_COLLECTION_DOC, GROUP, ++order, Width.MEDIUM, SIGNAL_DATA_COLLECTION_DISPLAY);
        def.define(SIGNAL_MESSAGE_PREFIX_CONFIG, Type.STRING, SIGNAL_MESSAGE_PREFIX_DEFAULT, new ConfigDef.NonEmptyString(),
                Importance.LOW, SIGNAL_MESSAGE_PREFIX_DOC, GROUP, ++order, Width.MEDIUM, SIGNAL_MESSAGE_PREFIX_DISPLAY);
        def.define(SIGNAL_KAFKA_TOPIC_CONFIG, Type.STRING, "", null,
                Importance.MEDIUM, SIGNAL_KAFKA_TOPIC_DOC, GROUP, ++order, Width.MEDIUM, SIGNAL_KAFKA_TOPIC_DISPLAY);
        def.define(SIGNAL_KAFKA_BOOTSTRAP_SERVERS_CONFIG, Type.STRING, "", null,
                Importance.MEDIUM, SIGNAL_KAFKA_BOOTSTRAP_SERVERS_DOC, GROUP, ++order, Width.LONG,
                SIGNAL_KAFKA_BOOTSTRAP_SERVERS_DISPLAY);
        def.define(SIGNAL_KAFKA_GROUP_ID_CONFIG, Type.STRING, SIGNAL_KAFKA_GROUP_ID_DEFAULT, new ConfigDef.NonEmptyString(),
                Importance.LOW, SIGNAL_KAFKA_GROUP_ID_DOC, GROUP, ++order, Width.MEDIUM, SIGNAL_KAFKA_GROUP_ID_DISPLAY);
        def.define(SIGNAL_KAFKA_POLL_TIMEOUT_MS_CONFIG, Type.INT, SIGNAL_KAFKA_POLL_TIMEOUT_MS_DEFAULT, ConfigDef.Range.atLeast(1),
                Importance.LOW, SIGNAL_KAFKA_POLL_TIMEOUT_MS_DOC, GROUP, ++order, Width.SHORT,
                SIGNAL_KAFKA_POLL_TIMEOUT_MS_DISPLAY);
        def.define(SNAPSHOT_NEW_TABLES_CONFIG, Type.STRING, SNAPSHOT_NEW_TABLES_DEFAULT, ConfigChoices.NEW_TABLE_SNAPSHOTS.validator(),
                Importance.MEDIUM, SNAPSHOT_NEW_TABLES_DOC, GROUP, ++order, Width.SHORT, SNAPSHOT_NEW_TABLES_DISPLAY);
        def.define(READ_ONLY_CONFIG, Type.BOOLEAN, READ_ONLY_DEFAULT, Importance.LOW, READ_ONLY_DOC, GROUP, ++order,
                Width.SHORT, READ_ONLY_DISPLAY);
    }
}
