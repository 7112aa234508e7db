package io.github.pgoutput.connect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.kafka.common.config.Config;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.ConfigValue;
import org.apache.kafka.connect.source.SourceConnector;
import org.junit.jupiter.api.Test;

class PgOutputSourceConnectorTest {

    @Test
    void reportsTheVersionOfTheBuild() {
        assertThat(new PgOutputSourceConnector().version()).matches("\\d+\\.\\d+\\.\\d+(-SNAPSHOT)?");
    }

    @Test
    void isRegisteredAsASourceConnectorService() {
        assertThat(ServiceLoader.load(SourceConnector.class).stream().map(ServiceLoader.Provider::type))
                .contains(PgOutputSourceConnector.class);
    }

    @Test
    void declaresTheConnectorConfiguration() {
        assertThat(new PgOutputSourceConnector().config()).isSameAs(PgOutputSourceConnectorConfig.CONFIG_DEF);
    }

    @Test
    void handsTheWholeConfigurationToExactlyOneTask() {
        PgOutputSourceConnector connector = new PgOutputSourceConnector();
        Map<String, String> props = PgOutputSourceConnectorConfigTest.minimal();
        connector.start(props);

        assertThat(connector.taskConfigs(5)).containsExactly(props);
    }

    @Test
    void refusesToStartOnAnInvalidConfiguration() {
        Map<String, String> props = PgOutputSourceConnectorConfigTest.minimal();
        props.put("streaming", "parallel");
        props.put("protocol.version", "2");

        assertThatThrownBy(() -> new PgOutputSourceConnector().start(props))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("streaming: ");
    }

    @Test
    void validatesTasksMaxAlongsideTheConnectorKeys() {
        Map<String, String> props = PgOutputSourceConnectorConfigTest.minimal();
        props.put("tasks.max", "3");

        Config config = new PgOutputSourceConnector().validate(props);

        assertThat(errors(config)).containsOnlyKeys("tasks.max");
    }

    @Test
    void runsLiveChecksOnlyWhenTheStaticChecksPassAndAttachesTheirProblemsToKeys() {
        AtomicInteger calls = new AtomicInteger();
        LiveChecks checks = config -> {
            calls.incrementAndGet();
            return List.of(new ConfigProblem("slot.name", "slot shop_slot uses plugin test_decoding, not pgoutput"),
                    new ConfigProblem("database.user", "role replicator lacks REPLICATION"));
        };
        PgOutputSourceConnector connector = new PgOutputSourceConnector(checks);
        Map<String, String> bad = PgOutputSourceConnectorConfigTest.minimal();
        bad.put("slot.name", "Bad");

        assertThat(errors(connector.validate(bad))).containsOnlyKeys("slot.name");
        assertThat(calls).hasValue(0);

        Map<String, List<String>> errors = errors(connector.validate(PgOutputSourceConnectorConfigTest.minimal()));
        assertThat(calls).hasValue(1);
        assertThat(errors).containsOnlyKeys("slot.name", "database.user");
        assertThat(errors.get("slot.name")).containsExactly("slot shop_slot uses plugin test_decoding, not pgoutput");
    }

    private static Map<String, List<String>> errors(Config config) {
        return config.configValues().stream().filter(v -> !v.errorMessages().isEmpty())
                .collect(java.util.stream.Collectors.toMap(ConfigValue::name, ConfigValue::errorMessages));
    }
}
