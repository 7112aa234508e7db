package io.github.pgoutput.replication;

import java.util.List;

/**
 * The one table that says which SQLStates heal by themselves. {@link SqlErrors} (the replication layer's classifier)
 * and the connector's error classifier both read it, so a failure is retried or fatal whatever layer raised it.
 *
 * <p>An entry names one SQLState or, with two characters, a whole class; the first entry that matches decides, so
 * a single state listed before its class overrides the class. A state no entry matches is permanent: an error not
 * known to heal by itself is not retried forever.
 *
 * <table>
 *   <caption>SQLStates</caption>
 *   <tr><th>SQLState</th><th>Kind</th><th>Why</th></tr>
 *   <tr><td>08P01 protocol violation</td><td>permanent</td><td>client and server (or a peer that is no PostgreSQL
 *       server) disagree about the protocol; a new connection sends the same bytes and fails again</td></tr>
 *   <tr><td>08xxx other connection exceptions</td><td>transient</td><td>network or server went away; a new
 *       connection usually works</td></tr>
 *   <tr><td>40002 integrity constraint violation at commit</td><td>permanent</td><td>a deferred constraint fails
 *       again when the transaction is repeated</td></tr>
 *   <tr><td>40xxx other transaction rollbacks (40001 serialization failure or recovery conflict, 40P01
 *       deadlock)</td><td>transient</td><td>the same work succeeds when repeated</td></tr>
 *   <tr><td>53xxx insufficient resources (disk full, out of memory, too many connections or walsenders, all
 *       replication slots in use)</td><td>transient</td><td>the server recovers when load or space changes, or when
 *       another client lets go; retrying costs nothing</td></tr>
 *   <tr><td>55006 object in use</td><td>transient</td><td>above all "replication slot is active for PID": after a
 *       task restart or rebalance the previous walsender holds the slot until it notices its client is gone (at
 *       most wal_sender_timeout). If another client really uses the slot, the task retries it slot.max.retries
 *       times, slot.retry.delay.ms apart, and then fails; the default budget outlasts the default
 *       wal_sender_timeout, so a healthy connector does not fail during a rebalance</td></tr>
 *   <tr><td>25006 read-only SQL transaction</td><td>transient, bounded</td><td>the server is a standby: a
 *       promotion in progress behind an endpoint that follows the primary; the task retries it slot.max.retries times,
 *       slot.retry.delay.ms apart, and then fails (database.hostname may name a standby)</td></tr>
 *   <tr><td>55000 "replication slot is being synchronized from the primary server"</td><td>transient,
 *       bounded</td><td>the slot's server is a standby still, or its promotion has not ended; as 25006. Every other
 *       55000 (wrong wal_level, ...) is permanent; told apart in {@link SqlErrors}</td></tr>
 *   <tr><td>57P01 admin shutdown, 57P02 crash shutdown, 57P03 cannot connect now</td><td>transient</td><td>the
 *       server is restarting or in recovery</td></tr>
 *   <tr><td>28xxx invalid authorization</td><td>permanent</td><td>wrong user or password, or pg_hba.conf refuses
 *       the connection</td></tr>
 *   <tr><td>42xxx syntax error or access rule violation</td><td>permanent</td><td>missing privilege, missing
 *       publication, table or slot</td></tr>
 *   <tr><td>3D000 invalid catalog name</td><td>permanent</td><td>the database does not exist</td></tr>
 *   <tr><td>everything else (55000 wrong wal_level, 22023 bad option, 0A000, XX000, 57P04 database dropped,
 *       57014 statement cancelled, ...)</td><td>permanent</td><td>fail closed: an error not known to heal by itself
 *       is not retried forever</td></tr>
 * </table>
 *
 * <p>Immutable and thread-safe.
 */
public final class SqlStates {

    /** 25006 read-only SQL transaction: the server is a standby (transient, bounded). */
    public static final String READ_ONLY_TRANSACTION = "25006";
    /** 55006 object in use: above all a replication slot another walsender still holds (transient). */
    public static final String OBJECT_IN_USE = "55006";
    /** 55000 object not in prerequisite state: a synced failover slot before promotion ends, or wal_level. */
    public static final String OBJECT_NOT_IN_PREREQUISITE_STATE = "55000";
    /** 08P01 protocol violation: the one connection exception a new connection repeats. */
    public static final String PROTOCOL_VIOLATION = "08P01";
    /** 53300 too many connections (or walsenders). */
    public static final String TOO_MANY_CONNECTIONS = "53300";
    /** 28P01 invalid password. */
    public static final String INVALID_PASSWORD = "28P01";
    /** 28000 invalid authorization specification: no such role, or pg_hba.conf refuses the connection. */
    public static final String INVALID_AUTHORIZATION = "28000";
    /** 3D000 invalid catalog name: the database does not exist. */
    public static final String INVALID_CATALOG_NAME = "3D000";
    /** 42501 insufficient privilege. */
    public static final String INSUFFICIENT_PRIVILEGE = "42501";
    /** 42P01 undefined table. */
    public static final String UNDEFINED_TABLE = "42P01";
    /** 57014 query cancelled (a statement timeout, or a cancel request). */
    public static final String QUERY_CANCELED = "57014";
    /** 42710 duplicate object: for example a publication another session created first. */
    public static final String DUPLICATE_OBJECT = "42710";
    /** 08006 connection failure. */
    public static final String CONNECTION_FAILURE = "08006";

    private SqlStates() {
    }

    /** Class 08, connection exception, but for a protocol violation: the server is away or unreachable. */
    public static boolean isConnectionLost(String sqlState) {
        return sqlState != null && sqlState.startsWith("08") && !sqlState.equals(PROTOCOL_VIOLATION);
    }

    /** Class 57P, operator intervention: the server is shutting down, restarting or not yet accepting connections. */
    public static boolean isServerRestarting(String sqlState) {
        return sqlState != null && sqlState.startsWith("57P");
    }

    /** Class 42, syntax error or access rule violation: a missing object or privilege, which a retry does not fix. */
    public static boolean isSyntaxOrAccessRule(String sqlState) {
        return sqlState != null && sqlState.startsWith("42");
    }

    /** 25006: the server refused a write because it is a standby. */
    public static boolean isReadOnlyTransaction(String sqlState) {
        return READ_ONLY_TRANSACTION.equals(sqlState);
    }

    /**
     * One row of the table.
     *
     * @param state     a five-character SQLState, or a two-character class
     * @param transientFailure whether the failure goes away by itself, so that reconnecting and repeating the work succeeds
     * @param reason    what the state means, for messages; whoever reports it adds what follows (the task retries or
     *                  stops; a one-off check says what to check)
     */
    public record Entry(String state, boolean transientFailure, String reason) {

        boolean matches(String sqlState) {
            return state.length() == 2 ? sqlState.startsWith(state) : sqlState.equals(state);
        }
    }

    /** Why a state no entry matches is permanent. */
    static final String UNKNOWN_REASON = "not known to be transient";

    /** The table, most specific entries first. */
    public static final List<Entry> TABLE = List.of(
            // Class 08 but no lost connection: client and server (or something that is not a PostgreSQL server)
            // disagree about the protocol, and a new connection sends the same bytes again.
            new Entry("08P01", false, "protocol violation, which a new connection would repeat"),
            // Network or server went away; pgjdbc also reports a refused or broken connection with these.
            new Entry("08", true, "connection error"),
            // A deferred constraint that fails at commit fails again when the transaction is repeated.
            new Entry("40002", false, "integrity constraint violated at commit, which repeating the transaction would repeat"),
            // Serialization failure, deadlock, recovery conflict on a standby: the same work succeeds when repeated.
            new Entry("40", true, "transaction rolled back by the server"),
            // Disk full, out of memory, too many connections or walsenders, all slots taken: the server recovers
            // when load or space changes, or when another client lets go; retrying costs nothing.
            new Entry("53", true, "server out of resources"),
            // Above all "replication slot is active for PID": the previous walsender holds the slot until it notices
            // its client is gone (at most wal_sender_timeout). The task bounds these retries (slot.max.retries).
            new Entry("55006", true, "object in use (a replication slot still held by a previous connection "
                    + "is released within wal_sender_timeout)"),
            // A standby refuses writes: during a promotion behind an endpoint that follows the primary this ends within
            // seconds. The task bounds these retries (slot.max.retries).
            new Entry("25006", true, "the server is a read-only standby (a promotion in progress?)"),
            // Administrator or crash shutdown, server starting up or in recovery.
            new Entry("57P01", true, "server shutting down or starting up"),
            new Entry("57P02", true, "server shutting down or starting up"),
            new Entry("57P03", true, "server shutting down or starting up"),
            // Wrong user or password, or pg_hba.conf refuses the connection.
            new Entry("28", false, "authentication failed, check database.user, database.password and pg_hba.conf"),
            // Missing privilege, publication, table or slot; syntax the server does not accept.
            new Entry("42", false, "missing object or privilege, fix the database or the configuration"),
            new Entry("3D000", false, "database does not exist, check database.dbname"));

    /** The entry that decides {@code sqlState}, or null when none matches (permanent). */
    public static Entry entry(String sqlState) {
        if (sqlState == null) {
            return null;
        }
        return TABLE.stream().filter(e -> e.matches(sqlState)).findFirst().orElse(null);
    }

    /** Whether a failure with {@code sqlState} goes away by itself; false for null and for states not in the table. */
    public static boolean isTransient(String sqlState) {
        Entry entry = entry(sqlState);
        return entry != null && entry.transientFailure();
    }

    /** What {@code sqlState} means, for messages (without what follows from it, which depends on who reports it). */
    public static String reason(String sqlState) {
        Entry entry = entry(sqlState);
        return entry == null ? UNKNOWN_REASON : entry.reason();
    }
}
