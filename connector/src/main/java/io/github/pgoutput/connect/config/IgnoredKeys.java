package io.github.pgoutput.connect.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The keys of a connector configuration that nothing reads: neither this connector (its own keys, the Debezium keys
 * {@link UnsupportedDebeziumKeys} refuses, Debezium's pre-2.0 names {@link LegacyDebeziumKeys} explains, the settings
 * of {@code snapshot.mode=configuration_based}) nor Kafka Connect (the framework's connector keys and client
 * overrides). Connect hands such keys to the connector without a word, so a misspelt key, or a Debezium feature this
 * connector does not have, would otherwise be accepted silently; validation and the connector start log a WARN that
 * names each of them ({@link ConfigWarnings}).
 *
 * <p>They stay warnings, not errors: such a Debezium key (performance, metrics, notifications, schema history, LSN
 * flushing, snapshot locking, ...) does not change which rows or values are emitted, so refusing it would only stop a
 * Debezium user's configuration from being accepted as written. The WARN names the feature this connector does not
 * implement, and what it does instead where that matters, so the user does not rely on it. An empty value is an unset
 * key ({@link EmptyValues}) and gets no WARN.
 *
 * <p>Stateless.
 */
public final class IgnoredKeys {

    private IgnoredKeys() {
    }

    /**
     * Debezium features with keys of their own that this connector has not built; the WARN names the feature.
     *
     * @param prefix  the start of the feature's keys
     * @param feature what Debezium does with them
     * @param instead what this connector does instead, or null (then the WARN says not to rely on the feature)
     */
    record DebeziumFeature(String prefix, String feature, String instead) {

        DebeziumFeature(String prefix, String feature) {
            this(prefix, feature, null);
        }
    }

    /** What the offset/slot mismatch settings are answered with. */
    private static final String OFFSET_CHECK = "this connector checks the stored offset against the slot at every start (as"
            + " trust_offset does): it streams from the stored offset when the slot can serve it, and otherwise fails, or snapshots"
            + " again with snapshot.mode=when_needed or always; it never skips changes to catch up with the slot. Remove it";

    static final List<DebeziumFeature> DEBEZIUM_FEATURES = List.of(
            // The signal and incremental snapshot keys this connector has are its own (CONFIG_DEF); these are the rest.
            new DebeziumFeature("signal.", "signals through Debezium's file, jmx, in-process or http channels, or a signal"
                    + " setting this connector lacks (it reads signal.enabled.channels source, kafka and message,"
                    + " signal.data.collection, signal.kafka.topic, signal.kafka.bootstrap.servers, signal.kafka.groupId,"
                    + " signal.kafka.poll.timeout.ms, signal.consumer.* and signal.message.prefix)"),
            new DebeziumFeature("incremental.snapshot.", "incremental snapshots beyond their chunk size", "this connector"
                    + " reads incremental.snapshot.chunk.size; it writes no watermarks, and a schema change during an incremental"
                    + " snapshot is read as the stream sends it. Remove it"),
            new DebeziumFeature("notification.", "notifications"),
            new DebeziumFeature("heartbeat.action.query", "heartbeat action queries", "heartbeats here need no write to"
                    + " the database: the slot's position moves on while the captured tables are quiet. If something relies on"
                    + " the rows the query writes, schedule it in the database (for example with pg_cron), and remove the key"),
            new DebeziumFeature("schema.history.internal", "schema history", "PostgreSQL connectors keep none; remove it"),
            new DebeziumFeature("database.history.", "schema history (its name before Debezium 2.0)", "PostgreSQL"
                    + " connectors keep none; remove it"),
            new DebeziumFeature("custom.metric.tags", "custom metric tags"),
            new DebeziumFeature("offset.mismatch.strategy", "what to do when the stored offset and the slot disagree",
                    OFFSET_CHECK),
            new DebeziumFeature("internal.slot.seek.to.known.offset.on.start", "what to do when the stored offset and the"
                    + " slot disagree (the old name of offset.mismatch.strategy)", OFFSET_CHECK),
            new DebeziumFeature("lsn.flush.", "LSN flushing", "this connector always confirms to the slot what Kafka has"
                    + " acknowledged (as lsn.flush.mode=connector), and confirms idle positions by itself; remove it"),
            new DebeziumFeature("flush.lsn.source", "LSN flushing (the old name of lsn.flush.mode)", "this connector always"
                    + " confirms to the slot what Kafka has acknowledged; remove it"),
            new DebeziumFeature("snapshot.locking.mode", "snapshot table locks", "the snapshot reads the slot's exported"
                    + " snapshot and takes no table lock; remove it"),
            new DebeziumFeature("snapshot.lock.timeout.ms", "snapshot table locks", "the snapshot takes no table lock; remove it"),
            new DebeziumFeature("snapshot.isolation.mode", "the snapshot's isolation level", "the snapshot always reads the"
                    + " slot's exported snapshot (REPEATABLE READ), consistent with where streaming starts; remove it"),
            new DebeziumFeature("database.initial.statements", "SQL statements run on each new connection", "this connector"
                    + " runs no SQL of the user's on its connections; set session defaults on the role instead (ALTER ROLE ..."
                    + " SET ...), and remove the key"),
            new DebeziumFeature("include.schema.changes", "schema change events", "Debezium's PostgreSQL connector writes"
                    + " none either; remove it"),
            new DebeziumFeature("schema.refresh.mode", "refreshing its cached table schemas", "this connector takes each"
                    + " change's columns from the Relation messages PostgreSQL sends before it; remove it"),
            new DebeziumFeature("snapshot.mode.", "the settings of snapshot.mode=configuration_based or custom, which the"
                    + " snapshot.mode set here does not read", "remove it"));

    /**
     * One key nothing reads, and the WARN for it.
     *
     * @param key     the key as given
     * @param message what the WARN says: that the key has no effect, and why
     */
    public record IgnoredKey(String key, String message) {
    }

    /**
     * The keys of {@code props} nothing reads, sorted by key, each with its WARN; empty values are unset keys. A near
     * miss of a known key is named in the WARN ("did you mean slot.name?"); one that {@link NearMissKeys} refuses is
     * left out, its error says it.
     */
    public static List<IgnoredKey> of(Map<String, ?> props) {
        Map<String, ?> given = EmptyValues.removed(props);
        List<IgnoredKey> ignored = new ArrayList<>();
        for (String key : unread(given)) {
            if (!NearMissKeys.refused(key, given)) {
                ignored.add(new IgnoredKey(key, message(key)));
            }
        }
        return ignored;
    }

    /** The keys of {@code given} (empty values removed) that nothing reads, sorted. */
    static List<String> unread(Map<String, ?> given) {
        boolean configurationBased = String.valueOf(given.get(SnapshotKeys.SNAPSHOT_MODE_CONFIG)).trim()
                .equalsIgnoreCase(DebeziumSnapshotModes.CONFIGURATION_BASED);
        List<String> unread = new ArrayList<>();
        for (String key : given.keySet()) {
            if (PgOutputSourceConnectorConfig.CONFIG_DEF.configKeys().containsKey(key)
                    || key.startsWith(SnapshotKeys.SIGNAL_CONSUMER_PREFIX)
                    || UnsupportedDebeziumKeys.rule(key) != null || LegacyDebeziumKeys.handles(key) || isFrameworkKey(key)
                    || DebeziumReselect.reads(key, given)
                    || (configurationBased && DebeziumSnapshotModes.KEYS.contains(key)) || ColumnShapingKeys.reads(key, given)) {
                continue;
            }
            unread.add(key);
        }
        unread.sort(null);
        return unread;
    }

    private static boolean isFrameworkKey(String key) {
        return ConnectKeys.FRAMEWORK_KEYS.contains(key) || ConnectKeys.FRAMEWORK_PREFIXES.stream().anyMatch(key::startsWith);
    }

    private static String message(String key) {
        for (DebeziumFeature feature : DEBEZIUM_FEATURES) {
            if (key.startsWith(feature.prefix())) {
                return key + " is a Debezium setting for " + feature.feature() + ", which this connector does not"
                        + " implement: the key has no effect; " + (feature.instead() == null
                        ? "remove it, and do not rely on the feature" : feature.instead());
            }
        }
        Optional<String> meant = NearMissKeys.closest(key);
        if (meant.isPresent()) {
            return key + " is not a setting of this connector nor of Kafka Connect, so it has no effect; did you mean "
                    + meant.get() + "? Correct its name, or remove it (the connector's settings are listed in its README)";
        }
        return key + " is not a setting of this connector nor of Kafka Connect, so it has no effect: if it is a"
                + " Debezium setting, this connector does not implement what it does; otherwise correct its name (the"
                + " connector's settings are listed in its README)";
    }
}
