package io.github.pgoutput.connect.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.kafka.common.config.Config;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.ConfigValue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Debezium's names from before 2.0, which Debezium 3.x no longer reads: each explained, or refused with what to write. */
class LegacyDebeziumKeysTest {

    private static Map<String, String> with(String... keyValues) {
        Map<String, String> props = MinimalConfig.props();
        for (int i = 0; i < keyValues.length; i += 2) {
            props.put(keyValues[i], keyValues[i + 1]);
        }
        return props;
    }

    private static Map<String, List<String>> errors(Map<String, String> props) {
        Config config = CrossKeyRules.validate(props);
        return config.configValues().stream().filter(v -> !v.errorMessages().isEmpty())
                .collect(Collectors.toMap(ConfigValue::name, ConfigValue::errorMessages));
    }

    @Test
    void databaseServerNameWithoutTopicPrefixFailsOnTopicPrefixSayingWhatToWrite() {
        Map<String, String> props = with("database.server.name", "dbserver1");
        props.remove("topic.prefix");

        Map<String, List<String>> errors = errors(props);

        assertThat(errors).containsOnlyKeys("topic.prefix");
        assertThat(errors.get("topic.prefix")).singleElement().asString()
                .contains("database.server.name=dbserver1").contains("write topic.prefix=dbserver1").doesNotContain("Missing required");
        assertThatThrownBy(() -> new PgOutputSourceConnectorConfig(props)).isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("topic.prefix: ").hasMessageContaining("write topic.prefix=dbserver1");
    }

    @Test
    void databaseServerNameBesideTopicPrefixIsAWarningThatItIsNotRead() {
        Map<String, String> props = with("database.server.name", "dbserver1");

        assertThat(errors(props)).isEmpty();
        assertThat(LegacyDebeziumKeys.warnings(props)).singleElement().asString()
                .startsWith("database.server.name=dbserver1 is not read").contains("topic.prefix=shop");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "table.whitelist    | public.orders | table.include.list",
        "table.blacklist    | public.audit  | table.exclude.list",
        "schema.whitelist   | inventory     | schema.include.list",
        "schema.blacklist   | staging       | schema.exclude.list",
        "column.whitelist   | public.orders.id | column.include.list",
        "column.blacklist   | public.orders.card | column.exclude.list",
    })
    void aNarrowingListAloneFailsOnItsKeyNamingTheCurrentKeyAndValue(String key, String value, String current) {
        Map<String, List<String>> errors = errors(with(key, value));

        assertThat(errors).containsOnlyKeys(key);
        assertThat(errors.get(key)).singleElement().asString().startsWith(key + "=" + value)
                .contains("Debezium 3.x no longer reads it").contains("write " + current + "=" + value + " instead");
    }

    @Test
    void anOldListBesideItsCurrentKeyIsAWarningBecauseBothDebeziumAndThisConnectorReadTheCurrentOne() {
        Map<String, String> props = with("table.whitelist", "hbi.outbox", "table.include.list", "hbi.outbox");

        assertThat(errors(props)).isEmpty();
        assertThat(LegacyDebeziumKeys.warnings(props)).singleElement().asString()
                .startsWith("table.whitelist=hbi.outbox is not read").contains("table.include.list=hbi.outbox");
    }

    @Test
    void aSchemaWhitelistThatTheTableIncludeListAlreadyKeepsToIsAWarning() {
        Map<String, String> props = with("schema.whitelist", "inventory", "table.include.list", "inventory.customers,inventory\\.orders");

        assertThat(errors(props)).isEmpty();
        assertThat(LegacyDebeziumKeys.warnings(props)).singleElement().asString().contains("changes nothing");
    }

    @Test
    void aSchemaWhitelistThatATableExpressionOutsideItWouldWidenFails() {
        assertThat(errors(with("schema.whitelist", "inventory", "table.include.list", ".*orders")))
                .containsOnlyKeys("schema.whitelist");
        assertThat(errors(with("schema.whitelist", "inventory", "table.include.list", "inventory.orders,sales.orders")))
                .containsOnlyKeys("schema.whitelist");
    }

    @Test
    void anEmptyOldListIsUnsetAndPasses() {
        Map<String, String> props = with("table.blacklist", "", "schema.whitelist", " ");

        assertThat(errors(props)).isEmpty();
        assertThat(LegacyDebeziumKeys.warnings(EmptyValues.removed(props))).isEmpty();
    }

    @ParameterizedTest(name = "{0}={1}")
    @CsvSource(delimiter = '|', value = {"database.include.list | shop", "database.whitelist | SHOP", "database.include.list | 'other,sh.p'",
        "database.exclude.list | other", "database.blacklist | archive"})
    void aDatabaseListThatKeepsTheDatabaseIsAWarning(String key, String value) {
        Map<String, String> props = with(key, value);

        assertThat(errors(props)).isEmpty();
        assertThat(LegacyDebeziumKeys.warnings(props)).singleElement().asString().startsWith(key + "=" + value)
                .contains("database.dbname=shop");
    }

    @Test
    void aDatabaseIncludeListThatLeavesTheDatabaseOutFailsSuggestingTheSchemaList() {
        Map<String, List<String>> errors = errors(with("database.whitelist", "public"));

        assertThat(errors).containsOnlyKeys("database.whitelist");
        assertThat(errors.get("database.whitelist")).singleElement().asString()
                .contains("does not select database.dbname=shop").contains("write schema.include.list=public instead");
    }

    @Test
    void aDatabaseExcludeListThatExcludesTheDatabaseFails() {
        assertThat(errors(with("database.exclude.list", "shop")).get("database.exclude.list")).singleElement().asString()
                .contains("excludes database.dbname=shop").contains("remove database.exclude.list");
    }

    @Test
    void heartbeatTopicsPrefixIsAWarningNamingTopicHeartbeatPrefix() {
        Map<String, String> props = with("heartbeat.topics.prefix", "hb");

        assertThat(errors(props)).isEmpty();
        assertThat(LegacyDebeziumKeys.warnings(props)).singleElement().asString().contains("write topic.heartbeat.prefix=hb");
    }
}
