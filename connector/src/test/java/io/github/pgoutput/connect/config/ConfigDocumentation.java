package io.github.pgoutput.connect.config;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.kafka.common.config.ConfigDef.ConfigKey;
import org.apache.kafka.common.config.ConfigDef;

/**
 * Renders the configuration reference in docs/configuration.md from {@link PgOutputSourceConnectorConfig#CONFIG_DEF}:
 * one Markdown table per group, keys in their order within the group, then the group's key families (keys whose names
 * carry a parameter, such as {@code column.mask.with.N.chars}). {@link ConfigurationReferenceTest} keeps
 * docs/configuration.md equal to this output and rewrites it on request.
 */
final class ConfigDocumentation {

    static final String START_MARKER = "<!-- config-keys:start -->";
    static final String END_MARKER = "<!-- config-keys:end -->";

    private ConfigDocumentation() {
    }

    /** The text that belongs between the markers, with a line break after the start and before the end marker. */
    static String render(ConfigDef def) {
        StringBuilder out = new StringBuilder();
        out.append("\n<!-- Generated from PgOutputSourceConnectorConfig; do not edit by hand. -->\n");
        for (String group : def.groups()) {
            List<ConfigKey> keys = new ArrayList<>();
            for (ConfigKey key : def.configKeys().values()) {
                if (group.equals(key.group)) {
                    keys.add(key);
                }
            }
            keys.sort(Comparator.comparingInt(k -> k.orderInGroup));
            out.append("\n### ").append(group).append("\n\n");
            out.append("| Key | Type | Default | Valid values | Importance | Description |\n");
            out.append("|---|---|---|---|---|---|\n");
            for (ConfigKey key : keys) {
                out.append("| `").append(key.name).append("` | ")
                        .append(key.type.name().toLowerCase(java.util.Locale.ROOT)).append(" | ")
                        .append(defaultText(key)).append(" | ")
                        .append(key.validator == null ? "" : cell(key.validator.toString())).append(" | ")
                        .append(key.importance.name().toLowerCase(java.util.Locale.ROOT)).append(" | ")
                        .append(cell(key.documentation)).append(" |\n");
            }
            for (ColumnKeys.KeyFamily family : ColumnKeys.KEY_FAMILIES) {
                if (group.equals(family.group())) {
                    out.append("| `").append(family.pattern()).append("` | string |  |  | low | ")
                            .append(cell(family.doc())).append(" |\n");
                }
            }
        }
        return out.append('\n').toString();
    }

    private static String defaultText(ConfigKey key) {
        if (!key.hasDefault()) {
            return "*required*";
        }
        if (key.defaultValue == null) {
            return "";
        }
        String text = ConfigDef.convertToString(key.defaultValue, key.type);
        return text.isEmpty() ? "`\"\"`" : "`" + text + "`";
    }

    /** Escapes what Markdown would otherwise read as table syntax or HTML. */
    private static String cell(String text) {
        return text.replace("|", "\\|").replace("<", "&lt;").replace(">", "&gt;").replace("\n", " ");
    }
}
