package io.github.pgoutput.connect.config;

/**
 * {@code database.sslmode}: pgjdbc's {@code sslmode} values, passed through unchanged (the replication layer takes
 * the text). {@link ConfigChoices#SSL_MODE} parses the key.
 */
public enum SslMode {
    DISABLE("disable"),
    ALLOW("allow"),
    PREFER("prefer"),
    REQUIRE("require"),
    VERIFY_CA("verify-ca"),
    VERIFY_FULL("verify-full");

    private final String configValue;

    SslMode(String configValue) {
        this.configValue = configValue;
    }

    /** The value as written in the configuration and passed to pgjdbc, e.g. {@code verify-full}. */
    public String configValue() {
        return configValue;
    }
}
