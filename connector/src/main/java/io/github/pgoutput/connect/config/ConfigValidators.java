package io.github.pgoutput.connect.config;

import io.github.pgoutput.connect.record.MessageKeyColumns;
import io.github.pgoutput.connect.shaping.RegexList;
import io.github.pgoutput.replication.ServerAddresses;
import io.github.pgoutput.spill.SpillSettings;
import java.util.List;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;

/**
 * The single-key validators of {@link PgOutputSourceConnectorConfig} that Kafka's ConfigDef does not provide. Each
 * throws a {@link ConfigException} naming the key and the value, and prints its rule for the generated
 * documentation. (Enum-valued keys use {@link ConfigChoice#validator}.) A validator lets a null value pass: for a
 * required key without default ConfigDef has already reported it missing, and a second message would repeat it.
 */
public final class ConfigValidators {

    private static final Pattern LOWERCASE_IDENTIFIER = Pattern.compile("[a-z0-9_]{1,63}");
    private static final Pattern TOPIC_CHARACTERS = Pattern.compile("[a-zA-Z0-9._-]+");
    private static final Pattern JAVA_CLASS_NAME =
            Pattern.compile("(\\p{javaJavaIdentifierStart}\\p{javaJavaIdentifierPart}*\\.)*"
                    + "\\p{javaJavaIdentifierStart}\\p{javaJavaIdentifierPart}*");

    private ConfigValidators() {
    }

    /** The signal channels this connector implements, as {@code signal.enabled.channels} names them. */
    static final String SIGNAL_CHANNEL_SOURCE = "source";
    static final String SIGNAL_CHANNEL_KAFKA = "kafka";
    static final String SIGNAL_CHANNEL_MESSAGE = "message";

    /** The channels this connector reads signals from. */
    static final java.util.Set<String> SIGNAL_CHANNELS_READ = java.util.Set.of(SIGNAL_CHANNEL_SOURCE, SIGNAL_CHANNEL_KAFKA,
            SIGNAL_CHANNEL_MESSAGE);

    /**
     * {@code signal.enabled.channels}: any channel names, as Debezium (whose extensions may add channels) accepts them;
     * the ones this connector does not read are named in a WARN ({@link ConfigWarnings}), not refused.
     */
    static ConfigDef.Validator signalChannels() {
        return ConfigDef.LambdaValidator.with((name, value) -> {
            if (value == null) {
                return;
            }
            for (Object item : (List<?>) value) {
                if (item.toString().isBlank()) {
                    throw new ConfigException(name, value, "names an empty channel; list channel names separated by commas,"
                            + " such as " + SIGNAL_CHANNEL_SOURCE + "," + SIGNAL_CHANNEL_KAFKA);
                }
            }
        }, () -> "channel names; read here: " + SIGNAL_CHANNEL_SOURCE + ", " + SIGNAL_CHANNEL_KAFKA + ", " + SIGNAL_CHANNEL_MESSAGE);
    }

    static ConfigDef.Validator optionalTableName() {
        return ConfigDef.LambdaValidator.with((name, value) -> {
            if (value == null || value.toString().isBlank()) {
                return;
            }
            try {
                signalTable(value.toString());
            } catch (RuntimeException e) {
                throw new ConfigException(name, value, "must be schema.table (Debezium's database.schema.table also works): "
                        + e.getMessage());
            }
        }, () -> "schema.table, or empty");
    }

    /** A signal table's name: {@code schema.table}, or Debezium's {@code database.schema.table}. */
    static io.github.pgoutput.replication.TableName signalTable(String text) {
        String[] parts = text.trim().split("\\.", -1);
        if (parts.length == 3) {
            return new io.github.pgoutput.replication.TableName(parts[1], parts[2]);
        }
        if (parts.length != 2) {
            throw new IllegalArgumentException("'" + text + "' is not schema.table");
        }
        return new io.github.pgoutput.replication.TableName(parts[0], parts[1]);
    }

    static ConfigDef.Validator lowercaseIdentifier() {
        return ConfigDef.LambdaValidator.with((name, value) -> {
            if (value == null) {
                return; // a missing required key is reported once, by ConfigDef itself
            }
            if (!LOWERCASE_IDENTIFIER.matcher(value.toString()).matches()) {
                throw new ConfigException(name, value,
                        "must be 1 to 63 characters of lowercase letters, digits and underscores");
            }
        }, () -> "[a-z0-9_]{1,63}");
    }

    static ConfigDef.Validator topicCharacters() {
        return ConfigDef.LambdaValidator.with((name, value) -> {
            if (value == null) {
                return; // a missing required key is reported once, by ConfigDef itself
            }
            if (value.toString().length() > 200
                    || !TOPIC_CHARACTERS.matcher(value.toString()).matches()) {
                throw new ConfigException(name, value,
                        "must be 1 to 200 characters of letters, digits, '.', '_' and '-' (it starts Kafka topic names)");
            }
        }, () -> "[a-zA-Z0-9._-]{1,200}");
    }

    /** A topic name, or empty. */
    static ConfigDef.Validator optionalTopicName() {
        ConfigDef.Validator topic = topicCharacters();
        return ConfigDef.LambdaValidator.with((name, value) -> {
            if (value != null && !value.toString().isBlank()) {
                topic.ensureValid(name, value.toString().trim());
            }
        }, () -> "a topic name, or empty");
    }

    static ConfigDef.Validator regexList() {
        return ConfigDef.LambdaValidator.with((name, value) -> {
            for (Object item : (List<?>) value) {
                try {
                    Pattern.compile(item.toString());
                } catch (PatternSyntaxException e) {
                    throw new ConfigException(name, value,
                            "'" + item + "' is not a valid regular expression: " + e.getDescription());
                }
            }
        }, () -> "comma-separated regular expressions");
    }

    /** A list of regular expressions in Debezium's form ({@link RegexList}): each must compile; unset is none. */
    static ConfigDef.Validator debeziumRegexList() {
        return ConfigDef.LambdaValidator.with((name, value) -> {
            try {
                RegexList.parse(value == null ? null : value.toString());
            } catch (IllegalArgumentException e) {
                throw new ConfigException(name, value, "must be comma-separated regular expressions (a comma inside one"
                        + " escaped as \\,), but " + e.getMessage());
            }
        }, () -> "comma-separated regular expressions, case-insensitive");
    }

    /** {@code plugin.name}: only {@code pgoutput}, the one logical decoding output this connector reads. */
    static ConfigDef.Validator pgoutputPluginOnly() {
        return ConfigDef.LambdaValidator.with((name, value) -> {
            if (value != null && !"pgoutput".equals(value.toString().trim())) {
                throw new ConfigException(name, value, "this connector reads the pgoutput logical decoding output only;"
                        + " set " + name + "=pgoutput (or remove it). decoderbufs and wal2json are not supported");
            }
        }, () -> "pgoutput");
    }

    /** {@code skipped.operations}: {@code none}, or some of {@code c}, {@code u}, {@code d}, {@code t}, {@code r}. */
    static ConfigDef.Validator skippedOperations() {
        return ConfigDef.LambdaValidator.with((name, value) -> {
            List<?> items = (List<?>) value;
            for (Object item : items) {
                String op = item.toString().trim();
                if (op.equals(RecordKeys.SKIPPED_OPERATIONS_NONE) ? items.size() > 1 : !List.of("c", "u", "d", "t", "r").contains(op)) {
                    throw new ConfigException(name, value, "'" + op + "' is not an operation to skip; use a comma-separated"
                            + " list of c (inserts), u (updates), d (deletes), t (truncates), or none alone");
                }
            }
        }, () -> "none, or a comma-separated list of c, u, d, t");
    }

    /** Debezium's prefix of a placeholder given as hex digits. */
    private static final String HEX_PLACEHOLDER_PREFIX = "hex:";

    /**
     * {@code unavailable.value.placeholder}: not empty; Debezium's {@code hex:} form must spell UTF-8 text, which is what
     * string columns get here (Debezium writes the bytes to binary columns and makes text of them for string ones).
     */
    static ConfigDef.Validator unavailableValuePlaceholder() {
        return ConfigDef.LambdaValidator.with((name, value) -> {
            String text = value == null ? "" : value.toString();
            if (text.isEmpty()) {
                throw new ConfigException(name, value, "must not be empty");
            }
            try {
                placeholderText(text);
            } catch (IllegalArgumentException e) {
                throw new ConfigException(name, value, e.getMessage());
            }
        }, () -> "non-empty text, or hex:<hex digits of UTF-8 text>");
    }

    /** The placeholder as text: {@code hex:} digits decoded as UTF-8, any other value as it is. */
    static String placeholderText(String configured) {
        if (!configured.regionMatches(true, 0, HEX_PLACEHOLDER_PREFIX, 0, HEX_PLACEHOLDER_PREFIX.length())) {
            return configured;
        }
        String digits = configured.substring(HEX_PLACEHOLDER_PREFIX.length());
        byte[] bytes;
        try {
            bytes = java.util.HexFormat.of().parseHex(digits);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("'" + digits + "' after hex: is not an even number of hex digits; write the"
                    + " placeholder's bytes as hex digits (hex:5f5f for __), or the placeholder as plain text");
        }
        try {
            return java.nio.charset.StandardCharsets.UTF_8.newDecoder()
                    .decode(java.nio.ByteBuffer.wrap(bytes)).toString();
        } catch (java.nio.charset.CharacterCodingException e) {
            throw new IllegalArgumentException("hex:" + digits + " spells bytes that are not UTF-8 text, which string columns"
                    + " could not carry; this connector writes the placeholder's text to string columns and its UTF-8 bytes to"
                    + " binary ones, so give a placeholder that is text (as plain text, or hex: of its UTF-8 bytes)");
        }
    }

    static ConfigDef.Validator replicaIdentityAutosetValues() {
        return ConfigDef.LambdaValidator.with((name, value) -> {
            try {
                ReplicaIdentityAutoset.parse(value == null ? null : value.toString());
            } catch (IllegalArgumentException e) {
                throw new ConfigException(name, value, e.getMessage());
            }
        }, () -> "<table regex>:<DEFAULT|FULL|NOTHING|INDEX name>[,...]");
    }

    static ConfigDef.Validator messageKeyColumns() {
        return ConfigDef.LambdaValidator.with((name, value) -> {
            try {
                MessageKeyColumns.parse(value == null ? null : value.toString());
            } catch (IllegalArgumentException e) {
                throw new ConfigException(name, value, e.getMessage());
            }
        }, () -> "<schema.table regex>:<column>[,<column>...] entries separated by ';'");
    }

    /** database.hostname: one host or a comma-separated list, each {@code host} or {@code host:port}. */
    static ConfigDef.Validator hostnameValidator() {
        return ConfigDef.LambdaValidator.with((name, value) -> {
            if (value == null) {
                return; // a missing required key: ConfigDef says so itself
            }
            try {
                // The port given here only fills entries without one; database.port has its own range check.
                ServerAddresses.parse(value.toString(), 5432);
            } catch (IllegalArgumentException e) {
                throw new ConfigException(name, value, e.getMessage());
            }
        }, () -> "host[:port][,host[:port]...]");
    }

    static ConfigDef.Validator spillBackendValidator() {
        return ConfigDef.LambdaValidator.with((name, value) -> {
            String text = value == null ? "" : value.toString();
            if (!text.equals(SpillSettings.DISK_BACKEND) && !text.equals(SpillSettings.DATABASE_BACKEND)
                    && !JAVA_CLASS_NAME.matcher(text).matches()) {
                throw new ConfigException(name, value, "must be disk, database or a fully qualified class name");
            }
        }, () -> "disk, database, or a class name");
    }
}
