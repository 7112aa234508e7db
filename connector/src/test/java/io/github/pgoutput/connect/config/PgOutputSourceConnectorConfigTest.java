package io.github.pgoutput.connect.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.pgoutput.assembly.PreparedTransactionMode;
import io.github.pgoutput.connect.PgOutputSourceConnector;
import io.github.pgoutput.connect.record.DirectEncoding;
import io.github.pgoutput.converters.BinaryHandlingMode;
import io.github.pgoutput.converters.DecimalHandlingMode;
import io.github.pgoutput.converters.HStoreHandlingMode;
import io.github.pgoutput.converters.IntervalHandlingMode;
import io.github.pgoutput.converters.TemporalPrecisionMode;
import io.github.pgoutput.pgoutput.StreamingMode;
import io.github.pgoutput.replication.PublicationMode;
import io.github.pgoutput.snapshot.SnapshotMode;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import org.apache.kafka.common.config.Config;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.ConfigValue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

public class PgOutputSourceConnectorConfigTest {

    private static final String PASSWORD = "s3cr3t-Pa55word";

    private static Map<String, String> with(String... keyValues) {
        Map<String, String> props = MinimalConfig.props();
        for (int i = 0; i < keyValues.length; i += 2) {
            props.put(keyValues[i], keyValues[i + 1]);
        }
        return props;
    }

    private static List<String> errorsOf(Config config, String key) {
        Optional<ConfigValue> value = config.configValues().stream().filter(v -> v.name().equals(key)).findFirst();
        return value.map(ConfigValue::errorMessages).orElse(List.of());
    }

    private static Map<String, List<String>> allErrors(Config config) {
        Map<String, List<String>> errors = new HashMap<>();
        config.configValues().stream().filter(v -> !v.errorMessages().isEmpty())
                .forEach(v -> errors.put(v.name(), v.errorMessages()));
        return errors;
    }

    @Test
    void rejectsAnotherDecoderNamingPgoutputAsTheOnlyOne() {
        assertThat(errorsOf(CrossKeyRules.validate(with("plugin.name", "decoderbufs")), "plugin.name"))
                .singleElement().asString().contains("reads the pgoutput logical decoding output only");
    }

    @Test
    void readsSkippedOperationsAsDebeziumDoes() {
        assertThat(new PgOutputSourceConnectorConfig(with("skipped.operations", "none")).skippedOperations()).isEmpty();
        assertThat(new PgOutputSourceConnectorConfig(with("skipped.operations", "c, d")).skippedOperations())
                .containsExactlyInAnyOrder("c", "d");
    }

    @Test
    void refusesBothMessagePrefixLists() {
        Map<String, String> props = with("message.prefix.include.list", "a.*");
        props.put("message.prefix.exclude.list", "b.*");

        assertThat(errorsOf(CrossKeyRules.validate(props), "message.prefix.exclude.list")).isNotEmpty();
    }

    @Test
    void appliesTheDocumentedDefaults() {
        PgOutputSourceConnectorConfig config = new PgOutputSourceConnectorConfig(MinimalConfig.props());

        assertThat(config.databasePort()).isEqualTo(5432);
        assertThat(config.databasePassword()).isNull();
        assertThat(config.databaseSslmode()).isEqualTo(SslMode.PREFER);
        assertThat(config.databaseSslrootcert()).isNull();
        assertThat(config.publicationAutocreateMode()).as("Debezium's default").isEqualTo(PublicationMode.ALL_TABLES);
        assertThat(config.protocolVersion()).isEqualTo(ProtocolVersionSetting.AUTO);
        assertThat(config.streaming()).isEmpty(); // auto
        assertThat(config.preparedTransactionMode()).isEqualTo(PreparedTransactionMode.FAIL);
        assertThat(config.messagesEnabled()).isTrue();
        assertThat(config.messagePrefixIncludeList()).isEmpty();
        assertThat(config.messagePrefixExcludeList()).isEmpty();
        assertThat(config.getString(ReplicationKeys.PLUGIN_NAME_CONFIG)).isEqualTo("pgoutput");
        assertThat(config.skippedOperations()).containsExactly("t");
        assertThat(config.extendedHeadersEnabled()).isTrue();
        assertThat(config.statusUpdateIntervalMs()).isEqualTo(10_000);
        assertThat(config.tableIncludeList()).isEmpty();
        assertThat(config.tableExcludeList()).isEmpty();
        assertThat(config.schemaIncludeList()).isEmpty();
        assertThat(config.schemaExcludeList()).isEmpty();
        assertThat(config.tombstonesOnDelete()).isTrue();
        assertThat(config.unavailableValuePlaceholder()).isEqualTo("__debezium_unavailable_value");
        assertThat(config.decimalHandlingMode()).isEqualTo(DecimalHandlingMode.PRECISE);
        assertThat(config.timePrecisionMode()).isEqualTo(TemporalPrecisionMode.ADAPTIVE);
        assertThat(config.intervalHandlingMode()).isEqualTo(IntervalHandlingMode.NUMERIC);
        assertThat(config.hstoreHandlingMode()).isEqualTo(HStoreHandlingMode.JSON);
        assertThat(config.binaryHandlingMode()).isEqualTo(BinaryHandlingMode.BYTES);
        assertThat(config.moneyFractionDigits()).isEqualTo(2);
        // Debezium's defaults, so that the converters write what Debezium writes.
        assertThat(ConnectorSettings.converters(config)).isEqualTo(io.github.pgoutput.converters.ConverterOptions.DEFAULTS);
        assertThat(config.provideTransactionMetadata()).isFalse();
        assertThat(config.heartbeatIntervalMs()).isZero();
        assertThat(config.topicHeartbeatPrefix()).isEqualTo("__debezium-heartbeat");
        assertThat(config.spillBackend()).isEqualTo("disk");
        assertThat(config.spillMemoryBufferBytes()).isEqualTo(16L * 1024 * 1024);
        assertThat(config.spillMaxTransactionBytes()).isZero();
        assertThat(config.spillMaxTotalBytes()).isZero();
        assertThat(config.spillDatabaseSchema()).isEqualTo("kafka_connect_pgoutput");
        assertThat(config.snapshotMode()).isEqualTo(SnapshotMode.INITIAL);
        assertThat(config.snapshotMaxThreads()).isEqualTo(1);
        assertThat(config.snapshotResumable()).as("an interrupted snapshot is taken again, as Debezium's").isFalse();
        assertThat(config.snapshotIncludeList()).isEmpty();
        assertThat(config.maxBatchSize()).isEqualTo(2048);
        assertThat(config.maxQueueSize()).isEqualTo(8192);
    }

    @Test
    void theSnapshotIsResumableWhenAskedForAndAlwaysWhenExactlyOnceIsRequired() {
        assertThat(new PgOutputSourceConnectorConfig(with("snapshot.resumable", "true")).snapshotResumable()).isTrue();
        assertThat(new PgOutputSourceConnectorConfig(with("exactly.once.support", "required")).snapshotResumable()).isTrue();
        assertThat(new PgOutputSourceConnectorConfig(with("exactly.once.support", "required", "snapshot.resumable", "false"))
                .snapshotResumable()).as("exactly-once needs the resumable snapshot").isTrue();
        assertThat(new PgOutputSourceConnectorConfig(with("exactly.once.support", "requested")).snapshotResumable()).isFalse();
    }

    @Test
    void directEncodingNeedsByteArrayConvertersSetOnTheConnectorItself() {
        String bytes = "org.apache.kafka.connect.converters.ByteArrayConverter";
        assertThat(new PgOutputSourceConnectorConfig(MinimalConfig.props()).directEncoding()).isEqualTo(DirectEncoding.NONE);
        assertThat(allErrors(CrossKeyRules.validate(with("direct.encoding", "json", "key.converter", bytes,
                "value.converter", bytes)))).isEmpty();
        assertThat(new PgOutputSourceConnectorConfig(with("direct.encoding", "JSON_with_schemas ", "key.converter", bytes,
                "value.converter", bytes)).directEncoding()).isEqualTo(DirectEncoding.JSON_WITH_SCHEMAS);

        // The worker's default converters are not visible to the connector: both must be set on it.
        assertThat(errorsOf(CrossKeyRules.validate(with("direct.encoding", "json")), "direct.encoding"))
                .hasSize(2).allSatisfy(error -> assertThat(error).contains("set").contains(bytes))
                .anySatisfy(error -> assertThat(error).contains("key.converter"))
                .anySatisfy(error -> assertThat(error).contains("value.converter"));
        Config json = CrossKeyRules.validate(with("direct.encoding", "json_with_schemas", "key.converter", bytes,
                "value.converter", "org.apache.kafka.connect.json.JsonConverter"));
        assertThat(errorsOf(json, "value.converter")).singleElement().asString()
                .contains("org.apache.kafka.connect.json.JsonConverter").contains(bytes).contains("direct.encoding=none");
        assertThat(allErrors(json)).containsOnlyKeys("value.converter");
        assertThatThrownBy(() -> new PgOutputSourceConnectorConfig(with("direct.encoding", "json")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("direct.encoding");

        assertThat(errorsOf(CrossKeyRules.validate(with("direct.encoding", "avro")), "direct.encoding")).singleElement()
                .asString().contains("avro").contains("none").contains("json_with_schemas");
        assertThat(allErrors(CrossKeyRules.validate(with("direct.encoding", "none",
                "value.converter", "io.confluent.connect.avro.AvroConverter")))).isEmpty();
    }

    @Test
    void transformsUnderDirectEncodingGetAWarningNamingThemAndTheWayOut() {
        assertThat(CrossKeyRules.transformsSeeBytes(with("direct.encoding", "json", "transforms", "unwrap,route")))
                .hasValueSatisfying(warning -> assertThat(warning).contains("unwrap,route").contains("byte[]")
                        .contains("direct.encoding=none"));
        assertThat(CrossKeyRules.transformsSeeBytes(with("direct.encoding", "none", "transforms", "unwrap"))).isEmpty();
        assertThat(CrossKeyRules.transformsSeeBytes(with("transforms", "unwrap"))).isEmpty();
        assertThat(CrossKeyRules.transformsSeeBytes(with("direct.encoding", "json_with_schemas", "transforms", " ")))
                .isEmpty();
        assertThat(CrossKeyRules.transformsSeeBytes(with("direct.encoding", "bogus", "transforms", "unwrap")))
                .as("a bad value is the validator's error, not this warning").isEmpty();
    }

    @Test
    void spillDirectoryDefaultsToTheSlotsFolderUnderTheJvmTempDirectory() {
        PgOutputSourceConnectorConfig config = new PgOutputSourceConnectorConfig(MinimalConfig.props());

        assertThat(ConnectorSettings.spill(config).directory())
                .isEqualTo(Path.of(System.getProperty("java.io.tmpdir"), "kafka-connect-pgoutput", "shop_slot"));
        assertThat(ConnectorSettings.spill(new PgOutputSourceConnectorConfig(with("spill.directory", "/var/spill"))).directory())
                .isEqualTo(Path.of("/var/spill"));
    }

    @Test
    void readsEveryEnumValuedKeyThroughItsChoice() {
        PgOutputSourceConnectorConfig config = new PgOutputSourceConnectorConfig(with(
                "database.sslmode", "verify-full", "publication.autocreate.mode", "all_tables",
                "protocol.version", "4", "streaming", "parallel", "prepared.transaction.mode", "stage",
                "provide.transaction.metadata", "true",
                "decimal.handling.mode", "string", "snapshot.mode", "when_needed"));

        assertThat(config.databaseSslmode()).isEqualTo(SslMode.VERIFY_FULL);
        assertThat(config.publicationAutocreateMode()).isEqualTo(PublicationMode.ALL_TABLES);
        assertThat(config.protocolVersion().fixedVersion()).hasValue(4);
        assertThat(config.streaming()).contains(StreamingMode.PARALLEL);
        assertThat(config.preparedTransactionMode()).isEqualTo(PreparedTransactionMode.STAGE);
        assertThat(config.decimalHandlingMode()).isEqualTo(DecimalHandlingMode.STRING);
        assertThat(config.snapshotMode()).isEqualTo(SnapshotMode.WHEN_NEEDED);
    }

    @Test
    void passesEveryTypeHandlingKeyOnToTheConverters() {
        PgOutputSourceConnectorConfig config = new PgOutputSourceConnectorConfig(with(
                "time.precision.mode", "adaptive_time_microseconds", "interval.handling.mode", "string",
                "hstore.handling.mode", "map", "binary.handling.mode", "base64-url-safe", "money.fraction.digits", "0",
                "decimal.handling.mode", "double"));

        io.github.pgoutput.converters.ConverterOptions options = ConnectorSettings.converters(config);
        assertThat(options.temporalPrecisionMode())
                .isEqualTo(io.github.pgoutput.converters.TemporalPrecisionMode.ADAPTIVE_TIME_MICROSECONDS);
        assertThat(options.intervalHandlingMode()).isEqualTo(io.github.pgoutput.converters.IntervalHandlingMode.STRING);
        assertThat(options.hstoreHandlingMode()).isEqualTo(io.github.pgoutput.converters.HStoreHandlingMode.MAP);
        assertThat(options.binaryHandlingMode()).isEqualTo(io.github.pgoutput.converters.BinaryHandlingMode.BASE64_URL_SAFE);
        assertThat(options.moneyFractionDigits()).isZero();
        assertThat(options.decimalHandlingMode()).isEqualTo(io.github.pgoutput.converters.DecimalHandlingMode.DOUBLE);
        for (TemporalPrecisionMode mode : TemporalPrecisionMode.values()) {
            assertThat(ConnectorSettings.converters(new PgOutputSourceConnectorConfig(with("time.precision.mode",
                    ConfigChoices.TIME_PRECISION_MODE.text(mode)))).temporalPrecisionMode()).isEqualTo(mode);
        }
        for (BinaryHandlingMode mode : BinaryHandlingMode.values()) {
            assertThat(ConnectorSettings.converters(new PgOutputSourceConnectorConfig(with("binary.handling.mode",
                    ConfigChoices.BINARY_HANDLING_MODE.text(mode)))).binaryHandlingMode()).isEqualTo(mode);
        }
    }

    @Test
    void compilesTableListsAsRegularExpressions() {
        PgOutputSourceConnectorConfig config =
                new PgOutputSourceConnectorConfig(with("table.include.list", "public\\.orders,inventory\\..*"));

        assertThat(config.tableIncludeList()).extracting(Pattern::pattern)
                .containsExactly("public\\.orders", "inventory\\..*");
    }

    /** Debezium's rule: a table is captured when its schema passes the schema lists and its name the table lists. */
    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', value = {
        "schema.include.list=inventory                                        | inventory.orders=true, public.orders=false, inventory2.orders=false",
        "schema.include.list=inv.*                                            | inventory.orders=true, inventory2.orders=true, public.inv=false",
        "schema.exclude.list=audit.*                                          | audit.log=false, auditing.x=false, public.audit=true",
        "schema.include.list=inventory, table.include.list=inventory\\.order.* | inventory.orders=true, inventory.customers=false, public.orders=false",
        "schema.include.list=inventory, table.include.list=public\\..*        | inventory.orders=false, public.orders=false",
        "schema.include.list=inventory, table.exclude.list=inventory\\.audit   | inventory.orders=true, inventory.audit=false, public.orders=false",
        "schema.exclude.list=audit, table.include.list=.*\\.orders            | public.orders=true, audit.orders=false, public.customers=false",
        "table.include.list=public\\..*                                       | public.orders=true, inventory.orders=false",
    })
    void capturesATableOnlyWhenBothItsSchemaAndItsNameAreSelected(String settings, String expectations) {
        Map<String, String> props = MinimalConfig.props();
        for (String setting : settings.split(", ")) {
            String[] kv = setting.split("=", 2);
            props.put(kv[0], kv[1]);
        }
        PgOutputSourceConnectorConfig config = new PgOutputSourceConnectorConfig(props);

        for (String expectation : expectations.split(", ")) {
            String[] nameAndCaptured = expectation.split("=", 2);
            String[] schemaAndTable = nameAndCaptured[0].split("\\.", 2);
            assertThat(ConnectorSettings.captured(config, schemaAndTable[0], schemaAndTable[1]))
                    .as(nameAndCaptured[0]).isEqualTo(Boolean.parseBoolean(nameAndCaptured[1]));
            assertThat(ConnectorSettings.tableSelection(config).test(schemaAndTable[0], schemaAndTable[1]))
                    .as(nameAndCaptured[0]).isEqualTo(Boolean.parseBoolean(nameAndCaptured[1]));
        }
    }

    @Test
    void keepsTheClientKeyPasswordHidden() {
        Map<String, String> props = new HashMap<>(MinimalConfig.props());
        props.put("database.sslpassword", "k3y-pass");
        PgOutputSourceConnectorConfig config = new PgOutputSourceConnectorConfig(props);

        assertThat(config.databaseSslpassword().value()).isEqualTo("k3y-pass");
        assertThat(config.databaseSslpassword()).hasToString("[hidden]");
        assertThat(ConnectorSettings.replication(config, List.of()).toString()).doesNotContain("k3y-pass");
    }

    @Test
    void readsDebeziumsBusySlotRetryKeysWithDebeziumsDefaults() {
        PgOutputSourceConnectorConfig defaults = new PgOutputSourceConnectorConfig(MinimalConfig.props());
        Map<String, String> props = new HashMap<>(MinimalConfig.props());
        props.put("slot.max.retries", "0");
        props.put("slot.retry.delay.ms", "250");
        PgOutputSourceConnectorConfig set = new PgOutputSourceConnectorConfig(props);

        assertThat(defaults.slotMaxRetries()).isEqualTo(6);
        assertThat(defaults.slotRetryDelayMs()).isEqualTo(10_000L);
        assertThat(set.slotMaxRetries()).isZero();
        assertThat(set.slotRetryDelayMs()).isEqualTo(250L);
        assertThat(allErrors(CrossKeyRules.validate(with("slot.max.retries", "-1"))))
                .containsOnlyKeys("slot.max.retries");
    }

    @Test
    void defaultsTheSlotAndThePublicationToDebeziumsNames() {
        Map<String, String> props = MinimalConfig.props();
        props.remove("slot.name");
        props.remove("publication.name");

        PgOutputSourceConnectorConfig config = new PgOutputSourceConnectorConfig(props);

        assertThat(config.slotName()).isEqualTo("debezium");
        assertThat(config.publicationName()).isEqualTo("dbz_publication");
        assertThat(config.publicationAutocreateMode()).isEqualTo(PublicationMode.ALL_TABLES);
    }

    @Test
    void readsDebeziumsHexPlaceholderAsTheTextItsBytesSpell() {
        assertThat(new PgOutputSourceConnectorConfig(with("unavailable.value.placeholder", "hex:5f5f746f617374")).unavailableValuePlaceholder())
                .isEqualTo("__toast");
        assertThat(new PgOutputSourceConnectorConfig(with("unavailable.value.placeholder", "plain")).unavailableValuePlaceholder())
                .isEqualTo("plain");
    }

    @Test
    void readsDebeziumsNameOfTheSnapshotTableListAndRefusesBothNamesAtOnce() {
        PgOutputSourceConnectorConfig debeziums = new PgOutputSourceConnectorConfig(with("snapshot.include.collection.list", "public\\.orders"));

        assertThat(debeziums.snapshotIncludeList()).extracting(java.util.regex.Pattern::pattern).containsExactly("public\\.orders");
        assertThat(allErrors(CrossKeyRules.validate(with("snapshot.include.collection.list", "a", "snapshot.include.list", "b"))))
                .containsOnlyKeys("snapshot.include.collection.list");
        assertThat(allErrors(CrossKeyRules.validate(with("snapshot.include.collection.list", "a", "snapshot.mode", "no_data"))))
                .containsOnlyKeys("snapshot.include.collection.list");
    }

    @Test
    void matchesTheTableAndSchemaListsIgnoringCaseAsDebeziumDoes() {
        PgOutputSourceConnectorConfig config = new PgOutputSourceConnectorConfig(with("table.include.list", "PUBLIC\\.Orders",
                "schema.include.list", "Public"));

        assertThat(ConnectorSettings.captured(config, "public", "orders")).isTrue();
        assertThat(ConnectorSettings.captured(config, "public", "order_lines")).isFalse();
    }

    @Test
    void namesTheHeartbeatTopicAfterTopicHeartbeatNameWhenSet() {
        assertThat(new PgOutputSourceConnectorConfig(with("topic.heartbeat.name", "shop-heartbeats")).topicNames().heartbeat())
                .isEqualTo("shop-heartbeats");
        assertThat(new PgOutputSourceConnectorConfig(MinimalConfig.props()).topicNames().heartbeat())
                .isEqualTo("__debezium-heartbeat.shop");
    }

    @Test
    void reportsEachMissingRequiredKeyOnThatKey() {
        Config config = CrossKeyRules.validate(Map.of());

        assertThat(allErrors(config)).containsOnlyKeys("database.hostname", "database.user", "database.dbname", "topic.prefix");
        assertThat(allErrors(config)).allSatisfy((key, messages) -> assertThat(messages).as(key).singleElement()
                .asString().contains("Missing required configuration \"" + key + "\""));
    }

    @ParameterizedTest(name = "{0}={1}")
    @CsvSource(delimiter = '|', value = {
        "database.hostname | ''",
        "database.hostname | 'pg-a,,pg-b'",
        "database.hostname | 'pg-a:port'",
        "database.hostname | 'pg-a:70000,pg-b'",
        "database.port | 0",
        "database.port | 65536",
        "database.port | five",
        "database.sslmode | strict",
        "slot.name | Shop_Slot",
        "slot.name | shop-slot",
        "slot.name | abcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcd",
        "publication.autocreate.mode | some_tables",
        "protocol.version | 5",
        "protocol.version | 0",
        "streaming | always",
        "prepared.transaction.mode | commit",
        "messages.enabled | maybe",
        "status.update.interval.ms | 0",
        "table.include.list | public.(orders",
        "table.exclude.list | public.[",
        "topic.prefix | shop events",
        "topic.prefix | shop/events",
        "tombstones.on.delete | sometimes",
        "unavailable.value.placeholder | 'hex:5f5'",
        "unavailable.value.placeholder | 'hex:ff'",
        "decimal.handling.mode | float",
        "provide.transaction.metadata | yes please",
        "heartbeat.interval.ms | -1",
        "topic.heartbeat.prefix | heart beat",
        "spill.backend | not a class",
        "spill.backend | com.example.",
        "spill.memory.buffer.bytes | -1",
        "spill.max.transaction.bytes | -1",
        "spill.max.total.bytes | -1",
        "spill.database.schema | Spill",
        "snapshot.mode | custom",
        "snapshot.mode | recovery",
        "snapshot.max.threads | 0",
        "snapshot.include.list | (",
        "schema.include.list | (",
        "schema.exclude.list | inv[",
        "max.batch.size | 0",
        "max.queue.size | 1",
        "time.precision.mode | iso",
        "interval.handling.mode | iso",
        "hstore.handling.mode | text",
        "binary.handling.mode | base64_url_safe",
        "money.fraction.digits | 11",
        "plugin.name | decoderbufs",
        "plugin.name | wal2json",
        "skipped.operations | x",
        "skipped.operations | 'none,c'",
        "message.prefix.include.list | (",
        "extended.headers.enabled | maybe",
        "signal.enabled.channels | 'source,,kafka'",
        "signal.data.collection | only.three.parts.four",
        "snapshot.new.tables | parallel",
        "incremental.snapshot.chunk.size | 0",
    })
    void rejectsABadValueWithAnErrorOnItsKey(String key, String badValue) {
        Map<String, String> props = with(key, badValue);

        assertThat(allErrors(CrossKeyRules.validate(props))).containsOnlyKeys(key);
        assertThatThrownBy(() -> new PgOutputSourceConnectorConfig(props))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining(key);
    }

    /** Moved from ReplicationSettingsTest: the configuration is where these names are checked, once. */
    @ParameterizedTest
    @ValueSource(strings = {"Slot", "slot-1", "slot 1", "slot;drop", "a23456789012345678901234567890123456789012345678901234567890123x"})
    void refusesSlotNamesPgjdbcWouldPasteUnquoted(String name) {
        assertThat(allErrors(CrossKeyRules.validate(with("slot.name", name)))).containsOnlyKeys("slot.name")
                .extractingByKey("slot.name").asList().singleElement().asString()
                .contains("lowercase letters, digits and underscores");
    }

    /** Moved from ReplicationSettingsTest: the configuration is where protocol versions are checked, once. */
    @ParameterizedTest
    @ValueSource(strings = {"5", "-1"})
    void refusesUnknownProtocolVersions(String version) {
        assertThat(allErrors(CrossKeyRules.validate(with("protocol.version", version)))).containsOnlyKeys("protocol.version")
                .extractingByKey("protocol.version").asList().singleElement().asString()
                .contains("must be one of auto, 1, 2, 3, 4");
    }

    @ParameterizedTest(name = "{0}={1}")
    @CsvSource(delimiter = '|', value = {
        "database.sslmode | Verify-CA",
        "spill.backend | database",
        "spill.backend | com.example.spill.S3Spill",
        "slot.name | abcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabc",
        "topic.prefix | prod-eu.shop_1",
        "protocol.version | AUTO",
        "time.precision.mode | Connect",
        "time.precision.mode | isostring",
        "binary.handling.mode | hex",
    })
    void acceptsValidValues(String key, String value) {
        assertThat(allErrors(CrossKeyRules.validate(with(key, value)))).isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "prepared.transaction.mode | prepared.transaction.mode=stage, provide.transaction.metadata=true, protocol.version=2",
        "prepared.transaction.mode | prepared.transaction.mode=stage, provide.transaction.metadata=true, protocol.version=1",
        "streaming                 | streaming=parallel, protocol.version=3",
        "streaming                 | streaming=on, protocol.version=1",
        "tasks.max                 | tasks.max=2",
        "table.exclude.list        | table.include.list=public\\..*, table.exclude.list=public\\.audit",
        "schema.exclude.list       | schema.include.list=inventory, schema.exclude.list=audit",
        "max.queue.size            | max.batch.size=100, max.queue.size=100",
        "spill.max.transaction.bytes | spill.max.transaction.bytes=2000, spill.max.total.bytes=1000",
        "snapshot.include.list     | snapshot.mode=no_data, snapshot.include.list=public\\.orders",
        "provide.transaction.metadata | prepared.transaction.mode=stage, provide.transaction.metadata=false",
        "provide.transaction.metadata | prepared.transaction.mode=stage",
        "signal.kafka.bootstrap.servers | signal.enabled.channels=source,kafka",
        "messages.enabled          | signal.enabled.channels=message, messages.enabled=false",
    })
    void attachesEachCrossKeyErrorToTheKeyToChange(String key, String settings) {
        Map<String, String> props = MinimalConfig.props();
        for (String setting : settings.split(", ")) {
            String[] kv = setting.split("=", 2);
            props.put(kv[0], kv[1]);
        }

        Config config = CrossKeyRules.validate(props);

        assertThat(allErrors(config)).containsOnlyKeys(key);
        assertThat(errorsOf(config, key)).singleElement().asString().contains(key);
        if (!key.equals("tasks.max")) {
            assertThatThrownBy(() -> new PgOutputSourceConnectorConfig(props))
                    .isInstanceOf(ConfigException.class)
                    .hasMessageStartingWith(key + ": ");
        }
    }

    /** Loss path 6: the outcome of a staged transaction is a transaction-topic record, or nothing at all. */
    @Test
    void stagingWithoutTransactionMetadataIsRefusedNamingBothKeys() {
        Config config = CrossKeyRules.validate(
                with("prepared.transaction.mode", "stage", "provide.transaction.metadata", "false"));

        assertThat(errorsOf(config, "provide.transaction.metadata")).singleElement().asString()
                .contains("prepared.transaction.mode=stage needs provide.transaction.metadata=true")
                .contains("Set provide.transaction.metadata=true, or prepared.transaction.mode=fail");
    }

    @Test
    void protocolErrorSaysWhatToChange() {
        Config config = CrossKeyRules.validate(
                with("prepared.transaction.mode", "stage", "provide.transaction.metadata", "true", "protocol.version", "2"));

        assertThat(errorsOf(config, "prepared.transaction.mode")).containsExactly(
                "prepared.transaction.mode=stage needs pgoutput protocol 3 or later, but protocol.version is 2; set "
                        + "protocol.version to auto or at least 3, or prepared.transaction.mode to fail");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "prepared.transaction.mode=stage, provide.transaction.metadata=true, protocol.version=auto",
        "prepared.transaction.mode=stage, provide.transaction.metadata=true, protocol.version=3",
        "streaming=parallel, protocol.version=auto",
        "streaming=parallel, protocol.version=4",
        "signal.enabled.channels=kafka, signal.kafka.bootstrap.servers=broker:9092",
        "signal.enabled.channels=message",
        "signal.enabled.channels=source, signal.data.collection=public.debezium_signal, snapshot.new.tables=incremental",
        "streaming=on, protocol.version=2",
        "tasks.max=1",
        "max.batch.size=100, max.queue.size=101",
        "spill.max.transaction.bytes=1000, spill.max.total.bytes=1000",
        "spill.max.transaction.bytes=2000, spill.max.total.bytes=0",
        "snapshot.mode=initial, snapshot.include.list=public\\.orders",
        "schema.include.list=inventory, table.include.list=inventory\\.order.*",
        "schema.include.list=inventory, table.exclude.list=inventory\\.audit",
        "schema.exclude.list=audit, table.include.list=public\\..*",
        "schema.exclude.list=audit, table.exclude.list=public\\.log",
    })
    void acceptsConsistentCombinations(String settings) {
        Map<String, String> props = MinimalConfig.props();
        for (String setting : settings.split(", ")) {
            String[] kv = setting.split("=", 2);
            props.put(kv[0], kv[1]);
        }

        assertThat(allErrors(CrossKeyRules.validate(props))).isEmpty();
    }

    @Test
    void reportsABadSingleValueOnlyOnceNotAgainAsACrossKeyError() {
        Config config = CrossKeyRules.validate(
                with("prepared.transaction.mode", "stage", "provide.transaction.metadata", "true", "protocol.version", "9"));

        assertThat(allErrors(config)).containsOnlyKeys("protocol.version");
    }

    @Test
    void neverRevealsThePassword() {
        Map<String, String> props = with("database.password", PASSWORD);
        PrintStream originalErr = System.err;
        ByteArrayOutputStream logged = new ByteArrayOutputStream();
        PgOutputSourceConnectorConfig config;
        Config validated;
        try {
            System.setErr(new PrintStream(logged, true, StandardCharsets.UTF_8));
            config = new PgOutputSourceConnectorConfig(props); // AbstractConfig logs every value at INFO
            validated = CrossKeyRules.validate(props);
            new PgOutputSourceConnector().start(props);
        } finally {
            System.setErr(originalErr);
        }

        assertThat(logged.toString(StandardCharsets.UTF_8))
                .contains("database.password = [hidden]")
                .doesNotContain(PASSWORD);
        assertThat(config.toString()).doesNotContain(PASSWORD);
        assertThat(config.values().toString()).doesNotContain(PASSWORD);
        assertThat(config.databasePassword().toString()).doesNotContain(PASSWORD);
        assertThat(validated.configValues().toString()).doesNotContain(PASSWORD);
        assertThat(config.databasePassword().value()).isEqualTo(PASSWORD);
    }
}
