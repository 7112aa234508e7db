package io.github.pgoutput.converters;

/** How {@code interval} values are represented (Debezium's {@code interval.handling.mode}). */
public enum IntervalHandlingMode {
    /**
     * Debezium's default: {@code io.debezium.time.MicroDuration}, int64 microseconds, a month counted as
     * 365.25 / 12 days (so months are approximate).
     */
    NUMERIC,
    /** {@code io.debezium.time.Interval}: {@code PnYnMnDTnHnMnS}, every part written, years and months kept apart. */
    STRING
}
