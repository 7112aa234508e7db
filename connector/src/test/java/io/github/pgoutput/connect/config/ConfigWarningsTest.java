package io.github.pgoutput.connect.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.ConfigValue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** What a configuration is warned of: accepted, but not doing here what it does in Debezium. */
class ConfigWarningsTest {

    private static Map<String, String> with(String key, String value) {
        Map<String, String> props = MinimalConfig.props();
        props.put(key, value);
        return props;
    }

    private static void assertNoError(Map<String, String> props) {
        assertThat(CrossKeyRules.validate(props).configValues()).allSatisfy(v -> assertThat(v.errorMessages()).as(v.name()).isEmpty());
        new PgOutputSourceConnectorConfig(props);
    }

    @Test
    void slotDropOnStopTrueIsAcceptedWithAWarningThatTheSlotStaysAndHowToDropIt() {
        Map<String, String> props = with("slot.drop.on.stop", "true");

        assertNoError(props);
        assertThat(ConfigWarnings.of(props)).singleElement().asString().contains("never drops")
                .contains("SELECT pg_drop_replication_slot('shop_slot')");
        assertThat(ConfigWarnings.of(with("slot.drop.on.stop", "false"))).isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"http", "jmx", "file", "in-process"})
    void aSignalChannelThisConnectorDoesNotReadIsAcceptedAndNamedInAWarning(String channel) {
        Map<String, String> props = with("signal.enabled.channels", "source," + channel);

        assertNoError(props);
        assertThat(ConfigWarnings.of(props)).singleElement().asString()
                .contains("names the channel '" + channel + "', which this connector does not read")
                .contains("signals sent through it are not read");
    }

    @Test
    void theChannelsThisConnectorReadsGetNoWarning() {
        Map<String, String> props = with("signal.enabled.channels", "source,kafka,message");
        props.put("signal.kafka.bootstrap.servers", "localhost:9092");

        assertThat(ConfigWarnings.of(props)).isEmpty();
    }

    @Test
    void collectsTheWarningsOfEverySource() {
        Map<String, String> props = with("slot.drop.on.stop", "true");
        props.put("signal.enabled.channels", "jmx");
        props.put("database.server.name", "old");
        props.put("snapshot.mode", "never");
        props.put("poll.interval.ms", "100");

        List<String> warnings = ConfigWarnings.of(props);

        assertThat(warnings).hasSize(5).anySatisfy(w -> assertThat(w).startsWith("poll.interval.ms"))
                .anySatisfy(w -> assertThat(w).startsWith("database.server.name=old"))
                .anySatisfy(w -> assertThat(w).startsWith("snapshot.mode=never"));
    }

    @Test
    void anEmptyValueIsUnsetAndWarnsOfNothing() {
        Map<String, String> props = with("column.exclude.list", "");
        props.put("database.server.name", "");

        assertThat(ConfigWarnings.of(props)).isEmpty();
        assertThat(CrossKeyRules.validate(props).configValues()).extracting(ConfigValue::errorMessages).allSatisfy(m -> assertThat(m).isEmpty());
    }
}
