package io.github.pgoutput.connect.config;

import io.github.pgoutput.snapshot.SnapshotMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;

/**
 * The {@code snapshot.mode} values of Debezium 3.7 beyond the modes this connector names itself
 * ({@link ConfigChoices#SNAPSHOT_MODE}, which also reads the old names {@code never} and {@code exported}):
 * {@code configuration_based}, whose {@code snapshot.mode.configuration.based.*} settings are read as the mode they
 * amount to when there is one ({@code always} or {@code no_data}) and refused with the mode to write otherwise; and
 * {@code custom}, a Snapshotter class this connector cannot load, refused. Stateless.
 */
public final class DebeziumSnapshotModes {

    static final String CONFIGURATION_BASED = "configuration_based";
    static final String CUSTOM = "custom";

    /** Debezium's settings of {@code configuration_based}; booleans, false when unset. */
    static final String SNAPSHOT_DATA_CONFIG = "snapshot.mode.configuration.based.snapshot.data";
    static final String SNAPSHOT_SCHEMA_CONFIG = "snapshot.mode.configuration.based.snapshot.schema";
    static final String START_STREAM_CONFIG = "snapshot.mode.configuration.based.start.stream";
    static final String SNAPSHOT_ON_SCHEMA_ERROR_CONFIG = "snapshot.mode.configuration.based.snapshot.on.schema.error";
    static final String SNAPSHOT_ON_DATA_ERROR_CONFIG = "snapshot.mode.configuration.based.snapshot.on.data.error";
    /** Debezium's Snapshotter class name for {@code custom}. */
    static final String CUSTOM_NAME_CONFIG = "snapshot.mode.custom.name";

    /** The keys read here: with {@code configuration_based} (or {@code custom}) they are not keys nothing reads. */
    static final List<String> KEYS = List.of(SNAPSHOT_DATA_CONFIG, SNAPSHOT_SCHEMA_CONFIG, START_STREAM_CONFIG,
            SNAPSHOT_ON_SCHEMA_ERROR_CONFIG, SNAPSHOT_ON_DATA_ERROR_CONFIG, CUSTOM_NAME_CONFIG);

    /**
     * Modes of Debezium's connectors with a schema history, each with the PostgreSQL mode that reads the same rows: they
     * snapshot (or recover) the schemas only, which PostgreSQL connectors do not keep, and then stream.
     */
    private static final Map<String, String> HISTORY_MODES = Map.of("recovery", "no_data", "schema_only", "no_data",
            "schema_only_recovery", "no_data");

    private DebeziumSnapshotModes() {
    }

    /** The validator of {@code snapshot.mode}: this connector's modes, their old names, and {@code configuration_based}. */
    static ConfigDef.Validator validator() {
        return new ConfigDef.Validator() {
            @Override
            public void ensureValid(String name, Object value) {
                String text = value == null ? "" : value.toString().trim();
                if (text.equalsIgnoreCase(CONFIGURATION_BASED)) {
                    return; // what it amounts to depends on other keys: problem(...)
                }
                String historyMode = HISTORY_MODES.get(text.toLowerCase(java.util.Locale.ROOT));
                if (historyMode != null) {
                    throw new ConfigException(name, value, text + " is a mode of Debezium's connectors that keep a schema history"
                            + " (MySQL, SQL Server, ...), not of its PostgreSQL connector, which refuses it too; write " + name + "="
                            + historyMode);
                }
                if (text.equalsIgnoreCase(CUSTOM)) {
                    throw new ConfigException(name, value, "custom loads a Debezium Snapshotter class, which this connector"
                            + " cannot run; write the built-in mode it behaves like: " + String.join(", ", ConfigChoices.SNAPSHOT_MODE.texts()));
                }
                ConfigChoices.SNAPSHOT_MODE.parse(name, value);
            }

            @Override
            public String toString() {
                return String.join(", ", ConfigChoices.SNAPSHOT_MODE.texts()) + ", " + CONFIGURATION_BASED;
            }
        };
    }

    /**
     * The mode {@code text} stands for.
     *
     * @param given the configuration, for the {@code configuration_based} settings
     * @throws ConfigException when it stands for no mode of this connector
     */
    public static SnapshotMode resolve(String text, Map<String, ?> given) {
        if (text != null && text.trim().equalsIgnoreCase(CONFIGURATION_BASED)) {
            Optional<SnapshotMode> mode = configurationBased(given);
            if (mode.isEmpty()) {
                throw new ConfigException(SnapshotKeys.SNAPSHOT_MODE_CONFIG, text, unmappable(given));
            }
            return mode.get();
        }
        return ConfigChoices.SNAPSHOT_MODE.parse(SnapshotKeys.SNAPSHOT_MODE_CONFIG, text);
    }

    /** The refusal of a {@code configuration_based} combination that amounts to no mode here. */
    static Optional<ConfigProblem> problem(Map<String, ?> given) {
        Object mode = given.get(SnapshotKeys.SNAPSHOT_MODE_CONFIG);
        if (mode == null || !mode.toString().trim().equalsIgnoreCase(CONFIGURATION_BASED) || configurationBased(given).isPresent()) {
            return Optional.empty();
        }
        return Optional.of(new ConfigProblem(SnapshotKeys.SNAPSHOT_MODE_CONFIG, unmappable(given)));
    }

    /** The WARN of a mode given by an old name or as {@code configuration_based}, saying what to write. */
    static Optional<String> warning(Map<String, ?> given) {
        Object text = given.get(SnapshotKeys.SNAPSHOT_MODE_CONFIG);
        if (text == null) {
            return Optional.empty();
        }
        String key = SnapshotKeys.SNAPSHOT_MODE_CONFIG;
        Optional<SnapshotMode> aliased = ConfigChoices.SNAPSHOT_MODE.aliased(text);
        if (aliased.isPresent()) {
            String mode = ConfigChoices.SNAPSHOT_MODE.text(aliased.get());
            return Optional.of(key + "=" + text.toString().trim() + " is Debezium's old name of " + mode + " (Debezium 3.x refuses it)"
                    + " and is read as " + mode + "; write " + key + "=" + mode);
        }
        if (text.toString().trim().equalsIgnoreCase(CONFIGURATION_BASED)) {
            return configurationBased(given).map(mode -> key + "=" + CONFIGURATION_BASED + " with " + flags(given) + " is read as "
                    + key + "=" + ConfigChoices.SNAPSHOT_MODE.text(mode) + ", which does the same here; write that instead");
        }
        return Optional.empty();
    }

    /**
     * Debezium's ConfigurationBasedSnapshotter decides by its flags alone: data (a snapshot at every start), stream, and
     * data-on-error (a snapshot when the stored offset is lost). PostgreSQL keeps no schema history, so the schema flags
     * change nothing.
     */
    private static Optional<SnapshotMode> configurationBased(Map<String, ?> given) {
        boolean data = flag(given, SNAPSHOT_DATA_CONFIG);
        boolean stream = flag(given, START_STREAM_CONFIG);
        boolean onDataError = flag(given, SNAPSHOT_ON_DATA_ERROR_CONFIG);
        if (data && stream) {
            // A snapshot at every start, streaming after it: always (which also snapshots when the offset is lost).
            return Optional.of(SnapshotMode.ALWAYS);
        }
        if (!data && stream && !onDataError) {
            return Optional.of(SnapshotMode.NO_DATA);
        }
        return Optional.empty();
    }

    private static String unmappable(Map<String, ?> given) {
        boolean data = flag(given, SNAPSHOT_DATA_CONFIG);
        boolean stream = flag(given, START_STREAM_CONFIG);
        String what;
        if (data) {
            what = "takes a snapshot at every start and never streams, which no mode here does; write initial_only (one"
                    + " snapshot, then the task stays idle) or always (a snapshot at every start, then streaming)";
        } else if (stream) {
            what = "streams without a first snapshot but takes one when the stored offset is lost, which no mode here does;"
                    + " write no_data (the task fails when the offset is lost) or when_needed (which also snapshots at the first start)";
        } else {
            what = "neither snapshots nor streams; write the mode you mean: initial, always, no_data, initial_only or when_needed";
        }
        return SnapshotKeys.SNAPSHOT_MODE_CONFIG + "=" + CONFIGURATION_BASED + " with " + flags(given) + " " + what;
    }

    private static String flags(Map<String, ?> given) {
        List<String> flags = new ArrayList<>();
        for (String key : List.of(SNAPSHOT_DATA_CONFIG, START_STREAM_CONFIG, SNAPSHOT_ON_DATA_ERROR_CONFIG)) {
            flags.add(key + "=" + flag(given, key));
        }
        return String.join(", ", flags);
    }

    /** Debezium's reading of a boolean: true, ignoring case and blanks; anything else, or unset, is false. */
    private static boolean flag(Map<String, ?> given, String key) {
        Object value = given.get(key);
        return value != null && value.toString().trim().equalsIgnoreCase("true");
    }
}
