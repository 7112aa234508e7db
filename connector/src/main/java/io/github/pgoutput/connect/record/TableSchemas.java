package io.github.pgoutput.connect.record;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import io.github.pgoutput.connect.shaping.ColumnShaping;
import io.github.pgoutput.converters.PgColumnType;
import io.github.pgoutput.converters.PostgresTypeMapper;
import io.github.pgoutput.pgoutput.PgOutputMessage.Relation;
import org.apache.kafka.connect.data.Schema;

/**
 * The {@link TableSchema} of each table, cached per relation id and built anew whenever the table's Relation message
 * or its key changes (ALTER TABLE, a new replica identity index). Snapshot rows and streamed changes of a table go
 * through the same cache, so their records share schemas.
 *
 * <p>Not thread-safe: used by the task's poll thread only.
 */
final class TableSchemas {

    private final AvroNames names;
    private final PostgresTypeMapper types;
    private final ColumnTypes columnTypes;
    private final KeyColumns keyColumns;
    private final Schema sourceSchema;
    private final Schema transactionSchema;
    private final TopicNames topics;
    private final ColumnShaping shaping;
    private final Map<Long, TableSchema> schemas = new HashMap<>();
    /** The Relation instance of the last call and its schemas: consecutive changes are mostly of one table. */
    private Relation lastRelation;
    private TableSchema lastSchema;

    TableSchemas(AvroNames names, PostgresTypeMapper types, ColumnTypes columnTypes, KeyColumns keyColumns,
            Schema sourceSchema, Schema transactionSchema, TopicNames topics, ColumnShaping shaping) {
        this.names = Objects.requireNonNull(names);
        this.types = Objects.requireNonNull(types);
        this.columnTypes = Objects.requireNonNull(columnTypes);
        this.keyColumns = Objects.requireNonNull(keyColumns);
        this.sourceSchema = Objects.requireNonNull(sourceSchema);
        this.transactionSchema = Objects.requireNonNull(transactionSchema);
        this.topics = Objects.requireNonNull(topics);
        this.shaping = Objects.requireNonNull(shaping);
    }

    /** The schemas for this Relation; built anew when it differs from the one cached for its relation id. */
    TableSchema of(Relation relation) {
        if (relation == lastRelation) {
            // The same Relation message as the last change's: its key choice and schemas are those found then.
            return lastSchema;
        }
        TableSchema schema = lookUp(relation);
        lastRelation = relation;
        lastSchema = schema;
        return schema;
    }

    private TableSchema lookUp(Relation relation) {
        TableSchema cached = schemas.get(relation.relationId());
        // Read again for each new Relation message: an index or replica identity change makes PostgreSQL send one.
        KeyColumns.Choice key = keyColumns.of(relation);
        if (cached != null && relationsMatch(cached.relation(), relation) && cached.keyColumns().equals(key)) {
            return cached;
        }
        List<PgColumnType> typesOfColumns = columnTypes.of(relation);
        TableSchema built = new TableSchema(relation, key, keyColumns.catalogTable(relation), names, types, typesOfColumns,
                sourceSchema, transactionSchema, topics.table(relation.namespace(), relation.relationName()), shaping);
        schemas.put(relation.relationId(), built);
        return built;
    }

    /**
     * Equal apart from the xid prefix, which differs between a streamed and a plain copy of the same definition, and
     * the replica identity setting, which the snapshot's relation does not know: what the schemas depend on of it,
     * the key flags (which columns a key-only old tuple holds), is in the columns.
     */
    private static boolean relationsMatch(Relation a, Relation b) {
        return a.namespace().equals(b.namespace()) && a.relationName().equals(b.relationName())
                && a.columns().equals(b.columns());
    }
}
