package io.github.pgoutput.connect;

/** {@code interval.handling.mode}: interval columns as int64 microseconds (numeric) or ISO strings (string). */
public enum IntervalHandlingMode implements ConfigChoice {
    NUMERIC,
    STRING;

    @Override
    public String configValue() {
        return ConfigChoices.lowerCase(this);
    }
}
