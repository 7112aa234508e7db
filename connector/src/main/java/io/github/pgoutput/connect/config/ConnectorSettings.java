package io.github.pgoutput.connect.config;

import io.github.pgoutput.assembly.PreparedTransactionMode;
import io.github.pgoutput.converters.ConverterOptions;
import io.github.pgoutput.pgoutput.StreamingMode;
import io.github.pgoutput.replication.OriginFilter;
import io.github.pgoutput.replication.PublicationMode;
import io.github.pgoutput.replication.ReplicationSettings;
import io.github.pgoutput.replication.Setting;
import io.github.pgoutput.replication.TableName;
import io.github.pgoutput.spill.SpillSettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.BiPredicate;
import java.util.regex.Pattern;

/**
 * The one place that maps the connector configuration onto the settings of the layers below it: replication
 * ({@link ReplicationSettings}), the transaction spill ({@link SpillSettings}), the value converters
 * ({@link ConverterOptions}), and back from a replication {@link Setting} to the config key a user has to change.
 *
 * <p>Stateless and thread-safe.
 */
public final class ConnectorSettings {

    private static final Map<Setting, String> KEYS = Map.ofEntries(
            Map.entry(Setting.HOSTNAME, DatabaseKeys.DATABASE_HOSTNAME_CONFIG),
            Map.entry(Setting.PORT, DatabaseKeys.DATABASE_PORT_CONFIG),
            Map.entry(Setting.USER, DatabaseKeys.DATABASE_USER_CONFIG),
            Map.entry(Setting.PASSWORD, DatabaseKeys.DATABASE_PASSWORD_CONFIG),
            Map.entry(Setting.DBNAME, DatabaseKeys.DATABASE_DBNAME_CONFIG),
            Map.entry(Setting.SSL, DatabaseKeys.DATABASE_SSLMODE_CONFIG),
            Map.entry(Setting.SSL_ROOT_CERT, DatabaseKeys.DATABASE_SSLROOTCERT_CONFIG),
            Map.entry(Setting.SSL_CLIENT_CERT, DatabaseKeys.DATABASE_SSLCERT_CONFIG),
            Map.entry(Setting.SSL_CLIENT_KEY, DatabaseKeys.DATABASE_SSLKEY_CONFIG),
            Map.entry(Setting.SSL_KEY_PASSWORD, DatabaseKeys.DATABASE_SSLPASSWORD_CONFIG),
            Map.entry(Setting.SLOT_NAME, ReplicationKeys.SLOT_NAME_CONFIG),
            Map.entry(Setting.SLOT_FAILOVER, ReplicationKeys.SLOT_FAILOVER_CONFIG),
            Map.entry(Setting.PUBLICATION_NAME, ReplicationKeys.PUBLICATION_NAME_CONFIG),
            Map.entry(Setting.PUBLICATION_AUTOCREATE_MODE, ReplicationKeys.PUBLICATION_AUTOCREATE_MODE_CONFIG),
            Map.entry(Setting.PUBLICATION_TABLES, TableKeys.TABLE_INCLUDE_LIST_CONFIG),
            Map.entry(Setting.REPLICA_IDENTITY, ReplicationKeys.REPLICA_IDENTITY_AUTOSET_VALUES_CONFIG),
            Map.entry(Setting.PROTOCOL_VERSION, ReplicationKeys.PROTOCOL_VERSION_CONFIG),
            Map.entry(Setting.STREAMING, ReplicationKeys.STREAMING_CONFIG),
            Map.entry(Setting.TWO_PHASE, ReplicationKeys.PREPARED_TRANSACTION_MODE_CONFIG),
            Map.entry(Setting.BINARY, ReplicationKeys.PROTOCOL_VERSION_CONFIG),
            Map.entry(Setting.MESSAGES, ReplicationKeys.MESSAGES_ENABLED_CONFIG),
            Map.entry(Setting.ORIGIN, ReplicationKeys.PROTOCOL_VERSION_CONFIG),
            Map.entry(Setting.STATUS_INTERVAL, ReplicationKeys.STATUS_UPDATE_INTERVAL_MS_CONFIG),
            Map.entry(Setting.KEEPALIVE_GUARD_INTERVAL, ReplicationKeys.STATUS_UPDATE_INTERVAL_MS_CONFIG));

    /** Connect's own key for the connector's name, in the configuration it passes to the connector and its task. */
    private static final String CONNECTOR_NAME_PROPERTY = "name";

    private ConnectorSettings() {
    }

    /** The config key to attach a problem with {@code setting} to. */
    public static String keyOf(Setting setting) {
        return KEYS.get(setting);
    }

    /**
     * @param filteredTables the tables a {@code filtered} publication is created for (those matching the include and
     *                       exclude lists, at least one); ignored in the other modes
     */
    public static ReplicationSettings replication(PgOutputSourceConnectorConfig config, List<TableName> filteredTables) {
        return settings(config, config.publicationAutocreateMode(), filteredTables);
    }

    /**
     * The settings for reaching the database only (catalog queries, listing the tables of a filtered publication,
     * the database spill): the publication is never created through them, so no table list is needed yet.
     */
    public static ReplicationSettings connection(PgOutputSourceConnectorConfig config) {
        return settings(config, PublicationMode.DISABLED, List.of());
    }

    /**
     * The settings with {@code mode} for the publication and no table list: validation's stand-in for a filtered
     * publication that would hold no table, which it has reported already.
     */
    public static ReplicationSettings withPublicationMode(PgOutputSourceConnectorConfig config, PublicationMode mode) {
        return settings(config, mode, List.of());
    }

    private static ReplicationSettings settings(PgOutputSourceConnectorConfig config, PublicationMode mode, List<TableName> filteredTables) {
        int protocol = config.protocolVersion().fixedVersion().orElse(ReplicationSettings.AUTO_PROTOCOL_VERSION);
        // Every supported server speaks protocol 2, so auto means on unless protocol 1 was fixed.
        StreamingMode streaming = config.streaming().orElse(protocol == 1 ? StreamingMode.OFF : StreamingMode.ON);
        ReplicationSettings.Builder builder = ReplicationSettings.builder(config.databaseHostname(), config.databasePort(),
                        config.databaseDbname(), config.databaseUser(), config.slotName(), config.publicationName())
                .publication(mode, mode == PublicationMode.FILTERED ? filteredTables : List.of())
                .protocolVersion(protocol)
                .streaming(streaming)
                .twoPhase(config.preparedTransactionMode() == PreparedTransactionMode.STAGE)
                .failover(config.slotFailover())
                .messages(config.messagesEnabled())
                .origin(OriginFilter.SERVER_DEFAULT)
                .statusInterval(Duration.ofMillis(config.statusUpdateIntervalMs()))
                .applicationName(applicationName(config));
        if (config.databasePassword() != null) {
            builder.password(config.databasePassword().value());
        }
        if (config.databaseSslmode() != null) {
            builder.ssl(config.databaseSslmode().configValue(), config.databaseSslrootcert(), config.databaseSslcert(),
                    config.databaseSslkey());
        }
        if (config.databaseSslpassword() != null) {
            builder.sslPassword(config.databaseSslpassword().value());
        }
        return builder.build();
    }

    /**
     * {@code kafka-connect-pgoutput:<connector name>} when Connect passed the connector's name (it does, to the
     * connector, its validation and its task), else the default naming the slot. It lets validation recognise the
     * connector's own running session on the slot.
     */
    static String applicationName(PgOutputSourceConnectorConfig config) {
        Object name = config.originals().get(CONNECTOR_NAME_PROPERTY);
        String full = name instanceof String text && !text.isBlank() ? "kafka-connect-pgoutput:" + text
                : ReplicationSettings.defaultApplicationName(config.slotName());
        // PostgreSQL keeps at most 63 bytes of it (NAMEDATALEN - 1), cut at a character boundary; cut the same way,
        // so that what pg_stat_activity shows compares equal.
        StringBuilder kept = new StringBuilder();
        int bytes = 0;
        for (int cp : full.codePoints().toArray()) {
            int size = new String(Character.toChars(cp)).getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
            if (bytes + size > 63) {
                break;
            }
            kept.appendCodePoint(cp);
            bytes += size;
        }
        return kept.toString();
    }

    public static SpillSettings spill(PgOutputSourceConnectorConfig config) {
        long perTransaction = config.spillMaxTransactionBytes() == 0 ? SpillSettings.UNLIMITED : config.spillMaxTransactionBytes();
        long total = config.spillMaxTotalBytes() == 0 ? SpillSettings.UNLIMITED : config.spillMaxTotalBytes();
        int buffer = (int) Math.min(Integer.MAX_VALUE, config.spillMemoryBufferBytes());
        Path directory = config.spillDirectory().orElseGet(() -> SpillSettings.defaultDirectory(config.slotName()));
        return new SpillSettings(config.spillBackend(), directory, buffer, perTransaction, total,
                config.spillDatabaseSchema());
    }

    public static ConverterOptions converters(PgOutputSourceConnectorConfig config) {
        return new ConverterOptions(config.decimalHandlingMode(), config.unavailableValuePlaceholder(),
                config.moneyFractionDigits(), config.timePrecisionMode(), config.intervalHandlingMode(),
                config.binaryHandlingMode(), config.hstoreHandlingMode());
    }

    /**
     * Whether {@code schema.table} is captured: its schema is selected by {@code schema.include.list} and
     * {@code schema.exclude.list}, and its {@code schema.table} name by {@code table.include.list} and
     * {@code table.exclude.list} (as Debezium combines them). Compiles the expressions on each call; see
     * {@link #tableSelection}.
     */
    public static boolean captured(PgOutputSourceConnectorConfig config, String schema, String table) {
        return tableSelection(config).test(schema, table);
    }

    /** {@link #captured(PgOutputSourceConnectorConfig, String, String)} with the expressions compiled once. */
    public static BiPredicate<String, String> tableSelection(PgOutputSourceConnectorConfig config) {
        List<Pattern> schemaInclude = config.schemaIncludeList();
        List<Pattern> schemaExclude = config.schemaExcludeList();
        List<Pattern> tableInclude = config.tableIncludeList();
        List<Pattern> tableExclude = config.tableExcludeList();
        return (schema, table) -> captured(schemaInclude, schemaExclude, schema)
                && captured(tableInclude, tableExclude, schema + "." + table);
    }

    public static boolean captured(List<Pattern> include, List<Pattern> exclude, String qualifiedName) {
        if (!include.isEmpty() && include.stream().noneMatch(p -> p.matcher(qualifiedName).matches())) {
            return false;
        }
        return exclude.stream().noneMatch(p -> p.matcher(qualifiedName).matches());
    }
}
