package io.github.pgoutput.converters;

import java.util.Optional;
import java.util.function.Supplier;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;

/** A converter for a non-array type: one text decoder, one binary decoder (or none), one schema. */
final class ScalarConverter implements ColumnConverter {

    @FunctionalInterface
    interface TextDecoder {
        Object decode(String text);
    }

    @FunctionalInterface
    interface BinaryDecoder {
        /** Reads the whole value from {@code in} (and checks nothing is left over). */
        Object decode(BinaryReader in);
    }

    private final PgColumnType type;
    private final Schema required;
    private final Schema optional;
    private final TextDecoder text;
    private final BinaryDecoder binary;
    private final Object toastValue;

    /**
     * @param schema     makes a fresh builder of the schema (called twice: required and optional)
     * @param binary     null when the send form is not supported
     * @param toastValue what an unchanged TOAST value becomes, null when the schema cannot hold a placeholder
     */
    ScalarConverter(PgColumnType type, Supplier<SchemaBuilder> schema, TextDecoder text, BinaryDecoder binary,
                    Object toastValue) {
        this.type = type;
        this.required = schema.get().build();
        this.optional = schema.get().optional().build();
        this.text = text;
        this.binary = binary;
        this.toastValue = toastValue;
    }

    @Override
    public PgColumnType type() {
        return type;
    }

    @Override
    public Schema schema(boolean optional) {
        return optional ? this.optional : required;
    }

    @Override
    public Object fromText(String value) {
        if (value == null) {
            return null;
        }
        try {
            return text.decode(value);
        } catch (ValueConversionException e) {
            throw new ValueConversionException("Cannot convert " + type.describe() + " value " + ValueConversionException.shorten(value)
                    + ": " + e.getMessage(), e);
        } catch (RuntimeException e) {
            throw new ValueConversionException("Cannot convert " + type.describe() + " value " + ValueConversionException.shorten(value)
                    + ": " + e.getMessage() + ". Expected the type's text output with DateStyle=ISO and"
                    + " IntervalStyle=postgres.", e);
        }
    }

    @Override
    public Object fromBinary(byte[] value) {
        if (value == null) {
            return null;
        }
        if (binary == null) {
            throw unsupportedBinary(type);
        }
        try {
            return binary.decode(new BinaryReader(value));
        } catch (ValueConversionException e) {
            throw new ValueConversionException("Cannot convert " + type.describe() + " binary value "
                    + ValueConversionException.hex(value) + ": " + e.getMessage(), e);
        } catch (RuntimeException e) {
            throw new ValueConversionException("Cannot convert " + type.describe() + " binary value "
                    + ValueConversionException.hex(value) + ": " + e.getMessage()
                    + ". The bytes are not this type's send form.", e);
        }
    }

    static ValueConversionException unsupportedBinary(PgColumnType type) {
        return new ValueConversionException("Column type " + type.describe() + " arrived in binary send form, which "
                + "this connector cannot decode for that type (it converts such types from their text form). Turn "
                + "the pgoutput 'binary' option off for publications with columns of this type.");
    }

    @Override
    public Optional<Object> unchangedToastValue() {
        return Optional.ofNullable(toastValue);
    }

    @Override
    public String toString() {
        return "ScalarConverter[" + type.describe() + " -> " + required.type() + (required.name() == null ? "" : " " + required.name()) + "]";
    }
}
