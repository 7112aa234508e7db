package io.github.pgoutput.connect;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

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

    /**
     * @throws SQLException when the catalog cannot be read (filtered mode only)
     */
    static ReplicationSettings replicationSettings(PgOutputSourceConnectorConfig config) throws SQLException {
        if (config.publicationAutocreateMode() != PublicationAutocreateMode.FILTERED) {
            return ConnectorSettings.replication(config, List.of());
        }
        List<TableName> tables = list(config, ConnectorSettings.connection(config));
        if (tables.isEmpty()) {
            throw new ReplicationSetupException(Setting.PUBLICATION_TABLES, "publication.autocreate.mode is filtered, but "
                    + "table.include.list and table.exclude.list select no table of database '" + config.databaseDbname()
                    + "' (expressions are matched against the whole schema.table name, for example public\\.orders or "
                    + "inventory\\..*); correct the list, create the tables first, or use publication.autocreate.mode=all_tables");
        }
        return ConnectorSettings.replication(config, tables);
    }

    /** The ordinary and partitioned tables outside the system schemas that the include and exclude lists select. */
    static List<TableName> list(PgOutputSourceConnectorConfig config, ReplicationSettings settings) throws SQLException {
        List<TableName> tables = new ArrayList<>();
        try (Connection sql = PgConnections.openSql(settings); Statement st = sql.createStatement();
             ResultSet rs = st.executeQuery("SELECT n.nspname, c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
                     + " WHERE c.relkind IN ('r', 'p') AND n.nspname NOT IN ('pg_catalog', 'information_schema')"
                     + " AND n.nspname NOT LIKE 'pg\\_%' ORDER BY 1, 2")) {
            while (rs.next()) {
                if (ConnectorSettings.captured(config, rs.getString(1), rs.getString(2))) {
                    tables.add(new TableName(rs.getString(1), rs.getString(2)));
                }
            }
        }
        return tables;
    }
}
