package io.github.pgoutput.connect;

import static io.github.pgoutput.connect.config.ConnectKeys.EXACTLY_ONCE_SUPPORT_CONFIG;
import static io.github.pgoutput.connect.config.ConnectKeys.PRODUCER_TRANSACTION_TIMEOUT_CONFIG;
import static io.github.pgoutput.connect.config.ConnectKeys.TRANSACTION_BOUNDARY_CONFIG;

import io.github.pgoutput.connect.config.ConfigChoices;
import io.github.pgoutput.connect.config.ConfigProblem;
import io.github.pgoutput.connect.config.ConfigWarnings;
import io.github.pgoutput.connect.config.CrossKeyRules;
import io.github.pgoutput.connect.config.DatabaseKeys;
import io.github.pgoutput.connect.config.DebeziumSnapshotModes;
import io.github.pgoutput.connect.config.EmptyValues;
import io.github.pgoutput.connect.config.PgOutputSourceConnectorConfig;
import io.github.pgoutput.connect.config.RecordKeys;
import io.github.pgoutput.connect.config.SnapshotKeys;
import io.github.pgoutput.snapshot.SnapshotMode;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import org.apache.kafka.common.config.Config;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.ConfigValue;
import org.apache.kafka.connect.connector.Task;
import org.apache.kafka.connect.source.ConnectorTransactionBoundaries;
import org.apache.kafka.connect.source.ExactlyOnceSupport;
import org.apache.kafka.connect.source.SourceConnector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Kafka Connect entry point: declares the configuration, validates it (static rules always, live checks when a
 * {@link LiveChecks} is given) and hands exactly one task the whole configuration, because one replication slot can
 * be read by only one client at a time.
 */
public class PgOutputSourceConnector extends SourceConnector {

    private static final Logger log = LoggerFactory.getLogger(PgOutputSourceConnector.class);
    private static final String VERSION = readVersion();

    private final LiveChecks liveChecks;
    private Map<String, String> props;

    /** The constructor Connect uses: static checks, then the pre-flight checks against the live database. */
    public PgOutputSourceConnector() {
        this(new PreflightLiveChecks());
    }

    /** @param liveChecks checks against the live database, or null for static checks only */
    PgOutputSourceConnector(LiveChecks liveChecks) {
        this.liveChecks = liveChecks;
    }

    @Override
    public String version() {
        return VERSION;
    }

    @Override
    public ConfigDef config() {
        return PgOutputSourceConnectorConfig.CONFIG_DEF;
    }

    /**
     * Single-key and cross-key rules, each error attached to its key; then, when live checks are wired in, the live
     * checks, also when static errors were found, so that one validation shows every problem: they run on the keys
     * that passed their static checks (the others at their defaults), and their problems on keys that already have an
     * error are left out. Only when a connection key itself is wrong ({@link #CONNECTION_KEYS}) is there nothing to
     * check live. Empty values are unset keys ({@link EmptyValues}).
     */
    @Override
    public Config validate(Map<String, String> connectorConfigs) {
        Map<String, String> given = EmptyValues.removed(connectorConfigs);
        Config config = CrossKeyRules.validate(given);
        if (liveChecks != null) {
            addLiveProblems(given, config);
        }
        checkConnectorBoundaries(given, config);
        warn(given);
        return config;
    }

    /** The keys without which the live checks cannot reach the server. */
    static final Set<String> CONNECTION_KEYS = Set.of(DatabaseKeys.DATABASE_HOSTNAME_CONFIG,
            DatabaseKeys.DATABASE_PORT_CONFIG, DatabaseKeys.DATABASE_USER_CONFIG,
            DatabaseKeys.DATABASE_PASSWORD_CONFIG, DatabaseKeys.DATABASE_DBNAME_CONFIG,
            DatabaseKeys.DATABASE_SSLMODE_CONFIG, DatabaseKeys.DATABASE_SSLROOTCERT_CONFIG,
            DatabaseKeys.DATABASE_SSLCERT_CONFIG, DatabaseKeys.DATABASE_SSLKEY_CONFIG,
            DatabaseKeys.DATABASE_SSLPASSWORD_CONFIG);

    /**
     * A value the live checks never read, standing in for a required key that is missing or wrong, so that the rest can
     * be parsed: only {@code topic.prefix} is required and not read by them.
     */
    private static final String NOT_READ_BY_LIVE_CHECKS = "not-read-by-the-live-checks";

    private void addLiveProblems(Map<String, String> given, Config config) {
        Set<String> wrong = new HashSet<>();
        config.configValues().stream().filter(v -> !v.errorMessages().isEmpty()).forEach(v -> wrong.add(v.name()));
        if (wrong.stream().anyMatch(CONNECTION_KEYS::contains)) {
            return;
        }
        Map<String, String> live = new HashMap<>(given);
        live.keySet().removeAll(wrong);
        live.putIfAbsent(RecordKeys.TOPIC_PREFIX_CONFIG, NOT_READ_BY_LIVE_CHECKS);
        PgOutputSourceConnectorConfig checked = wrong.isEmpty() ? new PgOutputSourceConnectorConfig(live)
                : PgOutputSourceConnectorConfig.forLiveChecks(live);
        Map<String, ConfigValue> byKey = new HashMap<>();
        config.configValues().forEach(v -> byKey.put(v.name(), v));
        for (ConfigProblem problem : liveChecks.check(checked)) {
            if (wrong.contains(problem.key())) {
                continue; // checked with the key's default instead of its wrong value: its static error says what to fix
            }
            ConfigValue value = byKey.get(problem.key());
            if (value == null) {
                value = new ConfigValue(problem.key());
                byKey.put(problem.key(), value);
                config.configValues().add(value);
            }
            value.addErrorMessage(problem.message());
        }
    }

    /** The WARNs of the configuration ({@link ConfigWarnings}): Connect would accept what they name without a word. */
    private static void warn(Map<String, String> connectorConfigs) {
        ConfigWarnings.of(connectorConfigs).forEach(log::warn);
    }

    /**
     * With {@code transaction.boundary=connector}: a producer transaction timeout that is not a positive number of
     * milliseconds is an error on its key (the producer would refuse it only when the task starts); a snapshotting
     * mode is allowed, its rows committed per poll, but not exactly-once, which a WARN says.
     */
    private static void checkConnectorBoundaries(Map<String, String> connectorConfigs, Config config) {
        String boundary = connectorConfigs.get(TRANSACTION_BOUNDARY_CONFIG);
        if (boundary == null || !boundary.trim().equalsIgnoreCase("connector")) {
            return;
        }
        String timeout = connectorConfigs.get(PRODUCER_TRANSACTION_TIMEOUT_CONFIG);
        if (timeout != null && !isPositiveInt(timeout)) {
            ConfigValue value = config.configValues().stream().filter(v -> v.name().equals(PRODUCER_TRANSACTION_TIMEOUT_CONFIG))
                    .findFirst().orElseGet(() -> {
                        ConfigValue added = new ConfigValue(PRODUCER_TRANSACTION_TIMEOUT_CONFIG);
                        config.configValues().add(added);
                        return added;
                    });
            value.addErrorMessage(PRODUCER_TRANSACTION_TIMEOUT_CONFIG + " is '" + timeout + "'; with " + TRANSACTION_BOUNDARY_CONFIG
                    + "=connector each PostgreSQL transaction is one Kafka transaction, which must end within this many"
                    + " milliseconds: give a positive number, at most the broker's transaction.max.timeout.ms (900000 by default)");
        }
        SnapshotMode mode = snapshotMode(connectorConfigs);
        String support = connectorConfigs.get(EXACTLY_ONCE_SUPPORT_CONFIG);
        if (mode != null && mode != SnapshotMode.NO_DATA && (support == null || !support.trim().equalsIgnoreCase("required"))) {
            log.warn("{}=connector with {}={}: each streamed delivery is one Kafka transaction, but a snapshot interrupted by a"
                    + " restart is taken again from the start (its rows can reach Kafka twice); {}=required makes the snapshot"
                    + " resumable, and the whole connector exactly-once", TRANSACTION_BOUNDARY_CONFIG,
                    SnapshotKeys.SNAPSHOT_MODE_CONFIG, ConfigChoices.SNAPSHOT_MODE.text(mode), EXACTLY_ONCE_SUPPORT_CONFIG);
        }
    }

    private static boolean isPositiveInt(String text) {
        try {
            return Integer.parseInt(text.trim()) > 0;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    /**
     * Exactly-once delivery, with workers that have {@code exactly.once.source.support=enabled}: Connect writes each
     * {@code poll()} batch and its source offsets in one Kafka transaction (the default, poll-based transaction
     * boundaries), or, with {@code transaction.boundary=connector}, each delivery (see
     * {@link #canDefineTransactionBoundaries}). Streamed changes then reach {@code read_committed}
     * consumers exactly once across task restarts, rebalances and worker loss: a restarted task resumes at the stored
     * offset, which names the last record in Kafka to the position inside its transaction, and skips everything
     * PostgreSQL sends again up to there.
     *
     * <p>A snapshot is exactly-once when the connector configuration says {@code exactly.once.support=required}: the
     * task then reads the tables in key order and records in each offset the last row in Kafka, so that a snapshot
     * interrupted by a restart is resumed after that row (from a new exported snapshot, the exported one cannot outlive
     * its connection) instead of taken again ({@code io.github.pgoutput.snapshot.ResumableProgress}). Otherwise a
     * snapshot interrupted by a restart is taken again from the start and its earlier rows reach Kafka twice. Hence
     * SUPPORTED with {@code snapshot.mode=no_data} or with {@code exactly.once.support=required}; UNSUPPORTED for a
     * mode that snapshots without it (or for a value that is not a mode), which {@code requested} accepts.
     */
    @Override
    public ExactlyOnceSupport exactlyOnceSupport(Map<String, String> connectorConfig) {
        Map<String, String> given = EmptyValues.removed(connectorConfig);
        SnapshotMode mode = snapshotMode(given);
        String support = given.get(EXACTLY_ONCE_SUPPORT_CONFIG);
        boolean resumable = support != null && support.trim().equalsIgnoreCase("required");
        return mode == SnapshotMode.NO_DATA || (mode != null && resumable) ? ExactlyOnceSupport.SUPPORTED : ExactlyOnceSupport.UNSUPPORTED;
    }

    /**
     * Supported whatever the configuration: with {@code transaction.boundary=connector} the task asks Connect to commit
     * after the last record of each delivery (an ordinary commit, a PREPARED delivery, a COMMITTED or ROLLED_BACK
     * outcome, a logical message, a heartbeat), so each is one Kafka transaction with its offset, however many polls
     * its records take. Snapshot rows, which are not deliveries, are committed per poll, as with poll boundaries.
     */
    @Override
    public ConnectorTransactionBoundaries canDefineTransactionBoundaries(Map<String, String> connectorConfig) {
        return ConnectorTransactionBoundaries.SUPPORTED;
    }

    /** The configured snapshot mode (its default when unset), or null when the value is not a mode. */
    private static SnapshotMode snapshotMode(Map<String, String> connectorConfig) {
        String key = SnapshotKeys.SNAPSHOT_MODE_CONFIG;
        Object value = connectorConfig.containsKey(key) ? connectorConfig.get(key)
                : PgOutputSourceConnectorConfig.CONFIG_DEF.configKeys().get(key).defaultValue;
        try {
            return DebeziumSnapshotModes.resolve(value == null ? null : value.toString(), connectorConfig);
        } catch (ConfigException e) {
            return null;
        }
    }

    @Override
    public void start(Map<String, String> props) {
        PgOutputSourceConnectorConfig config = new PgOutputSourceConnectorConfig(props);
        this.props = Map.copyOf(props);
        log.info("Starting connector for slot {} of database {} on {}:{}, topic prefix {}", config.slotName(),
                config.databaseDbname(), config.databaseHostname(), config.databasePort(), config.topicPrefix());
        warn(props);
    }

    @Override
    public Class<? extends Task> taskClass() {
        return PgOutputSourceTask.class;
    }

    /** Exactly one task, whatever {@code maxTasks} is: one slot, one reader. */
    @Override
    public List<Map<String, String>> taskConfigs(int maxTasks) {
        if (props == null) {
            throw new IllegalStateException("taskConfigs called before start");
        }
        return List.of(props);
    }

    @Override
    public void stop() {
        // Nothing to release: the connector holds no connection; the task owns the replication session.
    }

    private static String readVersion() {
        String resource = "version.properties";
        try (InputStream in = PgOutputSourceConnector.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException(resource + " is missing next to " + PgOutputSourceConnector.class
                        + "; the build filters it from src/main/resources");
            }
            Properties properties = new Properties();
            properties.load(in);
            return properties.getProperty("version");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
