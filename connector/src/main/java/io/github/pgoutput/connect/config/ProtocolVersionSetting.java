package io.github.pgoutput.connect.config;

import java.util.OptionalInt;

/**
 * {@code protocol.version}: the pgoutput {@code proto_version} to request, or {@code auto} for the highest the server
 * supports (PostgreSQL 14: 2, 15: 3, 16 and later: 4). The replication layer takes the number (0 for auto);
 * {@link ConfigChoices#PROTOCOL_VERSION} parses the key.
 */
public enum ProtocolVersionSetting {
    AUTO(ConfigChoice.AUTO, 0),
    V1("1", 1),
    V2("2", 2),
    V3("3", 3),
    V4("4", 4);

    private final String configValue;
    private final int number;

    ProtocolVersionSetting(String configValue, int number) {
        this.configValue = configValue;
        this.number = number;
    }

    /** The value as written in the configuration: {@code auto} or the version number. */
    public String configValue() {
        return configValue;
    }

    /** The fixed version, or empty for {@link #AUTO}. */
    public OptionalInt fixedVersion() {
        return this == AUTO ? OptionalInt.empty() : OptionalInt.of(number);
    }

    /** Whether this setting can end up at {@code version} or higher: {@code auto} always can. */
    public boolean allowsAtLeast(int version) {
        return this == AUTO || number >= version;
    }
}
