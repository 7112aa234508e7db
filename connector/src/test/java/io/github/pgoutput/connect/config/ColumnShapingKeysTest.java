package io.github.pgoutput.connect.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.pgoutput.connect.shaping.UpperCaseConverter;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.Config;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.ConfigValue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Validation of Debezium's column keys: every problem on the key at fault, saying how to fix it. */
class ColumnShapingKeysTest {

    private static Map<String, String> with(String... keysAndValues) {
        Map<String, String> props = MinimalConfig.props();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            props.put(keysAndValues[i], keysAndValues[i + 1]);
        }
        return props;
    }

    private static Map<String, List<String>> errors(Map<String, String> props) {
        Config config = CrossKeyRules.validate(props);
        Map<String, List<String>> errors = new java.util.TreeMap<>();
        for (ConfigValue value : config.configValues()) {
            if (!value.errorMessages().isEmpty()) {
                errors.put(value.name(), value.errorMessages());
            }
        }
        return errors;
    }

    @Test
    void aConfigurationWithEveryColumnKeyValidatesAndStarts() {
        Map<String, String> props = with(
                "column.exclude.list", "public\\.customers\\.ssn",
                "column.mask.with.4.chars", "public\\.customers\\.note",
                "column.mask.hash.SHA-256.with.salt.CzQMA0cB5K", "public\\.customers\\.email",
                "column.mask.hash.v2.MD5.with.salt.x", "public\\.customers\\.phone",
                "column.truncate.to.20.chars", "public\\.customers\\.bio",
                "column.propagate.source.type", ".*",
                "datatype.propagate.source.type", ".+\\.numeric",
                "converters", "upper",
                "upper.type", UpperCaseConverter.class.getName(),
                "upper.tables", "public\\.customers");

        assertThat(errors(props)).isEmpty();
        assertThat(new PgOutputSourceConnectorConfig(props).columnShaping().describesColumns()).isTrue();
        assertThat(IgnoredKeys.of(props)).as("every key is read").isEmpty();
    }

    @Test
    void validationListsTheKeysWhoseNamesCarryAParameterSoConnectKnowsThem() {
        Map<String, String> props = with("column.mask.with.4.chars", "public\\.t\\.c", "converters", "upper",
                "upper.type", UpperCaseConverter.class.getName(), "upper.tables", "x");

        assertThat(CrossKeyRules.validate(props).configValues()).extracting(ConfigValue::name)
                .contains("column.mask.with.4.chars", "upper.type", "upper.tables");
    }

    @ParameterizedTest(name = "{0}={1}")
    @CsvSource(delimiter = '|', value = {
        "column.mask.with.0.chars              | public\\.t\\.c      | column.mask.with.0.chars   | positive whole number",
        "column.truncate.to.x.chars            | public\\.t\\.c      | column.truncate.to.x.chars | column.truncate.to.12.chars",
        "column.mask.hash.SHA-3000.with.salt.s | public\\.t\\.c      | column.mask.hash.SHA-3000.with.salt.s | not a hash algorithm",
        "column.mask.with.3.chars              | public\\.t\\.(c     | column.mask.with.3.chars   | not a valid regular expression",
        "column.include.list                   | public\\.t\\.(c     | column.include.list        | not a valid regular expression",
        "column.exclude.list                   | [                   | column.exclude.list        | not a valid regular expression",
        "column.propagate.source.type          | (                   | column.propagate.source.type | not a valid regular expression",
        "converters                            | isbn                | isbn.type                  | isbn.type is not set",
    })
    void aKeyThatCannotBeUsedIsRefusedOnTheKeyAtFault(String key, String value, String atFault, String advice) {
        Map<String, List<String>> errors = errors(with(key, value));

        assertThat(errors).containsOnlyKeys(atFault);
        assertThat(errors.get(atFault)).singleElement().asString().contains(advice);
    }

    @Test
    void aConverterClassThatIsNotInThePluginIsRefusedOnItsTypeKey() {
        Map<String, List<String>> errors = errors(with("converters", "isbn", "isbn.type", "io.debezium.connector.binlog"
                + ".converters.TinyIntOneToBooleanConverter"));

        assertThat(errors).containsOnlyKeys("isbn.type");
        assertThat(errors.get("isbn.type")).singleElement().asString().contains("is not found in the connector's plugin");
    }

    @Test
    void bothColumnListsAreRefusedOnTheExcludeList() {
        assertThat(errors(with("column.include.list", "a\\.b\\.c", "column.exclude.list", "a\\.b\\.d")))
                .containsOnlyKeys("column.exclude.list");
    }

    @Test
    void anEmptyExcludeListIsAccepted() {
        assertThat(errors(with("column.exclude.list", ""))).isEmpty();
        assertThat(new PgOutputSourceConnectorConfig(with("column.exclude.list", "")).columnSelection().filters()).isFalse();
    }

    @Test
    void theConnectorAndTaskStartRefuseAKeyThatCannotBeUsedToo() {
        assertThatThrownBy(() -> new PgOutputSourceConnectorConfig(with("column.mask.with.0.chars", "a\\.b\\.c")))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("column.mask.with.0.chars: column.mask.with.0.chars is not column.mask.with.N.chars");
    }
}
