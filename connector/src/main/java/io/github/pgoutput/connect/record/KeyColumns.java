package io.github.pgoutput.connect.record;

import io.github.pgoutput.pgoutput.PgOutputMessage.Relation;
import io.github.pgoutput.pgoutput.RelationColumn;
import io.github.pgoutput.pgoutput.ReplicaIdentity;
import io.github.pgoutput.replication.CatalogKey;
import io.github.pgoutput.replication.TypeCatalog;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Chooses the columns of a table's Kafka key, as Debezium does: the columns {@code message.key.columns} names for the
 * table; else the primary key; else the REPLICA IDENTITY USING INDEX index; else none (records with a null key). The
 * keys come from the catalog ({@link TypeCatalog#tableKey}), not from the Relation message's key flags: those mark the
 * replica identity, which under REPLICA IDENTITY FULL is every column, nullable ones included, and a NULL cannot be
 * part of a key. FULL therefore widens only {@code before}.
 *
 * <p>Where the choice cannot be used, the records of the table carry no key rather than a wrong one, and a WARN says
 * why: a named column the table does not publish (misspelt, dropped, or left out of the publication's column list)
 * makes the table fall back to its catalog key; a primary key or index column left out of the column list leaves the
 * table without key. The catalog is read when a table's Relation message arrives (a new one for its OID: the first of a
 * session, and after each ALTER TABLE, index or replica identity change); it describes the table as it is then. A
 * table the catalog no longer has (dropped since) is keyed by the Relation's flags, unless those are REPLICA IDENTITY
 * FULL's every column.
 *
 * <p>Not thread-safe: one per record builder.
 */
public final class KeyColumns {

    private static final Logger log = LoggerFactory.getLogger(KeyColumns.class);

    /**
     * The key of one table version.
     *
     * @param columns  the key's columns in key field order; empty for no key
     * @param optional whether the key's fields may be null: only for named columns, which need not be NOT NULL
     *                 (primary key and replica identity index columns always are)
     * @param origin   where the columns come from, for log messages
     */
    record Choice(List<String> columns, boolean optional, String origin) {

        static final Choice NONE = new Choice(List.of(), false, "no primary key and no replica identity index");

        Choice {
            columns = List.copyOf(columns);
        }

        boolean isKeyed() {
            return !columns.isEmpty();
        }
    }

    /** The key that names key columns, as messages name it to users. */
    private static final String NAMING_KEY = "message.key.columns";

    private final TypeCatalog catalog;
    private final MessageKeyColumns named;
    /** The Relation each choice was made for: a new Relation message (a new instance) for the OID makes a new choice. */
    private final Map<Long, Relation> chosenFor = new HashMap<>();
    private final Map<Long, Choice> choices = new HashMap<>();
    private final Map<Long, Optional<CatalogKey>> tables = new HashMap<>();

    KeyColumns(TypeCatalog catalog, MessageKeyColumns named) {
        this.catalog = Objects.requireNonNull(catalog, "catalog");
        this.named = Objects.requireNonNull(named, "named");
    }

    /** The key columns of {@code relation}; reads the catalog when this Relation message was not seen before. */
    Choice of(Relation relation) {
        long id = relation.relationId();
        if (chosenFor.get(id) == relation) {
            return choices.get(id);
        }
        Optional<CatalogKey> table = read(relation);
        Choice choice = choose(relation, table);
        chosenFor.put(id, relation);
        choices.put(id, choice);
        tables.put(id, table);
        return choice;
    }

    /**
     * What the catalog said of {@code relation}'s table (keys, NOT NULL columns, defaults) when its key was chosen:
     * one read per Relation message. Empty when the catalog no longer has the table.
     */
    Optional<CatalogKey> catalogTable(Relation relation) {
        of(relation);
        return tables.get(relation.relationId());
    }

    private Optional<CatalogKey> read(Relation relation) {
        try {
            return catalog.tableKey(relation.relationId());
        } catch (SQLException e) {
            throw new CatalogReadException("reading the primary key, replica identity index and columns of table "
                    + relation.namespace() + "." + relation.relationName() + " from pg_index and pg_attribute", e);
        }
    }

    private Choice choose(Relation relation, Optional<CatalogKey> key) {
        String table = relation.namespace() + "." + relation.relationName();
        Set<String> published = relation.columns().stream().map(RelationColumn::name).collect(Collectors.toSet());
        Optional<List<String>> namedColumns = named.columnsOf(relation.namespace(), relation.relationName());
        if (namedColumns.isPresent()) {
            List<String> missing = missing(namedColumns.get(), published);
            if (missing.isEmpty()) {
                return new Choice(namedColumns.get(), true, NAMING_KEY);
            }
            log.warn("{} names column(s) {} for table {}, which does not publish them (columns {}); keying"
                    + " its records as without the entry. Correct the entry, or add the columns to the publication's column"
                    + " list", NAMING_KEY, missing, table,
                    relation.columns().stream().map(RelationColumn::name).toList());
        }
        Choice fromCatalog = fromCatalog(relation, key);
        List<String> missing = missing(fromCatalog.columns(), published);
        if (!missing.isEmpty()) {
            log.warn("key column(s) {} of table {} ({}) are not in the publication's column list; its records get a null key."
                    + " Add them to the column list, or name published columns in {}", missing, table,
                    fromCatalog.origin(), NAMING_KEY);
            return Choice.NONE;
        }
        return fromCatalog;
    }

    private static Choice fromCatalog(Relation relation, Optional<CatalogKey> key) {
        if (key.isEmpty()) {
            if (relation.replicaIdentity() == ReplicaIdentity.FULL) {
                return Choice.NONE;
            }
            List<String> flagged = relation.columns().stream().filter(RelationColumn::partOfKey).map(RelationColumn::name).toList();
            return flagged.isEmpty() ? Choice.NONE : new Choice(flagged, false, "replica identity of the Relation message");
        }
        if (!key.get().primaryKey().isEmpty()) {
            return new Choice(inColumnOrder(relation, key.get().primaryKey()), false, "primary key");
        }
        if (!key.get().replicaIdentityIndex().isEmpty()) {
            return new Choice(inColumnOrder(relation, key.get().replicaIdentityIndex()), false, "replica identity index");
        }
        return Choice.NONE;
    }

    /**
     * The key columns in the table's column order, the order the key fields had when they came from the Relation's
     * flags, so a table's key schema does not change with where its key is read from. Columns the Relation lacks
     * (left out of a column list) come last.
     */
    private static List<String> inColumnOrder(Relation relation, List<String> key) {
        List<String> ordered = new ArrayList<>(key.size());
        for (RelationColumn column : relation.columns()) {
            if (key.contains(column.name())) {
                ordered.add(column.name());
            }
        }
        for (String column : key) {
            if (!ordered.contains(column)) {
                ordered.add(column);
            }
        }
        return ordered;
    }

    private static List<String> missing(List<String> columns, Set<String> published) {
        return columns.stream().filter(c -> !published.contains(c)).toList();
    }
}
