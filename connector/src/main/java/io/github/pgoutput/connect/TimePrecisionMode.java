package io.github.pgoutput.connect;

/**
 * {@code time.precision.mode}: how date, time and timestamp columns become Connect values (Debezium's key and
 * values; {@code converters/TYPES.md} has the table). {@code timestamptz} and {@code timetz} are ISO strings in
 * every mode.
 */
public enum TimePrecisionMode implements ConfigChoice {
    ADAPTIVE,
    ADAPTIVE_TIME_MICROSECONDS,
    MICROSECONDS,
    NANOSECONDS,
    ISOSTRING,
    CONNECT;

    @Override
    public String configValue() {
        return ConfigChoices.lowerCase(this);
    }
}
