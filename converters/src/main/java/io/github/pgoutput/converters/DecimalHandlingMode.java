package io.github.pgoutput.converters;

/**
 * How {@code numeric} and {@code money} values are represented (Debezium's {@code decimal.handling.mode}).
 * The config value of each constant is its name in lower case.
 */
public enum DecimalHandlingMode {
    /**
     * Exact: {@code org.apache.kafka.connect.data.Decimal} when the column declares a scale, otherwise a
     * {@link SchemaNames#VARIABLE_SCALE_DECIMAL} struct. NaN and infinities cannot be represented and fail
     * the conversion (see {@link ValueConversionException}); choose {@link #STRING} for such columns.
     */
    PRECISE,
    /** {@code float64}; may round, NaN and infinities become the IEEE 754 values. */
    DOUBLE,
    /** The exact decimal as a plain string ({@code "-12.50"}, {@code "NaN"}, {@code "Infinity"}, {@code "-Infinity"}). */
    STRING
}
