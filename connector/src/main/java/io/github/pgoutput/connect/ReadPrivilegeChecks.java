package io.github.pgoutput.connect;

import io.github.pgoutput.connect.config.ConfigChoices;
import io.github.pgoutput.connect.config.ConfigProblem;
import io.github.pgoutput.connect.config.ConnectorSettings;
import io.github.pgoutput.connect.config.NewTableSnapshots;
import io.github.pgoutput.connect.config.PgOutputSourceConnectorConfig;
import io.github.pgoutput.connect.config.SnapshotKeys;
import io.github.pgoutput.connect.config.TableKeys;
import io.github.pgoutput.replication.Privileges.Unreadable;
import io.github.pgoutput.replication.Privileges;
import io.github.pgoutput.replication.ReplicationSettings;
import io.github.pgoutput.replication.TableName;
import io.github.pgoutput.snapshot.SnapshotMode;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.BiPredicate;
import java.util.stream.Collectors;

/**
 * The live check that the role can read what the configuration will make the connector read with SQL: the initial
 * snapshot reads the captured tables of the publication (narrowed by {@code snapshot.include.list}) when
 * {@code snapshot.mode} snapshots (initial, initial_only, when_needed, always); incremental snapshots read any
 * captured table of the publication a signal names (or, with {@code snapshot.new.tables=incremental}, each new one).
 * Streaming alone reads no table: pgoutput sends the rows whatever the role's table privileges.
 *
 * <p>A snapshotting mode is checked although a connector that has a stored offset would not snapshot at its next
 * start: validation cannot see the offset, and when_needed and always snapshot again later anyway. Each problem is on
 * the key that makes the connector read (the snapshot mode, or the key that turns incremental snapshots on), with the
 * GRANT statements that fix it. Stateless.
 */
final class ReadPrivilegeChecks {

    /** How many tables a message names before it says how many more there are. */
    private static final int TABLES_NAMED = 20;

    private ReadPrivilegeChecks() {
    }

    /**
     * @param settings the replication settings of the configuration (its publication and autocreate mode)
     * @return the problems: at most one on the snapshot mode and one on the key that turns incremental snapshots on
     * @throws SQLException when the catalog cannot be read
     */
    static List<ConfigProblem> problems(PgOutputSourceConnectorConfig config, ReplicationSettings settings) throws SQLException {
        boolean initial = config.snapshotMode() != SnapshotMode.NO_DATA;
        String incrementalKey = incrementalSnapshotKey(config);
        if (!initial && incrementalKey == null) {
            return List.of();
        }
        BiPredicate<String, String> captured = ConnectorSettings.tableSelection(config);
        List<TableName> published = Privileges.published(settings).stream().filter(t -> captured.test(t.schema(), t.table()))
                .sorted(java.util.Comparator.comparing(TableName::schema).thenComparing(TableName::table)).toList();
        List<Unreadable> unreadable = Privileges.unreadable(settings, published);
        if (unreadable.isEmpty()) {
            return List.of();
        }
        List<ConfigProblem> problems = new ArrayList<>();
        List<Unreadable> bySnapshot = List.of();
        if (initial) {
            List<java.util.regex.Pattern> include = config.snapshotIncludeList();
            bySnapshot = unreadable.stream().filter(u -> include.isEmpty()
                    || include.stream().anyMatch(p -> p.matcher(u.table().schema() + "." + u.table().table()).matches())).toList();
            if (!bySnapshot.isEmpty()) {
                String mode = ConfigChoices.SNAPSHOT_MODE.text(config.snapshotMode());
                problems.add(new ConfigProblem(SnapshotKeys.SNAPSHOT_MODE_CONFIG,
                        SnapshotKeys.SNAPSHOT_MODE_CONFIG + "=" + mode + " reads the captured tables of publication '"
                        + settings.publicationName() + "' with SELECT when the connector starts without a stored offset, and role '"
                        + settings.user() + "' cannot read " + describe(bySnapshot) + ": run " + Privileges.grantsToRead(bySnapshot, settings.user())
                        + "; or leave them out of the snapshot (" + SnapshotKeys.SNAPSHOT_INCLUDE_LIST_CONFIG
                        + "), or stream without a snapshot (" + SnapshotKeys.SNAPSHOT_MODE_CONFIG + "=no_data)"));
            }
        }
        if (incrementalKey != null) {
            Set<TableName> reported = bySnapshot.stream().map(Unreadable::table).collect(Collectors.toSet());
            List<Unreadable> rest = unreadable.stream().filter(u -> !reported.contains(u.table())).toList();
            if (!rest.isEmpty()) {
                problems.add(new ConfigProblem(incrementalKey, incrementalKey + " turns incremental snapshots on, which read a"
                        + " captured table of publication '" + settings.publicationName() + "' with SELECT when a signal asks for it,"
                        + " and role '" + settings.user() + "' cannot read " + describe(rest) + ": run "
                        + Privileges.grantsToRead(rest, settings.user()) + "; or narrow "
                        + TableKeys.TABLE_INCLUDE_LIST_CONFIG + " to leave those tables out"));
            }
        }
        return problems;
    }

    /**
     * The key that turns incremental snapshots on, or null when none does: the signal table, the signal message
     * prefix, the Kafka signal channel, or {@code snapshot.new.tables=incremental} (what the task reads to make its
     * incremental snapshotter). {@code snapshot.mode=always} reads again the tables of the initial snapshot, which the
     * snapshot mode's check covers.
     */
    private static String incrementalSnapshotKey(PgOutputSourceConnectorConfig config) {
        if (config.signalDataCollection() != null) {
            return SnapshotKeys.SIGNAL_DATA_COLLECTION_CONFIG;
        }
        if (config.signalMessagePrefix() != null || config.kafkaSignals()) {
            return SnapshotKeys.SIGNAL_ENABLED_CHANNELS_CONFIG;
        }
        if (config.snapshotNewTables() == NewTableSnapshots.INCREMENTAL) {
            return SnapshotKeys.SNAPSHOT_NEW_TABLES_CONFIG;
        }
        return null;
    }

    private static String describe(List<Unreadable> unreadable) {
        return unreadable.stream().limit(TABLES_NAMED).map(u -> u.table() + (u.schemaUsage() ? " (no SELECT)" : u.select()
                        ? " (no USAGE on schema " + u.table().schema() + ")" : " (no USAGE on schema " + u.table().schema() + ", no SELECT)"))
                .collect(Collectors.joining(", ")) + (unreadable.size() > TABLES_NAMED ? " and " + (unreadable.size() - TABLES_NAMED) + " more" : "");
    }
}
