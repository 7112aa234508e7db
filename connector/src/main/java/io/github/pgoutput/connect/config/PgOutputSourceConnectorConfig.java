package io.github.pgoutput.connect.config;

import static io.github.pgoutput.connect.config.ColumnKeys.*;
import static io.github.pgoutput.connect.config.DatabaseKeys.*;
import static io.github.pgoutput.connect.config.RecordKeys.*;
import static io.github.pgoutput.connect.config.ReplicationKeys.*;
import static io.github.pgoutput.connect.config.SnapshotKeys.*;
import static io.github.pgoutput.connect.config.SpillKeys.*;
import static io.github.pgoutput.connect.config.TableKeys.*;
import static io.github.pgoutput.connect.config.ThroughputKeys.*;
import static io.github.pgoutput.connect.config.ToastKeys.*;

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
 * The connector's whole configuration, read through the typed accessors below. Each key is declared once, with its
 * documentation, default, order and single-key validator, in the class of its group ({@link DatabaseKeys},
 * {@link ReplicationKeys}, {@link TableKeys}, {@link ColumnKeys}, {@link RecordKeys}, {@link ToastKeys},
 * {@link SpillKeys}, {@link SnapshotKeys}, {@link ThroughputKeys}); Connect's own keys are {@link ConnectKeys}. The accepted values of enum-valued
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

    // ---- The ConfigDef: the keys, declared by group -------------------------------------------------------

    public static final ConfigDef CONFIG_DEF = configDef();

    private static ConfigDef configDef() {
        ConfigDef def = new ConfigDef();
        DatabaseKeys.define(def);
        ReplicationKeys.define(def);
        TableKeys.define(def);
        ColumnKeys.define(def);
        RecordKeys.define(def);
        ToastKeys.define(def);
        SpillKeys.define(def);
        SnapshotKeys.define(def);
        ThroughputKeys.define(def);
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
