package io.github.pgoutput.connect;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

import io.github.pgoutput.replication.PreflightChecks;
import io.github.pgoutput.replication.ReplicationException;
import io.github.pgoutput.replication.ReplicationSettings;
import io.github.pgoutput.replication.Setting;

/**
 * The live checks of {@code validate()}: maps the configuration to replication settings and runs
 * {@link PreflightChecks} against the server, attaching each problem to the config key behind its
 * {@link Setting}. Changes nothing in the database. Stateless and thread-safe.
 */
final class PreflightLiveChecks implements LiveChecks {

    @Override
    public List<ConfigProblem> check(PgOutputSourceConnectorConfig config) {
        ReplicationSettings settings;
        try {
            settings = CapturedTables.replicationSettings(config);
        } catch (ReplicationException e) {
            return List.of(new ConfigProblem(ConnectorSettings.keyOf(e.setting()), e.getMessage()));
        } catch (SQLException e) {
            return List.of(new ConfigProblem(PgOutputSourceConnectorConfig.DATABASE_HOSTNAME_CONFIG,
                    ErrorClassifier.classify("reading the tables for the filtered publication", e).getMessage()));
        }
        List<ConfigProblem> problems = new ArrayList<>();
        for (PreflightChecks.Problem problem : PreflightChecks.check(settings)) {
            problems.add(new ConfigProblem(ConnectorSettings.keyOf(problem.setting()), problem.message()));
        }
        return problems;
    }
}
