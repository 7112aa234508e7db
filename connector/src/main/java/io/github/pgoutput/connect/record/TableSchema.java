package io.github.pgoutput.connect.record;

import io.github.pgoutput.converters.StructFields;
import java.util.List;
import java.util.Optional;

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

/**
 * The Connect schemas of one version of one table, built from its Relation message, its key choice
 * ({@link KeyColumns}: named columns, primary key, replica identity index, or none) and its catalog row (NOT NULL
 * columns and defaults, {@link ColumnFields}): the key, the row ({@code before}/{@code after}) and the envelope, in
 * Debezium's shapes: Key and Value structs without a version, the envelope {@code <prefix>.<schema>.<table>.Envelope}
 * of version {@value #ENVELOPE_VERSION} with {@code before}, {@code after}, {@code source}, {@code transaction},
 * {@code op}, {@code ts_ms}, {@code ts_us}, {@code ts_ns}. Turns tuples into {@link Struct}s with the converters
 * module. The Relation's own key flags (the replica identity) say only which columns a key-only old tuple carries.
 *
 * <p>Immutable and thread-safe.
 */
public final class TableSchema {

    /** Debezium's envelope schema version ({@code io.debezium.data.Envelope}). */
    static final int ENVELOPE_VERSION = 2;

    private final Relation relation;
    private final KeyColumns.Choice keyColumns;
    private final ColumnConverter[] converters;
    private final Schema keySchema;
    private final Schema rowSchema;
    private final Schema envelopeSchema;
    private final List<Field> rowFields;
    /** The row's field of each key field, in key order. */
    private final Field[] keyRowFields;
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
        this.relation = relation;
        this.keyColumns = keyColumns;
        this.topic = topic;
        this.qualifiedName = relation.namespace() + "." + relation.relationName();
        List<RelationColumn> columns = relation.columns();
        converters = new ColumnConverter[columns.size()];
        Schema[] fieldSchemas = new Schema[columns.size()];
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
            fieldSchemas[i] = ColumnFields.schema(converter, !required, defaultValue);
            row.field(name, fieldSchemas[i]);
        }
        boolean carried = true;
        for (String name : keyColumns.columns()) {
            int index = indexOf(name);
            if (index < 0) {
                throw new IllegalArgumentException("key column " + name + " is not a column of " + qualifiedName());
            }
            // Debezium's key fields are the value's fields; without the catalog, the key choice says.
            boolean known = catalog.flatMap(c -> c.column(name)).isPresent();
            key.field(name, known ? fieldSchemas[index] : converters[index].schema(keyColumns.optional()));
            carried &= columns.get(index).partOfKey();
        }
        keyInReplicaIdentity = carried;
        keySchema = keyColumns.isKeyed() ? key.build() : null;
        rowSchema = row.build();
        rowFields = rowSchema.fields();
        keyRowFields = keySchema == null ? new Field[0]
                : keySchema.fields().stream().map(f -> rowSchema.field(f.name())).toArray(Field[]::new);
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
     * The row as a Struct. An unchanged TOAST value ({@code u}) takes the value of the same column in {@code old}
     * when that has one (REPLICA IDENTITY FULL), else the converter's placeholder.
     *
     * @param old the old tuple to take unchanged TOAST values from, or null
     */
    Struct row(TupleData tuple, TupleData old) {
        requireWidth(tuple);
        Struct row = new Struct(rowSchema);
        List<RelationColumn> columns = relation.columns();
        for (int i = 0; i < columns.size(); i++) {
            ColumnValue value = tuple.get(i);
            if (value instanceof ColumnValue.UnchangedToast && old != null && old.size() == tuple.size()
                    && !(old.get(i) instanceof ColumnValue.UnchangedToast) && !(old.get(i) instanceof ColumnValue.Null)) {
                value = old.get(i);
            }
            put(row, i, convert(i, value));
        }
        return row;
    }

    /**
     * The row as a Struct from each column's text output form ({@code null} for SQL NULL), as a snapshot reads it.
     * The same values as {@link #row} gives for the tuple pgoutput sends in text mode, without the detour through
     * bytes.
     */
    Struct rowFromText(List<String> texts) {
        if (texts.size() != converters.length) {
            throw new ConnectException("a snapshot row of " + qualifiedName() + " has " + texts.size() + " columns, but the"
                    + " table has " + converters.length + "; the snapshot does not match its schema");
        }
        Struct row = new Struct(rowSchema);
        for (int i = 0; i < converters.length; i++) {
            String text = texts.get(i);
            put(row, i, text == null ? null : convert(i, text));
        }
        return row;
    }

    /**
     * The row from a key-only old tuple: the replica identity's columns set, every other column null, or, where its
     * field is required, its default or its type's zero ({@link ColumnFields#missing}), as Debezium fills them.
     */
    Struct keyOnlyRow(TupleData keyTuple) {
        requireWidth(keyTuple);
        Struct row = new Struct(rowSchema);
        List<RelationColumn> columns = relation.columns();
        for (int i = 0; i < columns.size(); i++) {
            put(row, i, columns.get(i).partOfKey() ? convert(i, keyTuple.get(i)) : null);
        }
        return row;
    }

    /**
     * Whether a key-only old tuple carries every key column: not when REPLICA IDENTITY USING INDEX names an index
     * other than the key's columns. The key of such a before-image is unknown.
     */
    boolean keyInReplicaIdentity() {
        return keyInReplicaIdentity;
    }

    /** Sets a field; a null in a required field becomes its default or zero, or fails naming the column. */
    private void put(Struct row, int index, Object value) {
        Field field = rowFields.get(index);
        if (value == null && !field.schema().isOptional()) {
            value = ColumnFields.missing(converters[index], field.schema()).orElseThrow(() -> new ConnectException("column "
                    + field.name() + " of " + qualifiedName() + " is NOT NULL, but a change carries no value for it (the"
                    + " columns a key-only old tuple leaves out, or a NULL written before the column became NOT NULL), and"
                    + " its type " + converters[index].type().describe() + " has neither a default nor a zero to stand in"
                    + " for it; set REPLICA IDENTITY FULL on the table so changes carry the whole old row"));
        }
        StructFields.put(row, field, value);
    }

    /**
     * The key Struct taken from a row Struct, or null when the table has no key or the row lacks a value of a key
     * column that must have one: a key-only old tuple carries the replica identity's columns, which are not the
     * primary key when REPLICA IDENTITY USING INDEX names another index. A named ({@code message.key.columns}) column
     * that is NULL stays NULL in the key.
     */
    Struct key(Struct row) {
        if (keySchema == null || row == null) {
            return null;
        }
        Struct key = new Struct(keySchema);
        List<Field> fields = keySchema.fields();
        for (int i = 0; i < keyRowFields.length; i++) {
            Field field = fields.get(i);
            Object value = row.get(keyRowFields[i]);
            if (value == null && !field.schema().isOptional()) {
                return null;
            }
            StructFields.put(key, field, value);
        }
        return key;
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
            return converter.unchangedToastValue().orElseThrow(() -> new ConnectException("column "
                    + relation.columns().get(index).name() + " of " + qualifiedName() + " is an unchanged TOAST value of type "
                    + converter.type().describe() + ", which has no placeholder in its schema; set REPLICA IDENTITY FULL on the"
                    + " table so the old value is sent, or use decimal.handling.mode=string"));
        } catch (RuntimeException e) {
            if (e instanceof ConnectException) {
                throw e;
            }
            throw conversionFailed(index, e);
        }
    }

    private Object convert(int index, String text) {
        try {
            return converters[index].fromText(text);
        } catch (RuntimeException e) {
            if (e instanceof ConnectException) {
                throw e;
            }
            throw conversionFailed(index, e);
        }
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
