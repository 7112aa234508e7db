package io.github.pgoutput.connect;

import io.github.pgoutput.connect.config.ConfigProblem;
import io.github.pgoutput.connect.config.ConnectorSettings;
import io.github.pgoutput.connect.config.PgOutputSourceConnectorConfig;
import io.github.pgoutput.connect.config.ReplicationKeys;
import io.github.pgoutput.connect.config.TableKeys;
import io.github.pgoutput.connect.shaping.ColumnSelection;
import io.github.pgoutput.replication.PublicationManager;
import io.github.pgoutput.replication.PublicationMode;
import io.github.pgoutput.replication.ReplicationSettings;
import io.github.pgoutput.replication.ReplicationSetupException;
import io.github.pgoutput.replication.Setting;
import io.github.pgoutput.replication.TableColumns;
import io.github.pgoutput.replication.TableName;
import io.github.pgoutput.replication.UserTables;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Resolves the configuration to {@link ReplicationSettings}; for {@code publication.autocreate.mode=filtered} that
 * needs the tables the schema and table include and exclude lists select from {@link UserTables}. Knows the config
 * keys of the lists, so it stays in this package; the catalog query is the replication layer's. Stateless.
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
        if (config.publicationAutocreateMode() != PublicationMode.FILTERED) {
            return ConnectorSettings.replication(config, List.of());
        }
        List<TableName> all = UserTables.list(ConnectorSettings.connection(config));
        List<TableName> tables = selected(config, all);
        if (tables.isEmpty()) {
            throw new ReplicationSetupException(Setting.PUBLICATION_TABLES, noTableSelected(config, all)
                    + "; correct the list, create the tables first, or use publication.autocreate.mode=all_tables");
        }
        ReplicationSettings settings = ConnectorSettings.replication(config, tables);
        ColumnSelection columns = config.columnSelection();
        if (!columns.filters()) {
            return settings;
        }
        Map<TableName, List<String>> lists = PublicationColumnLists.of(columns, config.messageKeyColumns(),
                TableColumns.read(ConnectorSettings.connection(config), tables));
        return settings.toBuilder().publicationColumns(lists).build();
    }

    /**
     * For validation in every publication mode: a non-empty include list ({@code table.include.list} or
     * {@code schema.include.list}) that, with the other lists, selects none of the existing tables is refused (most
     * often a name given without its schema, or with an unescaped '.'). A table created after the connector is
     * deployed is captured in the modes other than filtered once it exists, but a selection that matches nothing at
     * all when deploying is taken as a mistake; include at least one existing table, or create the tables first.
     *
     * @return the problem, on {@code schema.include.list} when it matches the schema of no existing table, else on
     *         {@code table.include.list} when that is set, else on {@code schema.include.list}; or null when neither
     *         include list is set or the selection holds a table
     * @throws SQLException when the catalog cannot be read
     */
    static ConfigProblem includeListProblem(PgOutputSourceConnectorConfig config) throws SQLException {
        if (config.tableIncludeList().isEmpty() && config.schemaIncludeList().isEmpty()) {
            return null;
        }
        List<TableName> all = UserTables.list(ConnectorSettings.connection(config));
        if (!selected(config, all).isEmpty()) {
            return null;
        }
        List<Pattern> schemas = config.schemaIncludeList();
        boolean schemaMatches = all.stream().anyMatch(t -> schemas.stream().anyMatch(p -> p.matcher(t.schema()).matches()));
        String key = !schemas.isEmpty() && !schemaMatches || config.tableIncludeList().isEmpty()
                ? TableKeys.SCHEMA_INCLUDE_LIST_CONFIG
                : TableKeys.TABLE_INCLUDE_LIST_CONFIG;
        String fix = config.publicationAutocreateMode() == PublicationMode.FILTERED
                ? "; correct the list, create the tables first, or use publication.autocreate.mode=all_tables"
                : "; correct the list, or create the tables before deploying the connector";
        return new ConfigProblem(key, noTableSelected(config, all) + fix);
    }

    /**
     * With {@code publication.autocreate.mode=filtered} and the publication already there: the tables the lists select
     * that it does not send. Debezium's filtered mode alters the publication to the lists' tables at each start; this
     * connector never alters a publication (it may be another's too), so those tables would silently not be captured.
     *
     * @return the problem, on {@code publication.autocreate.mode}, with the ALTER PUBLICATION to run; empty otherwise
     * @throws SQLException when the catalog cannot be read
     */
    static Optional<ConfigProblem> publicationLacks(PgOutputSourceConnectorConfig config) throws SQLException {
        if (config.publicationAutocreateMode() != PublicationMode.FILTERED) {
            return Optional.empty();
        }
        ReplicationSettings connection = ConnectorSettings.connection(config);
        List<TableName> selected = selected(config, UserTables.list(connection));
        List<TableName> missing = PublicationManager.unpublished(connection, selected);
        if (missing.isEmpty()) {
            return Optional.empty();
        }
        String named = missing.stream().limit(TABLES_NAMED).map(TableName::toString).collect(Collectors.joining(", "))
                + (missing.size() > TABLES_NAMED ? " and " + (missing.size() - TABLES_NAMED) + " more" : "");
        return Optional.of(new ConfigProblem(ReplicationKeys.PUBLICATION_AUTOCREATE_MODE_CONFIG, "publication '"
                + config.publicationName() + "' exists but does not send " + named + ", which the include and exclude lists"
                + " select; Debezium's filtered mode would add them to it, this connector never alters an existing publication:"
                + " run ALTER PUBLICATION " + config.publicationName() + " ADD TABLE "
                + missing.stream().map(TableName::quoted).collect(Collectors.joining(", "))
                + " (or narrow the lists to the tables it sends)"));
    }

    /**
     * The problem of an existing publication whose column lists leave out columns the column keys keep
     * ({@link PublicationColumnLists#staleListProblem}); null when it has none, or does not exist yet.
     *
     * @throws SQLException when the catalog cannot be read
     */
    static ConfigProblem columnListProblem(PgOutputSourceConnectorConfig config) throws SQLException {
        ReplicationSettings connection = ConnectorSettings.connection(config);
        Map<TableName, List<String>> published = TableColumns.publishedColumnLists(connection, config.publicationName());
        if (published.isEmpty()) {
            return null;
        }
        List<TableName> captured = published.keySet().stream()
                .filter(t -> ConnectorSettings.captured(config, t.schema(), t.table())).toList();
        return PublicationColumnLists.staleListProblem(config, published, TableColumns.read(connection, captured));
    }

    private static List<TableName> selected(PgOutputSourceConnectorConfig config, List<TableName> all) {
        return all.stream().filter(t -> ConnectorSettings.captured(config, t.schema(), t.table())).toList();
    }

    private static String noTableSelected(PgOutputSourceConnectorConfig config, List<TableName> all) {
        List<String> lists = new ArrayList<>();
        addList(lists, TableKeys.SCHEMA_INCLUDE_LIST_CONFIG, config.schemaIncludeList());
        addList(lists, TableKeys.SCHEMA_EXCLUDE_LIST_CONFIG, config.schemaExcludeList());
        addList(lists, TableKeys.TABLE_INCLUDE_LIST_CONFIG, config.tableIncludeList());
        addList(lists, TableKeys.TABLE_EXCLUDE_LIST_CONFIG, config.tableExcludeList());
        String seen = all.isEmpty() ? "none"
                : all.stream().limit(TABLES_NAMED).map(t -> t.schema() + "." + t.table()).collect(Collectors.joining(", "))
                        + (all.size() > TABLES_NAMED ? " and " + (all.size() - TABLES_NAMED) + " more" : "");
        return String.join(" and ", lists) + " select no table of database '" + config.databaseDbname()
                + "' (tables seen: " + seen + "); each table expression is matched against the whole schema.table"
                + " name, for example public\\.orders or inventory\\..*, each schema expression against the whole"
                + " schema name";
    }

    private static void addList(List<String> lists, String key, List<Pattern> patterns) {
        if (!patterns.isEmpty()) {
            lists.add(key + " (" + patterns.stream().map(Pattern::pattern).collect(Collectors.joining(",")) + ")");
        }
    }
}
