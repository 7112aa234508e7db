package io.github.pgoutput.converters;

/**
 * How {@code date}, {@code time} and {@code timestamp} values are represented (Debezium's
 * {@code time.precision.mode}); {@code timestamptz} and {@code timetz} are ISO strings in every mode, as in
 * Debezium. The config value of each constant is its name in lower case.
 */
public enum TemporalPrecisionMode {
    /**
     * Debezium's default: the schema follows the column's declared precision. {@code time(0..3)} is
     * {@code io.debezium.time.Time} (int32 ms), {@code time(4..6)} and {@code time} {@code MicroTime} (int64 µs);
     * {@code timestamp} likewise {@code Timestamp} (int64 ms) or {@code MicroTimestamp}; {@code date}
     * {@code io.debezium.time.Date} (int32 days).
     */
    ADAPTIVE,
    /** As {@link #ADAPTIVE}, but every {@code time} is {@code MicroTime}. */
    ADAPTIVE_TIME_MICROSECONDS,
    /**
     * Full microseconds whatever the declared precision: {@code MicroTime} and {@code MicroTimestamp};
     * {@code date} as in {@link #ADAPTIVE}. Keeps every digit PostgreSQL stores.
     */
    MICROSECONDS,
    /** {@code NanoTime} and {@code NanoTimestamp} (int64 ns); {@code date} as in {@link #ADAPTIVE}. */
    NANOSECONDS,
    /**
     * ISO 8601 strings in UTC: {@code io.debezium.time.IsoDate} ({@code 2024-01-02Z}), {@code IsoTime}
     * ({@code 03:04:05.5Z}) and {@code IsoTimestamp} ({@code 2024-01-02T03:04:05.5Z}).
     */
    ISOSTRING,
    /** Kafka Connect's own {@code Date}, {@code Time} and {@code Timestamp} logical types (milliseconds). */
    CONNECT
}
