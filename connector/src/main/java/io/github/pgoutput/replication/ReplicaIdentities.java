package io.github.pgoutput.replication;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Reads and sets the replica identity of tables ({@code replica.identity.autoset.values}), over a normal SQL
 * connection. Setting one needs ownership of the table ({@code ALTER TABLE}), and {@code USING INDEX} a unique,
 * immediate, non-partial index on NOT NULL columns; both are checked first, so that a problem is reported with what to
 * run instead of PostgreSQL's bare refusal. Stateless.
 */
public final class ReplicaIdentities {

    private ReplicaIdentities() {
    }

    /**
     * A table's identity and who may change it, as the catalog shows them.
     *
     * @param identity the identity now (for {@code INDEX}, the index the catalog marks)
     * @param owner    the table's owner
     * @param mayAlter whether the current user may run {@code ALTER TABLE} on it (owner, member of the owner role, or
     *                 superuser)
     */
    record Current(ReplicaIdentity identity, String owner, boolean mayAlter) {
    }

    /**
     * What stands in the way of giving each table its identity; tables that have it already are fine. Each message says
     * what was seen and what to run instead, without naming the configuration key (the caller does).
     *
     * @param settings the connection coordinates (a connection of its own is opened)
     * @param wanted   the identity each table is to have
     */
    public static List<String> problems(ReplicationSettings settings, Map<TableName, ReplicaIdentity> wanted) throws SQLException {
        try (Connection sql = PgConnections.openSql(settings)) {
            return problems(sql, wanted);
        }
    }

    private static List<String> problems(Connection sql, Map<TableName, ReplicaIdentity> wanted) throws SQLException {
        List<String> problems = new ArrayList<>();
        for (Map.Entry<TableName, ReplicaIdentity> entry : wanted.entrySet()) {
            String problem = problem(sql, entry.getKey(), entry.getValue());
            if (problem != null) {
                problems.add(problem);
            }
        }
        return problems;
    }

    /**
     * Gives each table its identity where it differs: one {@code ALTER TABLE ... REPLICA IDENTITY} per such table,
     * each in its own transaction (autocommit), after the checks of {@link #problems} passed for all of them.
     *
     * @return the tables changed, each with its new identity, in the order given
     * @throws ReplicationSetupException on {@link Setting#REPLICA_IDENTITY} for the first problem; nothing is changed then
     */
    public static List<String> apply(ReplicationSettings settings, Map<TableName, ReplicaIdentity> wanted) throws SQLException {
        try (Connection sql = PgConnections.openSql(settings)) {
            return apply(sql, wanted);
        }
    }

    private static List<String> apply(Connection sql, Map<TableName, ReplicaIdentity> wanted) throws SQLException {
        List<String> problems = problems(sql, wanted);
        if (!problems.isEmpty()) {
            throw new ReplicationSetupException(Setting.REPLICA_IDENTITY, problems.get(0));
        }
        List<String> changed = new ArrayList<>();
        for (Map.Entry<TableName, ReplicaIdentity> entry : wanted.entrySet()) {
            TableName table = entry.getKey();
            ReplicaIdentity identity = normalized(entry.getValue());
            Current current = current(sql, table);
            if (current == null || current.identity().equals(identity)) {
                continue;
            }
            try (Statement st = sql.createStatement()) {
                st.execute("ALTER TABLE " + table.quoted() + " REPLICA IDENTITY " + identity.sql());
            }
            changed.add(table + ": " + current.identity() + " -> " + identity);
        }
        return changed;
    }

    private static String problem(Connection sql, TableName table, ReplicaIdentity wanted) throws SQLException {
        ReplicaIdentity identity = normalized(wanted);
        Current current = current(sql, table);
        if (current == null) {
            return null; // dropped meanwhile: nothing to set, and nothing to capture
        }
        if (current.identity().equals(identity)) {
            return null;
        }
        if (!current.mayAlter()) {
            return "REPLICA IDENTITY " + identity + " for " + table + " (now " + current.identity() + ") needs ownership of the"
                    + " table, which is owned by '" + current.owner() + "'; run GRANT " + Identifiers.quote(current.owner())
                    + " TO " + currentUserQuoted(sql) + ", or set it yourself as the owner (ALTER TABLE " + table.quoted()
                    + " REPLICA IDENTITY " + identity.sql() + ") and remove the table's entry";
        }
        if (identity.kind() == ReplicaIdentity.Kind.INDEX) {
            return indexProblem(sql, table, identity.indexName());
        }
        return null;
    }

    /** PostgreSQL folds an unquoted index name to lower case, as Debezium's unquoted ALTER TABLE does. */
    private static ReplicaIdentity normalized(ReplicaIdentity identity) {
        return identity.kind() == ReplicaIdentity.Kind.INDEX
                ? ReplicaIdentity.usingIndex(identity.indexName().toLowerCase(Locale.ROOT)) : identity;
    }

    /** The table's identity, owner and the current user's right to alter it; null when the table does not exist. */
    static Current current(Connection sql, TableName table) throws SQLException {
        try (PreparedStatement st = sql.prepareStatement("SELECT c.relreplident,"
                + " (SELECT i.relname FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid WHERE x.indrelid = c.oid AND x.indisreplident),"
                + " pg_get_userbyid(c.relowner), pg_has_role(c.relowner, 'USAGE')"
                + " FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = ? AND c.relname = ?")) {
            st.setString(1, table.schema());
            st.setString(2, table.table());
            try (ResultSet rs = st.executeQuery()) {
                if (!rs.next()) {
                    return null;
                }
                ReplicaIdentity.Kind kind = ReplicaIdentity.Kind.ofCatalogLetter(rs.getString(1).charAt(0));
                String index = rs.getString(2);
                // An identity index that was dropped leaves 'i' with no index marked, which PostgreSQL treats as NOTHING.
                ReplicaIdentity identity = kind != ReplicaIdentity.Kind.INDEX ? ReplicaIdentity.of(kind)
                        : index == null ? ReplicaIdentity.of(ReplicaIdentity.Kind.NOTHING) : ReplicaIdentity.usingIndex(index);
                return new Current(identity, rs.getString(3), rs.getBoolean(4));
            }
        }
    }

    private static String indexProblem(Connection sql, TableName table, String index) throws SQLException {
        try (PreparedStatement st = sql.prepareStatement("SELECT x.indisunique, x.indimmediate, x.indpred IS NULL AND x.indexprs IS NULL,"
                + " NOT EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = x.indrelid AND a.attnum = ANY (x.indkey) AND NOT a.attnotnull)"
                + " FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class c ON c.oid = x.indrelid"
                + " JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = ? AND c.relname = ? AND i.relname = ?")) {
            st.setString(1, table.schema());
            st.setString(2, table.table());
            st.setString(3, index);
            try (ResultSet rs = st.executeQuery()) {
                if (!rs.next()) {
                    return "REPLICA IDENTITY INDEX " + index + " for " + table + ": the table has no index named " + index
                            + "; name one of its unique indexes, or create it first";
                }
                if (!rs.getBoolean(1) || !rs.getBoolean(2) || !rs.getBoolean(3) || !rs.getBoolean(4)) {
                    return "REPLICA IDENTITY INDEX " + index + " for " + table + ": a replica identity index must be unique, not"
                            + " deferrable, not partial, without expressions, and on NOT NULL columns only, which " + index
                            + " is not; name another index, or use FULL";
                }
                return null;
            }
        }
    }

    private static String currentUserQuoted(Connection sql) throws SQLException {
        try (Statement st = sql.createStatement(); ResultSet rs = st.executeQuery("SELECT current_user")) {
            rs.next();
            return Identifiers.quote(rs.getString(1));
        }
    }
}
