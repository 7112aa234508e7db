package io.github.pgoutput.connect;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

import io.github.pgoutput.replication.PgConnections;
import io.github.pgoutput.replication.ReplicationSetupException;
import io.github.pgoutput.replication.ReplicationSettings;
import io.github.pgoutput.replication.Setting;
import io.github.pgoutput.replication.TableName;

/**
 * Resolves the configuration to {@link ReplicationSettings}; for {@code publication.autocreate.mode=filtered} that
 * needs the tables {@code table.include.list} and {@code table.exclude.list} select, read from the catalog.
 * Stateless.
 */
final class CapturedTables {

    private CapturedTables() {
    }

    /** How many of the tables seen a message names before it says how many more there are. */
    private static final int TABLES_NAMED = 20;

    /**
     * @throws SQLException when the catalog cannot be read (filtered mode only)
     */
    static ReplicationSettings replicationSettings(PgOutputSourceConnectorConfig config) throws SQLException {
        if (config.publicationAutocreateMode() != PublicationAutocreateMode.FILTERED) {
            return ConnectorSettings.replication(config, List.of());
        }
        List<TableName> all = all(ConnectorSettings.connection(config));
        List<TableName> tables = selected(config, all);
        if (tables.isEmpty()) {
            throw new ReplicationSetupException(Setting.PUBLICATION_TABLES, noTableSelected(config, all)
                    + "; correct the list, create the tables first, or use publication.autocreate.mode=all_tables");
        }
        return ConnectorSettings.replication(config, tables);
    }

    /**
     * For validation in every publication mode: a non-empty include list that selects none of the existing tables is
     * refused (most often a name given without its schema, or with an unescaped '.'). A table created after the
     * connector is deployed is captured in the modes other than filtered once it exists, but a list that matches
     * nothing at all when deploying is taken as a mistake; include at least one existing table, or create the tables
     * first.
     *
     * @return the problem, or null when the include list is empty or selects a table
     * @throws SQLException when the catalog cannot be read
     */
    static ConfigProblem includeListProblem(PgOutputSourceConnectorConfig config) throws SQLException {
        if (config.tableIncludeList().isEmpty()) {
            return null;
        }
        List<TableName> all = all(ConnectorSettings.connection(config));
        if (!selected(config, all).isEmpty()) {
            return null;
        }
        return new ConfigProblem(PgOutputSourceConnectorConfig.TABLE_INCLUDE_LIST_CONFIG, noTableSelected(config, all)
                + "; correct the list, or create the tables before deploying the connector");
    }

    /** The ordinary and partitioned tables outside the system schemas that the include and exclude lists select. */
    static List<TableName> list(PgOutputSourceConnectorConfig config, ReplicationSettings settings) throws SQLException {
        return selected(config, all(settings));
    }

    private static List<TableName> selected(PgOutputSourceConnectorConfig config, List<TableName> all) {
        return all.stream().filter(t -> ConnectorSettings.captured(config, t.schema(), t.table())).toList();
    }

    private static String noTableSelected(PgOutputSourceConnectorConfig config, List<TableName> all) {
        String list = config.tableIncludeList().stream().map(p -> p.pattern()).collect(Collectors.joining(","));
        String seen = all.isEmpty() ? "none"
                : all.stream().limit(TABLES_NAMED).map(t -> t.schema() + "." + t.table()).collect(Collectors.joining(", "))
                        + (all.size() > TABLES_NAMED ? " and " + (all.size() - TABLES_NAMED) + " more" : "");
        String lists = config.tableExcludeList().isEmpty() ? "table.include.list (" + list + ")"
                : "table.include.list (" + list + ") and table.exclude.list";
        return lists + " select no table of database '" + config.databaseDbname() + "' (tables seen: " + seen
                + "); each expression is matched against the whole schema.table name, for example public\\.orders or"
                + " inventory\\..*";
    }

    private static List<TableName> all(ReplicationSettings settings) throws SQLException {
        List<TableName> tables = new ArrayList<>();
        try (Connection sql = PgConnections.openSql(settings); Statement st = sql.createStatement();
             ResultSet rs = st.executeQuery("SELECT n.nspname, c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
                     + " WHERE c.relkind IN ('r', 'p') AND n.nspname NOT IN ('pg_catalog', 'information_schema')"
                     + " AND n.nspname NOT LIKE 'pg\\_%' ORDER BY 1, 2")) {
            while (rs.next()) {
                tables.add(new TableName(rs.getString(1), rs.getString(2)));
            }
        }
        return tables;
    }
}
