package io.github.pgoutput.connect;

import java.util.List;

import io.github.pgoutput.converters.ColumnConverter;
import io.github.pgoutput.converters.PgColumnType;
import io.github.pgoutput.converters.PostgresTypeMapper;
import io.github.pgoutput.pgoutput.ColumnValue;
import io.github.pgoutput.pgoutput.PgOutputMessage.Relation;
import io.github.pgoutput.pgoutput.RelationColumn;
import io.github.pgoutput.pgoutput.TupleData;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.errors.ConnectException;

/**
 * The Connect schemas of one version of one table, built from its Relation message and its key choice
 * ({@link KeyColumns}: named columns, primary key, replica identity index, or none): the key, the row
 * ({@code before}/{@code after}) and the envelope. Turns tuples into {@link Struct}s with the converters module.
 * The Relation's own key flags (the replica identity) say only which columns a key-only old tuple carries.
 *
 * <p>Immutable and thread-safe.
 */
final class TableSchema {

    private final Relation relation;
    private final KeyColumns.Choice keyColumns;
    private final int version;
    private final ColumnConverter[] converters;
    private final Schema keySchema;
    private final Schema rowSchema;
    private final Schema envelopeSchema;
    private final List<Field> rowFields;
    private final String topic;

    /**
     * @param keyColumns  the key's columns, each one of {@code relation}'s (see {@link KeyColumns})
     * @param columnTypes the type of each column of {@code relation}, in column order (see {@link ColumnTypes})
     * @param topic       the topic the table's records go to
     */
    TableSchema(Relation relation, KeyColumns.Choice keyColumns, int version, AvroNames names, PostgresTypeMapper types,
                List<PgColumnType> columnTypes, Schema sourceSchema, Schema transactionSchema, String topic) {
        this.relation = relation;
        this.keyColumns = keyColumns;
        this.version = version;
        this.topic = topic;
        List<RelationColumn> columns = relation.columns();
        converters = new ColumnConverter[columns.size()];
        SchemaBuilder key = SchemaBuilder.struct().name(names.key(relation.namespace(), relation.relationName())).version(version);
        SchemaBuilder row = SchemaBuilder.struct().name(names.value(relation.namespace(), relation.relationName())).version(version)
                .optional();
        for (int i = 0; i < columns.size(); i++) {
            converters[i] = types.converterFor(columnTypes.get(i));
            row.field(columns.get(i).name(), converters[i].schema(true));
        }
        for (String name : keyColumns.columns()) {
            int index = indexOf(name);
            if (index < 0) {
                throw new IllegalArgumentException("key column " + name + " is not a column of " + qualifiedName());
            }
            key.field(name, converters[index].schema(keyColumns.optional()));
        }
        keySchema = keyColumns.isKeyed() ? key.build() : null;
        rowSchema = row.build();
        rowFields = rowSchema.fields();
        envelopeSchema = SchemaBuilder.struct().name(names.envelope(relation.namespace(), relation.relationName())).version(version)
                .field(Envelope.BEFORE, rowSchema)
                .field(Envelope.AFTER, rowSchema)
                .field(Envelope.SOURCE, sourceSchema)
                .field(Envelope.OP, Schema.STRING_SCHEMA)
                .field(Envelope.TS_MS, Schema.OPTIONAL_INT64_SCHEMA)
                .field(Envelope.TRANSACTION, transactionSchema)
                .build();
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

    int version() {
        return version;
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
            row.put(rowFields.get(i), convert(i, value));
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
            row.put(rowFields.get(i), text == null ? null : convert(i, text));
        }
        return row;
    }

    /** The row from a key-only old tuple: key columns set, every other column null. */
    Struct keyOnlyRow(TupleData keyTuple) {
        requireWidth(keyTuple);
        Struct row = new Struct(rowSchema);
        List<RelationColumn> columns = relation.columns();
        for (int i = 0; i < columns.size(); i++) {
            if (columns.get(i).partOfKey()) {
                row.put(rowFields.get(i), convert(i, keyTuple.get(i)));
            }
        }
        return row;
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
        for (Field field : keySchema.fields()) {
            Object value = row.get(field.name());
            if (value == null && !field.schema().isOptional()) {
                return null;
            }
            key.put(field, value);
        }
        return key;
    }

    String qualifiedName() {
        return relation.namespace() + "." + relation.relationName();
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

    /** Field names of the Debezium change-event envelope. */
    static final class Envelope {
        static final String BEFORE = "before";
        static final String AFTER = "after";
        static final String SOURCE = "source";
        static final String OP = "op";
        static final String TS_MS = "ts_ms";
        static final String TRANSACTION = "transaction";

        private Envelope() {
        }
    }
}
