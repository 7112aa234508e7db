package io.github.pgoutput.connect;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.pgoutput.connect.config.EmptyValues;
import io.github.pgoutput.connect.config.IgnoredKeys;
import io.github.pgoutput.connect.config.MinimalConfig;
import io.github.pgoutput.connect.config.NearMissKeys;
import io.github.pgoutput.connect.config.PgOutputSourceConnectorConfig;
import io.github.pgoutput.testing.DebeziumConfigs;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.ConfigValue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A key nothing reads that is a near miss of a known one: the WARN names the key meant, and where the typo would
 * silently change which slot, publication or tables are used, or leave TLS off, validation refuses it on its key with
 * what to write. Keys of other components that real configurations carry are no near miss of anything.
 */
class NearMissKeysTest {

    private static Map<String, String> with(String key, String value) {
        Map<String, String> props = MinimalConfig.props();
        props.put(key, value);
        return props;
    }

    private static Map<String, List<String>> errors(Map<String, String> config) {
        Map<String, List<String>> errors = new java.util.HashMap<>();
        for (ConfigValue value : new PgOutputSourceConnector(null).validate(config).configValues()) {
            if (!value.errorMessages().isEmpty()) {
                errors.put(value.name(), value.errorMessages());
            }
        }
        return errors;
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({"slot.nmae, slot.name", "slot.Name, slot.name", "topic.prefx, topic.prefix", "databse.user, database.user",
        "database.ssl.mode, database.sslmode", "snapshot.locking.mod, snapshot.locking.mode", "tasks.maxx, tasks.max",
        "Xsnapshot.mode, snapshot.mode"})
    void aTypoIsANearMissOfTheKeyMeant(String typo, String meant) {
        assertThat(NearMissKeys.closest(typo)).contains(meant);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"bootstrap.servers", "acks", "behavior.on.null.values", "cleanup.policy", "schemas.enable",
        "retry.backoff.ms", "request.timeout.ms", "table.types", "include.query", "field.exclude.list", "_aiven.restart.on.failure"})
    void keysOfOtherComponentsInRealConfigurationsAreNoNearMiss(String key) {
        assertThat(NearMissKeys.closest(key)).isEmpty();
    }

    @Test
    void aMisspeltSlotNameIsRefusedBecauseTheDefaultSlotWouldBeUsedSilently() {
        Map<String, String> config = with("slot.nmae", "orders_slot");
        config.remove("slot.name");

        assertThat(errors(config)).containsOnlyKeys("slot.nmae");
        assertThat(errors(config).get("slot.nmae")).singleElement().asString().contains("did you mean slot.name?")
                .contains("its default (debezium) is used, not the 'orders_slot' written here").contains("Write slot.name=orders_slot");
        assertThat(IgnoredKeys.of(config)).as("the error says it; no WARN besides").isEmpty();
    }

    @Test
    void aMisspeltKeyWhoseValueIsTheDefaultAnywayIsOnlyAWarn() {
        Map<String, String> config = with("Xsnapshot.mode", "initial");

        assertThat(errors(config)).isEmpty();
        assertThat(IgnoredKeys.of(config)).singleElement().satisfies(k -> assertThat(k.message()).contains("did you mean snapshot.mode?"));
    }

    @Test
    void aMisspeltKeyIsOnlyAWarnWhenTheKeyMeantIsSetToo() {
        Map<String, String> config = with("slot.nmae", "orders_slot");
        config.put("slot.name", "orders_slot");

        assertThat(errors(config)).isEmpty();
        assertThat(IgnoredKeys.of(config)).singleElement().satisfies(k -> assertThat(k.message()).contains("did you mean slot.name?"));
    }

    @Test
    void aMisspeltTuningKeyIsOnlyAWarnBecauseItsDefaultDoesNoHiddenHarm() {
        Map<String, String> config = with("max.batch.sise", "4096");

        assertThat(errors(config)).isEmpty();
        assertThat(IgnoredKeys.of(config)).singleElement().satisfies(k -> assertThat(k.message()).contains("did you mean max.batch.size?"));
    }

    @Test
    void aMisspeltRequiredKeyIsRefusedBesideTheMissingKeysOwnError() {
        Map<String, String> config = with("topic.prefx", "shop");
        config.remove("topic.prefix");

        Map<String, List<String>> errors = errors(config);

        assertThat(errors).containsOnlyKeys("topic.prefx", "topic.prefix");
        assertThat(errors.get("topic.prefx")).singleElement().asString().contains("did you mean topic.prefix?")
                .contains("topic.prefix, which is required, is not set").contains("Write topic.prefix=shop");
    }

    @Test
    void theConnectorStartRefusesWhatValidationRefuses() {
        Map<String, String> config = with("slot.nmae", "orders_slot");
        config.remove("slot.name");

        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new PgOutputSourceConnectorConfig(config))
                .hasMessageContaining("slot.nmae").hasMessageContaining("did you mean slot.name?");
    }

    @Test
    void ofTheRealDebeziumConfigurationsOnlyTheOneWhoseTypoDropsRequiredTlsIsRefused() {
        List<String> refused = DebeziumConfigs.all().stream().flatMap(c -> {
            Map<String, ?> given = EmptyValues.removed(c.config());
            return NearMissKeys.problems(given).stream().map(p -> c.file() + ": " + p.key());
        }).toList();

        assertThat(refused).containsExactly("43-terraform-aiven-heartbeat-all-tables.json: database.ssl.mode");
    }
}
