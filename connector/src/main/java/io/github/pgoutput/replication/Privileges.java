package io.github.pgoutput.replication;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * What the connecting role may do, read from the catalog the way PostgreSQL decides it when the connector later acts,
 * so that validation predicts the start: replication (creating and reading slots), creating the publication in each
 * autocreate mode, and reading tables (the snapshots). Each check is the server's own: the REPLICATION attribute or
 * superuser for slots; CREATE on the database to create a publication, ownership rights on each table of a
 * {@code FOR TABLE} list, superuser for {@code FOR ALL TABLES} (PostgreSQL 15 to 18 alike; the connector never creates
 * {@code FOR TABLES IN SCHEMA}); USAGE on the schema and SELECT on the table to read it. Superusers pass all of them.
 *
 * <p>Managed services replace superuser with roles of their own: Amazon RDS and Aurora let members of
 * {@code rds_replication} (and {@code rds_superuser}) use replication slots without the REPLICATION attribute, which
 * counts here as replication. Whether such a role may create a {@code FOR ALL TABLES} publication is the service's
 * decision, which this code cannot see; for members of {@code rds_superuser}, {@code cloudsqlsuperuser} and
 * {@code azure_pg_admin} that check is left to the start, so that validation never refuses what the service allows.
 *
 * <p>Stateless; every method uses only the connection it is given or opens its own.
 */
public final class Privileges {

    /** The administrators' roles of Amazon RDS/Aurora, Google Cloud SQL and Azure Database for PostgreSQL. */
    private static final List<String> MANAGED_ADMIN_ROLES = List.of("rds_superuser", "cloudsqlsuperuser", "azure_pg_admin");
    /** Amazon RDS and Aurora: members may create and read replication slots without the REPLICATION attribute. */
    static final String RDS_REPLICATION_ROLE = "rds_replication";

    private Privileges() {
    }

    /**
     * The connecting role's standing.
     *
     * @param name         its name ({@code current_user})
     * @param superuser    whether it is a superuser
     * @param replication  whether it has the REPLICATION attribute
     * @param rdsReplication whether it is a member of {@code rds_replication} or {@code rds_superuser} (Amazon RDS, Aurora)
     * @param managedAdmin whether it is a member of a managed service's administrators' role
     */
    record Standing(String name, boolean superuser, boolean replication, boolean rdsReplication, boolean managedAdmin) {

        /** Whether it may create and read replication slots. */
        boolean mayReplicate() {
            return superuser || replication || rdsReplication;
        }
    }

    static Standing standing(Connection sql) throws SQLException {
        String memberOf = "(SELECT coalesce(bool_or(pg_has_role(oid, 'MEMBER')), false) FROM pg_roles WHERE rolname = ANY (?))";
        try (PreparedStatement st = sql.prepareStatement("SELECT rolname, rolsuper, rolreplication, " + memberOf + ", " + memberOf
                + " FROM pg_roles WHERE rolname = current_user")) {
            st.setArray(1, sql.createArrayOf("text", new String[] {RDS_REPLICATION_ROLE, "rds_superuser"}));
            st.setArray(2, sql.createArrayOf("text", MANAGED_ADMIN_ROLES.toArray()));
            try (ResultSet rs = st.executeQuery()) {
                rs.next();
                return new Standing(rs.getString(1), rs.getBoolean(2), rs.getBoolean(3), rs.getBoolean(4), rs.getBoolean(5));
            }
        }
    }

    /** Whether the role may create objects in the connection's database (a publication, a schema). */
    static boolean mayCreateInDatabase(Connection sql) throws SQLException {
        try (Statement st = sql.createStatement();
             ResultSet rs = st.executeQuery("SELECT has_database_privilege(current_database(), 'CREATE')")) {
            rs.next();
            return rs.getBoolean(1);
        }
    }

    /** A table's owner: its name, and whether it is a superuser (whose membership nobody should be handed). */
    record Owner(String name, boolean superuser) {
    }

    /**
     * Those of {@code tables} on which the role lacks ownership rights (it is neither the owner, nor a member of the
     * owning role with its privileges, nor a superuser), each with its owner; tables that do not exist are left out.
     */
    static Map<TableName, Owner> notOwned(Connection sql, List<TableName> tables) throws SQLException {
        Map<TableName, Owner> notOwned = new LinkedHashMap<>();
        try (PreparedStatement st = sql.prepareStatement("SELECT r.rolname, pg_has_role(c.relowner, 'USAGE'), r.rolsuper"
                + " FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace JOIN pg_roles r ON r.oid = c.relowner"
                + " WHERE n.nspname = ? AND c.relname = ?")) {
            for (TableName table : tables) {
                st.setString(1, table.schema());
                st.setString(2, table.table());
                try (ResultSet rs = st.executeQuery()) {
                    if (rs.next() && !rs.getBoolean(2)) {
                        notOwned.put(table, new Owner(rs.getString(1), rs.getBoolean(3)));
                    }
                }
            }
        }
        return notOwned;
    }

    /**
     * The tables the configured publication sends, as {@code pg_publication_tables} lists them (partitions, not their
     * partitioned tables): those of the publication when it exists; otherwise those it would send once the session
     * creates it in {@code settings.publicationMode()} (every permanent table outside the system schemas for
     * {@code all_tables}, the leaf partitions of the listed tables for {@code filtered}, none for {@code no_tables}
     * and {@code disabled}). Over a connection of its own.
     */
    public static List<TableName> published(ReplicationSettings settings) throws SQLException {
        try (Connection sql = PgConnections.openSql(settings)) {
            if (PublicationManager.exists(sql, settings.publicationName())) {
                return tables(sql, "SELECT schemaname, tablename FROM pg_publication_tables WHERE pubname = ?", settings.publicationName());
            }
            return switch (settings.publicationMode()) {
                case ALL_TABLES -> tables(sql, "SELECT n.nspname, c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
                        + " WHERE c.relkind = 'r' AND c.relpersistence = 'p'"
                        + " AND n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg\\_%'", null);
                case FILTERED -> leaves(sql, settings.publicationTables());
                case NO_TABLES, DISABLED -> List.of();
            };
        }
    }

    private static List<TableName> leaves(Connection sql, List<TableName> tables) throws SQLException {
        List<TableName> leaves = new ArrayList<>();
        // By OID from the catalog, not through regclass, which fails in a schema the role has no USAGE on.
        try (PreparedStatement st = sql.prepareStatement("SELECT n.nspname, c.relname FROM pg_partition_tree((SELECT t.oid"
                + " FROM pg_class t JOIN pg_namespace s ON s.oid = t.relnamespace WHERE s.nspname = ? AND t.relname = ?)::regclass) p"
                + " JOIN pg_class c ON c.oid = p.relid JOIN pg_namespace n ON n.oid = c.relnamespace WHERE p.isleaf")) {
            for (TableName table : tables) {
                st.setString(1, table.schema());
                st.setString(2, table.table());
                try (ResultSet rs = st.executeQuery()) {
                    while (rs.next()) {
                        leaves.add(new TableName(rs.getString(1), rs.getString(2)));
                    }
                }
            }
        }
        return leaves;
    }

    private static List<TableName> tables(Connection sql, String query, String parameter) throws SQLException {
        List<TableName> tables = new ArrayList<>();
        try (PreparedStatement st = sql.prepareStatement(query)) {
            if (parameter != null) {
                st.setString(1, parameter);
            }
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    tables.add(new TableName(rs.getString(1), rs.getString(2)));
                }
            }
        }
        return tables;
    }

    /**
     * A table the role cannot read.
     *
     * @param table       the table
     * @param schemaUsage whether the role has USAGE on the table's schema (without it no table there can be read)
     * @param select      whether the role has SELECT on the table
     */
    public record Unreadable(TableName table, boolean schemaUsage, boolean select) {
    }

    /**
     * Those of {@code tables} the role cannot {@code SELECT} from, as the snapshots would: USAGE on the schema and
     * SELECT on the table (looked up by name in the catalog, which needs no privilege, rather than through
     * {@code regclass}, which fails in a schema without USAGE). Tables that do not exist are left out. Over a
     * connection of its own.
     */
    public static List<Unreadable> unreadable(ReplicationSettings settings, List<TableName> tables) throws SQLException {
        try (Connection sql = PgConnections.openSql(settings)) {
            return unreadable(sql, tables);
        }
    }

    /** {@link #unreadable(ReplicationSettings, List)} over a connection the caller holds. */
    public static List<Unreadable> unreadable(Connection sql, List<TableName> tables) throws SQLException {
        List<Unreadable> unreadable = new ArrayList<>();
        try (PreparedStatement st = sql.prepareStatement("SELECT has_schema_privilege(n.oid, 'USAGE'), has_table_privilege(c.oid, 'SELECT')"
                     + " FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = ? AND c.relname = ?")) {
            for (TableName table : tables) {
                st.setString(1, table.schema());
                st.setString(2, table.table());
                try (ResultSet rs = st.executeQuery()) {
                    if (rs.next() && !(rs.getBoolean(1) && rs.getBoolean(2))) {
                        unreadable.add(new Unreadable(table, rs.getBoolean(1), rs.getBoolean(2)));
                    }
                }
            }
        }
        return unreadable;
    }

    /** The statements that let {@code role} read {@code unreadable}: USAGE on each schema that lacks it, then SELECT. */
    public static String grantsToRead(List<Unreadable> unreadable, String role) {
        List<String> statements = new ArrayList<>();
        List<String> schemas = unreadable.stream().filter(u -> !u.schemaUsage()).map(u -> Identifiers.quote(u.table().schema()))
                .distinct().toList();
        if (!schemas.isEmpty()) {
            statements.add("GRANT USAGE ON SCHEMA " + String.join(", ", schemas) + " TO " + Identifiers.quote(role));
        }
        List<String> tables = unreadable.stream().filter(u -> !u.select()).map(u -> u.table().quoted()).toList();
        if (!tables.isEmpty()) {
            statements.add("GRANT SELECT ON " + String.join(", ", tables) + " TO " + Identifiers.quote(role));
        }
        return String.join("; ", statements);
    }

    /** {@code tables} as a list for a message: at most {@code limit} names, then how many more. */
    static String named(List<TableName> tables, int limit) {
        return tables.stream().limit(limit).map(TableName::toString).collect(Collectors.joining(", "))
                + (tables.size() > limit ? " and " + (tables.size() - limit) + " more" : "");
    }
}
