package io.github.pgoutput.connect.config;

import io.github.pgoutput.assembly.PreparedTransactionMode;
import io.github.pgoutput.replication.PublicationMode;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Width;
import org.apache.kafka.common.config.ConfigDef;

/**
 * The keys of the configuration group "Replication": the slot, the publication and the replication protocol. Each
 * key is declared here once, with its documentation, default, order and single-key validator;
 * {@link PgOutputSourceConnectorConfig} reads it.
 */
public final class ReplicationKeys {

    /** The group the keys are listed under in the documentation and in Connect's configuration forms. */
    static final String GROUP = "Replication";

    public static final String SLOT_NAME_CONFIG = "slot.name";
    private static final String SLOT_NAME_DOC = "Name of the logical replication slot (plugin pgoutput) the connector "
            + "reads and creates if missing: lowercase letters, digits and underscores, at most 63 characters. "
            + "The slot retains WAL until the connector confirms it, so drop the slot when you delete the connector. "
            + "The default is Debezium's; two connectors on one server need a name each.";
    private static final String SLOT_NAME_DEFAULT = "debezium";
    private static final String SLOT_NAME_DISPLAY = "Replication slot";

    public static final String SLOT_DROP_ON_STOP_CONFIG = "slot.drop.on.stop";
    private static final String SLOT_DROP_ON_STOP_DOC = "Debezium drops its slot when its task stops cleanly with true. This "
            + "connector never drops its slot, whatever this says: a dropped slot loses the changes made until the next start, "
            + "and the slot may be another consumer's. true is accepted and logged as a WARN; drop the slot yourself once the "
            + "connector is deleted: SELECT pg_drop_replication_slot('<slot.name>').";
    private static final boolean SLOT_DROP_ON_STOP_DEFAULT = false;
    private static final String SLOT_DROP_ON_STOP_DISPLAY = "Drop slot on stop (never)";

    public static final String SLOT_FAILOVER_CONFIG = "slot.failover";
    private static final String SLOT_FAILOVER_DOC = "Whether the slot is a failover slot (PostgreSQL 17+), which standbys "
            + "with sync_replication_slots=on keep a copy of, so that streaming can go on from a promoted standby. true: the "
            + "connector creates the slot with failover enabled, and turns it on for an existing slot "
            + "(ALTER_REPLICATION_SLOT); refused below PostgreSQL 17. The task logs a warning when the setup is not safe "
            + "for a failover (see the README's High availability section). false: the slot is created and used as it is.";
    private static final boolean SLOT_FAILOVER_DEFAULT = false;
    private static final String SLOT_FAILOVER_DISPLAY = "Failover slot";

    public static final String PUBLICATION_NAME_CONFIG = "publication.name";
    private static final String PUBLICATION_NAME_DOC = "Name of the publication that selects the tables pgoutput "
            + "sends. The default is Debezium's.";
    private static final String PUBLICATION_NAME_DEFAULT = "dbz_publication";
    private static final String PUBLICATION_NAME_DISPLAY = "Publication";

    public static final String PUBLICATION_AUTOCREATE_MODE_CONFIG = "publication.autocreate.mode";
    private static final String PUBLICATION_AUTOCREATE_MODE_DOC = "What to do when the publication does not exist: "
            + "all_tables (the default, as in Debezium: create it FOR ALL TABLES, which needs superuser), disabled (fail "
            + "with a message that shows the CREATE PUBLICATION to run), filtered (create it for the tables that the "
            + "table and schema include and exclude lists select at start-up), no_tables (create it without tables, "
            + "which needs CREATE on the database; add the tables with ALTER PUBLICATION). An existing publication is "
            + "never altered (Debezium's filtered mode alters it to the lists' tables): validation names the tables the "
            + "lists select that it lacks, and the ALTER PUBLICATION to run.";
    private static final String PUBLICATION_AUTOCREATE_MODE_DEFAULT =
            ConfigChoices.PUBLICATION_AUTOCREATE_MODE.text(PublicationMode.ALL_TABLES);
    private static final String PUBLICATION_AUTOCREATE_MODE_DISPLAY = "Publication auto-creation";

    public static final String REPLICA_IDENTITY_AUTOSET_VALUES_CONFIG = "replica.identity.autoset.values";
    private static final String REPLICA_IDENTITY_AUTOSET_VALUES_DOC = "The replica identity to give captured tables at each "
            + "start, as Debezium does: comma-separated <table>:<identity> entries, where <table> is a regular expression "
            + "matched against the whole schema.table name (ignoring case) and <identity> is DEFAULT, FULL, NOTHING or INDEX "
            + "<index name>, for example public.orders:FULL,inventory\\..*:DEFAULT. At each start, before the snapshot or "
            + "the stream begins, a captured table whose identity differs gets ALTER TABLE ... REPLICA IDENTITY; a table "
            + "two entries match is an error. Needs ownership of those tables (validation names each table database.user "
            + "does not own, and the GRANT to run); a task that cannot set an identity fails instead of streaming without "
            + "the old values asked for. Empty: identities are left as they are.";
    private static final String REPLICA_IDENTITY_AUTOSET_VALUES_DISPLAY = "Replica identities to set";

    public static final String PROTOCOL_VERSION_CONFIG = "protocol.version";
    private static final String PROTOCOL_VERSION_DOC = "pgoutput protocol version to request: auto (the highest the "
            + "server supports: 2 on PostgreSQL 14, 3 on 15, 4 on 16 and later) or 1-4. Version 2 adds streaming of "
            + "in-progress transactions, 3 two-phase transactions, 4 parallel streaming.";
    private static final String PROTOCOL_VERSION_DEFAULT =
            ConfigChoices.PROTOCOL_VERSION.text(ProtocolVersionSetting.AUTO);
    private static final String PROTOCOL_VERSION_DISPLAY = "pgoutput protocol version";

    public static final String STREAMING_CONFIG = "streaming";
    private static final String STREAMING_DOC = "Whether PostgreSQL may send a large transaction before it commits "
            + "(pgoutput's streaming option) instead of spilling it to its own disk once it exceeds "
            + "logical_decoding_work_mem. Streamed changes go to the transaction spill and reach Kafka only at "
            + "commit. auto (the default): on, unless protocol.version is fixed at 1, then off. on needs protocol 2 or "
            + "later; parallel (the same stream, but a Stream Abort also carries the abort LSN and time) needs protocol 4, "
            + "so PostgreSQL 16 or later.";
    private static final String STREAMING_DEFAULT = ConfigChoice.AUTO;
    private static final String STREAMING_DISPLAY = "Streaming of in-progress transactions";

    public static final String PREPARED_TRANSACTION_MODE_CONFIG = "prepared.transaction.mode";
    private static final String PREPARED_TRANSACTION_MODE_DOC = "How two-phase transactions (PREPARE TRANSACTION) are "
            + "handled. fail: two-phase decoding is not requested, so a prepared transaction reaches Kafka as an "
            + "ordinary transaction when COMMIT PREPARED runs (and never if it is rolled back); if the slot was "
            + "created with two_phase and PostgreSQL sends prepare messages anyway, the task stops with an error "
            + "instead of guessing. stage: decode at PREPARE (needs protocol 3 or later, and turns two_phase on for "
            + "the slot for good) and deliver the transaction as PREPARED, then COMMITTED (two-phase) or ROLLED_BACK.";
    private static final String PREPARED_TRANSACTION_MODE_DEFAULT =
            ConfigChoices.PREPARED_TRANSACTION_MODE.text(PreparedTransactionMode.FAIL);
    private static final String PREPARED_TRANSACTION_MODE_DISPLAY = "Prepared transactions";

    public static final String MESSAGES_ENABLED_CONFIG = "messages.enabled";
    private static final String MESSAGES_ENABLED_DOC = "Whether logical decoding messages (pg_logical_emit_message) are "
            + "requested and written to the topic <topic.prefix>.message, as Debezium writes them. Transactional messages "
            + "go out with their transaction; non-transactional ones at once. false: PostgreSQL does not send them at all "
            + "(not a Debezium key; Debezium always requests them and filters with message.prefix.include.list / "
            + "message.prefix.exclude.list, which work here too).";
    private static final boolean MESSAGES_ENABLED_DEFAULT = true;
    private static final String MESSAGES_ENABLED_DISPLAY = "Logical decoding messages";

    public static final String PLUGIN_NAME_CONFIG = "plugin.name";
    private static final String PLUGIN_NAME_DOC = "Debezium's logical decoding output plugin. This connector reads "
            + "pgoutput only; any other value (decoderbufs, wal2json) fails validation. (Debezium's default is decoderbufs; "
            + "unset here means pgoutput.)";
    private static final String PLUGIN_NAME_DEFAULT = "pgoutput";
    private static final String PLUGIN_NAME_DISPLAY = "Logical decoding plugin";

    public static final String MESSAGE_PREFIX_INCLUDE_LIST_CONFIG = "message.prefix.include.list";
    private static final String MESSAGE_PREFIX_INCLUDE_LIST_DOC = "Comma-separated regular expressions matched against "
            + "the whole prefix of a logical decoding message; only matching messages give records. Empty: every "
            + "message. Do not combine with message.prefix.exclude.list.";
    private static final String MESSAGE_PREFIX_INCLUDE_LIST_DISPLAY = "Message prefixes to include";

    public static final String MESSAGE_PREFIX_EXCLUDE_LIST_CONFIG = "message.prefix.exclude.list";
    private static final String MESSAGE_PREFIX_EXCLUDE_LIST_DOC = "Comma-separated regular expressions matched against "
            + "the whole prefix of a logical decoding message; matching messages give no records. Do not combine with "
            + "message.prefix.include.list.";
    private static final String MESSAGE_PREFIX_EXCLUDE_LIST_DISPLAY = "Message prefixes to exclude";

    public static final String STATUS_UPDATE_INTERVAL_MS_CONFIG = "status.update.interval.ms";
    private static final String STATUS_UPDATE_INTERVAL_MS_DOC = "Milliseconds between standby status updates sent to "
            + "the server while idle. Keep it well below the server's wal_sender_timeout.";
    private static final int STATUS_UPDATE_INTERVAL_MS_DEFAULT = 10_000;
    private static final String STATUS_UPDATE_INTERVAL_MS_DISPLAY = "Status update interval (ms)";

    public static final String SLOT_MAX_RETRIES_CONFIG = "slot.max.retries";
    private static final String SLOT_MAX_RETRIES_DOC = "How many times the task tries again, slot.retry.delay.ms "
            + "apart, to start streaming from slot.name while another walsender holds it; then the task fails with "
            + "the holder named in its status; likewise while the server refuses as a standby (read-only, or its synced "
            + "failover slot not usable yet) during a promotion. 0 fails at the first refusal. The default budget "
            + "(6 x 10 s) covers the default wal_sender_timeout (60 s), within which an earlier session of this "
            + "connector that lost its client lets go of the slot.";
    private static final int SLOT_MAX_RETRIES_DEFAULT = 6;
    private static final String SLOT_MAX_RETRIES_DISPLAY = "Busy slot retries";

    public static final String SLOT_RETRY_DELAY_MS_CONFIG = "slot.retry.delay.ms";
    private static final String SLOT_RETRY_DELAY_MS_DOC = "Milliseconds between the attempts to start streaming from "
            + "a slot another walsender holds (see slot.max.retries).";
    private static final long SLOT_RETRY_DELAY_MS_DEFAULT = 10_000L;
    private static final String SLOT_RETRY_DELAY_MS_DISPLAY = "Busy slot retry delay (ms)";

    public static final String ERRORS_MAX_RETRIES_CONFIG = "errors.max.retries";
    private static final String ERRORS_MAX_RETRIES_DOC = "How many times in a row the task tries again, 1 s apart, "
            + "after a transient failure that is not a refusal covered by slot.max.retries: a connection refused or "
            + "lost (SQLState class 08, e.g. 08001 while nothing listens at database.hostname), a server shutting down "
            + "or starting up (57P), no free connection (53300). A session that opens resets the count. When the "
            + "retries run out the task fails with the last error in its status and must be restarted. -1: no limit "
            + "(retry for as long as the server stays away, Debezium's default too); 0: fail at the first such error.";
    private static final int ERRORS_MAX_RETRIES_DEFAULT = -1;
    private static final String ERRORS_MAX_RETRIES_DISPLAY = "Connection error retries";

    private ReplicationKeys() {
    }

    /** Declares the keys of the group in {@code def}, in the order the documentation lists them. */
    static void define(ConfigDef def) {
        int order = 0;
        def.define(SLOT_NAME_CONFIG, Type.STRING, SLOT_NAME_DEFAULT, ConfigValidators.lowercaseIdentifier(),
                Importance.HIGH, SLOT_NAME_DOC, GROUP, ++order, Width.MEDIUM, SLOT_NAME_DISPLAY);
        def.define(SLOT_FAILOVER_CONFIG, Type.BOOLEAN, SLOT_FAILOVER_DEFAULT,
                Importance.MEDIUM, SLOT_FAILOVER_DOC, GROUP, ++order, Width.SHORT, SLOT_FAILOVER_DISPLAY);
        def.define(PUBLICATION_NAME_CONFIG, Type.STRING, PUBLICATION_NAME_DEFAULT, new ConfigDef.NonEmptyString(),
                Importance.HIGH, PUBLICATION_NAME_DOC, GROUP, ++order, Width.MEDIUM, PUBLICATION_NAME_DISPLAY);
        def.define(PUBLICATION_AUTOCREATE_MODE_CONFIG, Type.STRING, PUBLICATION_AUTOCREATE_MODE_DEFAULT,
                ConfigChoices.PUBLICATION_AUTOCREATE_MODE.validator(), Importance.MEDIUM,
                PUBLICATION_AUTOCREATE_MODE_DOC, GROUP, ++order, Width.SHORT,
                PUBLICATION_AUTOCREATE_MODE_DISPLAY);
        def.define(REPLICA_IDENTITY_AUTOSET_VALUES_CONFIG, Type.STRING, "", ConfigValidators.replicaIdentityAutosetValues(),
                Importance.MEDIUM, REPLICA_IDENTITY_AUTOSET_VALUES_DOC, GROUP, ++order, Width.LONG,
                REPLICA_IDENTITY_AUTOSET_VALUES_DISPLAY);
        def.define(SLOT_DROP_ON_STOP_CONFIG, Type.BOOLEAN, SLOT_DROP_ON_STOP_DEFAULT, Importance.LOW, SLOT_DROP_ON_STOP_DOC,
                GROUP, ++order, Width.SHORT, SLOT_DROP_ON_STOP_DISPLAY);
        def.define(PROTOCOL_VERSION_CONFIG, Type.STRING, PROTOCOL_VERSION_DEFAULT,
                ConfigChoices.PROTOCOL_VERSION.validator(), Importance.LOW, PROTOCOL_VERSION_DOC,
                GROUP, ++order, Width.SHORT, PROTOCOL_VERSION_DISPLAY);
        def.define(STREAMING_CONFIG, Type.STRING, STREAMING_DEFAULT, ConfigChoices.STREAMING.validator(),
                Importance.MEDIUM, STREAMING_DOC, GROUP, ++order, Width.SHORT, STREAMING_DISPLAY);
        def.define(PREPARED_TRANSACTION_MODE_CONFIG, Type.STRING, PREPARED_TRANSACTION_MODE_DEFAULT,
                ConfigChoices.PREPARED_TRANSACTION_MODE.validator(), Importance.MEDIUM, PREPARED_TRANSACTION_MODE_DOC,
                GROUP, ++order, Width.SHORT, PREPARED_TRANSACTION_MODE_DISPLAY);
        def.define(MESSAGES_ENABLED_CONFIG, Type.BOOLEAN, MESSAGES_ENABLED_DEFAULT,
                Importance.LOW, MESSAGES_ENABLED_DOC, GROUP, ++order, Width.SHORT, MESSAGES_ENABLED_DISPLAY);
        def.define(MESSAGE_PREFIX_INCLUDE_LIST_CONFIG, Type.LIST, "", ConfigValidators.regexList(), Importance.LOW,
                MESSAGE_PREFIX_INCLUDE_LIST_DOC, GROUP, ++order, Width.LONG, MESSAGE_PREFIX_INCLUDE_LIST_DISPLAY);
        def.define(MESSAGE_PREFIX_EXCLUDE_LIST_CONFIG, Type.LIST, "", ConfigValidators.regexList(), Importance.LOW,
                MESSAGE_PREFIX_EXCLUDE_LIST_DOC, GROUP, ++order, Width.LONG, MESSAGE_PREFIX_EXCLUDE_LIST_DISPLAY);
        def.define(PLUGIN_NAME_CONFIG, Type.STRING, PLUGIN_NAME_DEFAULT, ConfigValidators.pgoutputPluginOnly(),
                Importance.LOW, PLUGIN_NAME_DOC, GROUP, ++order, Width.SHORT, PLUGIN_NAME_DISPLAY);
        def.define(STATUS_UPDATE_INTERVAL_MS_CONFIG, Type.INT, STATUS_UPDATE_INTERVAL_MS_DEFAULT,
                ConfigDef.Range.atLeast(1), Importance.LOW, STATUS_UPDATE_INTERVAL_MS_DOC, GROUP, ++order,
                Width.SHORT, STATUS_UPDATE_INTERVAL_MS_DISPLAY);
        def.define(SLOT_MAX_RETRIES_CONFIG, Type.INT, SLOT_MAX_RETRIES_DEFAULT, ConfigDef.Range.atLeast(0),
                Importance.LOW, SLOT_MAX_RETRIES_DOC, GROUP, ++order, Width.SHORT, SLOT_MAX_RETRIES_DISPLAY);
        def.define(SLOT_RETRY_DELAY_MS_CONFIG, Type.LONG, SLOT_RETRY_DELAY_MS_DEFAULT, ConfigDef.Range.atLeast(0),
                Importance.LOW, SLOT_RETRY_DELAY_MS_DOC, GROUP, ++order, Width.SHORT, SLOT_RETRY_DELAY_MS_DISPLAY);
        def.define(ERRORS_MAX_RETRIES_CONFIG, Type.INT, ERRORS_MAX_RETRIES_DEFAULT, ConfigDef.Range.atLeast(-1),
                Importance.LOW, ERRORS_MAX_RETRIES_DOC, GROUP, ++order, Width.SHORT, ERRORS_MAX_RETRIES_DISPLAY);
    }
}
