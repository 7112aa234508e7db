package io.github.pgoutput.connect;

import io.github.pgoutput.connect.config.ColumnKeys;
import io.github.pgoutput.connect.config.ConfigProblem;
import io.github.pgoutput.connect.config.PgOutputSourceConnectorConfig;
import io.github.pgoutput.connect.record.MessageKeyColumns;
import io.github.pgoutput.connect.shaping.ColumnSelection;
import io.github.pgoutput.replication.TableColumns;
import io.github.pgoutput.replication.TableName;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The column lists a publication the connector creates ({@code publication.autocreate.mode=filtered}, PostgreSQL 15+)
 * gets, so that the columns {@code column.include.list} / {@code column.exclude.list} leave out never leave the
 * server. A table's list holds the columns the lists keep, its key columns (the record key keeps them, as Debezium's
 * does) and its replica identity's columns (PostgreSQL refuses UPDATE and DELETE on the table otherwise). A table gets
 * no list, and the connector leaves its columns out itself, when nothing would be left out (REPLICA IDENTITY FULL
 * names every column) or nothing would be kept; the INFO log says which tables got which list.
 *
 * <p>A list is fixed when the publication is created: a column added to the table later is not published, even when
 * the column keys select it; the connector does not alter an existing publication (README, "Column keys").
 *
 * <p>Stateless.
 */
final class PublicationColumnLists {

    private static final Logger log = LoggerFactory.getLogger(PublicationColumnLists.class);

    private PublicationColumnLists() {
    }

    /**
     * The problem of an existing publication whose column list of a captured table lacks a column the column keys
     * keep (or a key or replica identity column): those values would never reach the records. Null when there is none.
     *
     * @param published the column lists the publication has, by table
     * @param tables    the captured tables among them, as the catalog describes them now
     */
    static ConfigProblem staleListProblem(PgOutputSourceConnectorConfig config, Map<TableName, List<String>> published,
                                          Map<TableName, TableColumns> tables) {
        ColumnSelection selection = config.columnSelection();
        String key = config.getString(ColumnKeys.COLUMN_INCLUDE_LIST_CONFIG) != null
                ? ColumnKeys.COLUMN_INCLUDE_LIST_CONFIG
                : ColumnKeys.COLUMN_EXCLUDE_LIST_CONFIG;
        List<String> stale = new ArrayList<>();
        for (TableColumns table : tables.values()) {
            List<String> list = published.get(table.table());
            if (list == null) {
                continue;
            }
            List<String> missing = new ArrayList<>();
            for (String column : wanted(selection, config.messageKeyColumns(), table)) {
                if (!list.contains(column)) {
                    missing.add(column);
                }
            }
            if (!missing.isEmpty()) {
                stale.add("table " + table.table() + " lists " + list + ", without " + missing);
            }
        }
        if (stale.isEmpty()) {
            return null;
        }
        return new ConfigProblem(key, "publication '" + config.publicationName() + "' has column lists that leave out"
                + " columns the column keys keep (or key or replica identity columns), whose values would never reach"
                + " the records: " + String.join("; ", stale) + ". Add the columns (ALTER PUBLICATION ... SET TABLE"
                + " table (columns)) or drop the publication so that publication.autocreate.mode=filtered creates it"
                + " anew, or correct " + key);
    }

    /** The columns of {@code table} a publication must publish: those kept, the key's and the replica identity's. */
    private static Set<String> wanted(ColumnSelection selection, MessageKeyColumns keyColumns, TableColumns table) {
        String schema = table.table().schema();
        String name = table.table().table();
        Set<String> wanted = new LinkedHashSet<>();
        for (String column : table.columns()) {
            if (selection.includes(schema, name, column)) {
                wanted.add(column);
            }
        }
        wanted.addAll(keyColumns.columnsOf(schema, name).orElse(table.primaryKey().isEmpty() ? table.identityColumns()
                : table.primaryKey()));
        wanted.addAll(table.identityColumns());
        wanted.retainAll(table.columns());
        return wanted;
    }

    /** The column list of each table that gets one; tables left out get none. */
    static Map<TableName, List<String>> of(ColumnSelection selection, MessageKeyColumns keyColumns,
                                           Map<TableName, TableColumns> tables) {
        Map<TableName, List<String>> lists = new LinkedHashMap<>();
        if (!selection.filters()) {
            return lists;
        }
        for (TableColumns table : tables.values()) {
            String schema = table.table().schema();
            String name = table.table().table();
            Set<String> kept = new LinkedHashSet<>();
            for (String column : table.columns()) {
                if (selection.includes(schema, name, column)) {
                    kept.add(column);
                }
            }
            if (kept.size() == table.columns().size()) {
                continue;
            }
            if (table.replicaIdentity() == 'f') {
                log.info("table {} has REPLICA IDENTITY FULL, so a publication column list would have to hold every column;"
                        + " the connector leaves out the columns the column keys exclude itself", table.table());
                continue;
            }
            if (kept.isEmpty()) {
                log.info("the column keys keep no column of table {}; its publication entry lists every column, and the"
                        + " connector leaves them out of the values itself", table.table());
                continue;
            }
            kept.addAll(keyColumns.columnsOf(schema, name).orElse(table.primaryKey().isEmpty() ? table.identityColumns()
                    : table.primaryKey()));
            kept.addAll(table.identityColumns());
            List<String> list = new ArrayList<>();
            for (String column : table.columns()) {
                if (kept.contains(column)) {
                    list.add(column);
                }
            }
            if (list.size() < table.columns().size()) {
                lists.put(table.table(), List.copyOf(list));
                log.info("the publication lists columns {} of table {} (those the column keys keep, its key and replica"
                        + " identity); the others never leave the server", list, table.table());
            }
        }
        return lists;
    }
}
