package io.github.pgoutput.connect;

import io.github.pgoutput.connect.config.ConfigProblem;
import io.github.pgoutput.connect.config.ConnectorSettings;
import io.github.pgoutput.connect.config.PgOutputSourceConnectorConfig;
import io.github.pgoutput.connect.config.ReplicaIdentityAutoset;
import io.github.pgoutput.connect.config.SnapshotKeys;
import io.github.pgoutput.connect.config.SpillKeys;
import io.github.pgoutput.replication.PreflightChecks;
import io.github.pgoutput.replication.PublicationMode;
import io.github.pgoutput.replication.ReplicationException;
import io.github.pgoutput.replication.ReplicationSettings;
import io.github.pgoutput.replication.Setting;
import io.github.pgoutput.snapshot.SignalTable;
import io.github.pgoutput.spill.DatabaseSpillPrivileges;
import io.github.pgoutput.spill.SpillSettings;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The live checks of {@code validate()}: maps the configuration to replication settings and runs
 * {@link PreflightChecks} against the server, attaching each problem to the config key behind its
 * {@link Setting}; then the checks that need the catalog (the include lists select a table, the tables an existing
 * filtered publication lacks, the signal table, {@code replica.identity.autoset.values}, the SELECT privileges the
 * snapshots need ({@link ReadPrivilegeChecks}), the database spill's privileges). A server that cannot be
 * reached is the one problem reported; otherwise every check runs, so that one validation shows every problem.
 * Changes nothing in the database. Stateless and thread-safe.
 */
final class PreflightLiveChecks implements LiveChecks {

    @Override
    public List<ConfigProblem> check(PgOutputSourceConnectorConfig config) {
        Optional<PreflightChecks.Problem> unreachable = PreflightChecks.connectionProblem(ConnectorSettings.connection(config));
        if (unreachable.isPresent()) {
            return List.of(new ConfigProblem(ConnectorSettings.keyOf(unreachable.get().setting()), unreachable.get().message()));
        }
        List<ConfigProblem> problems = new ArrayList<>();
        ConfigProblem includeList = null;
        try {
            // Before the settings, so that a selection of no table is reported once, on the list that selects nothing.
            includeList = CapturedTables.includeListProblem(config);
        } catch (SQLException e) {
            problems.add(catalogUnreadable(config, "reading the tables the include lists select", e));
        }
        if (includeList != null) {
            problems.add(includeList);
        }
        ReplicationSettings settings;
        try {
            settings = CapturedTables.replicationSettings(config);
        } catch (ReplicationException e) {
            if (includeList == null) {
                problems.add(new ConfigProblem(ConnectorSettings.keyOf(e.setting()), e.getMessage()));
            }
            // A filtered publication of no table: checked as a publication of none, which needs what creating any does.
            settings = ConnectorSettings.withPublicationMode(config, PublicationMode.NO_TABLES);
        } catch (SQLException e) {
            problems.add(catalogUnreadable(config, "reading the tables for the filtered publication", e));
            return problems;
        }
        for (PreflightChecks.Problem problem : PreflightChecks.check(settings)) {
            problems.add(new ConfigProblem(ConnectorSettings.keyOf(problem.setting()), problem.message()));
        }
        try {
            CapturedTables.publicationLacks(config).ifPresent(problems::add);
        } catch (SQLException e) {
            problems.add(catalogUnreadable(config, "reading the tables of publication '" + config.publicationName() + "'", e));
        }
        if (config.columnSelection().filters()) {
            try {
                ConfigProblem columnLists = CapturedTables.columnListProblem(config);
                if (columnLists != null) {
                    problems.add(columnLists);
                }
            } catch (SQLException e) {
                problems.add(catalogUnreadable(config, "reading the publication's column lists", e));
            }
        }
        if (config.signalDataCollection() != null) {
            try {
                String signalTable = SignalTable.problem(settings, config.signalDataCollection());
                if (signalTable != null) {
                    problems.add(new ConfigProblem(SnapshotKeys.SIGNAL_DATA_COLLECTION_CONFIG, signalTable));
                }
            } catch (SQLException e) {
                problems.add(catalogUnreadable(config, "checking the signal table", e));
            }
        }
        try {
            problems.addAll(ReplicaIdentityAutoset.problems(config));
        } catch (SQLException e) {
            problems.add(catalogUnreadable(config, "reading the replica identities of the captured tables", e));
        }
        try {
            problems.addAll(ReadPrivilegeChecks.problems(config, settings));
        } catch (SQLException e) {
            problems.add(catalogUnreadable(config, "reading the privileges on the captured tables", e));
        }
        if (SpillSettings.DATABASE_BACKEND.equals(config.spillBackend())) {
            try {
                String spill = DatabaseSpillPrivileges.problem(PostgresPipeline.spillConnections(ConnectorSettings.connection(config)),
                        config.spillDatabaseSchema(), config.slotName());
                if (spill != null) {
                    problems.add(new ConfigProblem(SpillKeys.SPILL_DATABASE_SCHEMA_CONFIG, spill));
                }
            } catch (SQLException e) {
                problems.add(catalogUnreadable(config, "reading the privileges of the database spill", e));
            }
        }
        return problems;
    }

    /** A failure to read the catalog, on the key the failure names (a password, a TLS key, ...), else on the host. */
    private static ConfigProblem catalogUnreadable(PgOutputSourceConnectorConfig config, String during, SQLException e) {
        PreflightChecks.Problem problem = PreflightChecks.failure(ConnectorSettings.connection(config), during, e);
        return new ConfigProblem(ConnectorSettings.keyOf(problem.setting()), problem.message());
    }
}
