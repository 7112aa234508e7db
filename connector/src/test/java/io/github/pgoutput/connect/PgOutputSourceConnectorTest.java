package io.github.pgoutput.connect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.pgoutput.connect.config.ConfigProblem;
import io.github.pgoutput.connect.config.MinimalConfig;
import io.github.pgoutput.connect.config.PgOutputSourceConnectorConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.common.config.Config;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.ConfigValue;
import org.apache.kafka.connect.source.ConnectorTransactionBoundaries;
import org.apache.kafka.connect.source.ExactlyOnceSupport;
import org.apache.kafka.connect.source.SourceConnector;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

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
        Map<String, String> props = MinimalConfig.props();
        connector.start(props);

        assertThat(connector.taskConfigs(5)).containsExactly(props);
    }

    @Test
    void refusesToStartOnAnInvalidConfiguration() {
        Map<String, String> props = MinimalConfig.props();
        props.put("streaming", "parallel");
        props.put("protocol.version", "2");

        assertThatThrownBy(() -> new PgOutputSourceConnector().start(props))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("streaming: ");
    }

    @Test
    void validatesTasksMaxAlongsideTheConnectorKeys() {
        Map<String, String> props = MinimalConfig.props();
        props.put("tasks.max", "3");

        Config config = new PgOutputSourceConnector(null).validate(props);

        assertThat(errors(config)).containsOnlyKeys("tasks.max");
    }

    @Test
    void attachesEachLiveProblemToItsKey() {
        LiveChecks checks = config -> List.of(new ConfigProblem("slot.name", "slot shop_slot uses plugin test_decoding, not pgoutput"),
                new ConfigProblem("database.user", "role replicator lacks REPLICATION"));

        Map<String, List<String>> errors = errors(new PgOutputSourceConnector(checks).validate(MinimalConfig.props()));

        assertThat(errors).containsOnlyKeys("slot.name", "database.user");
        assertThat(errors.get("slot.name")).containsExactly("slot shop_slot uses plugin test_decoding, not pgoutput");
    }

    @Test
    void runsTheLiveChecksAlsoWhenAStaticCheckFailsWithThatKeyAtItsDefaultAndLeavesOutTheirProblemsOnIt() {
        List<PgOutputSourceConnectorConfig> checked = new ArrayList<>();
        LiveChecks checks = config -> {
            checked.add(config);
            return List.of(new ConfigProblem("slot.name", "slot debezium is in use"),
                    new ConfigProblem("database.user", "role replicator lacks REPLICATION"));
        };
        Map<String, String> bad = MinimalConfig.props();
        bad.put("slot.name", "Bad");
        bad.put("tasks.max", "2");
        bad.put("table.whitelist", "public.orders");

        Map<String, List<String>> errors = errors(new PgOutputSourceConnector(checks).validate(bad));

        assertThat(checked).singleElement().satisfies(c -> assertThat(c.slotName()).isEqualTo("debezium"));
        assertThat(errors).containsOnlyKeys("slot.name", "tasks.max", "table.whitelist", "database.user");
        assertThat(errors.get("slot.name")).singleElement().asString().contains("lowercase letters");
    }

    @ParameterizedTest(name = "{0}={1}")
    @CsvSource(delimiter = '|', value = {"database.port | 0", "database.sslmode | strict", "database.hostname | ''"})
    void skipsTheLiveChecksWhenAConnectionKeyIsWrong(String key, String value) {
        AtomicInteger calls = new AtomicInteger();
        LiveChecks checks = config -> {
            calls.incrementAndGet();
            return List.of();
        };
        Map<String, String> bad = MinimalConfig.props();
        bad.put(key, value);

        assertThat(errors(new PgOutputSourceConnector(checks).validate(bad))).containsOnlyKeys(key);
        assertThat(calls).hasValue(0);
    }

    @Test
    void runsTheLiveChecksWithoutATopicPrefixTheyDoNotRead() {
        AtomicInteger calls = new AtomicInteger();
        LiveChecks checks = config -> {
            calls.incrementAndGet();
            return List.of(new ConfigProblem("publication.name", "publication dbz_publication does not exist"));
        };
        Map<String, String> props = MinimalConfig.props();
        props.remove("topic.prefix");

        assertThat(errors(new PgOutputSourceConnector(checks).validate(props))).containsOnlyKeys("topic.prefix", "publication.name");
        assertThat(calls).hasValue(1);
    }

    @Test
    void supportsExactlyOnceOnlyWhenNoSnapshotIsEverTaken() {
        PgOutputSourceConnector connector = new PgOutputSourceConnector();
        Map<String, String> streamingOnly = MinimalConfig.props();
        streamingOnly.put("snapshot.mode", "no_data");
        Map<String, String> defaults = MinimalConfig.props();
        Map<String, String> whenNeeded = MinimalConfig.props();
        whenNeeded.put("snapshot.mode", "when_needed");
        Map<String, String> nonsense = MinimalConfig.props();
        nonsense.put("snapshot.mode", "sometimes");

        assertThat(connector.exactlyOnceSupport(streamingOnly)).isEqualTo(ExactlyOnceSupport.SUPPORTED);
        assertThat(connector.exactlyOnceSupport(defaults)).as("snapshot.mode=initial by default").isEqualTo(ExactlyOnceSupport.UNSUPPORTED);
        assertThat(connector.exactlyOnceSupport(whenNeeded)).isEqualTo(ExactlyOnceSupport.UNSUPPORTED);
        assertThat(connector.exactlyOnceSupport(nonsense)).isEqualTo(ExactlyOnceSupport.UNSUPPORTED);
        defaults.put("exactly.once.support", "required");
        whenNeeded.put("exactly.once.support", "REQUIRED");
        nonsense.put("exactly.once.support", "required");
        assertThat(connector.exactlyOnceSupport(defaults)).as("required: the snapshot is resumable").isEqualTo(ExactlyOnceSupport.SUPPORTED);
        assertThat(connector.exactlyOnceSupport(whenNeeded)).isEqualTo(ExactlyOnceSupport.SUPPORTED);
        assertThat(connector.exactlyOnceSupport(nonsense)).as("not a mode").isEqualTo(ExactlyOnceSupport.UNSUPPORTED);
        assertThat(connector.canDefineTransactionBoundaries(streamingOnly)).isEqualTo(ConnectorTransactionBoundaries.SUPPORTED);
        assertThat(connector.canDefineTransactionBoundaries(defaults)).as("snapshot rows are committed per poll")
                .isEqualTo(ConnectorTransactionBoundaries.SUPPORTED);
    }

    @Test
    void exactlyOnceRequiredIsAcceptedWithEverySnapshotMode() {
        Map<String, String> props = MinimalConfig.props();
        props.put("exactly.once.support", "required");
        for (String mode : List.of("initial", "when_needed", "initial_only", "no_data")) {
            props.put("snapshot.mode", mode);
            assertThat(errors(new PgOutputSourceConnector(null).validate(props))).as(mode).isEmpty();
        }
    }

    @Test
    void withConnectorBoundariesAProducerTransactionTimeoutThatIsNotAPositiveNumberIsAnErrorOnItsKey() {
        Map<String, String> props = MinimalConfig.props();
        props.put("snapshot.mode", "no_data");
        props.put("exactly.once.support", "required");
        props.put("transaction.boundary", "connector");
        assertThat(errors(new PgOutputSourceConnector(null).validate(props))).isEmpty();
        props.put("producer.override.transaction.timeout.ms", "900000");
        assertThat(errors(new PgOutputSourceConnector(null).validate(props))).isEmpty();

        props.put("producer.override.transaction.timeout.ms", "ten minutes");
        Map<String, List<String>> errors = errors(new PgOutputSourceConnector(null).validate(props));

        assertThat(errors).containsOnlyKeys("producer.override.transaction.timeout.ms");
        assertThat(errors.get("producer.override.transaction.timeout.ms")).singleElement().asString()
                .contains("'ten minutes'").contains("transaction.max.timeout.ms");
        props.put("transaction.boundary", "poll");
        assertThat(errors(new PgOutputSourceConnector(null).validate(props))).as("Connect's boundaries: not ours to check").isEmpty();
    }

    @Test
    void withConnectorBoundariesASnapshottingModeIsAccepted() {
        Map<String, String> props = MinimalConfig.props();
        props.put("transaction.boundary", "connector");
        assertThat(errors(new PgOutputSourceConnector(null).validate(props))).as("snapshot rows committed per poll").isEmpty();
        props.put("exactly.once.support", "required");
        assertThat(errors(new PgOutputSourceConnector(null).validate(props))).as("the snapshot is resumable").isEmpty();
    }

    private static Map<String, List<String>> errors(Config config) {
        return config.configValues().stream().filter(v -> !v.errorMessages().isEmpty())
                .collect(java.util.stream.Collectors.toMap(ConfigValue::name, ConfigValue::errorMessages));
    }

    @Test
    void alwaysIsExactlyOnceOnlyWithARequiredExactlyOnceSupportLikeTheOtherSnapshottingModes() {
        PgOutputSourceConnector connector = new PgOutputSourceConnector(null);
        Map<String, String> props = withSnapshotModeAlways();

        assertThat(connector.exactlyOnceSupport(props)).isEqualTo(org.apache.kafka.connect.source.ExactlyOnceSupport.UNSUPPORTED);
        props.put("exactly.once.support", "required");
        assertThat(connector.exactlyOnceSupport(props)).isEqualTo(org.apache.kafka.connect.source.ExactlyOnceSupport.SUPPORTED);
    }

    private static Map<String, String> withSnapshotModeAlways() {
        Map<String, String> props = MinimalConfig.props();
        props.put("snapshot.mode", "always");
        return props;
    }
}
