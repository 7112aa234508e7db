package io.github.pgoutput.connect.config;

import io.github.pgoutput.replication.ReplicaIdentities;
import io.github.pgoutput.replication.ReplicaIdentity;
import io.github.pgoutput.replication.TableName;
import io.github.pgoutput.replication.UserTables;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import java.util.stream.Collectors;

/**
 * {@code replica.identity.autoset.values}, in Debezium's format and with its meaning: comma-separated
 * {@code <table regex>:<identity>} entries; each captured table an entry's expression matches (the whole
 * {@code schema.table}, ignoring case) is given that replica identity at every start, before the snapshot or the
 * stream begins. Parsing, the live check of validation, and the setting at start; the SQL is
 * {@link ReplicaIdentities}'. Stateless.
 */
public final class ReplicaIdentityAutoset {

    /** Debezium's entry syntax: a table expression without blanks or colons, a colon, an identity. */
    private static final Pattern ENTRY = Pattern.compile(
            "\\s*([^\\s:]+):(DEFAULT|FULL|NOTHING|INDEX\\s+([^\\s,]+))\\s*", Pattern.CASE_INSENSITIVE);

    private ReplicaIdentityAutoset() {
    }

    /**
     * One entry.
     *
     * @param text     the entry as written
     * @param table    its table expression, compiled to ignore case
     * @param identity the identity it gives
     */
    record Entry(String text, Pattern table, ReplicaIdentity identity) {
    }

    /**
     * @throws IllegalArgumentException naming the entry that is not {@code <table regex>:<identity>}
     */
    static List<Entry> parse(String value) {
        List<Entry> entries = new ArrayList<>();
        if (value == null || value.isBlank()) {
            return entries;
        }
        for (String text : value.split(",")) {
            Matcher m = ENTRY.matcher(text);
            if (!m.matches()) {
                throw new IllegalArgumentException("'" + text.trim() + "' is not <table>:<identity>; write entries such as"
                        + " public.orders:FULL or inventory\\..*:INDEX orders_pk, the identity one of DEFAULT, FULL, NOTHING,"
                        + " INDEX <index name>");
            }
            Pattern table;
            try {
                table = Pattern.compile(m.group(1), Pattern.CASE_INSENSITIVE);
            } catch (PatternSyntaxException e) {
                throw new IllegalArgumentException("'" + m.group(1) + "' in '" + text.trim() + "' is not a valid regular expression: "
                        + e.getDescription());
            }
            ReplicaIdentity identity = m.group(3) != null ? ReplicaIdentity.usingIndex(m.group(3))
                    : ReplicaIdentity.of(ReplicaIdentity.Kind.valueOf(m.group(2).toUpperCase(Locale.ROOT)));
            entries.add(new Entry(text.trim(), table, identity));
        }
        return entries;
    }

    /**
     * The identity each of {@code captured} is to have, from the one entry that matches it.
     *
     * @throws IllegalArgumentException naming a table that more than one entry matches (Debezium refuses it too)
     */
    static Map<TableName, ReplicaIdentity> wanted(List<Entry> entries, List<TableName> captured) {
        Map<TableName, ReplicaIdentity> wanted = new LinkedHashMap<>();
        for (TableName table : captured) {
            List<Entry> matching = entries.stream().filter(e -> e.table().matcher(table.toString()).matches()).toList();
            if (matching.size() > 1) {
                throw new IllegalArgumentException("the entries " + matching.stream().map(Entry::text).collect(Collectors.joining(", "))
                        + " all match table " + table + "; make the expressions exclusive so that one entry gives each table its identity");
            }
            if (!matching.isEmpty()) {
                wanted.put(table, matching.get(0).identity());
            }
        }
        return wanted;
    }

    /** The live check of validation: what stands in the way of the identities asked for; empty when the key is unset. */
    public static List<ConfigProblem> problems(PgOutputSourceConnectorConfig config) throws SQLException {
        List<Entry> entries = config.replicaIdentityAutosetValues();
        if (entries.isEmpty()) {
            return List.of();
        }
        Map<TableName, ReplicaIdentity> wanted;
        try {
            wanted = wanted(entries, captured(config));
        } catch (IllegalArgumentException e) {
            return List.of(problem(e.getMessage()));
        }
        return ReplicaIdentities.problems(ConnectorSettings.connection(config), wanted).stream()
                .map(ReplicaIdentityAutoset::problem).toList();
    }

    /**
     * At start: gives the captured tables the identities asked for.
     *
     * @return one line per table changed, for the log; empty when the key is unset or nothing differed
     * @throws io.github.pgoutput.replication.ReplicationSetupException when one cannot be set (nothing is changed then)
     * @throws IllegalArgumentException when two entries match one table
     */
    public static List<String> apply(PgOutputSourceConnectorConfig config) throws SQLException {
        List<Entry> entries = config.replicaIdentityAutosetValues();
        if (entries.isEmpty()) {
            return List.of();
        }
        Map<TableName, ReplicaIdentity> wanted = wanted(entries, captured(config));
        return ReplicaIdentities.apply(ConnectorSettings.connection(config), wanted);
    }

    private static List<TableName> captured(PgOutputSourceConnectorConfig config) throws SQLException {
        var selection = ConnectorSettings.tableSelection(config);
        return UserTables.list(ConnectorSettings.connection(config)).stream().filter(t -> selection.test(t.schema(), t.table())).toList();
    }

    private static ConfigProblem problem(String detail) {
        return new ConfigProblem(ReplicationKeys.REPLICA_IDENTITY_AUTOSET_VALUES_CONFIG,
                ReplicationKeys.REPLICA_IDENTITY_AUTOSET_VALUES_CONFIG + ": " + detail);
    }
}
