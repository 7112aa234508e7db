package io.github.pgoutput.connect.config;

import io.github.pgoutput.assembly.PreparedTransactionMode;
import io.github.pgoutput.connect.offsets.RecordNumbering;
import io.github.pgoutput.connect.record.DirectEncoding;
import io.github.pgoutput.connect.record.LifecycleHeaders;
import io.github.pgoutput.connect.record.MessageKeyColumns;
import io.github.pgoutput.connect.record.TopicNames;
import io.github.pgoutput.connect.shaping.ColumnSelection;
import io.github.pgoutput.connect.shaping.ColumnShaping;
import io.github.pgoutput.connect.shaping.RegexList;
import io.github.pgoutput.converters.BinaryHandlingMode;
import io.github.pgoutput.converters.DecimalHandlingMode;
import io.github.pgoutput.converters.HStoreHandlingMode;
import io.github.pgoutput.converters.IntervalHandlingMode;
import io.github.pgoutput.converters.TemporalPrecisionMode;
import io.github.pgoutput.pgoutput.StreamingMode;
import io.github.pgoutput.replication.PublicationMode;
import io.github.pgoutput.snapshot.SnapshotMode;
import io.github.pgoutput.spill.SpillSettings;
import io.github.pgoutput.toast.UnchangedToastResolution;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Width;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.types.Password;

/**
 * The connector's whole configuration: every key is declared here once, with its documentation, default, group,
 * order and single-key validator, and read through the typed accessors below. The accepted values of enum-valued
 * keys are {@link ConfigChoices}; rules that involve more than one key are {@link CrossKeyRules}, which the connector's
 * {@code validate()} reports key by key and the constructor enforces, so a task can never start on a contradictory
 * configuration. Mapping the values onto the settings of the layers below is {@link ConnectorSettings}'s job.
 *
 * <p>{@code database.password} is {@link Type#PASSWORD}: Kafka prints it as {@code [hidden]} everywhere, and
 * {@link #databasePassword()} returns a {@link Password} so that it cannot be logged by accident.
 *
 * <p>Immutable and thread-safe.
 */
public final class PgOutputSourceConnectorConfig extends AbstractConfig {

    private static final String GROUP_DATABASE = "Database";
    private static final String GROUP_REPLICATION = "Replication";
    private static final String GROUP_TABLES = "Tables";
    private static final String GROUP_COLUMNS = "Columns";
    private static final String GROUP_RECORDS = "Topics and records";
    private static final String GROUP_SPILL = "Transaction spill";
    private static final String GROUP_SNAPSHOT = "Snapshot";
    private static final String GROUP_THROUGHPUT = "Throughput";
    private static final String GROUP_TOAST = "Unchanged TOAST values";

    /** Connect's own key; this class only checks it, Connect declares it. */
    static final String TASKS_MAX_CONFIG = "tasks.max";

    // ---- Database ------------------------------------------------------------------------------------------

    public static final String DATABASE_HOSTNAME_CONFIG = "database.hostname";
    private static final String DATABASE_HOSTNAME_DOC = "Host name or IP address of the PostgreSQL server, or a "
            + "comma-separated list of a primary and its standbys, each host or host:port ([address]:port for IPv6; "
            + "without a port, database.port). With a list the connector connects to whichever server is the primary "
            + "at the time, so after a failover it follows the promoted standby (see slot.failover).";
    private static final String DATABASE_HOSTNAME_DISPLAY = "Host";

    public static final String DATABASE_PORT_CONFIG = "database.port";
    private static final String DATABASE_PORT_DOC = "TCP port of the PostgreSQL server, and of each host in "
            + "database.hostname that names no port of its own.";
    private static final int DATABASE_PORT_DEFAULT = 5432;
    private static final String DATABASE_PORT_DISPLAY = "Port";

    public static final String DATABASE_USER_CONFIG = "database.user";
    private static final String DATABASE_USER_DOC = "PostgreSQL role to connect as. It needs the REPLICATION attribute "
            + "(or superuser; on Amazon RDS and Aurora, membership in rds_replication) and CONNECT on the database; "
            + "USAGE on the schemas and SELECT on the tables a snapshot or an incremental snapshot reads; and, to create "
            + "the publication (publication.autocreate.mode), CREATE on the database and ownership rights on each table "
            + "(filtered), CREATE (no_tables) or superuser (all_tables). docs/setup-postgresql.md gives the SQL of a "
            + "least-privilege role for each mode; validation checks each privilege the configuration needs.";
    private static final String DATABASE_USER_DISPLAY = "User";

    public static final String DATABASE_PASSWORD_CONFIG = "database.password";
    private static final String DATABASE_PASSWORD_DOC = "Password of database.user. Never logged. Leave unset for "
            + "authentication methods that need none.";
    private static final String DATABASE_PASSWORD_DISPLAY = "Password";

    public static final String DATABASE_DBNAME_CONFIG = "database.dbname";
    private static final String DATABASE_DBNAME_DOC = "Name of the database to stream from. A replication slot "
            + "belongs to one database.";
    private static final String DATABASE_DBNAME_DISPLAY = "Database";

    public static final String DATABASE_SSLMODE_CONFIG = "database.sslmode";
    private static final String DATABASE_SSLMODE_DOC = "TLS mode of the connection, with pgjdbc's meaning: disable, "
            + "allow, prefer (TLS if the server offers it), require (TLS, certificate not checked), verify-ca "
            + "(certificate signed by database.sslrootcert), verify-full (verify-ca plus host name check).";
    private static final String DATABASE_SSLMODE_DEFAULT = ConfigChoices.SSL_MODE.text(SslMode.PREFER);
    private static final String DATABASE_SSLMODE_DISPLAY = "TLS mode";

    public static final String DATABASE_SSLROOTCERT_CONFIG = "database.sslrootcert";
    private static final String DATABASE_SSLROOTCERT_DOC = "File with the CA certificate(s) that verify the server "
            + "(verify-ca, verify-full). Unset: pgjdbc's default, ~/.postgresql/root.crt.";
    private static final String DATABASE_SSLROOTCERT_DISPLAY = "TLS root certificate file";

    public static final String DATABASE_SSLCERT_CONFIG = "database.sslcert";
    private static final String DATABASE_SSLCERT_DOC = "File with the client certificate, for certificate "
            + "authentication. Unset: pgjdbc's default, ~/.postgresql/postgresql.crt.";
    private static final String DATABASE_SSLCERT_DISPLAY = "TLS client certificate file";

    public static final String DATABASE_SSLKEY_CONFIG = "database.sslkey";
    private static final String DATABASE_SSLKEY_DOC = "File with the client certificate's private key (PKCS-8 DER "
            + "or PKCS-12, as pgjdbc reads them). Unset: pgjdbc's default, ~/.postgresql/postgresql.pk8.";
    private static final String DATABASE_SSLKEY_DISPLAY = "TLS client key file";

    public static final String DATABASE_SSLPASSWORD_CONFIG = "database.sslpassword";
    private static final String DATABASE_SSLPASSWORD_DOC = "Password of an encrypted database.sslkey. pgjdbc reads an "
            + "encrypted key as PKCS-8 DER with a PKCS#12 PBE (openssl pkcs8 -topk8 -v1 PBE-SHA1-3DES -outform DER; an AES, "
            + "PBES2, key is refused), or a PKCS-12 file (.p12). Never logged. Leave unset for an unencrypted key.";
    private static final String DATABASE_SSLPASSWORD_DISPLAY = "TLS client key password";

    // ---- Replication ---------------------------------------------------------------------------------------

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

    // ---- Tables --------------------------------------------------------------------------------------------

    public static final String TABLE_INCLUDE_LIST_CONFIG = "table.include.list";
    private static final String TABLE_INCLUDE_LIST_DOC = "Comma-separated regular expressions matched against the "
            + "whole schema.table name, ignoring case as Debezium does; only matching tables are captured. Empty: every table the publication "
            + "sends. The expressions cannot contain commas. Do not combine with table.exclude.list. Validation "
            + "refuses a list that matches none of the existing tables (a typo, or a name without its schema); tables "
            + "created later that match are captured once the publication sends them, except with publication.autocreate.mode=filtered, "
            + "whose publication lists the tables that matched when it was created.";
    private static final String TABLE_INCLUDE_LIST_DISPLAY = "Tables to include";

    public static final String TABLE_EXCLUDE_LIST_CONFIG = "table.exclude.list";
    private static final String TABLE_EXCLUDE_LIST_DOC = "Comma-separated regular expressions matched against the "
            + "whole schema.table name, ignoring case; matching tables are not captured. The expressions cannot contain commas. Do "
            + "not combine with table.include.list.";
    private static final String TABLE_EXCLUDE_LIST_DISPLAY = "Tables to exclude";

    public static final String SCHEMA_INCLUDE_LIST_CONFIG = "schema.include.list";
    private static final String SCHEMA_INCLUDE_LIST_DOC = "Comma-separated regular expressions matched against the "
            + "whole schema name, ignoring case; only tables of matching schemas are captured. Empty: tables of every schema. Combines "
            + "with table.include.list or table.exclude.list: a table is captured when both its schema and its "
            + "schema.table name are selected. The expressions cannot contain commas. Do not combine with "
            + "schema.exclude.list. Validation refuses a list that matches the schema of none of the existing tables.";
    private static final String SCHEMA_INCLUDE_LIST_DISPLAY = "Schemas to include";

    public static final String SCHEMA_EXCLUDE_LIST_CONFIG = "schema.exclude.list";
    private static final String SCHEMA_EXCLUDE_LIST_DOC = "Comma-separated regular expressions matched against the "
            + "whole schema name, ignoring case; tables of matching schemas are not captured. The expressions cannot contain commas. "
            + "Do not combine with schema.include.list.";
    private static final String SCHEMA_EXCLUDE_LIST_DISPLAY = "Schemas to exclude";

    // ---- Columns: Debezium's keys that shape the columns of the records ------------------------------------

    public static final String COLUMN_INCLUDE_LIST_CONFIG = "column.include.list";
    private static final String COLUMN_INCLUDE_LIST_DOC = "Debezium's key: comma-separated regular expressions, matched "
            + "case-insensitively against the whole schema.table.column name (escape a comma inside an expression as "
            + "\\,); only matching columns appear in before and after. Key columns stay in the key. On PostgreSQL 15 and "
            + "later, a publication the connector creates (publication.autocreate.mode=filtered) gets a column list, so "
            + "that the other columns never leave the server, for each table whose replica identity and key columns are "
            + "among those kept or added to it; other tables are filtered in the connector. Unset: every column. Do not "
            + "combine with column.exclude.list.";
    private static final String COLUMN_INCLUDE_LIST_DISPLAY = "Columns to include";

    public static final String COLUMN_EXCLUDE_LIST_CONFIG = "column.exclude.list";
    private static final String COLUMN_EXCLUDE_LIST_DOC = "Debezium's key: comma-separated regular expressions, matched "
            + "as column.include.list; matching columns are left out of before and after (key columns stay in the key), "
            + "with a publication column list as for column.include.list. Unset or empty: no column is left out.";
    private static final String COLUMN_EXCLUDE_LIST_DISPLAY = "Columns to exclude";

    /** {@code column.mask.with.N.chars}: the start and end of the keys; the value lists the columns. */
    public static final String COLUMN_MASK_WITH_PREFIX = "column.mask.with.";
    public static final String COLUMN_CHARS_SUFFIX = ".chars";
    static final String COLUMN_MASK_WITH_DOC = "Debezium's keys (N a positive whole number): the value lists regular "
            + "expressions matched as column.include.list's; each value of a matching character column (char, varchar, "
            + "text, name, an enum, a domain over one) becomes N asterisks, NULL included, and the field schema gets the "
            + "parameter masked=true (on matching columns of other types too, whose values stay). The key keeps the real "
            + "values.";

    /** {@code column.truncate.to.N.chars}. */
    public static final String COLUMN_TRUNCATE_TO_PREFIX = "column.truncate.to.";
    static final String COLUMN_TRUNCATE_TO_DOC = "Debezium's keys (N a positive whole number): string values of matching "
            + "columns longer than N characters (UTF-16 units), and bytes longer than N bytes, are cut to N; the field "
            + "schema of a column whose declared length exceeds N (or is unbounded) gets the parameter truncateLength=N. "
            + "The key keeps the real values.";

    /** {@code column.mask.hash.ALGORITHM.with.salt.SALT} and {@code column.mask.hash.v2.ALGORITHM.with.salt.SALT}. */
    public static final String COLUMN_MASK_HASH_PREFIX = "column.mask.hash.";
    public static final String COLUMN_MASK_HASH_V2_PREFIX = "column.mask.hash.v2.";
    public static final String COLUMN_MASK_HASH_SALT_INFIX = ".with.salt.";
    static final String COLUMN_MASK_HASH_DOC = "Debezium's keys (ALGORITHM a Java MessageDigest algorithm such as "
            + "SHA-256, SALT any text): each value of a matching character column becomes the lower-case hex digest of "
            + "the salt and the value, cut to the column's declared length, and the field gets masked=true, byte for byte "
            + "as Debezium writes it: the plain form hashes the value's Java serialization, the v2 form its text. NULL "
            + "stays NULL; the key keeps the real values.";

    public static final String COLUMN_PROPAGATE_SOURCE_TYPE_CONFIG = "column.propagate.source.type";
    private static final String COLUMN_PROPAGATE_SOURCE_TYPE_DOC = "Debezium's key: regular expressions matched as "
            + "column.include.list's; the field schemas of matching columns get the parameters "
            + "__debezium.source.column.type (the type name pgjdbc reports, upper case: INT4, VARCHAR, BIGSERIAL, _INT4 for "
            + "an array), __debezium.source.column.length, __debezium.source.column.scale (pgjdbc's precision and scale of "
            + "the type and modifier) and __debezium.source.column.name. A column a mask, hash or truncation key also "
            + "matches gets that key's parameter instead, as in Debezium (one mapper per column).";
    private static final String COLUMN_PROPAGATE_SOURCE_TYPE_DISPLAY = "Columns with source type parameters";

    public static final String DATATYPE_PROPAGATE_SOURCE_TYPE_CONFIG = "datatype.propagate.source.type";
    private static final String DATATYPE_PROPAGATE_SOURCE_TYPE_DOC = "Debezium's key: regular expressions matched "
            + "case-insensitively against schema.table.typename (for example .+\\.numeric,.+\\.varchar); matching columns "
            + "get the parameters of column.propagate.source.type.";
    private static final String DATATYPE_PROPAGATE_SOURCE_TYPE_DISPLAY = "Types with source type parameters";

    public static final String CONVERTERS_CONFIG = "converters";
    /** {@code <name>.type}: the class of the custom converter {@code converters} names {@code name}. */
    public static final String CONVERTER_TYPE_SUFFIX = ".type";
    private static final String CONVERTERS_DOC = "Debezium's custom converters: comma-separated names; for each name, "
            + "<name>.type is a class implementing io.debezium.spi.converter.CustomConverter (Debezium's SPI, from "
            + "debezium-api, which this connector ships), loaded from the connector's plugin folder (put the converter's "
            + "jar there), and the <name>.* keys, without the prefix, are passed to its configure(). The first converter "
            + "that registers for a column replaces its schema and values, in the key and the value; it is handed the "
            + "Java values Debezium's pgoutput decoder hands (README, Column keys).";
    private static final String CONVERTERS_DISPLAY = "Custom converters";

    /**
     * Families of keys whose names carry a parameter, which a ConfigDef cannot declare: documented with the group's
     * keys, validated by {@link ColumnShapingKeys}.
     *
     * @param pattern the key's form, with the parameters in capitals
     * @param group   the group it is documented in
     * @param doc     what it does
     */
    public record KeyFamily(String pattern, String group, String doc) {
    }

    public static final List<KeyFamily> KEY_FAMILIES = List.of(
            new KeyFamily(COLUMN_MASK_WITH_PREFIX + "N" + COLUMN_CHARS_SUFFIX, GROUP_COLUMNS, COLUMN_MASK_WITH_DOC),
            new KeyFamily(COLUMN_MASK_HASH_PREFIX + "ALGORITHM" + COLUMN_MASK_HASH_SALT_INFIX + "SALT", GROUP_COLUMNS,
                    COLUMN_MASK_HASH_DOC),
            new KeyFamily(COLUMN_MASK_HASH_V2_PREFIX + "ALGORITHM" + COLUMN_MASK_HASH_SALT_INFIX + "SALT", GROUP_COLUMNS,
                    COLUMN_MASK_HASH_DOC),
            new KeyFamily(COLUMN_TRUNCATE_TO_PREFIX + "N" + COLUMN_CHARS_SUFFIX, GROUP_COLUMNS, COLUMN_TRUNCATE_TO_DOC),
            new KeyFamily("NAME" + CONVERTER_TYPE_SUFFIX, GROUP_COLUMNS, "The class of the custom converter converters"
                    + " names NAME; NAME.* are its other settings."));

    // ---- Topics and records --------------------------------------------------------------------------------

    public static final String TOPIC_PREFIX_CONFIG = "topic.prefix";
    private static final String TOPIC_PREFIX_DOC = "Prefix of every topic and schema name: changes of schema.table go "
            + "to <topic.prefix>.<schema>.<table>, transaction metadata to <topic.prefix>.transaction. Letters, "
            + "digits, '.', '_' and '-' only. Part of the record schemas' names, so do not change it later.";
    private static final String TOPIC_PREFIX_DISPLAY = "Topic prefix";

    public static final String TOMBSTONES_ON_DELETE_CONFIG = "tombstones.on.delete";
    private static final String TOMBSTONES_ON_DELETE_DOC = "Whether a delete event is followed by a tombstone (same "
            + "key, null value) so that log compaction can drop the row's records.";
    private static final boolean TOMBSTONES_ON_DELETE_DEFAULT = true;
    private static final String TOMBSTONES_ON_DELETE_DISPLAY = "Tombstones on delete";

    public static final String SKIPPED_OPERATIONS_CONFIG = "skipped.operations";
    private static final String SKIPPED_OPERATIONS_DOC = "Streamed operations that give no records, comma-separated: c "
            + "(inserts), u (updates), d (deletes, with their tombstones), t (truncates), or none. A key-changing update "
            + "gives a delete and a create, which d and c skip. Skipped changes still move the offset and the slot. r is "
            + "accepted, as by Debezium, and skips nothing (snapshot rows are always written). As Debezium, truncates are "
            + "skipped by default.";
    private static final String SKIPPED_OPERATIONS_DEFAULT = "t";
    /** The {@code skipped.operations} value that skips nothing; it stands alone. */
    static final String SKIPPED_OPERATIONS_NONE = "none";
    private static final String SKIPPED_OPERATIONS_DISPLAY = "Skipped operations";

    public static final String EXTENDED_HEADERS_ENABLED_CONFIG = "extended.headers.enabled";
    private static final String EXTENDED_HEADERS_ENABLED_DOC = "Whether data change and snapshot records carry "
            + "Debezium's context headers __debezium.context.connectorLogicalName (topic.prefix), .connectorName "
            + "(postgresql), .taskId and .runId (new each time the task starts).";
    private static final boolean EXTENDED_HEADERS_ENABLED_DEFAULT = true;
    private static final String EXTENDED_HEADERS_ENABLED_DISPLAY = "Debezium context headers";

    public static final String MESSAGE_KEY_COLUMNS_CONFIG = "message.key.columns";
    private static final String MESSAGE_KEY_COLUMNS_DOC = "The columns that form the record key of some tables, as "
            + "<regex>:<column>[,<column>...] entries separated by ';', for example "
            + "inventory.customers:pk1,pk2;(.*).purchaseorders:pk3. Each regex is matched against the whole "
            + "schema.table name; the first matching entry gives the key's columns, in its order, as optional key "
            + "fields (a NULL value stays NULL in the key). A table without an entry is keyed by its primary key, "
            + "else by its REPLICA IDENTITY USING INDEX index, else its records have a null key; REPLICA IDENTITY "
            + "FULL widens only 'before'. An entry naming a column the table does not publish is logged as a WARN "
            + "and the table keyed as without it.";
    private static final String MESSAGE_KEY_COLUMNS_DEFAULT = "";
    private static final String MESSAGE_KEY_COLUMNS_DISPLAY = "Message key columns";

    public static final String UNAVAILABLE_VALUE_PLACEHOLDER_CONFIG = "unavailable.value.placeholder";
    private static final String UNAVAILABLE_VALUE_PLACEHOLDER_DOC = "Value written for a column PostgreSQL did not "
            + "send because it is an unchanged TOASTed value (strings as this text, bytes as its UTF-8 bytes). As in "
            + "Debezium, hex:<hex digits> gives the placeholder as the bytes the digits spell (which must be UTF-8 text here).";
    private static final String UNAVAILABLE_VALUE_PLACEHOLDER_DEFAULT = "__debezium_unavailable_value";
    private static final String UNAVAILABLE_VALUE_PLACEHOLDER_DISPLAY = "Placeholder for unavailable values";

    public static final String DECIMAL_HANDLING_MODE_CONFIG = "decimal.handling.mode";
    private static final String DECIMAL_HANDLING_MODE_DOC = "How numeric/decimal and money columns are represented: "
            + "precise (Connect Decimal, exact; NaN and Infinity fail the task), double (may lose precision), string "
            + "(exact text; NaN and Infinity as NAN, POSITIVE_INFINITY, NEGATIVE_INFINITY).";
    private static final String DECIMAL_HANDLING_MODE_DEFAULT =
            ConfigChoices.DECIMAL_HANDLING_MODE.text(DecimalHandlingMode.PRECISE);
    private static final String DECIMAL_HANDLING_MODE_DISPLAY = "Decimal handling";

    public static final String TIME_PRECISION_MODE_CONFIG = "time.precision.mode";
    private static final String TIME_PRECISION_MODE_DOC = "How date, time and timestamp columns are represented: "
            + "adaptive (by declared precision: Time/Timestamp in ms for 0-3 digits, MicroTime/MicroTimestamp in "
            + "microseconds otherwise), adaptive_time_microseconds (time always MicroTime), microseconds (full "
            + "microseconds whatever the precision), nanoseconds, isostring (ISO 8601 strings in UTC), connect (Kafka "
            + "Connect's Date/Time/Timestamp, ms). "
            + "timestamptz and timetz are ISO strings in UTC in every mode.";
    private static final String TIME_PRECISION_MODE_DEFAULT =
            ConfigChoices.TIME_PRECISION_MODE.text(TemporalPrecisionMode.ADAPTIVE);
    private static final String TIME_PRECISION_MODE_DISPLAY = "Time precision";

    public static final String INTERVAL_HANDLING_MODE_CONFIG = "interval.handling.mode";
    private static final String INTERVAL_HANDLING_MODE_DOC = "How interval columns are represented: numeric (int64 "
            + "microseconds, io.debezium.time.MicroDuration, a month counted as 30.4375 days) or string (ISO 8601 "
            + "PnYnMnDTnHnMnS, io.debezium.time.Interval, exact).";
    private static final String INTERVAL_HANDLING_MODE_DEFAULT =
            ConfigChoices.INTERVAL_HANDLING_MODE.text(IntervalHandlingMode.NUMERIC);
    private static final String INTERVAL_HANDLING_MODE_DISPLAY = "Interval handling";

    public static final String HSTORE_HANDLING_MODE_CONFIG = "hstore.handling.mode";
    private static final String HSTORE_HANDLING_MODE_DOC = "How hstore columns are represented: json (a JSON object "
            + "string, io.debezium.data.Json) or map (a Connect map of string to optional string).";
    private static final String HSTORE_HANDLING_MODE_DEFAULT =
            ConfigChoices.HSTORE_HANDLING_MODE.text(HStoreHandlingMode.JSON);
    private static final String HSTORE_HANDLING_MODE_DISPLAY = "hstore handling";

    public static final String BINARY_HANDLING_MODE_CONFIG = "binary.handling.mode";
    private static final String BINARY_HANDLING_MODE_DOC = "How bytea columns are represented: bytes, base64, "
            + "base64-url-safe or hex (the last three as strings).";
    private static final String BINARY_HANDLING_MODE_DEFAULT =
            ConfigChoices.BINARY_HANDLING_MODE.text(BinaryHandlingMode.BYTES);
    private static final String BINARY_HANDLING_MODE_DISPLAY = "Binary handling";

    public static final String DIRECT_ENCODING_CONFIG = "direct.encoding";
    private static final String DIRECT_ENCODING_DOC = "none: records carry Structs and the worker's converters encode "
            + "them. json or json_with_schemas: the connector writes each record's key and value as the exact bytes "
            + "Kafka's JsonConverter writes with schemas.enable=false or true (its defaults otherwise: "
            + "decimal.format=BASE64, replace.null.with.default=true), which skips the converter's per-record work. "
            + "Needs key.converter and value.converter set to " + CrossKeyRules.BYTE_ARRAY_CONVERTER
            + " in this connector's config. SMTs and predicates then see the bytes, not Structs; headers are still "
            + "written by the header converter.";
    private static final String DIRECT_ENCODING_DEFAULT = ConfigChoices.DIRECT_ENCODING.text(DirectEncoding.NONE);
    private static final String DIRECT_ENCODING_DISPLAY = "Direct encoding";

    // ---- Unchanged TOAST values ------------------------------------------------------------------------------

    public static final String UNCHANGED_TOAST_RESOLUTION_CONFIG = "unchanged.toast.resolution";
    private static final String UNCHANGED_TOAST_RESOLUTION_DOC = "What an UPDATE that leaves a TOASTed column unchanged "
            + "carries in that column (pgoutput does not send the value; REPLICA IDENTITY FULL tables always carry it). "
            + "none: unavailable.value.placeholder, as Debezium. store: the value this connector last emitted for the row, "
            + "kept on the worker's disk (toast.store.*), which is the value of the change whenever the connector saw the "
            + "row's history (it snapshotted the table, or emitted an insert or update with the value since); otherwise a "
            + "batched reselect by key (toast.reselect.batch.size), accepted only when the row's current version was "
            + "written by the change's own transaction and no later change of that transaction set the column. reselect: "
            + "that reselect alone, no disk. A value neither can prove stays the placeholder, and the record's "
            + LifecycleHeaders.TOAST_UNRESOLVED + " header names the column: a newer value never goes into an older "
            + "change. Unset, Debezium's reselect post processor (post.processors with "
            + "<name>.type=io.debezium.processors.reselect.ReselectColumnsPostProcessor) means store.";
    private static final String UNCHANGED_TOAST_RESOLUTION_DISPLAY = "Unchanged TOAST resolution";

    public static final String TOAST_STORE_DIRECTORY_CONFIG = "toast.store.directory";
    private static final String TOAST_STORE_DIRECTORY_DOC = "Directory of the unchanged TOAST store (one per connector; "
            + "kept across restarts). Unset: <spill.directory>/<slot.name>.toast-store. Vetted as spill.directory: created "
            + "with permissions 0700, owned by the worker's user and writable by no other.";
    private static final String TOAST_STORE_DIRECTORY_DISPLAY = "TOAST store directory";

    public static final String TOAST_STORE_MAX_DISK_BYTES_CONFIG = "toast.store.max.disk.bytes";
    private static final String TOAST_STORE_MAX_DISK_BYTES_DOC = "Disk the stored values may take. Beyond it the values "
            + "written longest ago are dropped first (whole files of them); a change of such a row is resolved by the "
            + "reselect instead.";
    private static final long TOAST_STORE_MAX_DISK_BYTES_DEFAULT = 1L << 30;
    private static final String TOAST_STORE_MAX_DISK_BYTES_DISPLAY = "TOAST store disk (bytes)";

    public static final String TOAST_STORE_MEMORY_BYTES_CONFIG = "toast.store.memory.bytes";
    private static final String TOAST_STORE_MEMORY_BYTES_DOC = "Native (off-heap) memory of the store's caches and write "
            + "buffers.";
    private static final long TOAST_STORE_MEMORY_BYTES_DEFAULT = 32L << 20;
    private static final String TOAST_STORE_MEMORY_BYTES_DISPLAY = "TOAST store memory (bytes)";

    public static final String TOAST_STORE_MIN_VALUE_BYTES_CONFIG = "toast.store.min.value.bytes";
    private static final String TOAST_STORE_MIN_VALUE_BYTES_DOC = "Shortest value (text form) the store keeps. PostgreSQL "
            + "moves a value out of line only when its row exceeds toast_tuple_target (2 kB unless changed), so shorter "
            + "values rarely come back as unchanged TOAST; one that does is reselected.";
    private static final int TOAST_STORE_MIN_VALUE_BYTES_DEFAULT = 256;
    private static final String TOAST_STORE_MIN_VALUE_BYTES_DISPLAY = "TOAST store smallest value (bytes)";

    public static final String TOAST_RESELECT_BATCH_SIZE_CONFIG = "toast.reselect.batch.size";
    private static final String TOAST_RESELECT_BATCH_SIZE_DOC = "Changes held while a value waits for the reselect: "
            + "the rest of the transaction up to this many changes (and spill.memory.buffer.bytes of their values) is read "
            + "first, since a later change of the same row in the same transaction decides whether the row's current value "
            + "is the change's, then one query per table reads the rows. A value whose transaction goes on beyond it is "
            + "not proven.";
    private static final int TOAST_RESELECT_BATCH_SIZE_DEFAULT = 1000;
    private static final String TOAST_RESELECT_BATCH_SIZE_DISPLAY = "TOAST reselect batch (changes)";

    public static final String MONEY_FRACTION_DIGITS_CONFIG = "money.fraction.digits";
    private static final String MONEY_FRACTION_DIGITS_DOC = "Digits after the decimal point of money values: the "
            + "frac_digits of the database's lc_monetary (2 for most locales, 0 for yen). Must match the database, "
            + "since the text form is read as minor units.";
    private static final int MONEY_FRACTION_DIGITS_DEFAULT = 2;
    private static final String MONEY_FRACTION_DIGITS_DISPLAY = "Money fraction digits";

    public static final String PROVIDE_TRANSACTION_METADATA_CONFIG = "provide.transaction.metadata";
    private static final String PROVIDE_TRANSACTION_METADATA_DOC = "Whether transaction boundary events (BEGIN/END, "
            + "and the two-phase stages) are written to <topic.prefix>.transaction and change records carry the "
            + "transaction block (id, total_order, data_collection_order). Off by default, as in Debezium; "
            + "prepared.transaction.mode=stage needs it on.";
    private static final boolean PROVIDE_TRANSACTION_METADATA_DEFAULT = false;
    private static final String PROVIDE_TRANSACTION_METADATA_DISPLAY = "Transaction metadata";

    public static final String HEARTBEAT_INTERVAL_MS_CONFIG = "heartbeat.interval.ms";
    private static final String HEARTBEAT_INTERVAL_MS_DOC = "Milliseconds between heartbeat records to "
            + "<topic.heartbeat.prefix>.<topic.prefix>; they let the stored offset, and with it the slot, advance "
            + "while the captured tables are quiet but the database is not. 0 turns heartbeats off.";
    private static final int HEARTBEAT_INTERVAL_MS_DEFAULT = 0;
    private static final String HEARTBEAT_INTERVAL_MS_DISPLAY = "Heartbeat interval (ms)";

    public static final String TOPIC_HEARTBEAT_PREFIX_CONFIG = "topic.heartbeat.prefix";
    private static final String TOPIC_HEARTBEAT_PREFIX_DOC = "Prefix of the heartbeat topic, which is "
            + "<topic.heartbeat.prefix>.<topic.prefix>.";
    private static final String TOPIC_HEARTBEAT_PREFIX_DEFAULT = "__debezium-heartbeat";
    private static final String TOPIC_HEARTBEAT_PREFIX_DISPLAY = "Heartbeat topic prefix";

    public static final String TOPIC_HEARTBEAT_NAME_CONFIG = "topic.heartbeat.name";
    private static final String TOPIC_HEARTBEAT_NAME_DOC = "The whole name of the heartbeat topic, as in Debezium 3.x; "
            + "empty: <topic.heartbeat.prefix>.<topic.prefix>.";
    private static final String TOPIC_HEARTBEAT_NAME_DISPLAY = "Heartbeat topic";

    // ---- Transaction spill ---------------------------------------------------------------------------------

    public static final String SPILL_BACKEND_CONFIG = "spill.backend";
    private static final String SPILL_BACKEND_DOC = "Where the changes of not yet committed transactions are kept "
            + "outside the heap: disk (files under spill.directory), database (tables in spill.database.schema of "
            + "the source database), or the fully qualified name of a class implementing the transaction spill SPI.";
    private static final String SPILL_BACKEND_DEFAULT = SpillSettings.DISK_BACKEND;
    private static final String SPILL_BACKEND_DISPLAY = "Spill backend";

    public static final String SPILL_DIRECTORY_CONFIG = "spill.directory";
    private static final String SPILL_DIRECTORY_DOC = "Directory of the disk spill backend. Unset: "
            + "<java.io.tmpdir>/kafka-connect-pgoutput/<slot.name>. Created with permissions 0700 if missing; an "
            + "existing one must be a real directory (not a symbolic link) owned by the worker's user and writable by "
            + "no other user, below parents that only that user or root may change (or with the sticky bit, as /tmp), "
            + "else the task fails naming what to fix. Connectors may share it: files are named "
            + "<slot.name>.txn-<xid>.spill and each deletes only its own slot's. Spill files are temporary; the "
            + "directory needs room for the largest open transactions.";
    private static final String SPILL_DIRECTORY_DISPLAY = "Spill directory";

    public static final String SPILL_MEMORY_BUFFER_BYTES_CONFIG = "spill.memory.buffer.bytes";
    private static final String SPILL_MEMORY_BUFFER_BYTES_DOC = "Heap bytes the transaction spill may use, across all "
            + "open transactions, before it writes changes to the spill backend. Also the most (estimated) heap a transaction "
            + "PostgreSQL sends whole may take while it is held until its commit arrives (its records all carry the end LSN, "
            + "which only the commit message brings); the rest of a larger one goes to the spill backend.";
    private static final long SPILL_MEMORY_BUFFER_BYTES_DEFAULT = 16L * 1024 * 1024;
    private static final String SPILL_MEMORY_BUFFER_BYTES_DISPLAY = "Spill memory buffer (bytes)";

    public static final String SPILL_MAX_TRANSACTION_BYTES_CONFIG = "spill.max.transaction.bytes";
    private static final String SPILL_MAX_TRANSACTION_BYTES_DOC = "Largest amount of spilled change data one "
            + "transaction may reach; beyond it the task stops with an error naming the transaction. 0: no limit "
            + "of its own.";
    private static final long SPILL_MAX_TRANSACTION_BYTES_DEFAULT = 0L;
    private static final String SPILL_MAX_TRANSACTION_BYTES_DISPLAY = "Spill limit per transaction (bytes)";

    public static final String SPILL_MAX_TOTAL_BYTES_CONFIG = "spill.max.total.bytes";
    private static final String SPILL_MAX_TOTAL_BYTES_DOC = "Largest amount of spilled change data all open "
            + "transactions together may reach; beyond it the task stops with an error. 0: no limit.";
    private static final long SPILL_MAX_TOTAL_BYTES_DEFAULT = 0L;
    private static final String SPILL_MAX_TOTAL_BYTES_DISPLAY = "Spill limit in total (bytes)";

    public static final String SPILL_DATABASE_SCHEMA_CONFIG = "spill.database.schema";
    private static final String SPILL_DATABASE_SCHEMA_DOC = "Schema of the database spill backend's tables, in the "
            + "source database (created if missing; database.user needs CREATE there). Lowercase letters, digits "
            + "and underscores, at most 63 characters.";
    private static final String SPILL_DATABASE_SCHEMA_DEFAULT = SpillSettings.DEFAULT_DATABASE_SCHEMA;
    private static final String SPILL_DATABASE_SCHEMA_DISPLAY = "Spill schema";

    // ---- Snapshot ------------------------------------------------------------------------------------------

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

    // ---- Throughput ----------------------------------------------------------------------------------------

    public static final String MAX_BATCH_SIZE_CONFIG = "max.batch.size";
    private static final String MAX_BATCH_SIZE_DOC = "Most records one poll() returns.";
    private static final int MAX_BATCH_SIZE_DEFAULT = 2048;
    private static final String MAX_BATCH_SIZE_DISPLAY = "Max batch size";

    public static final String MAX_QUEUE_SIZE_CONFIG = "max.queue.size";
    private static final String MAX_QUEUE_SIZE_DOC = "Most records waiting between the replication stream and poll(); "
            + "when full, reading from PostgreSQL pauses. Must be larger than max.batch.size.";
    private static final int MAX_QUEUE_SIZE_DEFAULT = 8192;
    private static final String MAX_QUEUE_SIZE_DISPLAY = "Max queue size";

    public static final String TRANSACTION_MAX_RECORDS_CONFIG = "transaction.max.records";
    private static final String TRANSACTION_MAX_RECORDS_DOC = "With transaction.boundary=connector: the most records one "
            + "delivery may hold in its open Kafka transaction. Connect keeps every record of the open transaction in "
            + "worker heap until it commits, so a larger delivery fails the task, naming this key, instead of exhausting "
            + "the heap; its transaction aborts and it comes again once the task is restarted. Raise it together with "
            + "the worker's heap (roughly the record size times this number) and producer.override.transaction.timeout.ms, "
            + "or use transaction.boundary=poll. Without connector boundaries it has no effect on streaming. In a "
            + "resumable snapshot (exactly.once.support=required, or snapshot.resumable=true) it is also the most identical "
            + "rows a table without a unique key may hold: they go into one poll, and so one Kafka transaction, since a "
            + "resumed read cannot tell them apart; a table with more fails the task, naming this key.";
    private static final int TRANSACTION_MAX_RECORDS_DEFAULT = 250_000;
    private static final String TRANSACTION_MAX_RECORDS_DISPLAY = "Max records per Kafka transaction";

    public static final String TRANSACTION_BATCH_MAX_DELIVERIES_CONFIG = "transaction.batch.max.deliveries";
    private static final String TRANSACTION_BATCH_MAX_DELIVERIES_DOC = "With transaction.boundary=connector: the most "
            + "whole deliveries (PostgreSQL transactions, outcomes, messages, heartbeats) that end in the same poll and "
            + "share one Kafka transaction. 1 (the default): every delivery is its own Kafka transaction. Higher values "
            + "save the per-transaction cost on streams of small transactions: a read_committed consumer still never "
            + "sees part of a delivery, but sees up to this many appear in one step. A delivery is never split, and a "
            + "poll's last finished delivery is always committed with that poll. Without connector boundaries it has no "
            + "effect.";
    private static final int TRANSACTION_BATCH_MAX_DELIVERIES_DEFAULT = 1;
    private static final String TRANSACTION_BATCH_MAX_DELIVERIES_DISPLAY = "Max deliveries per Kafka transaction";

    // ---- The ConfigDef -------------------------------------------------------------------------------------

    public static final ConfigDef CONFIG_DEF = configDef();

    private static ConfigDef configDef() {
        ConfigDef def = new ConfigDef();
        int order = 0;
        def.define(DATABASE_HOSTNAME_CONFIG, Type.STRING, ConfigDef.NO_DEFAULT_VALUE, ConfigValidators.hostnameValidator(),
                Importance.HIGH, DATABASE_HOSTNAME_DOC, GROUP_DATABASE, ++order, Width.LONG, DATABASE_HOSTNAME_DISPLAY);
        def.define(DATABASE_PORT_CONFIG, Type.INT, DATABASE_PORT_DEFAULT, ConfigDef.Range.between(1, 65535),
                Importance.HIGH, DATABASE_PORT_DOC, GROUP_DATABASE, ++order, Width.SHORT, DATABASE_PORT_DISPLAY);
        def.define(DATABASE_USER_CONFIG, Type.STRING, ConfigDef.NO_DEFAULT_VALUE, new ConfigDef.NonEmptyString(),
                Importance.HIGH, DATABASE_USER_DOC, GROUP_DATABASE, ++order, Width.MEDIUM, DATABASE_USER_DISPLAY);
        def.define(DATABASE_PASSWORD_CONFIG, Type.PASSWORD, null, null,
                Importance.HIGH, DATABASE_PASSWORD_DOC, GROUP_DATABASE, ++order, Width.MEDIUM, DATABASE_PASSWORD_DISPLAY);
        def.define(DATABASE_DBNAME_CONFIG, Type.STRING, ConfigDef.NO_DEFAULT_VALUE, new ConfigDef.NonEmptyString(),
                Importance.HIGH, DATABASE_DBNAME_DOC, GROUP_DATABASE, ++order, Width.MEDIUM, DATABASE_DBNAME_DISPLAY);
        def.define(DATABASE_SSLMODE_CONFIG, Type.STRING, DATABASE_SSLMODE_DEFAULT, ConfigChoices.SSL_MODE.validator(),
                Importance.MEDIUM, DATABASE_SSLMODE_DOC, GROUP_DATABASE, ++order, Width.SHORT, DATABASE_SSLMODE_DISPLAY);
        def.define(DATABASE_SSLROOTCERT_CONFIG, Type.STRING, null, null,
                Importance.LOW, DATABASE_SSLROOTCERT_DOC, GROUP_DATABASE, ++order, Width.LONG, DATABASE_SSLROOTCERT_DISPLAY);
        def.define(DATABASE_SSLCERT_CONFIG, Type.STRING, null, null,
                Importance.LOW, DATABASE_SSLCERT_DOC, GROUP_DATABASE, ++order, Width.LONG, DATABASE_SSLCERT_DISPLAY);
        def.define(DATABASE_SSLKEY_CONFIG, Type.STRING, null, null,
                Importance.LOW, DATABASE_SSLKEY_DOC, GROUP_DATABASE, ++order, Width.LONG, DATABASE_SSLKEY_DISPLAY);
        def.define(DATABASE_SSLPASSWORD_CONFIG, Type.PASSWORD, null, null,
                Importance.LOW, DATABASE_SSLPASSWORD_DOC, GROUP_DATABASE, ++order, Width.MEDIUM, DATABASE_SSLPASSWORD_DISPLAY);

        order = 0;
        def.define(SLOT_NAME_CONFIG, Type.STRING, SLOT_NAME_DEFAULT, ConfigValidators.lowercaseIdentifier(),
                Importance.HIGH, SLOT_NAME_DOC, GROUP_REPLICATION, ++order, Width.MEDIUM, SLOT_NAME_DISPLAY);
        def.define(SLOT_FAILOVER_CONFIG, Type.BOOLEAN, SLOT_FAILOVER_DEFAULT,
                Importance.MEDIUM, SLOT_FAILOVER_DOC, GROUP_REPLICATION, ++order, Width.SHORT, SLOT_FAILOVER_DISPLAY);
        def.define(PUBLICATION_NAME_CONFIG, Type.STRING, PUBLICATION_NAME_DEFAULT, new ConfigDef.NonEmptyString(),
                Importance.HIGH, PUBLICATION_NAME_DOC, GROUP_REPLICATION, ++order, Width.MEDIUM, PUBLICATION_NAME_DISPLAY);
        def.define(PUBLICATION_AUTOCREATE_MODE_CONFIG, Type.STRING, PUBLICATION_AUTOCREATE_MODE_DEFAULT,
                ConfigChoices.PUBLICATION_AUTOCREATE_MODE.validator(), Importance.MEDIUM,
                PUBLICATION_AUTOCREATE_MODE_DOC, GROUP_REPLICATION, ++order, Width.SHORT,
                PUBLICATION_AUTOCREATE_MODE_DISPLAY);
        def.define(REPLICA_IDENTITY_AUTOSET_VALUES_CONFIG, Type.STRING, "", ConfigValidators.replicaIdentityAutosetValues(),
                Importance.MEDIUM, REPLICA_IDENTITY_AUTOSET_VALUES_DOC, GROUP_REPLICATION, ++order, Width.LONG,
                REPLICA_IDENTITY_AUTOSET_VALUES_DISPLAY);
        def.define(SLOT_DROP_ON_STOP_CONFIG, Type.BOOLEAN, SLOT_DROP_ON_STOP_DEFAULT, Importance.LOW, SLOT_DROP_ON_STOP_DOC,
                GROUP_REPLICATION, ++order, Width.SHORT, SLOT_DROP_ON_STOP_DISPLAY);
        def.define(PROTOCOL_VERSION_CONFIG, Type.STRING, PROTOCOL_VERSION_DEFAULT,
                ConfigChoices.PROTOCOL_VERSION.validator(), Importance.LOW, PROTOCOL_VERSION_DOC,
                GROUP_REPLICATION, ++order, Width.SHORT, PROTOCOL_VERSION_DISPLAY);
        def.define(STREAMING_CONFIG, Type.STRING, STREAMING_DEFAULT, ConfigChoices.STREAMING.validator(),
                Importance.MEDIUM, STREAMING_DOC, GROUP_REPLICATION, ++order, Width.SHORT, STREAMING_DISPLAY);
        def.define(PREPARED_TRANSACTION_MODE_CONFIG, Type.STRING, PREPARED_TRANSACTION_MODE_DEFAULT,
                ConfigChoices.PREPARED_TRANSACTION_MODE.validator(), Importance.MEDIUM, PREPARED_TRANSACTION_MODE_DOC,
                GROUP_REPLICATION, ++order, Width.SHORT, PREPARED_TRANSACTION_MODE_DISPLAY);
        def.define(MESSAGES_ENABLED_CONFIG, Type.BOOLEAN, MESSAGES_ENABLED_DEFAULT,
                Importance.LOW, MESSAGES_ENABLED_DOC, GROUP_REPLICATION, ++order, Width.SHORT, MESSAGES_ENABLED_DISPLAY);
        def.define(MESSAGE_PREFIX_INCLUDE_LIST_CONFIG, Type.LIST, "", ConfigValidators.regexList(), Importance.LOW,
                MESSAGE_PREFIX_INCLUDE_LIST_DOC, GROUP_REPLICATION, ++order, Width.LONG, MESSAGE_PREFIX_INCLUDE_LIST_DISPLAY);
        def.define(MESSAGE_PREFIX_EXCLUDE_LIST_CONFIG, Type.LIST, "", ConfigValidators.regexList(), Importance.LOW,
                MESSAGE_PREFIX_EXCLUDE_LIST_DOC, GROUP_REPLICATION, ++order, Width.LONG, MESSAGE_PREFIX_EXCLUDE_LIST_DISPLAY);
        def.define(PLUGIN_NAME_CONFIG, Type.STRING, PLUGIN_NAME_DEFAULT, ConfigValidators.pgoutputPluginOnly(),
                Importance.LOW, PLUGIN_NAME_DOC, GROUP_REPLICATION, ++order, Width.SHORT, PLUGIN_NAME_DISPLAY);
        def.define(STATUS_UPDATE_INTERVAL_MS_CONFIG, Type.INT, STATUS_UPDATE_INTERVAL_MS_DEFAULT,
                ConfigDef.Range.atLeast(1), Importance.LOW, STATUS_UPDATE_INTERVAL_MS_DOC, GROUP_REPLICATION, ++order,
                Width.SHORT, STATUS_UPDATE_INTERVAL_MS_DISPLAY);
        def.define(SLOT_MAX_RETRIES_CONFIG, Type.INT, SLOT_MAX_RETRIES_DEFAULT, ConfigDef.Range.atLeast(0),
                Importance.LOW, SLOT_MAX_RETRIES_DOC, GROUP_REPLICATION, ++order, Width.SHORT, SLOT_MAX_RETRIES_DISPLAY);
        def.define(SLOT_RETRY_DELAY_MS_CONFIG, Type.LONG, SLOT_RETRY_DELAY_MS_DEFAULT, ConfigDef.Range.atLeast(0),
                Importance.LOW, SLOT_RETRY_DELAY_MS_DOC, GROUP_REPLICATION, ++order, Width.SHORT, SLOT_RETRY_DELAY_MS_DISPLAY);
        def.define(ERRORS_MAX_RETRIES_CONFIG, Type.INT, ERRORS_MAX_RETRIES_DEFAULT, ConfigDef.Range.atLeast(-1),
                Importance.LOW, ERRORS_MAX_RETRIES_DOC, GROUP_REPLICATION, ++order, Width.SHORT, ERRORS_MAX_RETRIES_DISPLAY);

        order = 0;
        def.define(TABLE_INCLUDE_LIST_CONFIG, Type.LIST, "", ConfigValidators.regexList(),
                Importance.HIGH, TABLE_INCLUDE_LIST_DOC, GROUP_TABLES, ++order, Width.LONG, TABLE_INCLUDE_LIST_DISPLAY);
        def.define(TABLE_EXCLUDE_LIST_CONFIG, Type.LIST, "", ConfigValidators.regexList(),
                Importance.MEDIUM, TABLE_EXCLUDE_LIST_DOC, GROUP_TABLES, ++order, Width.LONG, TABLE_EXCLUDE_LIST_DISPLAY);
        def.define(SCHEMA_INCLUDE_LIST_CONFIG, Type.LIST, "", ConfigValidators.regexList(),
                Importance.MEDIUM, SCHEMA_INCLUDE_LIST_DOC, GROUP_TABLES, ++order, Width.LONG, SCHEMA_INCLUDE_LIST_DISPLAY);
        def.define(SCHEMA_EXCLUDE_LIST_CONFIG, Type.LIST, "", ConfigValidators.regexList(),
                Importance.MEDIUM, SCHEMA_EXCLUDE_LIST_DOC, GROUP_TABLES, ++order, Width.LONG, SCHEMA_EXCLUDE_LIST_DISPLAY);

        order = 0;
        // Strings, not LISTs: Debezium's lists escape commas inside expressions, which Kafka's LIST would split at.
        def.define(COLUMN_INCLUDE_LIST_CONFIG, Type.STRING, null, ConfigValidators.debeziumRegexList(),
                Importance.MEDIUM, COLUMN_INCLUDE_LIST_DOC, GROUP_COLUMNS, ++order, Width.LONG, COLUMN_INCLUDE_LIST_DISPLAY);
        def.define(COLUMN_EXCLUDE_LIST_CONFIG, Type.STRING, null, ConfigValidators.debeziumRegexList(),
                Importance.MEDIUM, COLUMN_EXCLUDE_LIST_DOC, GROUP_COLUMNS, ++order, Width.LONG, COLUMN_EXCLUDE_LIST_DISPLAY);
        def.define(COLUMN_PROPAGATE_SOURCE_TYPE_CONFIG, Type.STRING, null, ConfigValidators.debeziumRegexList(),
                Importance.LOW, COLUMN_PROPAGATE_SOURCE_TYPE_DOC, GROUP_COLUMNS, ++order, Width.LONG,
                COLUMN_PROPAGATE_SOURCE_TYPE_DISPLAY);
        def.define(DATATYPE_PROPAGATE_SOURCE_TYPE_CONFIG, Type.STRING, null, ConfigValidators.debeziumRegexList(),
                Importance.LOW, DATATYPE_PROPAGATE_SOURCE_TYPE_DOC, GROUP_COLUMNS, ++order, Width.LONG,
                DATATYPE_PROPAGATE_SOURCE_TYPE_DISPLAY);
        def.define(CONVERTERS_CONFIG, Type.STRING, null, null, Importance.LOW, CONVERTERS_DOC, GROUP_COLUMNS, ++order,
                Width.MEDIUM, CONVERTERS_DISPLAY);

        order = 0;
        def.define(TOPIC_PREFIX_CONFIG, Type.STRING, ConfigDef.NO_DEFAULT_VALUE, ConfigValidators.topicCharacters(),
                Importance.HIGH, TOPIC_PREFIX_DOC, GROUP_RECORDS, ++order, Width.MEDIUM, TOPIC_PREFIX_DISPLAY);
        def.define(TOMBSTONES_ON_DELETE_CONFIG, Type.BOOLEAN, TOMBSTONES_ON_DELETE_DEFAULT,
                Importance.MEDIUM, TOMBSTONES_ON_DELETE_DOC, GROUP_RECORDS, ++order, Width.SHORT,
                TOMBSTONES_ON_DELETE_DISPLAY);
        def.define(SKIPPED_OPERATIONS_CONFIG, Type.LIST, SKIPPED_OPERATIONS_DEFAULT, ConfigValidators.skippedOperations(),
                Importance.LOW, SKIPPED_OPERATIONS_DOC, GROUP_RECORDS, ++order, Width.SHORT, SKIPPED_OPERATIONS_DISPLAY);
        def.define(EXTENDED_HEADERS_ENABLED_CONFIG, Type.BOOLEAN, EXTENDED_HEADERS_ENABLED_DEFAULT, Importance.LOW,
                EXTENDED_HEADERS_ENABLED_DOC, GROUP_RECORDS, ++order, Width.SHORT, EXTENDED_HEADERS_ENABLED_DISPLAY);
        def.define(MESSAGE_KEY_COLUMNS_CONFIG, Type.STRING, MESSAGE_KEY_COLUMNS_DEFAULT,
                ConfigValidators.messageKeyColumns(), Importance.MEDIUM, MESSAGE_KEY_COLUMNS_DOC, GROUP_RECORDS, ++order,
                Width.LONG, MESSAGE_KEY_COLUMNS_DISPLAY);
        def.define(UNAVAILABLE_VALUE_PLACEHOLDER_CONFIG, Type.STRING, UNAVAILABLE_VALUE_PLACEHOLDER_DEFAULT,
                ConfigValidators.unavailableValuePlaceholder(), Importance.LOW, UNAVAILABLE_VALUE_PLACEHOLDER_DOC, GROUP_RECORDS,
                ++order, Width.MEDIUM, UNAVAILABLE_VALUE_PLACEHOLDER_DISPLAY);
        def.define(DECIMAL_HANDLING_MODE_CONFIG, Type.STRING, DECIMAL_HANDLING_MODE_DEFAULT,
                ConfigChoices.DECIMAL_HANDLING_MODE.validator(), Importance.MEDIUM, DECIMAL_HANDLING_MODE_DOC,
                GROUP_RECORDS, ++order, Width.SHORT, DECIMAL_HANDLING_MODE_DISPLAY);
        def.define(TIME_PRECISION_MODE_CONFIG, Type.STRING, TIME_PRECISION_MODE_DEFAULT,
                ConfigChoices.TIME_PRECISION_MODE.validator(), Importance.MEDIUM, TIME_PRECISION_MODE_DOC,
                GROUP_RECORDS, ++order, Width.SHORT, TIME_PRECISION_MODE_DISPLAY);
        def.define(INTERVAL_HANDLING_MODE_CONFIG, Type.STRING, INTERVAL_HANDLING_MODE_DEFAULT,
                ConfigChoices.INTERVAL_HANDLING_MODE.validator(), Importance.LOW, INTERVAL_HANDLING_MODE_DOC,
                GROUP_RECORDS, ++order, Width.SHORT, INTERVAL_HANDLING_MODE_DISPLAY);
        def.define(HSTORE_HANDLING_MODE_CONFIG, Type.STRING, HSTORE_HANDLING_MODE_DEFAULT,
                ConfigChoices.HSTORE_HANDLING_MODE.validator(), Importance.LOW, HSTORE_HANDLING_MODE_DOC,
                GROUP_RECORDS, ++order, Width.SHORT, HSTORE_HANDLING_MODE_DISPLAY);
        def.define(BINARY_HANDLING_MODE_CONFIG, Type.STRING, BINARY_HANDLING_MODE_DEFAULT,
                ConfigChoices.BINARY_HANDLING_MODE.validator(), Importance.LOW, BINARY_HANDLING_MODE_DOC,
                GROUP_RECORDS, ++order, Width.SHORT, BINARY_HANDLING_MODE_DISPLAY);
        def.define(DIRECT_ENCODING_CONFIG, Type.STRING, DIRECT_ENCODING_DEFAULT,
                ConfigChoices.DIRECT_ENCODING.validator(), Importance.LOW, DIRECT_ENCODING_DOC,
                GROUP_RECORDS, ++order, Width.SHORT, DIRECT_ENCODING_DISPLAY);
        def.define(MONEY_FRACTION_DIGITS_CONFIG, Type.INT, MONEY_FRACTION_DIGITS_DEFAULT, ConfigDef.Range.between(0, 10),
                Importance.LOW, MONEY_FRACTION_DIGITS_DOC, GROUP_RECORDS, ++order, Width.SHORT,
                MONEY_FRACTION_DIGITS_DISPLAY);
        def.define(PROVIDE_TRANSACTION_METADATA_CONFIG, Type.BOOLEAN, PROVIDE_TRANSACTION_METADATA_DEFAULT,
                Importance.MEDIUM, PROVIDE_TRANSACTION_METADATA_DOC, GROUP_RECORDS, ++order, Width.SHORT,
                PROVIDE_TRANSACTION_METADATA_DISPLAY);
        def.define(HEARTBEAT_INTERVAL_MS_CONFIG, Type.INT, HEARTBEAT_INTERVAL_MS_DEFAULT, ConfigDef.Range.atLeast(0),
                Importance.MEDIUM, HEARTBEAT_INTERVAL_MS_DOC, GROUP_RECORDS, ++order, Width.SHORT,
                HEARTBEAT_INTERVAL_MS_DISPLAY);
        def.define(TOPIC_HEARTBEAT_PREFIX_CONFIG, Type.STRING, TOPIC_HEARTBEAT_PREFIX_DEFAULT,
                ConfigValidators.topicCharacters(),
                Importance.LOW, TOPIC_HEARTBEAT_PREFIX_DOC, GROUP_RECORDS, ++order, Width.MEDIUM,
                TOPIC_HEARTBEAT_PREFIX_DISPLAY);
        def.define(TOPIC_HEARTBEAT_NAME_CONFIG, Type.STRING, "", ConfigValidators.optionalTopicName(), Importance.LOW,
                TOPIC_HEARTBEAT_NAME_DOC, GROUP_RECORDS, ++order, Width.MEDIUM, TOPIC_HEARTBEAT_NAME_DISPLAY);

        order = 0;
        def.define(UNCHANGED_TOAST_RESOLUTION_CONFIG, Type.STRING, null, ConfigChoices.UNCHANGED_TOAST_RESOLUTION.optionalValidator(),
                Importance.MEDIUM, UNCHANGED_TOAST_RESOLUTION_DOC, GROUP_TOAST, ++order, Width.SHORT,
                UNCHANGED_TOAST_RESOLUTION_DISPLAY);
        def.define(TOAST_STORE_DIRECTORY_CONFIG, Type.STRING, null, null, Importance.LOW, TOAST_STORE_DIRECTORY_DOC, GROUP_TOAST,
                ++order, Width.LONG, TOAST_STORE_DIRECTORY_DISPLAY);
        def.define(TOAST_STORE_MAX_DISK_BYTES_CONFIG, Type.LONG, TOAST_STORE_MAX_DISK_BYTES_DEFAULT, ConfigDef.Range.atLeast(1L << 20),
                Importance.LOW, TOAST_STORE_MAX_DISK_BYTES_DOC, GROUP_TOAST, ++order, Width.SHORT,
                TOAST_STORE_MAX_DISK_BYTES_DISPLAY);
        def.define(TOAST_STORE_MEMORY_BYTES_CONFIG, Type.LONG, TOAST_STORE_MEMORY_BYTES_DEFAULT, ConfigDef.Range.atLeast(8L << 20),
                Importance.LOW, TOAST_STORE_MEMORY_BYTES_DOC, GROUP_TOAST, ++order, Width.SHORT, TOAST_STORE_MEMORY_BYTES_DISPLAY);
        def.define(TOAST_STORE_MIN_VALUE_BYTES_CONFIG, Type.INT, TOAST_STORE_MIN_VALUE_BYTES_DEFAULT, ConfigDef.Range.atLeast(0),
                Importance.LOW, TOAST_STORE_MIN_VALUE_BYTES_DOC, GROUP_TOAST, ++order, Width.SHORT,
                TOAST_STORE_MIN_VALUE_BYTES_DISPLAY);
        def.define(TOAST_RESELECT_BATCH_SIZE_CONFIG, Type.INT, TOAST_RESELECT_BATCH_SIZE_DEFAULT, ConfigDef.Range.atLeast(1),
                Importance.LOW, TOAST_RESELECT_BATCH_SIZE_DOC, GROUP_TOAST, ++order, Width.SHORT,
                TOAST_RESELECT_BATCH_SIZE_DISPLAY);

        order = 0;
        def.define(SPILL_BACKEND_CONFIG, Type.STRING, SPILL_BACKEND_DEFAULT, ConfigValidators.spillBackendValidator(),
                Importance.MEDIUM, SPILL_BACKEND_DOC, GROUP_SPILL, ++order, Width.LONG, SPILL_BACKEND_DISPLAY);
        def.define(SPILL_DIRECTORY_CONFIG, Type.STRING, null, null,
                Importance.MEDIUM, SPILL_DIRECTORY_DOC, GROUP_SPILL, ++order, Width.LONG, SPILL_DIRECTORY_DISPLAY);
        def.define(SPILL_MEMORY_BUFFER_BYTES_CONFIG, Type.LONG, SPILL_MEMORY_BUFFER_BYTES_DEFAULT,
                ConfigDef.Range.atLeast(0), Importance.LOW, SPILL_MEMORY_BUFFER_BYTES_DOC, GROUP_SPILL, ++order,
                Width.SHORT, SPILL_MEMORY_BUFFER_BYTES_DISPLAY);
        def.define(SPILL_MAX_TRANSACTION_BYTES_CONFIG, Type.LONG, SPILL_MAX_TRANSACTION_BYTES_DEFAULT,
                ConfigDef.Range.atLeast(0), Importance.LOW, SPILL_MAX_TRANSACTION_BYTES_DOC, GROUP_SPILL, ++order,
                Width.SHORT, SPILL_MAX_TRANSACTION_BYTES_DISPLAY);
        def.define(SPILL_MAX_TOTAL_BYTES_CONFIG, Type.LONG, SPILL_MAX_TOTAL_BYTES_DEFAULT,
                ConfigDef.Range.atLeast(0), Importance.LOW, SPILL_MAX_TOTAL_BYTES_DOC, GROUP_SPILL, ++order,
                Width.SHORT, SPILL_MAX_TOTAL_BYTES_DISPLAY);
        def.define(SPILL_DATABASE_SCHEMA_CONFIG, Type.STRING, SPILL_DATABASE_SCHEMA_DEFAULT,
                ConfigValidators.lowercaseIdentifier(),
                Importance.LOW, SPILL_DATABASE_SCHEMA_DOC, GROUP_SPILL, ++order, Width.MEDIUM,
                SPILL_DATABASE_SCHEMA_DISPLAY);

        order = 0;
        def.define(SNAPSHOT_MODE_CONFIG, Type.STRING, SNAPSHOT_MODE_DEFAULT, DebeziumSnapshotModes.validator(),
                Importance.HIGH, SNAPSHOT_MODE_DOC, GROUP_SNAPSHOT, ++order, Width.SHORT, SNAPSHOT_MODE_DISPLAY);
        def.define(SNAPSHOT_MAX_THREADS_CONFIG, Type.INT, SNAPSHOT_MAX_THREADS_DEFAULT, ConfigDef.Range.atLeast(1),
                Importance.LOW, SNAPSHOT_MAX_THREADS_DOC, GROUP_SNAPSHOT, ++order, Width.SHORT,
                SNAPSHOT_MAX_THREADS_DISPLAY);
        def.define(SNAPSHOT_RESUMABLE_CONFIG, Type.BOOLEAN, false, Importance.MEDIUM, SNAPSHOT_RESUMABLE_DOC, GROUP_SNAPSHOT,
                ++order, Width.SHORT, SNAPSHOT_RESUMABLE_DISPLAY);
        def.define(SNAPSHOT_INCLUDE_LIST_CONFIG, Type.LIST, "", ConfigValidators.regexList(),
                Importance.LOW, SNAPSHOT_INCLUDE_LIST_DOC, GROUP_SNAPSHOT, ++order, Width.LONG,
                SNAPSHOT_INCLUDE_LIST_DISPLAY);
        def.define(SNAPSHOT_INCLUDE_COLLECTION_LIST_CONFIG, Type.LIST, "", ConfigValidators.regexList(),
                Importance.LOW, SNAPSHOT_INCLUDE_COLLECTION_LIST_DOC, GROUP_SNAPSHOT, ++order, Width.LONG,
                SNAPSHOT_INCLUDE_COLLECTION_LIST_DISPLAY);

        def.define(INCREMENTAL_SNAPSHOT_CHUNK_SIZE_CONFIG, Type.INT, INCREMENTAL_SNAPSHOT_CHUNK_SIZE_DEFAULT,
                ConfigDef.Range.between(1, 1_000_000), Importance.LOW, INCREMENTAL_SNAPSHOT_CHUNK_SIZE_DOC, GROUP_SNAPSHOT, ++order,
                Width.SHORT, INCREMENTAL_SNAPSHOT_CHUNK_SIZE_DISPLAY);
        def.define(SIGNAL_ENABLED_CHANNELS_CONFIG, Type.LIST, SIGNAL_ENABLED_CHANNELS_DEFAULT, ConfigValidators.signalChannels(),
                Importance.MEDIUM, SIGNAL_ENABLED_CHANNELS_DOC, GROUP_SNAPSHOT, ++order, Width.MEDIUM, SIGNAL_ENABLED_CHANNELS_DISPLAY);
        def.define(SIGNAL_DATA_COLLECTION_CONFIG, Type.STRING, "", ConfigValidators.optionalTableName(),
                Importance.MEDIUM, SIGNAL_DATA_COLLECTION_DOC, GROUP_SNAPSHOT, ++order, Width.MEDIUM, SIGNAL_DATA_COLLECTION_DISPLAY);
        def.define(SIGNAL_MESSAGE_PREFIX_CONFIG, Type.STRING, SIGNAL_MESSAGE_PREFIX_DEFAULT, new ConfigDef.NonEmptyString(),
                Importance.LOW, SIGNAL_MESSAGE_PREFIX_DOC, GROUP_SNAPSHOT, ++order, Width.MEDIUM, SIGNAL_MESSAGE_PREFIX_DISPLAY);
        def.define(SIGNAL_KAFKA_TOPIC_CONFIG, Type.STRING, "", null,
                Importance.MEDIUM, SIGNAL_KAFKA_TOPIC_DOC, GROUP_SNAPSHOT, ++order, Width.MEDIUM, SIGNAL_KAFKA_TOPIC_DISPLAY);
        def.define(SIGNAL_KAFKA_BOOTSTRAP_SERVERS_CONFIG, Type.STRING, "", null,
                Importance.MEDIUM, SIGNAL_KAFKA_BOOTSTRAP_SERVERS_DOC, GROUP_SNAPSHOT, ++order, Width.LONG,
                SIGNAL_KAFKA_BOOTSTRAP_SERVERS_DISPLAY);
        def.define(SIGNAL_KAFKA_GROUP_ID_CONFIG, Type.STRING, SIGNAL_KAFKA_GROUP_ID_DEFAULT, new ConfigDef.NonEmptyString(),
                Importance.LOW, SIGNAL_KAFKA_GROUP_ID_DOC, GROUP_SNAPSHOT, ++order, Width.MEDIUM, SIGNAL_KAFKA_GROUP_ID_DISPLAY);
        def.define(SIGNAL_KAFKA_POLL_TIMEOUT_MS_CONFIG, Type.INT, SIGNAL_KAFKA_POLL_TIMEOUT_MS_DEFAULT, ConfigDef.Range.atLeast(1),
                Importance.LOW, SIGNAL_KAFKA_POLL_TIMEOUT_MS_DOC, GROUP_SNAPSHOT, ++order, Width.SHORT,
                SIGNAL_KAFKA_POLL_TIMEOUT_MS_DISPLAY);
        def.define(SNAPSHOT_NEW_TABLES_CONFIG, Type.STRING, SNAPSHOT_NEW_TABLES_DEFAULT, ConfigChoices.NEW_TABLE_SNAPSHOTS.validator(),
                Importance.MEDIUM, SNAPSHOT_NEW_TABLES_DOC, GROUP_SNAPSHOT, ++order, Width.SHORT, SNAPSHOT_NEW_TABLES_DISPLAY);
        def.define(READ_ONLY_CONFIG, Type.BOOLEAN, READ_ONLY_DEFAULT, Importance.LOW, READ_ONLY_DOC, GROUP_SNAPSHOT, ++order,
                Width.SHORT, READ_ONLY_DISPLAY);

        order = 0;
        def.define(MAX_BATCH_SIZE_CONFIG, Type.INT, MAX_BATCH_SIZE_DEFAULT, ConfigDef.Range.atLeast(1),
                Importance.LOW, MAX_BATCH_SIZE_DOC, GROUP_THROUGHPUT, ++order, Width.SHORT, MAX_BATCH_SIZE_DISPLAY);
        def.define(MAX_QUEUE_SIZE_CONFIG, Type.INT, MAX_QUEUE_SIZE_DEFAULT, ConfigDef.Range.atLeast(2),
                Importance.LOW, MAX_QUEUE_SIZE_DOC, GROUP_THROUGHPUT, ++order, Width.SHORT, MAX_QUEUE_SIZE_DISPLAY);
        def.define(TRANSACTION_MAX_RECORDS_CONFIG, Type.INT, TRANSACTION_MAX_RECORDS_DEFAULT, ConfigDef.Range.atLeast(1),
                Importance.LOW, TRANSACTION_MAX_RECORDS_DOC, GROUP_THROUGHPUT, ++order, Width.SHORT,
                TRANSACTION_MAX_RECORDS_DISPLAY);
        def.define(TRANSACTION_BATCH_MAX_DELIVERIES_CONFIG, Type.INT, TRANSACTION_BATCH_MAX_DELIVERIES_DEFAULT,
                ConfigDef.Range.atLeast(1), Importance.LOW, TRANSACTION_BATCH_MAX_DELIVERIES_DOC, GROUP_THROUGHPUT, ++order,
                Width.SHORT, TRANSACTION_BATCH_MAX_DELIVERIES_DISPLAY);
        return def;
    }

    // ---- Construction -------------------------------------------------------------------------------------

    /**
     * @throws ConfigException for the first single-key or cross-key problem, naming its key
     */
    public PgOutputSourceConnectorConfig(Map<?, ?> props) {
        this(props, true);
    }

    /**
     * @param crossKeyRules false only for the live checks of a validation that found static errors
     *                      ({@link PgOutputSourceConnector#validate}): those already name every cross-key problem
     */
    private PgOutputSourceConnectorConfig(Map<?, ?> props, boolean crossKeyRules) {
        super(CONFIG_DEF, given(props));
        if (crossKeyRules) {
            CrossKeyRules.requireNone(values(), originals());
        }
    }

    /**
     * {@code props} without its empty values ({@link EmptyValues}); a missing {@code topic.prefix} whose pre-2.0 name is
     * given fails here, with what to write, before ConfigDef says only that it is missing.
     */
    @SuppressWarnings("unchecked")
    private static Map<?, ?> given(Map<?, ?> props) {
        Map<?, ?> given = EmptyValues.removed(props);
        LegacyDebeziumKeys.missingTopicPrefix((Map<String, ?>) given).ifPresent(problem -> {
            throw new ConfigException(problem.key() + ": " + problem.message());
        });
        return given;
    }

    /**
     * A configuration for the live checks of a validation that reported static errors: {@code props} holds only keys
     * whose values passed their single-key checks, so it parses, but cross-key problems are not enforced again.
     */
    public static PgOutputSourceConnectorConfig forLiveChecks(Map<String, String> props) {
        return new PgOutputSourceConnectorConfig(props, false);
    }

    // ---- Typed accessors -----------------------------------------------------------------------------------

    public String databaseHostname() {
        return getString(DATABASE_HOSTNAME_CONFIG);
    }

    public int databasePort() {
        return getInt(DATABASE_PORT_CONFIG);
    }

    public String databaseUser() {
        return getString(DATABASE_USER_CONFIG);
    }

    /** The password, or null when none is configured. {@link Password#toString()} prints {@code [hidden]}. */
    public Password databasePassword() {
        return getPassword(DATABASE_PASSWORD_CONFIG);
    }

    public String databaseDbname() {
        return getString(DATABASE_DBNAME_CONFIG);
    }

    public SslMode databaseSslmode() {
        return ConfigChoices.SSL_MODE.parse(DATABASE_SSLMODE_CONFIG, getString(DATABASE_SSLMODE_CONFIG));
    }

    /** Null when unset (pgjdbc's default applies). */
    public String databaseSslrootcert() {
        return getString(DATABASE_SSLROOTCERT_CONFIG);
    }

    /** Null when unset (pgjdbc's default applies). */
    public String databaseSslcert() {
        return getString(DATABASE_SSLCERT_CONFIG);
    }

    /** Null when unset (pgjdbc's default applies). */
    public String databaseSslkey() {
        return getString(DATABASE_SSLKEY_CONFIG);
    }

    /** The client key's password, or null when none is configured; prints as {@code [hidden]}. */
    public Password databaseSslpassword() {
        return getPassword(DATABASE_SSLPASSWORD_CONFIG);
    }

    public String slotName() {
        return getString(SLOT_NAME_CONFIG);
    }

    public String publicationName() {
        return getString(PUBLICATION_NAME_CONFIG);
    }

    public PublicationMode publicationAutocreateMode() {
        return ConfigChoices.PUBLICATION_AUTOCREATE_MODE.parse(PUBLICATION_AUTOCREATE_MODE_CONFIG,
                getString(PUBLICATION_AUTOCREATE_MODE_CONFIG));
    }

    public ProtocolVersionSetting protocolVersion() {
        return ConfigChoices.PROTOCOL_VERSION.parse(PROTOCOL_VERSION_CONFIG,
                getString(PROTOCOL_VERSION_CONFIG));
    }

    /** The requested pgoutput {@code streaming} option; empty for {@code auto} (see {@link ConnectorSettings}). */
    public Optional<StreamingMode> streaming() {
        return ConfigChoices.STREAMING.parse(STREAMING_CONFIG, getString(STREAMING_CONFIG));
    }

    public PreparedTransactionMode preparedTransactionMode() {
        return ConfigChoices.PREPARED_TRANSACTION_MODE.parse(PREPARED_TRANSACTION_MODE_CONFIG,
                getString(PREPARED_TRANSACTION_MODE_CONFIG));
    }

    /** {@code skipped.operations}: the ops (c, u, d, t, r) to skip; empty for {@code none}. */
    public Set<String> skippedOperations() {
        return getList(SKIPPED_OPERATIONS_CONFIG).stream().map(String::trim)
                .filter(op -> !op.equals(SKIPPED_OPERATIONS_NONE)).collect(Collectors.toUnmodifiableSet());
    }

    public boolean extendedHeadersEnabled() {
        return getBoolean(EXTENDED_HEADERS_ENABLED_CONFIG);
    }

    public List<Pattern> messagePrefixIncludeList() {
        return patterns(MESSAGE_PREFIX_INCLUDE_LIST_CONFIG);
    }

    public List<Pattern> messagePrefixExcludeList() {
        return patterns(MESSAGE_PREFIX_EXCLUDE_LIST_CONFIG);
    }

    /**
     * Whether the connector configuration asks Connect for exactly-once ({@code exactly.once.support=required}, a key of
     * Connect's own that it passes on to the connector and task): the snapshot is then resumable, read in key order and
     * continued after a crash instead of taken again.
     */
    public boolean exactlyOnceRequired() {
        Object value = originals().get(ConnectKeys.EXACTLY_ONCE_SUPPORT_CONFIG);
        return value != null && value.toString().trim().equalsIgnoreCase("required");
    }

    /**
     * Whether the initial snapshot is resumable ({@code snapshot.resumable}, always with
     * {@link #exactlyOnceRequired()}): read in key order and continued after an interruption instead of taken again.
     */
    public boolean snapshotResumable() {
        return getBoolean(SNAPSHOT_RESUMABLE_CONFIG) || exactlyOnceRequired();
    }

    public boolean slotFailover() {
        return getBoolean(SLOT_FAILOVER_CONFIG);
    }

    public boolean messagesEnabled() {
        return getBoolean(MESSAGES_ENABLED_CONFIG);
    }

    public int statusUpdateIntervalMs() {
        return getInt(STATUS_UPDATE_INTERVAL_MS_CONFIG);
    }

    public int slotMaxRetries() {
        return getInt(SLOT_MAX_RETRIES_CONFIG);
    }

    public long slotRetryDelayMs() {
        return getLong(SLOT_RETRY_DELAY_MS_CONFIG);
    }

    /** {@code errors.max.retries}: consecutive retries of transient connection failures; -1 for no limit. */
    public int errorsMaxRetries() {
        return getInt(ERRORS_MAX_RETRIES_CONFIG);
    }

    /** The compiled {@code table.include.list}; empty means every table the publication sends. */
    public List<Pattern> tableIncludeList() {
        return patterns(TABLE_INCLUDE_LIST_CONFIG);
    }

    public List<Pattern> tableExcludeList() {
        return patterns(TABLE_EXCLUDE_LIST_CONFIG);
    }

    /** The compiled {@code schema.include.list}; empty means tables of every schema. */
    public List<Pattern> schemaIncludeList() {
        return patterns(SCHEMA_INCLUDE_LIST_CONFIG);
    }

    public List<Pattern> schemaExcludeList() {
        return patterns(SCHEMA_EXCLUDE_LIST_CONFIG);
    }

    /**
     * Which columns reach before and after ({@code column.include.list} / {@code column.exclude.list}); compiles the
     * expressions on each call.
     */
    public ColumnSelection columnSelection() {
        String include = getString(COLUMN_INCLUDE_LIST_CONFIG);
        return include != null ? ColumnSelection.including(RegexList.parse(include))
                : ColumnSelection.excluding(RegexList.parse(getString(COLUMN_EXCLUDE_LIST_CONFIG)));
    }

    /**
     * What the column keys do ({@link ColumnShapingKeys#shaping}); loads and configures the custom converters anew on
     * each call, from the class loader of this connector's plugin.
     */
    public ColumnShaping columnShaping() {
        return ColumnShapingKeys.shaping(this);
    }

    public String topicPrefix() {
        return getString(TOPIC_PREFIX_CONFIG);
    }

    public boolean tombstonesOnDelete() {
        return getBoolean(TOMBSTONES_ON_DELETE_CONFIG);
    }

    /** The parsed {@code message.key.columns}; {@link MessageKeyColumns#NONE} when empty. */
    public MessageKeyColumns messageKeyColumns() {
        return MessageKeyColumns.parse(getString(MESSAGE_KEY_COLUMNS_CONFIG));
    }

    /** The placeholder text; Debezium's {@code hex:} form decoded. */
    public String unavailableValuePlaceholder() {
        return ConfigValidators.placeholderText(getString(UNAVAILABLE_VALUE_PLACEHOLDER_CONFIG));
    }

    public DecimalHandlingMode decimalHandlingMode() {
        return ConfigChoices.DECIMAL_HANDLING_MODE.parse(DECIMAL_HANDLING_MODE_CONFIG,
                getString(DECIMAL_HANDLING_MODE_CONFIG));
    }

    public TemporalPrecisionMode timePrecisionMode() {
        return ConfigChoices.TIME_PRECISION_MODE.parse(TIME_PRECISION_MODE_CONFIG, getString(TIME_PRECISION_MODE_CONFIG));
    }

    public IntervalHandlingMode intervalHandlingMode() {
        return ConfigChoices.INTERVAL_HANDLING_MODE.parse(INTERVAL_HANDLING_MODE_CONFIG,
                getString(INTERVAL_HANDLING_MODE_CONFIG));
    }

    public HStoreHandlingMode hstoreHandlingMode() {
        return ConfigChoices.HSTORE_HANDLING_MODE.parse(HSTORE_HANDLING_MODE_CONFIG,
                getString(HSTORE_HANDLING_MODE_CONFIG));
    }

    public BinaryHandlingMode binaryHandlingMode() {
        return ConfigChoices.BINARY_HANDLING_MODE.parse(BINARY_HANDLING_MODE_CONFIG,
                getString(BINARY_HANDLING_MODE_CONFIG));
    }

    public DirectEncoding directEncoding() {
        return ConfigChoices.DIRECT_ENCODING.parse(DIRECT_ENCODING_CONFIG, getString(DIRECT_ENCODING_CONFIG));
    }

    public int moneyFractionDigits() {
        return getInt(MONEY_FRACTION_DIGITS_CONFIG);
    }

    public boolean provideTransactionMetadata() {
        return getBoolean(PROVIDE_TRANSACTION_METADATA_CONFIG);
    }

    /** 0 means heartbeats are off. */
    public int heartbeatIntervalMs() {
        return getInt(HEARTBEAT_INTERVAL_MS_CONFIG);
    }

    public String topicHeartbeatPrefix() {
        return getString(TOPIC_HEARTBEAT_PREFIX_CONFIG);
    }

    /** {@code topic.heartbeat.name}; empty when unset. */
    public Optional<String> topicHeartbeatName() {
        String name = getString(TOPIC_HEARTBEAT_NAME_CONFIG);
        return name == null || name.isBlank() ? Optional.empty() : Optional.of(name.trim());
    }

    /**
     * {@code unchanged.toast.resolution}; unset: {@code store} when Debezium's reselect post processor is configured
     * ({@link DebeziumReselect}), else {@code none}.
     */
    public UnchangedToastResolution unchangedToastResolution() {
        String configured = getString(UNCHANGED_TOAST_RESOLUTION_CONFIG);
        if (configured != null && !configured.isBlank()) {
            return ConfigChoices.UNCHANGED_TOAST_RESOLUTION.parse(UNCHANGED_TOAST_RESOLUTION_CONFIG, configured);
        }
        return DebeziumReselect.of(originals()).map(DebeziumReselect::resolution).orElse(UnchangedToastResolution.NONE);
    }

    /** {@code toast.store.directory}; empty when unset ({@link ConnectorSettings#toastStore} applies the default). */
    public Optional<Path> toastStoreDirectory() {
        String configured = getString(TOAST_STORE_DIRECTORY_CONFIG);
        return configured == null || configured.isBlank() ? Optional.empty() : Optional.of(Path.of(configured));
    }

    public long toastStoreMaxDiskBytes() {
        return getLong(TOAST_STORE_MAX_DISK_BYTES_CONFIG);
    }

    public long toastStoreMemoryBytes() {
        return getLong(TOAST_STORE_MEMORY_BYTES_CONFIG);
    }

    public int toastStoreMinValueBytes() {
        return getInt(TOAST_STORE_MIN_VALUE_BYTES_CONFIG);
    }

    public int toastReselectBatchSize() {
        return getInt(TOAST_RESELECT_BATCH_SIZE_CONFIG);
    }

    /** {@link SpillSettings#DISK_BACKEND}, {@link SpillSettings#DATABASE_BACKEND}, or a class name. */
    public String spillBackend() {
        return getString(SPILL_BACKEND_CONFIG);
    }

    /** {@code spill.directory}; empty when unset ({@link ConnectorSettings#spill} applies the default). */
    public Optional<Path> spillDirectory() {
        String configured = getString(SPILL_DIRECTORY_CONFIG);
        return configured == null || configured.isBlank() ? Optional.empty() : Optional.of(Path.of(configured));
    }

    public long spillMemoryBufferBytes() {
        return getLong(SPILL_MEMORY_BUFFER_BYTES_CONFIG);
    }

    /** 0 means no per-transaction limit. */
    public long spillMaxTransactionBytes() {
        return getLong(SPILL_MAX_TRANSACTION_BYTES_CONFIG);
    }

    /** 0 means no limit. */
    public long spillMaxTotalBytes() {
        return getLong(SPILL_MAX_TOTAL_BYTES_CONFIG);
    }

    public String spillDatabaseSchema() {
        return getString(SPILL_DATABASE_SCHEMA_CONFIG);
    }

    /** The snapshot mode; Debezium's old names and {@code configuration_based} resolved ({@link DebeziumSnapshotModes}). */
    public SnapshotMode snapshotMode() {
        return DebeziumSnapshotModes.resolve(getString(SNAPSHOT_MODE_CONFIG), originals());
    }

    public NewTableSnapshots snapshotNewTables() {
        return ConfigChoices.NEW_TABLE_SNAPSHOTS.parse(SNAPSHOT_NEW_TABLES_CONFIG, getString(SNAPSHOT_NEW_TABLES_CONFIG));
    }

    public int incrementalSnapshotChunkSize() {
        return getInt(INCREMENTAL_SNAPSHOT_CHUNK_SIZE_CONFIG);
    }

    /** The signal channels enabled, lower case. */
    public java.util.Set<String> signalChannels() {
        java.util.Set<String> channels = new java.util.LinkedHashSet<>();
        for (String c : getList(SIGNAL_ENABLED_CHANNELS_CONFIG)) {
            channels.add(c.trim().toLowerCase(java.util.Locale.ROOT));
        }
        return channels;
    }

    /** The signal table, or null for none (or when the source channel is not enabled). */
    public io.github.pgoutput.replication.TableName signalDataCollection() {
        String text = getString(SIGNAL_DATA_COLLECTION_CONFIG);
        if (text == null || text.isBlank() || !signalChannels().contains(ConfigValidators.SIGNAL_CHANNEL_SOURCE)) {
            return null;
        }
        return ConfigValidators.signalTable(text);
    }

    /** The prefix of signal messages, or null when the message channel is not enabled. */
    public String signalMessagePrefix() {
        return signalChannels().contains(ConfigValidators.SIGNAL_CHANNEL_MESSAGE) ? getString(SIGNAL_MESSAGE_PREFIX_CONFIG) : null;
    }

    /** Whether the Kafka signal channel is enabled. */
    public boolean kafkaSignals() {
        return signalChannels().contains(ConfigValidators.SIGNAL_CHANNEL_KAFKA);
    }

    /** {@code signal.kafka.topic}, or {@code <topic.prefix>-signal} when it is empty. */
    public String signalKafkaTopic() {
        String topic = getString(SIGNAL_KAFKA_TOPIC_CONFIG);
        return topic == null || topic.isBlank() ? topicPrefix() + "-signal" : topic.trim();
    }

    /** The signal topic consumer's settings: brokers, group id, and the {@code signal.consumer.*} ones. */
    public Map<String, Object> signalConsumerProperties() {
        Map<String, Object> props = new java.util.HashMap<>(originalsWithPrefix(SIGNAL_CONSUMER_PREFIX));
        props.put("bootstrap.servers", getString(SIGNAL_KAFKA_BOOTSTRAP_SERVERS_CONFIG));
        props.put("group.id", getString(SIGNAL_KAFKA_GROUP_ID_CONFIG));
        return props;
    }

    public int signalKafkaPollTimeoutMs() {
        return getInt(SIGNAL_KAFKA_POLL_TIMEOUT_MS_CONFIG);
    }

    public int snapshotMaxThreads() {
        return getInt(SNAPSHOT_MAX_THREADS_CONFIG);
    }

    /**
     * The compiled {@code snapshot.include.list}, or Debezium's {@code snapshot.include.collection.list} when only that
     * is set; empty means all captured tables.
     */
    public List<Pattern> snapshotIncludeList() {
        List<Pattern> ours = patterns(SNAPSHOT_INCLUDE_LIST_CONFIG);
        return ours.isEmpty() ? patterns(SNAPSHOT_INCLUDE_COLLECTION_LIST_CONFIG) : ours;
    }

    /** The parsed {@code replica.identity.autoset.values}; empty when unset. */
    public List<ReplicaIdentityAutoset.Entry> replicaIdentityAutosetValues() {
        return ReplicaIdentityAutoset.parse(getString(REPLICA_IDENTITY_AUTOSET_VALUES_CONFIG));
    }

    public int maxBatchSize() {
        return getInt(MAX_BATCH_SIZE_CONFIG);
    }

    public int maxQueueSize() {
        return getInt(MAX_QUEUE_SIZE_CONFIG);
    }

    public int transactionMaxRecords() {
        return getInt(TRANSACTION_MAX_RECORDS_CONFIG);
    }

    public int transactionBatchMaxDeliveries() {
        return getInt(TRANSACTION_BATCH_MAX_DELIVERIES_CONFIG);
    }

    /** Debezium matches its lists ignoring case, so these do too. */
    private List<Pattern> patterns(String key) {
        return getList(key).stream().map(p -> Pattern.compile(p, Pattern.CASE_INSENSITIVE)).toList();
    }

    /** The settings the numbering of a delivery's records depends on (the fingerprint stored in source offsets). */
    public RecordNumbering.Settings recordNumbering() {
        return new RecordNumbering.Settings(tableIncludeList(), tableExcludeList(), tombstonesOnDelete(),
                provideTransactionMetadata(), messagesEnabled(), preparedTransactionMode(),
                getString(MESSAGE_KEY_COLUMNS_CONFIG), skippedOperations(), messagePrefixIncludeList(),
                messagePrefixExcludeList(), schemaIncludeList(), schemaExcludeList());
    }

    /** The names of the topics the connector writes to. */
    public TopicNames topicNames() {
        return new TopicNames(topicPrefix(), topicHeartbeatPrefix(), topicHeartbeatName().orElse(null));
    }
}
