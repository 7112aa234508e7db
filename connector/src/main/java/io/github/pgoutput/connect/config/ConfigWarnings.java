package io.github.pgoutput.connect.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Every WARN a configuration gets at validation and at connector start: what it sets that is accepted but does not do
 * here what it does in Debezium, each with what happens instead and what to write. Errors are elsewhere
 * ({@link CrossKeyRules}); these never stop a configuration. The sources:
 * <ul>
 *   <li>keys nothing reads ({@link IgnoredKeys});</li>
 *   <li>Debezium's pre-2.0 names that are not read ({@link LegacyDebeziumKeys});</li>
 *   <li>{@code snapshot.mode} given by an old name or as {@code configuration_based} ({@link DebeziumSnapshotModes});</li>
 *   <li>{@code slot.drop.on.stop=true}: the slot is never dropped;</li>
 *   <li>signal channels in {@code signal.enabled.channels} this connector does not read;</li>
 *   <li>transforms that see the bytes of {@code direct.encoding} ({@link CrossKeyRules#transformsSeeBytes}).</li>
 * </ul>
 * Stateless.
 */
public final class ConfigWarnings {

    private ConfigWarnings() {
    }

    /** The WARNs of {@code props} (empty values are unset keys). */
    public static List<String> of(Map<String, ?> props) {
        Map<String, ?> given = EmptyValues.removed(props);
        List<String> warnings = new ArrayList<>();
        IgnoredKeys.of(given).forEach(ignored -> warnings.add(ignored.message()));
        warnings.addAll(LegacyDebeziumKeys.warnings(given));
        DebeziumSnapshotModes.warning(given).ifPresent(warnings::add);
        slotDropOnStop(given).ifPresent(warnings::add);
        warnings.addAll(unreadSignalChannels(given));
        CrossKeyRules.transformsSeeBytes(given).ifPresent(warnings::add);
        return warnings;
    }

    private static Optional<String> slotDropOnStop(Map<String, ?> given) {
        Object value = given.get(ReplicationKeys.SLOT_DROP_ON_STOP_CONFIG);
        if (value == null || !value.toString().trim().equalsIgnoreCase("true")) {
            return Optional.empty();
        }
        Object slot = given.get(ReplicationKeys.SLOT_NAME_CONFIG);
        if (slot == null) {
            slot = PgOutputSourceConnectorConfig.CONFIG_DEF.configKeys().get(ReplicationKeys.SLOT_NAME_CONFIG).defaultValue;
        }
        return Optional.of(ReplicationKeys.SLOT_DROP_ON_STOP_CONFIG + "=true: this connector never drops its"
                + " replication slot (a dropped slot loses the changes made until the next start, and a slot may be another"
                + " consumer's), so the slot stays when the task stops; once you delete the connector and nothing else reads it,"
                + " drop it yourself: SELECT pg_drop_replication_slot('" + String.valueOf(slot).trim().replace("'", "''") + "')");
    }

    /** One WARN per channel of {@code signal.enabled.channels} this connector does not read. */
    private static List<String> unreadSignalChannels(Map<String, ?> given) {
        Object value = given.get(SnapshotKeys.SIGNAL_ENABLED_CHANNELS_CONFIG);
        List<String> warnings = new ArrayList<>();
        if (value == null) {
            return warnings;
        }
        for (String channel : value.toString().split(",")) {
            String name = channel.trim().toLowerCase(Locale.ROOT);
            if (!name.isEmpty() && !ConfigValidators.SIGNAL_CHANNELS_READ.contains(name)) {
                warnings.add(SnapshotKeys.SIGNAL_ENABLED_CHANNELS_CONFIG + " names the channel '" + channel.trim()
                        + "', which this connector does not read: signals sent through it are not read. The channels read here"
                        + " are " + ConfigValidators.SIGNAL_CHANNEL_SOURCE + " (the table signal.data.collection), "
                        + ConfigValidators.SIGNAL_CHANNEL_KAFKA + " (the topic signal.kafka.topic) and "
                        + ConfigValidators.SIGNAL_CHANNEL_MESSAGE + " (logical decoding messages); send the signals through one of"
                        + " them, and remove '" + channel.trim() + "'");
            }
        }
        return warnings;
    }
}
