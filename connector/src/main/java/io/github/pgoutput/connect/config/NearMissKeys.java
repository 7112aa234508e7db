package io.github.pgoutput.connect.config;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;

/**
 * Keys nothing reads that are a near miss of a known key ({@code slot.nmae} for {@code slot.name}): the closest known
 * key by edit distance, for the WARN of {@link IgnoredKeys}, and an error where the typo would silently change what
 * the connector does.
 *
 * <p>The known keys are this connector's, the Debezium keys it refuses or explains, Debezium's features it does not
 * implement (whole keys only), and Kafka Connect's connector keys. A near miss is at most 1 edit away for a key of up
 * to 5 characters, 2 for up to 12 and 3 beyond (insertions, deletions, substitutions and swaps of neighbours, case
 * ignored), so that the keys real configurations carry for other components ({@code bootstrap.servers},
 * {@code acks}, {@code behavior.on.null.values}, client overrides) are no near miss of anything.
 *
 * <p>Connect's validation response has no place for a warning: a value's only text is its error messages, every one of
 * which fails the validation and makes {@code PUT /connectors} refuse the configuration. So a near miss is an error
 * only when ignoring it is sure to do harm without a sign: the closest key is one of {@link #GUARDED} (the keys whose
 * default picks the slot or publication, widens or narrows what is captured or snapshotted, or leaves the connection
 * unencrypted, and the required keys), it is not set, and the misspelt key's value differs from the default that would
 * silently be used instead. Everything else is the WARN's ({@code Xsnapshot.mode=initial}, a way of switching a key off
 * that repeats the default, stays a WARN).
 *
 * <p>Stateless.
 */
public final class NearMissKeys {

    /**
     * The keys whose silent default does harm a user does not see: the slot and publication (another connector's, or
     * one the role may not create), what is captured and snapshotted, whether TLS is used; and the required keys.
     */
    static final Set<String> GUARDED = Set.of(DatabaseKeys.DATABASE_HOSTNAME_CONFIG,
            DatabaseKeys.DATABASE_USER_CONFIG, DatabaseKeys.DATABASE_DBNAME_CONFIG,
            RecordKeys.TOPIC_PREFIX_CONFIG, DatabaseKeys.DATABASE_SSLMODE_CONFIG,
            ReplicationKeys.SLOT_NAME_CONFIG, ReplicationKeys.PUBLICATION_NAME_CONFIG,
            ReplicationKeys.PUBLICATION_AUTOCREATE_MODE_CONFIG, TableKeys.TABLE_INCLUDE_LIST_CONFIG,
            TableKeys.TABLE_EXCLUDE_LIST_CONFIG, TableKeys.SCHEMA_INCLUDE_LIST_CONFIG,
            TableKeys.SCHEMA_EXCLUDE_LIST_CONFIG, ColumnKeys.COLUMN_INCLUDE_LIST_CONFIG,
            ColumnKeys.COLUMN_EXCLUDE_LIST_CONFIG, SnapshotKeys.SNAPSHOT_MODE_CONFIG,
            SnapshotKeys.SNAPSHOT_INCLUDE_LIST_CONFIG);

    private NearMissKeys() {
    }

    /** Every key a near miss is measured against, in a stable order (this connector's first). */
    static List<String> knownKeys() {
        Set<String> known = new LinkedHashSet<>(PgOutputSourceConnectorConfig.CONFIG_DEF.configKeys().keySet());
        UnsupportedDebeziumKeys.RULES.stream().filter(r -> !r.prefix()).forEach(r -> known.add(r.name()));
        known.addAll(LegacyDebeziumKeys.names());
        IgnoredKeys.DEBEZIUM_FEATURES.stream().map(IgnoredKeys.DebeziumFeature::prefix).filter(p -> !p.endsWith("."))
                .forEach(known::add);
        known.addAll(ConnectKeys.FRAMEWORK_KEYS);
        return List.copyOf(known);
    }

    /** The known key {@code key} is a near miss of (the closest, the first of equals), or empty. */
    public static Optional<String> closest(String key) {
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (String known : knownKeys()) {
            int distance = distance(key, known);
            if (distance > 0 && distance < bestDistance) {
                best = known;
                bestDistance = distance;
            }
        }
        return best != null && bestDistance <= allowed(key) ? Optional.of(best) : Optional.empty();
    }

    /** The errors: one per misspelt key whose typo would silently change what the connector does, on that key. */
    public static List<ConfigProblem> problems(Map<String, ?> given) {
        List<ConfigProblem> problems = new ArrayList<>();
        for (String key : IgnoredKeys.unread(given)) {
            refusal(key, given).ifPresent(problems::add);
        }
        return problems;
    }

    /** Whether {@code key} (one nothing reads) is refused as a harmful near miss. */
    static boolean refused(String key, Map<String, ?> given) {
        return refusal(key, given).isPresent();
    }

    private static Optional<ConfigProblem> refusal(String key, Map<String, ?> given) {
        Optional<String> meant = closest(key);
        if (meant.isEmpty() || !GUARDED.contains(meant.get()) || given.containsKey(meant.get())) {
            return Optional.empty();
        }
        String target = meant.get();
        ConfigDef.ConfigKey definition = PgOutputSourceConnectorConfig.CONFIG_DEF.configKeys().get(target);
        Object value = given.get(key);
        String text = value == null ? "" : value.toString().trim();
        if (definition.hasDefault() && sameAsDefault(definition, text)) {
            return Optional.empty();
        }
        String used = definition.hasDefault()
                ? target + " is not set, so its default (" + shown(definition.defaultValue) + ") is used, not the '" + text + "' written here"
                : target + ", which is required, is not set";
        return Optional.of(new ConfigProblem(key, key + " is not a setting of this connector nor of Kafka Connect; did you mean "
                + target + "? " + used + ". Write " + target + "=" + text + " (or remove " + key + ")"));
    }

    private static boolean sameAsDefault(ConfigDef.ConfigKey definition, String text) {
        try {
            Object parsed = ConfigDef.parseType(definition.name, text, definition.type);
            Object fallback = definition.defaultValue;
            if (parsed instanceof String a && fallback instanceof String b) {
                return a.trim().equalsIgnoreCase(b.trim());
            }
            return parsed == null ? fallback == null : parsed.equals(fallback);
        } catch (ConfigException e) {
            return false;
        }
    }

    private static String shown(Object value) {
        if (value instanceof List<?> list) {
            return list.isEmpty() ? "empty" : String.join(",", list.stream().map(String::valueOf).toList());
        }
        return value == null || value.toString().isEmpty() ? "empty" : String.valueOf(value);
    }

    /** The edits a key of this length may be off by and still be a near miss. */
    static int allowed(String key) {
        return key.length() <= 5 ? 1 : key.length() <= 12 ? 2 : 3;
    }

    /**
     * The optimal string alignment distance between {@code a} and {@code b}, case ignored: insertions, deletions,
     * substitutions and swaps of two neighbouring characters each count 1. Two keys that differ in case only are 1 apart.
     */
    static int distance(String a, String b) {
        String x = a.toLowerCase(Locale.ROOT);
        String y = b.toLowerCase(Locale.ROOT);
        if (x.equals(y)) {
            return a.equals(b) ? 0 : 1;
        }
        int[][] d = new int[x.length() + 1][y.length() + 1];
        for (int i = 0; i <= x.length(); i++) {
            d[i][0] = i;
        }
        for (int j = 0; j <= y.length(); j++) {
            d[0][j] = j;
        }
        for (int i = 1; i <= x.length(); i++) {
            for (int j = 1; j <= y.length(); j++) {
                int cost = x.charAt(i - 1) == y.charAt(j - 1) ? 0 : 1;
                d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
                if (i > 1 && j > 1 && x.charAt(i - 1) == y.charAt(j - 2) && x.charAt(i - 2) == y.charAt(j - 1)) {
                    d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
                }
            }
        }
        return d[x.length()][y.length()];
    }
}
