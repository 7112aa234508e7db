package io.github.pgoutput.converters;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.List;

import org.apache.kafka.connect.data.ConnectSchema;
import org.apache.kafka.connect.data.Date;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.data.Time;
import org.apache.kafka.connect.data.Timestamp;
import org.apache.kafka.connect.errors.DataException;

/**
 * Sets the fields of the Structs of change records with the checks of {@link Struct#put(Field, Object)}, at a fraction
 * of its cost on the record path.
 *
 * <p>Why not {@code Struct.put}: Kafka's put (4.1) hands every value to {@code ConnectSchema.validateValue} together
 * with an error-message text ({@code field: "name"}) that it concatenates before it knows of any error, and it checks a
 * nested Struct once more field by field ({@link Struct#validate()}), concatenating again. A change record sets about
 * 25 values, the row's and the {@code source} block's twice that way: some 4 KB of garbage per record, the largest
 * part of what the task itself allocates per record (see docs/benchmarks.md), and so of the worker's garbage
 * collection.
 *
 * <p>What is checked here is what {@code Struct.put} checks: a value by the same public check, without a message until
 * one is needed ({@link ConnectSchema#validateValue(Schema, Object)}; a failure names the field); a nested Struct by
 * its schema and by its required fields being set, which is what {@link Struct#validate()} adds to the checks its
 * values passed when they were set. The checked value is then stored into the Struct's value array, which Kafka keeps
 * in a private field. Where that field cannot be reached (a Kafka version that renamed it), {@code Struct.put} is
 * called instead, so records never depend on it; {@code StructFieldsTest} fails when the fast path is lost.
 *
 * <p>Stateless and thread-safe.
 */
public final class StructFields {

    /** Struct's own value array, or null when this Kafka version keeps its values elsewhere. */
    private static final VarHandle VALUES = valuesOfStruct();

    private StructFields() {
    }

    private static VarHandle valuesOfStruct() {
        try {
            return MethodHandles.privateLookupIn(Struct.class, MethodHandles.lookup())
                    .findVarHandle(Struct.class, "values", Object[].class);
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }

    /** Whether values are stored directly (false: through {@link Struct#put(Field, Object)}). */
    public static boolean direct() {
        return VALUES != null;
    }

    /**
     * Sets {@code field} of {@code struct} to {@code value}, as {@link Struct#put(Field, Object)} does.
     *
     * @param field a field of {@code struct}'s schema
     * @return {@code struct}
     * @throws DataException when {@code value} does not fit the field's schema, naming the field
     */
    public static Struct put(Struct struct, Field field, Object value) {
        if (VALUES == null) {
            return struct.put(field, value);
        }
        check(field, value);
        ((Object[]) VALUES.get(struct))[field.index()] = value;
        return struct;
    }

    /** {@link #put(Struct, Field, Object)} of the field named {@code name}. */
    public static Struct put(Struct struct, String name, Object value) {
        Field field = struct.schema().field(name);
        if (field == null) {
            throw new DataException(name + " is not a field of " + struct.schema().name());
        }
        return put(struct, field, value);
    }

    private static void check(Field field, Object value) {
        Schema schema = field.schema();
        if (value != null && isOfPlainType(schema, value)) {
            return;
        }
        try {
            if (value instanceof Struct nested) {
                checkNested(schema, nested);
            } else {
                ConnectSchema.validateValue(schema, value);
            }
        } catch (DataException e) {
            throw new DataException("field \"" + field.name() + "\": " + e.getMessage(), e);
        }
    }

    /**
     * Whether {@code value} passes Kafka's check for a schema of a primitive type that is none of Kafka's logical
     * types: that check accepts exactly the one Java class of the type (its {@code ConnectSchema.validateValue} looks
     * up the classes of the schema's logical type, and finding none, those of its type). False does not reject: the
     * general check decides then, and words the error.
     */
    private static boolean isOfPlainType(Schema schema, Object value) {
        boolean ofType = switch (schema.type()) {
            case STRING -> value instanceof String;
            case INT64 -> value instanceof Long;
            case INT32 -> value instanceof Integer;
            case BOOLEAN -> value instanceof Boolean;
            case FLOAT64 -> value instanceof Double;
            case FLOAT32 -> value instanceof Float;
            case INT16 -> value instanceof Short;
            case INT8 -> value instanceof Byte;
            default -> false;
        };
        return ofType && !isKafkaLogicalType(schema.name());
    }

    private static boolean isKafkaLogicalType(String name) {
        return name != null && (name.equals(Timestamp.LOGICAL_NAME) || name.equals(Date.LOGICAL_NAME)
                || name.equals(Time.LOGICAL_NAME) || name.equals(Decimal.LOGICAL_NAME));
    }

    /**
     * The part of {@link Struct#validate()} that the checks of its values when they were set leave: the schema, and
     * every required field without a default set.
     */
    private static void checkNested(Schema schema, Struct nested) {
        if (schema.type() != Schema.Type.STRUCT) {
            // Not a Struct's field: the general check names the type it expected.
            ConnectSchema.validateValue(schema, nested);
            return;
        }
        if (nested.schema() != schema && !nested.schema().equals(schema)) {
            throw new DataException("Struct schemas do not match.");
        }
        Object[] values = (Object[]) VALUES.get(nested);
        List<Field> fields = schema.fields();
        for (int i = 0; i < fields.size(); i++) {
            Field inner = fields.get(i);
            Schema innerSchema = inner.schema();
            if (values[inner.index()] == null && !innerSchema.isOptional() && innerSchema.defaultValue() == null) {
                throw new DataException("Invalid value: null used for required field: \"" + inner.name()
                        + "\", schema type: " + innerSchema.type());
            }
        }
    }
}
