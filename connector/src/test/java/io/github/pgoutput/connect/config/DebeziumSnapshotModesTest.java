package io.github.pgoutput.connect.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.pgoutput.snapshot.SnapshotMode;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.ConfigValue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The snapshot.mode values of Debezium 3.7, and the old names configurations still carry. */
class DebeziumSnapshotModesTest {

    private static Map<String, String> with(String... keyValues) {
        Map<String, String> props = MinimalConfig.props();
        for (int i = 0; i < keyValues.length; i += 2) {
            props.put(keyValues[i], keyValues[i + 1]);
        }
        return props;
    }

    private static List<String> errorsOn(Map<String, String> props, String key) {
        return CrossKeyRules.validate(props).configValues().stream().filter(v -> v.name().equals(key)).findFirst()
                .map(ConfigValue::errorMessages).orElse(List.of());
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', value = {"always | ALWAYS", "initial | INITIAL", "no_data | NO_DATA", "initial_only | INITIAL_ONLY",
        "when_needed | WHEN_NEEDED", "Always | ALWAYS"})
    void acceptsDebeziumsModes(String text, SnapshotMode mode) {
        assertThat(new PgOutputSourceConnectorConfig(with("snapshot.mode", text)).snapshotMode()).isEqualTo(mode);
        assertThat(DebeziumSnapshotModes.warning(with("snapshot.mode", text))).isEmpty();
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', value = {"never | NO_DATA | no_data", "exported | INITIAL | initial", "NEVER | NO_DATA | no_data"})
    void readsTheOldNamesAsTheirModesWithAWarningSayingWhatToWrite(String text, SnapshotMode mode, String write) {
        Map<String, String> props = with("snapshot.mode", text);

        assertThat(new PgOutputSourceConnectorConfig(props).snapshotMode()).isEqualTo(mode);
        assertThat(errorsOn(props, "snapshot.mode")).isEmpty();
        assertThat(DebeziumSnapshotModes.warning(props)).get().asString().contains("Debezium 3.x refuses it")
                .contains("write snapshot.mode=" + write);
    }

    @Test
    void configurationBasedThatSnapshotsAtEveryStartAndStreamsIsAlways() {
        Map<String, String> props = with("snapshot.mode", "configuration_based",
                "snapshot.mode.configuration.based.snapshot.data", "true", "snapshot.mode.configuration.based.start.stream", "TRUE");

        assertThat(new PgOutputSourceConnectorConfig(props).snapshotMode()).isEqualTo(SnapshotMode.ALWAYS);
        assertThat(DebeziumSnapshotModes.warning(props)).get().asString().contains("is read as snapshot.mode=always");
    }

    @Test
    void configurationBasedThatOnlyStreamsIsNoData() {
        Map<String, String> props = with("snapshot.mode", "configuration_based", "snapshot.mode.configuration.based.start.stream", "true");

        assertThat(new PgOutputSourceConnectorConfig(props).snapshotMode()).isEqualTo(SnapshotMode.NO_DATA);
    }

    @ParameterizedTest(name = "data={0}, stream={1}, on data error={2}")
    @CsvSource(delimiter = '|', value = {"true | false | false | write initial_only", "false | true | true | write no_data",
        "false | false | false | write the mode you mean"})
    void configurationBasedWithoutAnEquivalentModeIsRefusedOnSnapshotModeSayingWhatToWrite(String data, String stream,
                                                                                          String onDataError, String advice) {
        Map<String, String> props = with("snapshot.mode", "configuration_based",
                "snapshot.mode.configuration.based.snapshot.data", data, "snapshot.mode.configuration.based.start.stream", stream,
                "snapshot.mode.configuration.based.snapshot.on.data.error", onDataError);

        assertThat(errorsOn(props, "snapshot.mode")).singleElement().asString().contains("configuration_based").contains(advice);
        assertThatThrownBy(() -> new PgOutputSourceConnectorConfig(props)).isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("snapshot.mode");
    }

    @Test
    void customIsRefusedNamingTheBuiltInModes() {
        assertThat(errorsOn(with("snapshot.mode", "custom", "snapshot.mode.custom.name", "mine"), "snapshot.mode")).singleElement()
                .asString().contains("Snapshotter class").contains("initial, no_data, initial_only, when_needed, always");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {"recovery", "schema_only", "schema_only_recovery"})
    void theModesOfConnectorsWithASchemaHistoryAreRefusedNamingThePostgresModeThatReadsTheSameRows(String mode) {
        assertThat(errorsOn(with("snapshot.mode", mode), "snapshot.mode")).singleElement().asString()
                .contains("schema history").contains("write snapshot.mode=no_data");
    }

}
