package io.github.pgoutput.connect;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import org.apache.kafka.common.config.Config;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigValue;
import org.apache.kafka.connect.connector.Task;
import org.apache.kafka.connect.errors.ConnectException;
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
     * Single-key and cross-key rules, each error attached to its key; then, only when those all passed and live checks
     * are wired in, the live checks.
     */
    @Override
    public Config validate(Map<String, String> connectorConfigs) {
        Config config = PgOutputSourceConnectorConfig.validate(connectorConfigs);
        boolean staticChecksPassed = config.configValues().stream().allMatch(v -> v.errorMessages().isEmpty());
        if (liveChecks != null && staticChecksPassed) {
            Map<String, ConfigValue> byKey = new HashMap<>();
            config.configValues().forEach(v -> byKey.put(v.name(), v));
            for (ConfigProblem problem : liveChecks.check(new PgOutputSourceConnectorConfig(connectorConfigs))) {
                ConfigValue value = byKey.get(problem.key());
                if (value == null) {
                    value = new ConfigValue(problem.key());
                    byKey.put(problem.key(), value);
                    config.configValues().add(value);
                }
                value.addErrorMessage(problem.message());
            }
        }
        return config;
    }

    @Override
    public void start(Map<String, String> props) {
        PgOutputSourceConnectorConfig config = new PgOutputSourceConnectorConfig(props);
        this.props = Map.copyOf(props);
        log.info("Starting connector for slot {} of database {} on {}:{}, topic prefix {}", config.slotName(),
                config.databaseDbname(), config.databaseHostname(), config.databasePort(), config.topicPrefix());
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
