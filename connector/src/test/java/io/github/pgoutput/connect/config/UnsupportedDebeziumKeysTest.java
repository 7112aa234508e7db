package io.github.pgoutput.connect.config;

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
        Map<String, String> props = MinimalConfig.props();
        props.put(key, value);
        return props;
    }

    private static List<String> errorsOf(Config config, String key) {
        return config.configValues().stream().filter(v -> v.name().equals(key)).findFirst()
                .map(ConfigValue::errorMessages).orElse(List.of());
    }

    @ParameterizedTest(name = "{0}={1}")
    @CsvSource(delimiter = '|', value = {
        "snapshot.select.statement.overrides                   | public.orders          | publication row filter",
        "snapshot.select.statement.overrides.public.orders     | SELECT * FROM orders   | publication row filter",
        "snapshot.query.mode                                   | custom                 | remove the key",
        "include.unknown.datatypes                             | false                  | PostgreSQL text form",
        "table.ignore.builtin                                  | false                  | system schemas",
        "event.processing.failure.handling.mode                | skip                   | never skips",
        "event.processing.failure.handling.mode                | warn                   | never skips",
        "event.converting.failure.handling.mode                | warn                   | never writes null",
        "skip.messages.without.change                          | true                   | emits every update",
        "slot.stream.params                                    | add-tables=public.a    | protocol.version",
        "publish.via.partition.root                            | true                   | remove the key",
        "topic.naming.strategy                                 | com.example.MyNaming   | remove the key",
        "sourceinfo.struct.maker                               | com.example.MySource   | remove the key",
        "transaction.metadata.factory                          | com.example.MyTx       | remove the key",
        "topic.delimiter                                       | _                      | RegexRouter",
        "topic.transaction                                     | tx                     | RegexRouter",
        "schema.name.adjustment.mode                           | avro                   | set it to none",
        "field.name.adjustment.mode                            | avro_unicode           | set it to none",
        "include.schema.comments                               | true                   | set it to false",
        "xmin.fetch.interval.ms                                | 1000                   | set it to 0",
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
        "xmin.fetch.interval.ms    | 500",
        "slot.stream.params        | add-tables=public.orders",
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
        "publish.via.partition.root             | false",
        "snapshot.query.mode                    | select_all",
        "topic.naming.strategy                  | io.debezium.schema.SchemaTopicNamingStrategy",
        "sourceinfo.struct.maker                | io.debezium.connector.postgresql.PostgresSourceInfoStructMaker",
        "transaction.metadata.factory           | io.debezium.pipeline.txmetadata.DefaultTransactionMetadataFactory",
        "topic.delimiter                        | .",
        "topic.transaction                      | transaction",
        "schema.name.adjustment.mode            | none",
        "include.schema.comments                | false",
        "xmin.fetch.interval.ms                 | 0",
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
        Map<String, String> props = with("slot.stream.params", "add-tables=public.orders");
        props.put("topic.delimiter", "_");
        props.put("table.include.list", "public\\.orders");

        assertThat(UnsupportedDebeziumKeys.problems(props)).extracting(ConfigProblem::key)
                .containsExactly("slot.stream.params", "topic.delimiter");
    }

    @ParameterizedTest(name = "{0}=''{1}''")
    @CsvSource(delimiter = '|', value = {"column.exclude.list | ''", "column.include.list | '  '", "converters | ''",
        "column.mask.with.4.chars | ''", "slot.stream.params | ''"})
    void anEmptyValueIsAnUnsetKeyAndPasses(String key, String value) {
        Map<String, String> props = with(key, value);

        assertThat(CrossKeyRules.validate(props).configValues()).allSatisfy(v -> assertThat(v.errorMessages()).as(v.name()).isEmpty());
        assertThat(new PgOutputSourceConnectorConfig(props).originals()).doesNotContainKey(key);
        assertThat(IgnoredKeys.of(props)).as("no WARN for an unset key").isEmpty();
    }
}
