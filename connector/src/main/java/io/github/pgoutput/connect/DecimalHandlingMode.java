package io.github.pgoutput.connect;

/** {@code decimal.handling.mode}: how {@code numeric}/{@code decimal} columns become Connect values. */
public enum DecimalHandlingMode implements ConfigChoice {
    PRECISE,
    DOUBLE,
    STRING;

    @Override
    public String configValue() {
        return ConfigChoices.lowerCase(this);
    }
}
