package io.github.pgoutput.replication;

import io.github.pgoutput.replication.ProtocolNegotiation.NegotiatedProtocol;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Checks, before streaming starts, everything about the server that would otherwise fail later with a less helpful
 * message: {@code wal_level}, the role's right to replicate (REPLICATION, superuser, or Amazon RDS's
 * {@code rds_replication}), free slots and walsenders, the publication (it exists, or the role may create it in the
 * configured autocreate mode: {@link Privileges}), the slot's plugin/database/user/two-phase flag,
 * {@code max_prepared_transactions} for two-phase, and a server that has failover slots when they are asked for. Each
 * problem names the {@link Setting} to change, so the connector can attach it to a config key.
 *
 * <p>Stateless; every method uses only the connection it is given.
 */
public final class PreflightChecks {

    /**
     * One thing that stands in the way of streaming.
     *
     * @param setting   the setting to change (or {@link Setting#HOSTNAME} for server-wide settings)
     * @param message   what was seen, what was expected, how to fix it
     * @param retriable true when the problem may go away by itself (the slot is still held by another walsender,
     *                  all walsenders are busy); a session can then be retried, while validation still reports it
     */
    public record Problem(Setting setting, String message, boolean retriable) {
    }

    private PreflightChecks() {
    }

    /**
     * The {@code application_name} of the replication connection of Debezium's PostgreSQL connector (its
     * {@code PostgresConnection.CONNECTION_STREAMING}, which it sets whatever the configuration says).
     */
    static final String DEBEZIUM_STREAMING_APPLICATION_NAME = "Debezium Streaming";

    /** How many tables a message names before it says how many more there are. */
    private static final int TABLES_NAMED = 20;

    /**
     * The checks of a configuration's validation: connects with the settings and runs every check. Never throws for a
     * problem it can describe; a server that cannot be reached at all comes back as a problem too.
     *
     * <p>A slot held by the running task of the connector being reconfigured is no problem here: Connect validates
     * every configuration update ({@code PUT /connectors/<name>/config}) while the old task still streams, and stops
     * that task before it starts the new one. It is recognised by the holder's {@code application_name}: the settings'
     * own (a reconfiguration of this connector), or Debezium's replication connection (the in-place switch of a
     * Debezium connector's {@code connector.class}, slot kept). Nothing is taken from the holder on this word alone: a
     * session opens only once the slot is free, and a slot still held after {@code slot.max.retries} (another
     * connector's after all) fails the task with the holder named.
     */
    public static List<Problem> check(ReplicationSettings settings) {
        try (Connection sql = PgConnections.openSql(settings)) {
            return check(sql, settings, true);
        } catch (SQLException e) {
            return List.of(ConnectionProblems.of(settings, e));
        }
    }

    /**
     * Whether the server can be reached with the settings' connection coordinates at all: the problem when not (on the
     * setting to fix: host, password, user, a TLS setting, ...), empty when a connection opens. Validation asks this
     * first, so that a server it cannot reach is one problem, not one per check.
     */
    public static Optional<Problem> connectionProblem(ReplicationSettings settings) {
        try (Connection sql = PgConnections.openSql(settings)) {
            return Optional.empty();
        } catch (SQLException e) {
            return Optional.of(ConnectionProblems.of(settings, e));
        }
    }

    /**
     * A failure of a one-off check's query or connection (validation reading the catalog), as the problem to report:
     * on the setting to fix, with what to check, without retry wording.
     *
     * @param during what was being done, e.g. "reading the tables of publication p"; starts the message
     */
    public static Problem failure(ReplicationSettings settings, String during, SQLException e) {
        return ConnectionProblems.of(settings, during, e);
    }

    /**
     * The checks before a session starts, on an open normal connection to the configured database: a slot held by any
     * walsender is a (retriable) problem, also one of this client's own earlier sessions that has not exited yet.
     */
    public static List<Problem> check(Connection sql, ReplicationSettings settings) throws SQLException {
        return check(sql, settings, false);
    }

    private static List<Problem> check(Connection sql, ReplicationSettings settings, boolean ownSessionIsNoConflict)
            throws SQLException {
        List<Problem> problems = new ArrayList<>();
        int serverMajor = serverMajorVersion(sql);
        NegotiatedProtocol protocol = null;
        try {
            protocol = ProtocolNegotiation.negotiate(settings, serverMajor);
        } catch (ReplicationSetupException e) {
            problems.add(new Problem(e.setting(), e.getMessage(), false));
        }
        if (settings.failover() && serverMajor < FailoverSlots.FIRST_VERSION) {
            problems.add(fatal(Setting.SLOT_FAILOVER, FailoverSlots.unsupportedMessage(serverMajor)));
        }
        String walLevel = setting(sql, "wal_level");
        if (!"logical".equals(walLevel)) {
            problems.add(fatal(Setting.HOSTNAME, "wal_level is '" + walLevel + "'; logical replication needs 'logical'"
                    + " (set wal_level = logical in postgresql.conf and restart PostgreSQL)"));
        }
        Privileges.Standing role = checkRole(sql, settings, problems);
        checkPublication(sql, settings, role, problems);
        checkSlot(sql, settings, protocol, ownSessionIsNoConflict, problems);
        checkWalSenders(sql, problems);
        if (settings.twoPhase() && Integer.parseInt(setting(sql, "max_prepared_transactions")) == 0) {
            problems.add(fatal(Setting.TWO_PHASE, "two-phase decoding was asked for, but max_prepared_transactions is 0, so the server"
                    + " cannot prepare transactions at all; set max_prepared_transactions > 0 and restart PostgreSQL, or turn two-phase off"));
        }
        return List.copyOf(problems);
    }

    /**
     * Throws for the first problem that is not transient.
     *
     * @throws ReplicationSetupException carrying the problem's setting and message
     */
    public static void requireNoFatal(List<Problem> problems) {
        for (Problem p : problems) {
            if (!p.retriable()) {
                throw new ReplicationSetupException(p.setting(), p.message());
            }
        }
    }

    static int serverMajorVersion(Connection sql) throws SQLException {
        return Integer.parseInt(setting(sql, "server_version_num")) / 10000;
    }

    private static Privileges.Standing checkRole(Connection sql, ReplicationSettings settings, List<Problem> problems) throws SQLException {
        Privileges.Standing role = Privileges.standing(sql);
        if (!role.mayReplicate()) {
            problems.add(fatal(Setting.USER, "role '" + settings.user() + "' has neither the REPLICATION attribute nor superuser,"
                    + " so it can neither create nor read the replication slot; run ALTER ROLE " + Identifiers.quote(settings.user())
                    + " WITH REPLICATION (on Amazon RDS or Aurora: GRANT " + Privileges.RDS_REPLICATION_ROLE + " TO "
                    + Identifiers.quote(settings.user()) + ")"));
        }
        return role;
    }

    /**
     * The publication exists, or the session can create it in the configured mode: what CREATE PUBLICATION itself
     * checks (CREATE on the database; ownership rights on each table of a FOR TABLE list; superuser for FOR ALL TABLES),
     * each problem on the autocreate mode with the statements that fix it.
     */
    private static void checkPublication(Connection sql, ReplicationSettings settings, Privileges.Standing role, List<Problem> problems)
            throws SQLException {
        if (PublicationManager.exists(sql, settings.publicationName())) {
            return;
        }
        String publication = Identifiers.quote(settings.publicationName());
        String user = Identifiers.quote(settings.user());
        switch (settings.publicationMode()) {
            case DISABLED -> problems.add(fatal(Setting.PUBLICATION_NAME, "publication '" + settings.publicationName()
                    + "' does not exist in database '" + settings.database() + "'; create it (CREATE PUBLICATION "
                    + publication + " FOR ALL TABLES, or FOR TABLE ...) or let the connector"
                    + " create it: publication.autocreate.mode=all_tables (needs a superuser) or filtered (the tables"
                    + " table.include.list selects)"));
            case ALL_TABLES -> {
                // A managed service's administrator may or may not be allowed FOR ALL TABLES; the service decides at start.
                if (!role.superuser() && !role.managedAdmin()) {
                    problems.add(fatal(Setting.PUBLICATION_AUTOCREATE_MODE, "publication '" + settings.publicationName()
                            + "' does not exist in database '" + settings.database() + "', and publication.autocreate.mode=all_tables"
                            + " (the default, as in Debezium) creates it FOR ALL TABLES, which needs a superuser; '" + settings.user()
                            + "' is not one. Either create it as a superuser (CREATE PUBLICATION " + publication
                            + " FOR ALL TABLES, or FOR TABLE ...) and set publication.autocreate.mode=disabled, or write"
                            + " publication.autocreate.mode=filtered to have it created for the tables table.include.list selects"
                            + " (which needs CREATE on the database and ownership of those tables)"));
                }
            }
            case NO_TABLES -> {
                if (!Privileges.mayCreateInDatabase(sql)) {
                    problems.add(fatal(Setting.PUBLICATION_AUTOCREATE_MODE, "publication '" + settings.publicationName()
                            + "' does not exist, and publication.autocreate.mode=no_tables creates it without tables, which needs"
                            + " CREATE on database '" + settings.database() + "'; run GRANT CREATE ON DATABASE "
                            + Identifiers.quote(settings.database()) + " TO " + user
                            + ", or create the publication yourself"));
                }
            }
            case FILTERED -> checkFilteredPublication(sql, settings, problems);
        }
    }

    private static void checkFilteredPublication(Connection sql, ReplicationSettings settings, List<Problem> problems) throws SQLException {
        List<TableName> existing = new ArrayList<>();
        for (TableName table : settings.publicationTables()) {
            if (!tableExists(sql, table)) {
                problems.add(fatal(Setting.PUBLICATION_TABLES, "table " + table + " (for the publication '"
                        + settings.publicationName() + "') does not exist in database '" + settings.database()
                        + "'; names are case-sensitive and given as schema.table"));
            } else {
                existing.add(table);
            }
        }
        String user = Identifiers.quote(settings.user());
        String create = "CREATE PUBLICATION " + Identifiers.quote(settings.publicationName()) + " FOR TABLE "
                + existing.stream().map(TableName::quoted).collect(java.util.stream.Collectors.joining(", "));
        List<String> missing = new ArrayList<>();
        List<String> fixes = new ArrayList<>();
        if (!Privileges.mayCreateInDatabase(sql)) {
            missing.add("CREATE on database '" + settings.database() + "'");
            fixes.add("GRANT CREATE ON DATABASE " + Identifiers.quote(settings.database()) + " TO " + user);
        }
        Map<TableName, Privileges.Owner> notOwned = Privileges.notOwned(sql, existing);
        if (!notOwned.isEmpty()) {
            List<Privileges.Owner> owners = notOwned.values().stream().distinct().toList();
            missing.add("ownership rights on " + Privileges.named(List.copyOf(notOwned.keySet()), TABLES_NAMED) + " (owned by "
                    + owners.stream().map(o -> "'" + o.name() + "'").collect(java.util.stream.Collectors.joining(", ")) + ")");
            // Membership in a superuser role would hand the connector everything: only an administrator's publication then.
            if (owners.stream().anyMatch(Privileges.Owner::superuser)) {
                fixes.clear();
            } else {
                owners.forEach(o -> fixes.add("GRANT " + Identifiers.quote(o.name()) + " TO " + user));
            }
        }
        if (!missing.isEmpty()) {
            problems.add(fatal(Setting.PUBLICATION_AUTOCREATE_MODE, "publication '" + settings.publicationName() + "' does not"
                    + " exist, and publication.autocreate.mode=filtered creates it (" + create + "), which needs CREATE on the"
                    + " database and ownership rights on each of its tables; role '" + settings.user() + "' lacks "
                    + String.join(" and ", missing) + ". Least privilege: an administrator creates the publication (" + create
                    + ") and the connector runs with publication.autocreate.mode=disabled"
                    + (fixes.isEmpty() ? " (for a table a superuser owns there is no other way)" : "; otherwise run " + String.join("; ", fixes)
                            + (notOwned.isEmpty() ? "" : " (membership in the owning role gives all of the owner's rights)"))));
        }
    }

    private static void checkSlot(Connection sql, ReplicationSettings settings, NegotiatedProtocol protocol, boolean ownSessionIsNoConflict,
                                  List<Problem> problems)
            throws SQLException {
        Optional<SlotInfo> found = SlotManager.find(sql, settings.slotName());
        if (found.isEmpty()) {
            int max = Integer.parseInt(setting(sql, "max_replication_slots"));
            int used = count(sql, "SELECT count(*) FROM pg_replication_slots");
            if (used >= max) {
                problems.add(fatal(Setting.SLOT_NAME, "slot '" + settings.slotName() + "' does not exist and cannot be created: all "
                        + max + " replication slots (max_replication_slots) are in use; drop an unused slot"
                        + " (SELECT pg_drop_replication_slot('name')) or raise max_replication_slots and restart PostgreSQL"));
            }
            return;
        }
        SlotInfo slot = found.get();
        String name = settings.slotName();
        if (!"logical".equals(slot.slotType())) {
            problems.add(fatal(Setting.SLOT_NAME, "slot '" + name + "' is a " + slot.slotType() + " slot; a logical slot is needed;"
                    + " choose another slot name"));
            return;
        }
        if (!"pgoutput".equals(slot.plugin())) {
            problems.add(fatal(Setting.SLOT_NAME, "slot '" + name + "' uses the output plugin '" + slot.plugin() + "', not 'pgoutput';"
                    + " choose another slot name, or drop that slot if nothing else uses it"));
        }
        if (!settings.database().equals(slot.database())) {
            problems.add(fatal(Setting.SLOT_NAME, "slot '" + name + "' belongs to database '" + slot.database() + "', not '"
                    + settings.database() + "'; a logical slot serves only its own database, so choose another slot name"));
        }
        if (slot.isActive()) {
            Holder holder = holderOf(sql, slot.activePid());
            if (!(ownSessionIsNoConflict && isReconfiguredTask(settings, holder))) {
                problems.add(new Problem(Setting.SLOT_NAME, busySlot(name, holder), true));
            }
        }
        if (slot.twoPhase() && protocol != null && protocol.protocolVersion() < 3) {
            // Spec 6.5: a two-phase slot sends Begin Prepare/Prepare/Commit Prepared/Rollback Prepared whatever the
            // session asked for, and a protocol 1/2 decoder cannot read them.
            problems.add(fatal(Setting.PROTOCOL_VERSION, "slot '" + name + "' has two_phase enabled, so the server sends prepared"
                    + " transactions as Begin Prepare/Prepare/Commit Prepared/Rollback Prepared messages, which pgoutput protocol version "
                    + protocol.protocolVersion() + " cannot carry; use protocol version 3 or higher (or auto), or another slot"));
        }
    }

    /** Whether {@code holder} is the running task of the connector whose configuration is being validated. */
    private static boolean isReconfiguredTask(ReplicationSettings settings, Holder holder) {
        return settings.applicationName().equals(holder.applicationName())
                || DEBEZIUM_STREAMING_APPLICATION_NAME.equals(holder.applicationName());
    }

    /**
     * The walsender holding a slot, as {@code pg_stat_activity} shows it.
     *
     * @param applicationName its {@code application_name}, or null when the backend is gone or not visible to this role
     * @param clientAddress   the client's address, {@code local} for a Unix socket, or null when not visible
     */
    record Holder(int pid, String applicationName, String clientAddress) {
    }

    private static Holder holderOf(Connection sql, int pid) throws SQLException {
        try (var st = sql.prepareStatement("SELECT application_name, CASE WHEN client_addr IS NULL AND client_port = -1"
                + " THEN 'local' ELSE host(client_addr) END FROM pg_stat_activity WHERE pid = ?")) {
            st.setInt(1, pid);
            try (var rs = st.executeQuery()) {
                return rs.next() ? new Holder(pid, rs.getString(1), rs.getString(2)) : new Holder(pid, null, null);
            }
        }
    }

    /**
     * Names the holder so a user can find it, and never advises ending it: the walsender may well be another
     * connector's stream, and terminating it would only make the two fight over the slot.
     */
    private static String busySlot(String slot, Holder holder) {
        String who = "walsender PID " + holder.pid()
                + (holder.applicationName() == null ? "" : ", application_name '" + holder.applicationName() + "'")
                + (holder.clientAddress() == null ? "" : ", client " + holder.clientAddress());
        return "slot '" + slot + "' is in use by another consumer (" + who + "); a slot can be read by one consumer at"
                + " a time. Give this connector its own slot.name, or stop that consumer; if it is an earlier session of"
                + " this connector that has not exited yet, it lets go of the slot within wal_sender_timeout";
    }

    private static void checkWalSenders(Connection sql, List<Problem> problems) throws SQLException {
        int max = Integer.parseInt(setting(sql, "max_wal_senders"));
        int used = count(sql, "SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'walsender'");
        if (used >= max) {
            problems.add(new Problem(Setting.HOSTNAME, "all " + max + " walsenders (max_wal_senders) are in use; stop an unused"
                    + " replication client or raise max_wal_senders and restart PostgreSQL", true));
        }
    }

    private static boolean tableExists(Connection sql, TableName table) throws SQLException {
        // From the catalog by name: to_regclass fails in a schema the role has no USAGE on, which it need not have.
        try (PreparedStatement st = sql.prepareStatement("SELECT 1 FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
                + " WHERE n.nspname = ? AND c.relname = ?")) {
            st.setString(1, table.schema());
            st.setString(2, table.table());
            try (ResultSet rs = st.executeQuery()) {
                return rs.next();
            }
        }
    }

    private static String setting(Connection sql, String name) throws SQLException {
        try (PreparedStatement st = sql.prepareStatement("SELECT current_setting(?)")) {
            st.setString(1, name);
            try (ResultSet rs = st.executeQuery()) {
                rs.next();
                return rs.getString(1);
            }
        }
    }

    private static int count(Connection sql, String query) throws SQLException {
        try (Statement st = sql.createStatement(); ResultSet rs = st.executeQuery(query)) {
            rs.next();
            return rs.getInt(1);
        }
    }

    private static Problem fatal(Setting setting, String message) {
        return new Problem(setting, message, false);
    }
}
