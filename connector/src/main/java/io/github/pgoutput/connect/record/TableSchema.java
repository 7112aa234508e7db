package io.github.pgoutput.connect.record;

import io.github.pgoutput.converters.StructFields;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

import io.debezium.spi.converter.CustomConverter;
import io.github.pgoutput.connect.shaping.ColumnShaping;
import io.github.pgoutput.connect.shaping.ConverterInputs;

import io.github.pgoutput.converters.ColumnConverter;
import io.github.pgoutput.converters.PgColumnType;
import io.github.pgoutput.converters.PostgresTypeMapper;
import io.github.pgoutput.pgoutput.ColumnValue;
import io.github.pgoutput.pgoutput.PgOutputMessage.Relation;
import io.github.pgoutput.pgoutput.RelationColumn;
import io.github.pgoutput.pgoutput.TupleData;
import io.github.pgoutput.replication.CatalogColumn;
import io.github.pgoutput.replication.CatalogKey;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.errors.DataException;

/**
 * The Connect schemas of one version of one table, built from its Relation message, its key choice
 * ({@link KeyColumns}: named columns, primary key, replica identity index, or none) and its catalog row (NOT NULL
 * columns and defaults, {@link ColumnFields}): the key, the row ({@code before}/{@code after}) and the envelope, in
 * Debezium's shapes: Key and Value structs without a version, the envelope {@code <prefix>.<schema>.<table>.Envelope}
 * of version {@value #ENVELOPE_VERSION} with {@code before}, {@code after}, {@code source}, {@code transaction},
 * {@code op}, {@code ts_ms}, {@code ts_us}, {@code ts_ns}. Turns tuples into {@link Struct}s with the converters
 * module. The Relation's own key flags (the replica identity) say only which columns a key-only old tuple carries.
 *
 * <p>Debezium's column keys ({@link ColumnShaping}) shape the row, as Debezium shapes it: columns left out of the value
 * stay in the key; a column's mapper (masking, hashing, truncation, source type parameters) changes its value field
 * only; a custom converter replaces the schema and values of its column in the key and the value. Each column's part
 * is decided once per table version ({@link ColumnPlan}).
 *
 * <p>Immutable and thread-safe.
 */
public final class TableSchema {

    /** Debezium's envelope schema version ({@code io.debezium.data.Envelope}). */
    static final int ENVELOPE_VERSION = 2;

    private final Relation relation;
    private final KeyColumns.Choice keyColumns;
    private final ColumnConverter[] converters;
    private final ColumnPlan[] plans;
    private final Schema keySchema;
    private final Schema rowSchema;
    private final Schema envelopeSchema;
    /** The value field of each column, null for a column left out of the value. */
    private final Field[] rowFields;
    /** The key field position of each column, -1 for a column that is no key field. */
    private final int[] keyPositions;
    private final List<Field> keyFields;
    private final EnvelopeFields envelopeFields;
    private final String topic;
    private final String qualifiedName;
    private final boolean keyInReplicaIdentity;

    /**
     * @param keyColumns  the key's columns, each one of {@code relation}'s (see {@link KeyColumns})
     * @param catalog     what the catalog says of the table (NOT NULL columns, defaults); empty when it no longer has
     *                    it, and then every field is optional and without default
     * @param columnTypes the type of each column of {@code relation}, in column order (see {@link ColumnTypes})
     * @param topic       the topic the table's records go to
     */
    TableSchema(Relation relation, KeyColumns.Choice keyColumns, Optional<CatalogKey> catalog, AvroNames names,
                PostgresTypeMapper types, List<PgColumnType> columnTypes, Schema sourceSchema, Schema transactionSchema,
                String topic) {
        this(relation, keyColumns, catalog, names, types, columnTypes, sourceSchema, transactionSchema, topic,
                ColumnShaping.NONE);
    }

    /** @param shaping what Debezium's column keys do to the table's columns */
    TableSchema(Relation relation, KeyColumns.Choice keyColumns, Optional<CatalogKey> catalog, AvroNames names,
                PostgresTypeMapper types, List<PgColumnType> columnTypes, Schema sourceSchema, Schema transactionSchema,
                String topic, ColumnShaping shaping) {
        this.relation = relation;
        this.keyColumns = keyColumns;
        this.topic = topic;
        this.qualifiedName = relation.namespace() + "." + relation.relationName();
        List<RelationColumn> columns = relation.columns();
        converters = new ColumnConverter[columns.size()];
        plans = new ColumnPlan[columns.size()];
        keyPositions = new int[columns.size()];
        Arrays.fill(keyPositions, -1);
        List<String> keyNames = keyColumns.columns();
        for (int k = 0; k < keyNames.size(); k++) {
            int index = indexOf(keyNames.get(k));
            if (index < 0) {
                throw new IllegalArgumentException("key column " + keyNames.get(k) + " is not a column of " + qualifiedName());
            }
            keyPositions[index] = k;
        }
        SchemaBuilder key = SchemaBuilder.struct().name(names.key(relation.namespace(), relation.relationName()));
        SchemaBuilder row = SchemaBuilder.struct().name(names.value(relation.namespace(), relation.relationName())).optional();
        for (int i = 0; i < columns.size(); i++) {
            ColumnConverter converter = types.converterFor(columnTypes.get(i));
            converters[i] = converter;
            String name = columns.get(i).name();
            Optional<CatalogColumn> column = catalog.flatMap(c -> c.column(name));
            boolean required = column.map(CatalogColumn::notNull).orElse(false);
            Optional<Object> defaultValue = column.flatMap(CatalogColumn::defaultValue)
                    .flatMap(expression -> ColumnDefaults.of(converter, expression));
            Schema plain = ColumnFields.schema(converter, !required, defaultValue);
            plans[i] = ColumnPlan.of(shaping, relation.namespace(), relation.relationName(), name, converter, plain, column,
                    defaultValue, keyPositions[i] >= 0);
            if (plans[i].inValue()) {
                row.field(name, plans[i].valueSchema());
            }
        }
        boolean carried = true;
        for (String name : keyNames) {
            int index = indexOf(name);
            // Debezium's key fields are the value's fields (before any mapper); without the catalog, the key choice says.
            boolean known = catalog.flatMap(c -> c.column(name)).isPresent();
            key.field(name, known || plans[index].custom() != null ? plans[index].baseSchema()
                    : converters[index].schema(keyColumns.optional()));
            carried &= columns.get(index).partOfKey();
        }
        keyInReplicaIdentity = carried;
        keySchema = keyColumns.isKeyed() ? key.build() : null;
        keyFields = keySchema == null ? List.of() : keySchema.fields();
        rowSchema = row.build();
        rowFields = new Field[columns.size()];
        for (int i = 0; i < columns.size(); i++) {
            rowFields[i] = plans[i].inValue() ? rowSchema.field(columns.get(i).name()) : null;
        }
        envelopeSchema = SchemaBuilder.struct().name(names.envelope(relation.namespace(), relation.relationName()))
                .version(ENVELOPE_VERSION)
                .field(Envelope.BEFORE, rowSchema)
                .field(Envelope.AFTER, rowSchema)
                .field(Envelope.SOURCE, sourceSchema)
                .field(Envelope.TRANSACTION, transactionSchema)
                .field(Envelope.OP, Schema.STRING_SCHEMA)
                .field(Envelope.TS_MS, Schema.OPTIONAL_INT64_SCHEMA)
                .field(Envelope.TS_US, Schema.OPTIONAL_INT64_SCHEMA)
                .field(Envelope.TS_NS, Schema.OPTIONAL_INT64_SCHEMA)
                .build();
        envelopeFields = new EnvelopeFields(envelopeSchema);
    }

    Relation relation() {
        return relation;
    }

    String topic() {
        return topic;
    }

    KeyColumns.Choice keyColumns() {
        return keyColumns;
    }

    /** Null when the table has no key columns (none named, no primary key and no replica identity index). */
    Schema keySchema() {
        return keySchema;
    }

    Schema rowSchema() {
        return rowSchema;
    }

    Schema envelopeSchema() {
        return envelopeSchema;
    }

    /** The envelope's fields, to set without looking them up by name. */
    EnvelopeFields envelopeFields() {
        return envelopeFields;
    }

    /**
     * A row's value Struct and key Struct.
     *
     * @param value the row ({@code before} or {@code after})
     * @param key   the key, or null when the table has no key or the row lacks a value of a key column that must have
     *              one: a key-only old tuple carries the replica identity's columns, which are not the primary key when
     *              REPLICA IDENTITY USING INDEX names another index. A named ({@code message.key.columns}) column that
     *              is NULL stays NULL in the key.
     */
    record Row(Struct value, Struct key) {
    }

    /**
     * The row. An unchanged TOAST value ({@code u}) takes the value of the same column in {@code old} when that has
     * one (REPLICA IDENTITY FULL), else the converter's placeholder.
     *
     * @param old the old tuple to take unchanged TOAST values from, or null
     */
    Row row(TupleData tuple, TupleData old) {
        requireWidth(tuple);
        RowBuilder row = new RowBuilder();
        for (int i = 0; i < plans.length; i++) {
            if (!needed(i)) {
                continue;
            }
            ColumnValue value = tuple.get(i);
            if (value instanceof ColumnValue.UnchangedToast && old != null && old.size() == tuple.size()
                    && !(old.get(i) instanceof ColumnValue.UnchangedToast) && !(old.get(i) instanceof ColumnValue.Null)) {
                value = old.get(i);
            }
            row.put(i, convert(i, value));
        }
        return row.build();
    }

    /**
     * The row from each column's text output form ({@code null} for SQL NULL), as a snapshot reads it. The same
     * values as {@link #row} gives for the tuple pgoutput sends in text mode, without the detour through bytes.
     */
    Row rowFromText(List<String> texts) {
        if (texts.size() != converters.length) {
            throw new ConnectException("a snapshot row of " + qualifiedName() + " has " + texts.size() + " columns, but the"
                    + " table has " + converters.length + "; the snapshot does not match its schema");
        }
        RowBuilder row = new RowBuilder();
        for (int i = 0; i < converters.length; i++) {
            if (needed(i)) {
                row.put(i, convertText(i, texts.get(i)));
            }
        }
        return row.build();
    }

    /**
     * The row from a key-only old tuple: the replica identity's columns set, every other column null, or, where its
     * field is required, its default or its type's zero ({@link ColumnFields#missing}), as Debezium fills them.
     */
    Row keyOnlyRow(TupleData keyTuple) {
        requireWidth(keyTuple);
        RowBuilder row = new RowBuilder();
        List<RelationColumn> columns = relation.columns();
        for (int i = 0; i < columns.size(); i++) {
            if (needed(i)) {
                row.put(i, columns.get(i).partOfKey() ? convert(i, keyTuple.get(i)) : absent(i));
            }
        }
        return row.build();
    }

    /**
     * Whether a key-only old tuple carries every key column: not when REPLICA IDENTITY USING INDEX names an index
     * other than the key's columns. The key of such a before-image is unknown.
     */
    boolean keyInReplicaIdentity() {
        return keyInReplicaIdentity;
    }

    /** Whether column {@code i} gives a field: a value field or a key field. */
    private boolean needed(int i) {
        return rowFields[i] != null || keyPositions[i] >= 0;
    }

    /** What a column a change carries no value for converts to: null, or what a custom converter makes of null. */
    private Object absent(int i) {
        CustomConverter.Converter custom = plans[i].custom();
        return custom == null ? null : customConvert(i, null);
    }

    /** Collects one row's value fields and key fields. */
    private final class RowBuilder {
        private final Struct value = new Struct(rowSchema);
        private final Object[] keyValues = keySchema == null ? null : new Object[keyFields.size()];

        /** Sets column {@code i}: a null in a required field becomes its default or zero, or fails naming the column. */
        void put(int i, Object converted) {
            ColumnPlan plan = plans[i];
            Object base = converted;
            if (base == null && !plan.baseSchema().isOptional()) {
                base = missing(i, plan.baseSchema());
            }
            if (keyValues != null && keyPositions[i] >= 0) {
                keyValues[keyPositions[i]] = base;
            }
            Field field = rowFields[i];
            if (field != null) {
                Object mapped = plan.mapping() == null ? base : plan.mapping().apply(base);
                if (mapped == null && !field.schema().isOptional()) {
                    mapped = missing(i, field.schema());
                }
                if (mapped instanceof Struct struct && struct.schema() != field.schema() && plan.reparameterized()) {
                    // The mapper's parameters make another Struct schema than the converter's own.
                    mapped = ColumnPlan.restructured(struct, field.schema());
                }
                try {
                    StructFields.put(value, field, mapped);
                } catch (DataException e) {
                    throw new ConnectException("column " + field.name() + " of " + qualifiedName() + " has a value its field"
                            + " schema does not take" + (plan.custom() != null ? " (from its custom converter)" : "")
                            + (plan.mapping() != null ? " (after its column.* mapper)" : "") + ": " + e.getMessage(), e);
                }
            }
        }

        Row build() {
            return new Row(value, key());
        }

        private Struct key() {
            if (keyValues == null) {
                return null;
            }
            Struct key = new Struct(keySchema);
            for (int k = 0; k < keyValues.length; k++) {
                Field field = keyFields.get(k);
                Object fieldValue = keyValues[k];
                if (fieldValue == null && !field.schema().isOptional()) {
                    return null;
                }
                StructFields.put(key, field, fieldValue);
            }
            return key;
        }
    }

    /** The value of a required field that has none: its default or its type's zero, or a failure naming the column. */
    private Object missing(int index, Schema field) {
        String name = relation.columns().get(index).name();
        if (plans[index].custom() != null) {
            if (field.defaultValue() != null) {
                return field.defaultValue();
            }
            throw new ConnectException("column " + name + " of " + qualifiedName() + " is NOT NULL, but a change carries no"
                    + " value for it, and its custom converter makes none of a null; make the converter return a value"
                    + " for null, or set REPLICA IDENTITY FULL on the table so changes carry the whole old row");
        }
        return ColumnFields.missing(converters[index], field).orElseThrow(() -> new ConnectException("column "
                + name + " of " + qualifiedName() + " is NOT NULL, but a change carries no value for it (the"
                + " columns a key-only old tuple leaves out, or a NULL written before the column became NOT NULL), and"
                + " its type " + converters[index].type().describe() + " has neither a default nor a zero to stand in"
                + " for it; set REPLICA IDENTITY FULL on the table so changes carry the whole old row"));
    }

    String qualifiedName() {
        return qualifiedName;
    }

    private int indexOf(String column) {
        List<RelationColumn> columns = relation.columns();
        for (int i = 0; i < columns.size(); i++) {
            if (columns.get(i).name().equals(column)) {
                return i;
            }
        }
        return -1;
    }

    private Object convert(int index, ColumnValue value) {
        ColumnConverter converter = converters[index];
        if (plans[index].custom() != null) {
            return customConvert(index, customInput(index, value));
        }
        try {
            if (value instanceof ColumnValue.Null) {
                return null;
            }
            if (value instanceof ColumnValue.Text text) {
                return converter.fromText(text.asString());
            }
            if (value instanceof ColumnValue.Binary binary) {
                return converter.fromBinary(binary.value().toByteArray());
            }
            return unchangedToast(index);
        } catch (RuntimeException e) {
            if (e instanceof ConnectException) {
                throw e;
            }
            throw conversionFailed(index, e);
        }
    }

    private Object convertText(int index, String text) {
        if (plans[index].custom() != null) {
            return customConvert(index, text == null ? null : customInput(index, text));
        }
        if (text == null) {
            return null;
        }
        try {
            return converters[index].fromText(text);
        } catch (RuntimeException e) {
            if (e instanceof ConnectException) {
                throw e;
            }
            throw conversionFailed(index, e);
        }
    }

    private Object unchangedToast(int index) {
        ColumnConverter converter = converters[index];
        return converter.unchangedToastValue().orElseThrow(() -> new ConnectException("column "
                + relation.columns().get(index).name() + " of " + qualifiedName() + " is an unchanged TOAST value of type "
                + converter.type().describe() + ", which has no placeholder in its schema; set REPLICA IDENTITY FULL on the"
                + " table so the old value is sent, or use decimal.handling.mode=string"));
    }

    /** What a custom converter is handed for a streamed value ({@link ConverterInputs}). */
    private Object customInput(int index, ColumnValue value) {
        if (value instanceof ColumnValue.Null) {
            return null;
        }
        if (value instanceof ColumnValue.Text text) {
            return customInput(index, text.asString());
        }
        if (value instanceof ColumnValue.Binary) {
            throw new ConnectException("column " + relation.columns().get(index).name() + " of " + qualifiedName()
                    + " arrived in binary form, but its custom converter is handed values made from their text form;"
                    + " stream in text form (the pgoutput binary option off)");
        }
        // As Debezium: the converter sees the placeholder of an unchanged TOAST value.
        return unchangedToast(index);
    }

    private Object customInput(int index, String text) {
        try {
            return ConverterInputs.of(converters[index].type(), text);
        } catch (IllegalArgumentException e) {
            throw conversionFailed(index, e);
        }
    }

    private Object customConvert(int index, Object input) {
        return plans[index].customConvert(input, relation.columns().get(index).name() + " of " + qualifiedName());
    }

    private ConnectException conversionFailed(int index, RuntimeException e) {
        return new ConnectException("converting column " + relation.columns().get(index).name() + " of " + qualifiedName()
                + " (" + converters[index].type().describe() + ") failed: " + e.getMessage(), e);
    }

    private void requireWidth(TupleData tuple) {
        if (tuple.size() != relation.columns().size()) {
            throw new ConnectException("a tuple of " + qualifiedName() + " has " + tuple.size() + " columns, but its Relation"
                    + " message lists " + relation.columns().size() + "; the stream does not match its schema");
        }
    }

    /** The fields of one table's envelope schema. */
    record EnvelopeFields(Field before, Field after, Field source, Field transaction, Field op, Field tsMs, Field tsUs,
                          Field tsNs) {

        EnvelopeFields(Schema envelope) {
            this(envelope.field(Envelope.BEFORE), envelope.field(Envelope.AFTER), envelope.field(Envelope.SOURCE),
                    envelope.field(Envelope.TRANSACTION), envelope.field(Envelope.OP), envelope.field(Envelope.TS_MS),
                    envelope.field(Envelope.TS_US), envelope.field(Envelope.TS_NS));
        }
    }

    /** Field names of the Debezium change-event envelope. */
    static final class Envelope {
        static final String BEFORE = "before";
        static final String AFTER = "after";
        static final String SOURCE = "source";
        static final String OP = "op";
        static final String TS_MS = "ts_ms";
        static final String TS_US = "ts_us";
        static final String TS_NS = "ts_ns";
        static final String TRANSACTION = "transaction";

        private Envelope() {
        }
    }
}
