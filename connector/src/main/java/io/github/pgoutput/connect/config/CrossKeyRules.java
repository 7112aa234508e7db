package io.github.pgoutput.connect.config;

import static io.github.pgoutput.connect.config.ConnectKeys.TASKS_MAX_CONFIG;
import static io.github.pgoutput.connect.config.RecordKeys.PROVIDE_TRANSACTION_METADATA_CONFIG;
import static io.github.pgoutput.connect.config.ReplicationKeys.PREPARED_TRANSACTION_MODE_CONFIG;
import static io.github.pgoutput.connect.config.ReplicationKeys.PROTOCOL_VERSION_CONFIG;
import static io.github.pgoutput.connect.config.ReplicationKeys.STREAMING_CONFIG;
import static io.github.pgoutput.connect.config.SnapshotKeys.SNAPSHOT_INCLUDE_COLLECTION_LIST_CONFIG;
import static io.github.pgoutput.connect.config.SnapshotKeys.SNAPSHOT_INCLUDE_LIST_CONFIG;
import static io.github.pgoutput.connect.config.SnapshotKeys.SNAPSHOT_MODE_CONFIG;
import static io.github.pgoutput.connect.config.SpillKeys.SPILL_MAX_TOTAL_BYTES_CONFIG;
import static io.github.pgoutput.connect.config.SpillKeys.SPILL_MAX_TRANSACTION_BYTES_CONFIG;
import static io.github.pgoutput.connect.config.TableKeys.TABLE_EXCLUDE_LIST_CONFIG;
import static io.github.pgoutput.connect.config.TableKeys.TABLE_INCLUDE_LIST_CONFIG;
import static io.github.pgoutput.connect.config.ThroughputKeys.MAX_BATCH_SIZE_CONFIG;
import static io.github.pgoutput.connect.config.ThroughputKeys.MAX_QUEUE_SIZE_CONFIG;

import io.github.pgoutput.assembly.PreparedTransactionMode;
import io.github.pgoutput.connect.record.DirectEncoding;
import io.github.pgoutput.pgoutput.StreamingMode;
import io.github.pgoutput.snapshot.SnapshotMode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.config.Config;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.ConfigValue;

/**
 * The configuration rules that involve more than one key, and the validation that runs them after the single-key
 * rules. Each rule looks only at keys present in {@code parsed} (the values that passed their single-key validators,
 * as the ConfigDef parsed them), so a bad single value is reported once, by its own validator, and not again here.
 */
public final class CrossKeyRules {

    /** The converter that passes the bytes of {@code direct.encoding} on unchanged (Connect's runtime, not its API). */
    public static final String BYTE_ARRAY_CONVERTER = "org.apache.kafka.connect.converters.ByteArrayConverter";

    private CrossKeyRules() {
    }

    /** The keys without a default, each with what its value is, for the error that it is missing. */
    private static final Map<String, String> REQUIRED_KEYS = Map.of(
            DatabaseKeys.DATABASE_HOSTNAME_CONFIG, "the PostgreSQL server's host name or address",
            DatabaseKeys.DATABASE_USER_CONFIG, "the role to connect as, with the REPLICATION attribute",
            DatabaseKeys.DATABASE_DBNAME_CONFIG, "the database to capture",
            RecordKeys.TOPIC_PREFIX_CONFIG, "a name for this database server; every topic name starts with it");

    /**
     * Validates {@code props} the way {@code PUT /connector-plugins/.../config/validate} shows it: single-key rules
     * from the ConfigDef, then the Debezium keys this connector refuses ({@link UnsupportedDebeziumKeys}), Debezium's
     * pre-2.0 names ({@link LegacyDebeziumKeys}) and the cross-key rules, each error attached to the key the user has
     * to change. A cross-key rule runs only when its keys passed their single-key checks. Empty values are unset keys.
     */
    public static Config validate(Map<String, String> props) {
        Map<String, String> given = EmptyValues.removed(props);
        Map<String, ConfigValue> byKey = new LinkedHashMap<>();
        for (ConfigValue value : PgOutputSourceConnectorConfig.CONFIG_DEF.validate(given)) {
            byKey.put(value.name(), value);
        }
        // A missing topic.prefix whose pre-2.0 name is given: its own error, with the value to write, replaces
        // ConfigDef's bare "missing" (allProblems adds it); the other missing keys get what to write added.
        LegacyDebeziumKeys.missingTopicPrefix(given).ifPresent(p -> byKey.put(p.key(), new ConfigValue(p.key())));
        REQUIRED_KEYS.forEach((key, what) -> {
            ConfigValue value = byKey.get(key);
            if (value != null && !given.containsKey(key) && !value.errorMessages().isEmpty()) {
                List<String> messages = new ArrayList<>(value.errorMessages());
                value.errorMessages().clear();
                messages.forEach(m -> value.addErrorMessage(m + " Write " + key + "=<" + what + ">"));
            }
        });
        Map<String, Object> parsed = new LinkedHashMap<>();
        byKey.forEach((key, value) -> {
            if (value.errorMessages().isEmpty()) {
                parsed.put(key, value.value());
            }
        });
        // Keys whose names carry a parameter (column.mask.with.N.chars, a converter's <name>.type) are listed too, so
        // that Connect shows them as keys of this connector rather than as keys it ignores.
        given.forEach((key, value) -> {
            if (!byKey.containsKey(key) && ColumnShapingKeys.reads(key, given)) {
                byKey.put(key, new ConfigValue(key, value, List.of(), new ArrayList<>()));
            }
        });
        for (ConfigProblem problem : allProblems(parsed, given)) {
            byKey.computeIfAbsent(problem.key(), ConfigValue::new).addErrorMessage(problem.message());
        }
        return new Config(new ArrayList<>(byKey.values()));
    }

    /**
     * Enforces the same rules as {@link #validate} on a configuration the ConfigDef has parsed.
     *
     * @param parsed    the parsed values of every key
     * @param originals the configuration as given
     * @throws ConfigException for the first problem, naming its key
     */
    static void requireNone(Map<String, ?> parsed, Map<String, ?> originals) {
        List<ConfigProblem> problems = allProblems(parsed, originals);
        if (!problems.isEmpty()) {
            ConfigProblem first = problems.get(0);
            throw new ConfigException(first.key() + ": " + first.message());
        }
    }

    /**
     * The refused Debezium keys and pre-2.0 names among {@code given}, a {@code snapshot.mode} that stands for no mode,
     * then the problems of {@link #problems(Map, Map)}.
     */
    private static List<ConfigProblem> allProblems(Map<String, ?> parsed, Map<String, ?> given) {
        List<ConfigProblem> problems = new ArrayList<>(UnsupportedDebeziumKeys.problems(given));
        problems.addAll(LegacyDebeziumKeys.problems(given));
        problems.addAll(DebeziumReselect.problems(given));
        DebeziumSnapshotModes.problem(given).ifPresent(problems::add);
        problems.addAll(ColumnShapingKeys.problems(given));
        problems.addAll(NearMissKeys.problems(EmptyValues.removed(given)));
        problems.addAll(problems(parsed, given));
        checkDirectEncoding(parsed, given, problems);
        return problems;
    }

    /**
     * The warning for transforms under {@code direct.encoding}: they see {@code byte[]} keys and values, so an SMT
     * that reads fields fails or passes records unchanged. Not an error, because transforms on the topic or the
     * headers still work; empty when the encoding is none or no transform is set.
     */
    static Optional<String> transformsSeeBytes(Map<String, ?> given) {
        Object encoding = given.get(RecordKeys.DIRECT_ENCODING_CONFIG);
        Object transforms = given.get(ConnectKeys.TRANSFORMS);
        if (encoding == null || transforms == null || transforms.toString().isBlank()) {
            return Optional.empty();
        }
        DirectEncoding mode;
        try {
            mode = ConfigChoices.DIRECT_ENCODING.parse(RecordKeys.DIRECT_ENCODING_CONFIG, encoding.toString());
        } catch (ConfigException e) {
            return Optional.empty(); // reported as an error by the key's own validator
        }
        if (mode == DirectEncoding.NONE) {
            return Optional.empty();
        }
        return Optional.of(RecordKeys.DIRECT_ENCODING_CONFIG + "=" + encoding.toString().trim()
                + ": the transforms " + transforms.toString().trim() + " see each record's key and value as byte[] (the JSON"
                + " this connector writes), not as Structs; a transform that reads or changes fields (ExtractNewRecordState,"
                + " ReplaceField, ValueToKey, ...) fails or leaves the record unchanged. Transforms of the topic or the"
                + " headers still work. Use " + RecordKeys.DIRECT_ENCODING_CONFIG + "=none with such transforms");
    }

    /**
     * {@code direct.encoding} other than none writes the key and value bytes itself, so this connector's converters
     * must pass them on: the worker's defaults are not visible here and would encode the bytes a second time (JSON of
     * base64 text, say), so the two converters must be set on the connector, to ByteArrayConverter.
     */
    private static void checkDirectEncoding(Map<String, ?> parsed, Map<String, ?> given, List<ConfigProblem> problems) {
        if (!(parsed.get(RecordKeys.DIRECT_ENCODING_CONFIG) instanceof String text)
                || ConfigChoices.DIRECT_ENCODING.parse(RecordKeys.DIRECT_ENCODING_CONFIG, text)
                        == DirectEncoding.NONE) {
            return;
        }
        for (String key : List.of(ConnectKeys.KEY_CONVERTER, ConnectKeys.VALUE_CONVERTER)) {
            Object converter = given.get(key);
            String named = converter == null ? "" : converter.toString().trim();
            if (named.isEmpty()) {
                problems.add(new ConfigProblem(RecordKeys.DIRECT_ENCODING_CONFIG,
                        RecordKeys.DIRECT_ENCODING_CONFIG + "=" + text.trim() + " writes the record "
                        + "key and value bytes itself, but this connector's config does not set " + key + "; set " + key
                        + "=" + BYTE_ARRAY_CONVERTER + " (the worker's default converter would encode the bytes again), or "
                        + RecordKeys.DIRECT_ENCODING_CONFIG + "=none"));
            } else if (!named.equals(BYTE_ARRAY_CONVERTER)) {
                problems.add(new ConfigProblem(key, key + " is " + named + " but "
                        + RecordKeys.DIRECT_ENCODING_CONFIG + "=" + text.trim() + " writes the record key "
                        + "and value bytes itself; set " + key + "=" + BYTE_ARRAY_CONVERTER + ", or "
                        + RecordKeys.DIRECT_ENCODING_CONFIG + "=none to let " + named + " encode Structs"));
            }
        }
    }

    /**
     * @param parsed key to parsed value, for the keys that passed single-key validation
     * @param given  the configuration as given: Connect's {@code tasks.max} (String, Integer or null), checked because
     *               this connector runs exactly one task, and Debezium's settings of {@code snapshot.mode}
     */
    private static List<ConfigProblem> problems(Map<String, ?> parsed, Map<String, ?> given) {
        List<ConfigProblem> problems = new ArrayList<>();
        checkTasksMax(given.get(TASKS_MAX_CONFIG), problems);
        checkProtocolFeatures(parsed, problems);
        if (!list(parsed, TABLE_INCLUDE_LIST_CONFIG).isEmpty() && !list(parsed, TABLE_EXCLUDE_LIST_CONFIG).isEmpty()) {
            problems.add(new ConfigProblem(TABLE_EXCLUDE_LIST_CONFIG, TABLE_EXCLUDE_LIST_CONFIG + " and "
                    + TABLE_INCLUDE_LIST_CONFIG + " are both set; use one of them (exclude what you do not want by "
                    + "writing " + TABLE_INCLUDE_LIST_CONFIG + " accordingly, or clear it)"));
        }
        if (!list(parsed, TableKeys.SCHEMA_INCLUDE_LIST_CONFIG).isEmpty()
                && !list(parsed, TableKeys.SCHEMA_EXCLUDE_LIST_CONFIG).isEmpty()) {
            problems.add(new ConfigProblem(TableKeys.SCHEMA_EXCLUDE_LIST_CONFIG,
                    TableKeys.SCHEMA_EXCLUDE_LIST_CONFIG + " and "
                    + TableKeys.SCHEMA_INCLUDE_LIST_CONFIG + " are both set; use one of them"));
        }
        if (!list(parsed, ReplicationKeys.MESSAGE_PREFIX_INCLUDE_LIST_CONFIG).isEmpty()
                && !list(parsed, ReplicationKeys.MESSAGE_PREFIX_EXCLUDE_LIST_CONFIG).isEmpty()) {
            problems.add(new ConfigProblem(ReplicationKeys.MESSAGE_PREFIX_EXCLUDE_LIST_CONFIG,
                    ReplicationKeys.MESSAGE_PREFIX_EXCLUDE_LIST_CONFIG + " and "
                    + ReplicationKeys.MESSAGE_PREFIX_INCLUDE_LIST_CONFIG + " are both set; use one of them"));
        }
        for (String snapshotList : List.of(SNAPSHOT_INCLUDE_LIST_CONFIG, SNAPSHOT_INCLUDE_COLLECTION_LIST_CONFIG)) {
            if (snapshotMode(parsed, given) == SnapshotMode.NO_DATA && !list(parsed, snapshotList).isEmpty()) {
                problems.add(new ConfigProblem(snapshotList, snapshotList + " is set but " + SNAPSHOT_MODE_CONFIG
                        + " is no_data, which never snapshots; clear " + snapshotList + " or choose a snapshot mode that snapshots"));
            }
        }
        if (!list(parsed, SNAPSHOT_INCLUDE_LIST_CONFIG).isEmpty() && !list(parsed, SNAPSHOT_INCLUDE_COLLECTION_LIST_CONFIG).isEmpty()) {
            problems.add(new ConfigProblem(SNAPSHOT_INCLUDE_COLLECTION_LIST_CONFIG, SNAPSHOT_INCLUDE_COLLECTION_LIST_CONFIG
                    + " is Debezium's name of " + SNAPSHOT_INCLUDE_LIST_CONFIG + ", and both are set; keep one of them"));
        }
        if (parsed.get(PREPARED_TRANSACTION_MODE_CONFIG) instanceof String modeText
                && ConfigChoices.PREPARED_TRANSACTION_MODE.parse(PREPARED_TRANSACTION_MODE_CONFIG, modeText)
                        == PreparedTransactionMode.STAGE
                && Boolean.FALSE.equals(parsed.get(PROVIDE_TRANSACTION_METADATA_CONFIG))) {
            // The outcome of a staged transaction (COMMIT PREPARED, ROLLBACK PREPARED) is a record on the transaction
            // topic only: without it a consumer sees PREPARED changes and never learns whether they were rolled back.
            problems.add(new ConfigProblem(PROVIDE_TRANSACTION_METADATA_CONFIG, PREPARED_TRANSACTION_MODE_CONFIG
                    + "=stage needs " + PROVIDE_TRANSACTION_METADATA_CONFIG + "=true (its default is false, as in Debezium): the COMMITTED and ROLLED_BACK outcomes of a "
                    + "prepared transaction are records on the transaction topic, and without them the PREPARED changes reach "
                    + "Kafka with no sign of a later rollback. Set " + PROVIDE_TRANSACTION_METADATA_CONFIG + "=true, or "
                    + PREPARED_TRANSACTION_MODE_CONFIG + "=fail"));
        }
        if (parsed.get(SPILL_MAX_TRANSACTION_BYTES_CONFIG) instanceof Long perTransaction
                && parsed.get(SPILL_MAX_TOTAL_BYTES_CONFIG) instanceof Long total
                && perTransaction > 0 && total > 0 && perTransaction > total) {
            problems.add(new ConfigProblem(SPILL_MAX_TRANSACTION_BYTES_CONFIG, SPILL_MAX_TRANSACTION_BYTES_CONFIG
                    + " is " + perTransaction + ", more than " + SPILL_MAX_TOTAL_BYTES_CONFIG + " (" + total
                    + "); one transaction can never reach it. Lower it to at most " + total + " or raise "
                    + SPILL_MAX_TOTAL_BYTES_CONFIG));
        }
        List<?> channels = list(parsed, SnapshotKeys.SIGNAL_ENABLED_CHANNELS_CONFIG);
        if (channels.stream().anyMatch(c -> ConfigValidators.SIGNAL_CHANNEL_KAFKA.equalsIgnoreCase(String.valueOf(c).trim()))
                && (!(parsed.get(SnapshotKeys.SIGNAL_KAFKA_BOOTSTRAP_SERVERS_CONFIG) instanceof String servers)
                        || servers.isBlank())) {
            problems.add(new ConfigProblem(SnapshotKeys.SIGNAL_KAFKA_BOOTSTRAP_SERVERS_CONFIG,
                    SnapshotKeys.SIGNAL_ENABLED_CHANNELS_CONFIG + " enables the kafka channel, which reads the signal"
                    + " topic from the brokers in " + SnapshotKeys.SIGNAL_KAFKA_BOOTSTRAP_SERVERS_CONFIG
                    + "; set it (host:port,...), or leave kafka out of " + SnapshotKeys.SIGNAL_ENABLED_CHANNELS_CONFIG));
        }
        if (channels.stream().anyMatch(c -> ConfigValidators.SIGNAL_CHANNEL_MESSAGE.equalsIgnoreCase(String.valueOf(c).trim()))
                && Boolean.FALSE.equals(parsed.get(ReplicationKeys.MESSAGES_ENABLED_CONFIG))) {
            problems.add(new ConfigProblem(ReplicationKeys.MESSAGES_ENABLED_CONFIG,
                    SnapshotKeys.SIGNAL_ENABLED_CHANNELS_CONFIG + " enables the message channel, whose signals are"
                    + " logical decoding messages, but " + ReplicationKeys.MESSAGES_ENABLED_CONFIG + "=false asks"
                    + " PostgreSQL not to send any; set it to true, or leave message out of "
                    + SnapshotKeys.SIGNAL_ENABLED_CHANNELS_CONFIG));
        }
        if (parsed.get(MAX_BATCH_SIZE_CONFIG) instanceof Integer batch
                && parsed.get(MAX_QUEUE_SIZE_CONFIG) instanceof Integer queue && queue <= batch) {
            problems.add(new ConfigProblem(MAX_QUEUE_SIZE_CONFIG, MAX_QUEUE_SIZE_CONFIG + " is " + queue
                    + " but must be larger than " + MAX_BATCH_SIZE_CONFIG + " (" + batch + "); raise it to at least "
                    + (batch + 1L)));
        }
        return problems;
    }

    private static void checkTasksMax(Object tasksMax, List<ConfigProblem> problems) {
        if (tasksMax == null) {
            return;
        }
        int value;
        try {
            value = Integer.parseInt(tasksMax.toString().trim());
        } catch (NumberFormatException e) {
            return; // Connect's own validation of tasks.max reports this
        }
        if (value > 1) {
            problems.add(new ConfigProblem(TASKS_MAX_CONFIG, TASKS_MAX_CONFIG + " is " + value
                    + "; this connector reads one replication slot, which only one task can read, so it runs "
                    + "exactly one task. Set " + TASKS_MAX_CONFIG + "=1"));
        }
    }

    private static void checkProtocolFeatures(Map<String, ?> parsed, List<ConfigProblem> problems) {
        if (!(parsed.get(PROTOCOL_VERSION_CONFIG) instanceof String protocolText)) {
            return;
        }
        ProtocolVersionSetting protocol = ConfigChoices.PROTOCOL_VERSION.parse(PROTOCOL_VERSION_CONFIG, protocolText);
        if (parsed.get(STREAMING_CONFIG) instanceof String streamingText) {
            StreamingMode streaming = ConfigChoices.STREAMING.parse(STREAMING_CONFIG, streamingText).orElse(null);
            if (streaming == StreamingMode.ON && !protocol.allowsAtLeast(2)) {
                problems.add(protocolTooLow(STREAMING_CONFIG, "on", 2, protocol, "off"));
            }
            if (streaming == StreamingMode.PARALLEL && !protocol.allowsAtLeast(4)) {
                problems.add(protocolTooLow(STREAMING_CONFIG, "parallel", 4, protocol, "on or auto"));
            }
        }
        if (parsed.get(PREPARED_TRANSACTION_MODE_CONFIG) instanceof String modeText
                && ConfigChoices.PREPARED_TRANSACTION_MODE.parse(PREPARED_TRANSACTION_MODE_CONFIG, modeText)
                        == PreparedTransactionMode.STAGE
                && !protocol.allowsAtLeast(3)) {
            problems.add(protocolTooLow(PREPARED_TRANSACTION_MODE_CONFIG, "stage", 3, protocol, "fail"));
        }
    }

    private static ConfigProblem protocolTooLow(String key, String value, int needed, ProtocolVersionSetting protocol,
            String alternative) {
        return new ConfigProblem(key, key + "=" + value + " needs pgoutput protocol " + needed + " or later, but "
                + PROTOCOL_VERSION_CONFIG + " is " + protocol.configValue() + "; set " + PROTOCOL_VERSION_CONFIG
                + " to auto or at least " + needed + ", or " + key + " to " + alternative);
    }

    /** The snapshot mode among the parsed values, or null when it is not there or stands for no mode. */
    private static SnapshotMode snapshotMode(Map<String, ?> parsed, Map<String, ?> given) {
        if (!(parsed.get(SNAPSHOT_MODE_CONFIG) instanceof String mode)) {
            return null;
        }
        try {
            return DebeziumSnapshotModes.resolve(mode, given);
        } catch (ConfigException e) {
            return null; // a configuration_based combination that DebeziumSnapshotModes.problem reports
        }
    }

    private static List<?> list(Map<String, ?> parsed, String key) {
        return parsed.get(key) instanceof List<?> list ? list : List.of();
    }
}
