package io.github.pgoutput.converters;

import java.util.Optional;
import org.apache.kafka.connect.data.Schema;

/**
 * Turns the values of one PostgreSQL column type into Kafka Connect values of one schema.
 *
 * <p>Implementations are immutable and thread-safe. Every value returned is valid for {@link #schema}
 * ({@code ConnectSchema.validateValue} accepts it). A SQL NULL is passed as {@code null} and comes back as
 * {@code null}; the connector must then use the optional schema.
 */
public interface ColumnConverter {

    /** The type this converter was made for. */
    PgColumnType type();

    /** The Connect schema of the values, optional (nullable) or required. Same instance on every call. */
    Schema schema(boolean optional);

    /**
     * Converts the type's text output ({@code 't'} in TupleData) as PostgreSQL prints it with
     * {@code DateStyle = ISO} and {@code IntervalStyle = postgres} (pgjdbc's and the server's defaults).
     *
     * @throws ValueConversionException if the text is not what the type's output function prints, or the
     *                                  value cannot be represented in the schema
     */
    Object fromText(String text);

    /**
     * Converts the type's binary send form ({@code 'b'} in TupleData, with pgoutput's {@code binary} option).
     *
     * @throws ValueConversionException if this type's send form is not supported (the message names the type
     *                                  and suggests turning the {@code binary} option off), the bytes are
     *                                  malformed, or the value cannot be represented in the schema
     */
    Object fromBinary(byte[] bytes);

    /**
     * The value that stands for an unchanged TOAST column ({@code 'u'}): the configured placeholder for string
     * schemas, its UTF-8 bytes for bytes schemas, a one-element list of those for arrays of such elements.
     * Empty when the schema cannot hold a placeholder (numeric in precise or double mode, arrays of numbers);
     * the connector must then take the value from the old tuple or fail; it must not invent one.
     */
    Optional<Object> unchangedToastValue();
}
