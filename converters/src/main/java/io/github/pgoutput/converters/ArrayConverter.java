package io.github.pgoutput.converters;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;

/**
 * Arrays of any element type become a Connect ARRAY of the element's optional schema. PostgreSQL does not fix
 * an array column's dimensions (one int4[] column may hold 1-D and 2-D values), so the schema cannot either:
 * multi-dimensional values are flattened in row-major order and lower bounds are dropped.
 */
final class ArrayConverter implements ColumnConverter {

    private final PgColumnType type;
    private final ColumnConverter element;
    private final char delimiter;
    private final Set<Integer> elementOids;
    private final Schema required;
    private final Schema optional;

    /**
     * @param elementOids the OIDs array_send may write as element type: the element's own, and for a domain
     *                    element also its base types'
     */
    ArrayConverter(PgColumnType type, ColumnConverter element, char delimiter, Set<Integer> elementOids) {
        this.type = type;
        this.element = element;
        this.delimiter = delimiter;
        this.elementOids = Set.copyOf(elementOids);
        this.required = SchemaBuilder.array(element.schema(true)).build();
        this.optional = SchemaBuilder.array(element.schema(true)).optional().build();
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
    public Object fromText(String text) {
        if (text == null) {
            return null;
        }
        List<String> elements;
        try {
            elements = ArrayLiteral.parse(text, delimiter);
        } catch (IllegalArgumentException e) {
            throw new ValueConversionException("Cannot convert " + type.describe() + " value "
                    + ValueConversionException.shorten(text) + ": " + e.getMessage(), e);
        }
        List<Object> out = new ArrayList<>(elements.size());
        for (String value : elements) {
            try {
                out.add(element.fromText(value));
            } catch (ValueConversionException e) {
                throw elementFailure(out.size(), e);
            }
        }
        return Collections.unmodifiableList(out);
    }

    /**
     * array_send: int32 ndim, int32 has-nulls flag, int32 element type OID, ndim x (int32 length, int32 lower
     * bound), then each element as int32 length (-1 for NULL) and the element's send form.
     */
    @Override
    public Object fromBinary(byte[] bytes) {
        if (bytes == null) {
            return null;
        }
        BinaryReader in = new BinaryReader(bytes);
        List<Object> out;
        try {
            int dimensions = in.int32();
            in.int32(); // has-nulls flag: each element's length says it anyway
            int elementOid = in.int32();
            if (dimensions < 0 || dimensions > 6) {
                throw new IllegalArgumentException(dimensions + " dimensions; PostgreSQL allows 0 to 6");
            }
            if (dimensions > 0 && !elementOids.contains(elementOid)) {
                throw new IllegalArgumentException("element type OID " + Integer.toUnsignedString(elementOid)
                        + " is not the column's element type " + element.type().describe());
            }
            long count = dimensions == 0 ? 0 : 1;
            for (int i = 0; i < dimensions; i++) {
                int length = in.int32();
                in.int32(); // lower bound: dropped, see the class comment
                if (length < 0) {
                    throw new IllegalArgumentException("dimension " + i + " has negative length " + length);
                }
                // Each element takes at least its 4-byte length word; checking per dimension keeps count from overflowing.
                count *= length;
                if (count > bytes.length / 4) {
                    throw new IllegalArgumentException(count + " elements cannot fit in " + bytes.length + " bytes");
                }
            }
            out = new ArrayList<>((int) count);
            for (long i = 0; i < count; i++) {
                int length = in.int32();
                byte[] value = length == -1 ? null : in.bytes(length);
                try {
                    out.add(element.fromBinary(value));
                } catch (ValueConversionException e) {
                    throw elementFailure(out.size(), e);
                }
            }
            in.expectEnd();
        } catch (IllegalArgumentException e) {
            throw new ValueConversionException("Cannot convert " + type.describe() + " binary value "
                    + ValueConversionException.hex(bytes) + ": " + e.getMessage(), e);
        }
        return Collections.unmodifiableList(out);
    }

    private ValueConversionException elementFailure(int index, ValueConversionException cause) {
        return new ValueConversionException("Cannot convert element " + index + " (0-based, row-major) of "
                + type.describe() + ": " + cause.getMessage(), cause);
    }

    @Override
    public Optional<Object> unchangedToastValue() {
        return element.unchangedToastValue().map(List::of);
    }

    @Override
    public String toString() {
        return "ArrayConverter[" + type.describe() + " of " + element + "]";
    }
}
