package io.github.pgoutput.connect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;

import org.apache.kafka.common.config.Config;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.ConfigValue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class UnsupportedDebeziumKeysTest {

    private static Map<String, String> with(String key, String value) {
        Map<String, String> props = PgOutputSourceConnectorConfigTest.minimal();
        props.put(key, value);
        return props;
    }

    private static List<String> errorsOf(Config config, String key) {
        return config.configValues().stream().filter(v -> v.name().equals(key)).findFirst()
                .map(ConfigValue::errorMessages).orElse(List.of());
    }

    @ParameterizedTest(name = "{0}={1}")
    @CsvSource(delimiter = '|', value = {
        "post.processors                                       | reselector             | remove the key",
        "snapshot.select.statement.overrides                   | public.orders          | publication row filter",
        "snapshot.select.statement.overrides.public.orders     | SELECT * FROM orders   | publication row filter",
        "snapshot.query.mode                                   | custom                 | remove the key",
        "snapshot.include.collection.list                      | public\\.orders        | use snapshot.include.list",
        "database.include.list                                 | shop                   | database.dbname",
        "include.unknown.datatypes                             | false                  | PostgreSQL text form",
        "table.ignore.builtin                                  | false                  | system schemas",
        "event.processing.failure.handling.mode                | skip                   | never skips",
        "event.processing.failure.handling.mode                | warn                   | never skips",
        "event.converting.failure.handling.mode                | warn                   | never writes null",
        "skip.messages.without.change                          | true                   | emits every update",
        "slot.drop.on.stop                                     | true                   | pg_drop_replication_slot",
        "slot.stream.params                                    | add-tables=public.a    | protocol.version",
        "replica.identity.autoset.values                       | public.orders:FULL     | ALTER TABLE",
        "publish.via.partition.root                            | true                   | remove the key",
        "topic.naming.strategy                                 | com.example.MyNaming   | remove the key",
        "sourceinfo.struct.maker                               | com.example.MySource   | remove the key",
        "transaction.metadata.factory                          | com.example.MyTx       | remove the key",
    })
    void validationRefusesADebeziumKeyThatWouldChangeTheRecordsOnThatKey(String key, String value, String advice) {
        Config config = CrossKeyRules.validate(with(key, value));

        assertThat(errorsOf(config, key)).singleElement().asString()
                .startsWith(key + "=" + value + " is a Debezium setting this connector does not support")
                .contains(advice);
        assertThat(config.configValues()).filteredOn(v -> !v.errorMessages().isEmpty())
                .extracting(ConfigValue::name).containsExactly(key);
    }

    @ParameterizedTest(name = "{0}={1}")
    @CsvSource(delimiter = '|', value = {
        "slot.drop.on.stop         | true",
        "post.processors           | reselector",
    })
    void connectorAndTaskStartRefuseTheKeyToo(String key, String value) {
        assertThatThrownBy(() -> new PgOutputSourceConnectorConfig(with(key, value)))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith(key + ": " + key + "=" + value);
    }

    @ParameterizedTest(name = "{0}={1}")
    @CsvSource(delimiter = '|', value = {
        "include.unknown.datatypes              | true",
        "table.ignore.builtin                   | true",
        "event.processing.failure.handling.mode | FAIL",
        "event.converting.failure.handling.mode | fail",
        "skip.messages.without.change           | false",
        "slot.drop.on.stop                      | false",
        "slot.drop.on.stop                      | ' false '",
        "publish.via.partition.root             | false",
        "snapshot.query.mode                    | select_all",
        "topic.naming.strategy                  | io.debezium.schema.SchemaTopicNamingStrategy",
        "converters                             | ''",
        "snapshot.locking.mode                  | shared",
        "snapshot.fetch.size                    | 10240",
        "incremental.snapshot.chunk.size        | 2048",
        "signal.data.collection                 | public.signals",
        "schema.history.internal.kafka.topic    | history",
        "key.converter                          | org.apache.kafka.connect.json.JsonConverter",
        "transforms.unwrap.type                 | io.debezium.transforms.ExtractNewRecordState",
        "column.list.note                       | not a Debezium key",
    })
    void acceptsKeysThatDoNotChangeTheRecordsAndValuesThisConnectorBehavesLike(String key, String value) {
        assertThat(CrossKeyRules.validate(with(key, value)).configValues())
                .allSatisfy(v -> assertThat(v.errorMessages()).as(v.name()).isEmpty());
        assertThat(UnsupportedDebeziumKeys.problems(Map.of(key, value))).isEmpty();
    }

    @Test
    void noRuleNamesAKeyThisConnectorDefines() {
        assertThat(UnsupportedDebeziumKeys.RULES).allSatisfy(rule -> assertThat(
                PgOutputSourceConnectorConfig.CONFIG_DEF.names().stream().filter(rule::matches)).isEmpty());
    }

    @Test
    void reportsEveryRefusedKeyOfAConfiguration() {
        Map<String, String> props = with("post.processors", "reselector");
        props.put("slot.drop.on.stop", "true");
        props.put("table.include.list", "public\\.orders");

        assertThat(UnsupportedDebeziumKeys.problems(props)).extracting(ConfigProblem::key)
                .containsExactly("post.processors", "slot.drop.on.stop");
    }
}
