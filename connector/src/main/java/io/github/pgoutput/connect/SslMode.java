package io.github.pgoutput.connect;

/** {@code database.sslmode}: pgjdbc's {@code sslmode} values, passed through unchanged. */
public enum SslMode implements ConfigChoice {
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

    @Override
    public String configValue() {
        return configValue;
    }
}
