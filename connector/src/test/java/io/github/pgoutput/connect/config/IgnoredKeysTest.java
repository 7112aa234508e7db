package io.github.pgoutput.connect.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class IgnoredKeysTest {

    private static Map<String, String> with(String key, String value) {
        Map<String, String> props = MinimalConfig.props();
        props.put(key, value);
        return props;
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "signal.file                           | /tmp/signals.txt       | signals through Debezium's file, jmx, in-process or http channels",
        "signal.kafka.consumer.offset.commit.enabled | true             | signals through Debezium's file, jmx, in-process or http channels",
        "incremental.snapshot.allow.schema.changes | true               | incremental snapshots beyond their chunk size",
        "incremental.snapshot.watermarking.strategy | insert_delete     | incremental snapshots beyond their chunk size",
        "notification.enabled.channels         | sink                   | notifications",
        "heartbeat.action.query                | INSERT INTO hb VALUES (1) | heartbeat action queries",
        "offset.mismatch.strategy              | trust_slot             | what to do when the stored offset and the slot disagree",
        "lsn.flush.mode                        | manual                 | LSN flushing",
        "flush.lsn.source                      | false                  | LSN flushing (the old name of lsn.flush.mode)",
        "database.history.kafka.topic          | history                | schema history (its name before Debezium 2.0)",
        "snapshot.isolation.mode               | read_committed         | the snapshot's isolation level",
        "snapshot.locking.mode                 | shared                 | snapshot table locks",
        "database.initial.statements           | SET search_path TO app | SQL statements run on each new connection",
        "snapshot.mode.configuration.based.snapshot.data | true         | the settings of snapshot.mode=configuration_based or custom",
    })
    void namesTheDebeziumFeatureThisConnectorDoesNotImplement(String key, String value, String feature) {
        List<IgnoredKeys.IgnoredKey> ignored = IgnoredKeys.of(with(key, value));

        assertThat(ignored).singleElement().satisfies(k -> {
            assertThat(k.key()).isEqualTo(key);
            assertThat(k.message()).startsWith(key + " is a Debezium setting for " + feature)
                    .contains("does not implement").contains("has no effect");
        });
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"snapshot.fetch.size", "poll.interval.ms"})
    void namesAnyOtherKeyAsReadByNothing(String key) {
        List<IgnoredKeys.IgnoredKey> ignored = IgnoredKeys.of(with(key, "1"));

        assertThat(ignored).singleElement().satisfies(k -> {
            assertThat(k.key()).isEqualTo(key);
            assertThat(k.message()).startsWith(key + " is not a setting of this connector nor of Kafka Connect")
                    .contains("has no effect").contains("Debezium setting").contains("correct its name");
        });
    }

    @Test
    void namesTheKnownKeyAMisspeltOneIsANearMissOf() {
        List<IgnoredKeys.IgnoredKey> ignored = IgnoredKeys.of(with("database.hostnme", "db.example"));

        assertThat(ignored).singleElement().satisfies(k -> assertThat(k.message())
                .startsWith("database.hostnme is not a setting of this connector nor of Kafka Connect")
                .contains("has no effect; did you mean database.hostname?"));
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"name", "connector.class", "tasks.max", "key.converter", "value.converter.schemas.enable",
        "header.converter", "transforms", "transforms.unwrap.type", "predicates.isTombstone.type", "errors.tolerance",
        "errors.deadletterqueue.topic.name", "topic.creation.default.partitions", "exactly.once.support",
        "transaction.boundary", "offsets.storage.topic", "producer.override.transaction.timeout.ms",
        "consumer.override.max.poll.records", "admin.override.request.timeout.ms", "config.action.reload"})
    void leavesKafkaConnectKeysAlone(String key) {
        assertThat(IgnoredKeys.of(with(key, "x"))).isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"signal.data.collection", "signal.enabled.channels", "signal.kafka.topic",
        "signal.kafka.bootstrap.servers", "signal.kafka.groupId", "signal.kafka.poll.timeout.ms",
        "signal.consumer.security.protocol", "incremental.snapshot.chunk.size", "read.only", "snapshot.new.tables"})
    void leavesTheSignalAndIncrementalSnapshotKeysItImplementsAlone(String key) {
        assertThat(IgnoredKeys.of(with(key, "x"))).isEmpty();
    }

    @Test
    void leavesTheSettingsOfConfigurationBasedSnapshotsAloneWhenThatModeReadsThem() {
        Map<String, String> props = with("snapshot.mode", "configuration_based");
        props.put("snapshot.mode.configuration.based.snapshot.data", "true");
        props.put("snapshot.mode.configuration.based.start.stream", "true");

        assertThat(IgnoredKeys.of(props)).isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"database.server.name", "table.whitelist", "schema.blacklist", "database.include.list",
        "heartbeat.topics.prefix"})
    void leavesDebeziumsOldNamesToTheirOwnExplanation(String key) {
        assertThat(IgnoredKeys.of(with(key, "x"))).isEmpty();
    }

    @Test
    void anEmptyValueGetsNoWarning() {
        assertThat(IgnoredKeys.of(with("poll.interval.ms", ""))).isEmpty();
    }

    @Test
    void leavesItsOwnKeysAndTheRefusedDebeziumKeysAlone() {
        Map<String, String> props = with("snapshot.mode", "initial");
        props.put("errors.max.retries", "3");
        props.put("column.include.list", "public\\.orders\\.id");

        assertThat(IgnoredKeys.of(props)).isEmpty();
    }

    @Test
    void listsEveryIgnoredKeySortedByKey() {
        Map<String, String> props = with("signal.file", "signals");
        props.put("incremental.snapshot.allow.schema.changes", "true");
        props.put("slot.nmae", "typo");

        assertThat(IgnoredKeys.of(props)).extracting(IgnoredKeys.IgnoredKey::key)
                .containsExactly("incremental.snapshot.allow.schema.changes", "signal.file", "slot.nmae");
    }
}
