package io.github.pgoutput.connect;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

import io.github.pgoutput.replication.ConnectionFailures;
import io.github.pgoutput.replication.PreflightChecks;
import io.github.pgoutput.replication.PublicationMode;
import io.github.pgoutput.replication.ReplicationException;
import io.github.pgoutput.replication.ReplicationSettings;
import io.github.pgoutput.snapshot.SignalTable;
import io.github.pgoutput.replication.Setting;

/**
 * The live checks of {@code validate()}: maps the configuration to replication settings and runs
 * {@link PreflightChecks} against the server, attaching each problem to the config key behind its
 * {@link Setting}. Changes nothing in the database. Stateless and thread-safe.
 */
final class PreflightLiveChecks implements LiveChecks {

    @Override
    public List<ConfigProblem> check(PgOutputSourceConnectorConfig config) {
        if (config.publicationAutocreateMode() == PublicationMode.FILTERED) {
            // First, so that a selection of no table is reported on the include list that selects nothing.
            try {
                ConfigProblem includeList = CapturedTables.includeListProblem(config);
                if (includeList != null) {
                    return List.of(includeList);
                }
            } catch (SQLException e) {
                return List.of(catalogUnreadable("reading the tables for the filtered publication", e));
            }
        }
        ReplicationSettings settings;
        try {
            settings = CapturedTables.replicationSettings(config);
        } catch (ReplicationException e) {
            return List.of(new ConfigProblem(ConnectorSettings.keyOf(e.setting()), e.getMessage()));
        } catch (SQLException e) {
            return List.of(catalogUnreadable("reading the tables for the filtered publication", e));
        }
        List<ConfigProblem> problems = new ArrayList<>();
        for (PreflightChecks.Problem problem : PreflightChecks.check(settings)) {
            problems.add(new ConfigProblem(ConnectorSettings.keyOf(problem.setting()), problem.message()));
        }
        if (problems.isEmpty() && config.publicationAutocreateMode() != PublicationMode.FILTERED) {
            // (filtered: checked above)
            try {
                ConfigProblem includeList = CapturedTables.includeListProblem(config);
                if (includeList != null) {
                    problems.add(includeList);
                }
            } catch (SQLException e) {
                problems.add(catalogUnreadable("reading the tables the include lists select", e));
            }
        }
        if (problems.isEmpty() && config.columnSelection().filters()) {
            try {
                ConfigProblem columnLists = CapturedTables.columnListProblem(config);
                if (columnLists != null) {
                    problems.add(columnLists);
                }
            } catch (SQLException e) {
                problems.add(catalogUnreadable("reading the publication's column lists", e));
            }
        }
        if (problems.isEmpty() && config.signalDataCollection() != null) {
            try {
                String signalTable = SignalTable.problem(settings, config.signalDataCollection());
                if (signalTable != null) {
                    problems.add(new ConfigProblem(PgOutputSourceConnectorConfig.SIGNAL_DATA_COLLECTION_CONFIG, signalTable));
                }
            } catch (SQLException e) {
                problems.add(catalogUnreadable("checking the signal table", e));
            }
        }
        return problems;
    }

    /** A failure to read the catalog, on the key the failure names (a TLS key, say), else on the host. */
    private static ConfigProblem catalogUnreadable(String during, SQLException e) {
        String key = ConnectionFailures.explain(e, during).map(f -> ConnectorSettings.keyOf(f.setting()))
                .orElse(PgOutputSourceConnectorConfig.DATABASE_HOSTNAME_CONFIG);
        return new ConfigProblem(key, ErrorClassifier.classify(during, e).getMessage());
    }
}
