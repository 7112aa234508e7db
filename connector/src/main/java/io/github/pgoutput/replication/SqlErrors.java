package io.github.pgoutput.replication;

import java.sql.SQLException;
import java.util.Optional;

/**
 * The one classifier that sorts pgjdbc failures into permanent ({@link ReplicationSetupException}) and transient
 * ({@link ReplicationConnectionLostException}) ones, by SQLState, after {@link ConnectionFailures} has explained
 * the connection failures whose SQLState says too little (unknown host, TLS refusals). Which SQLStates are transient
 * is {@link SqlStates}'s table; this class adds the setting to blame and the hint to each message.
 */
final class SqlErrors {

    private SqlErrors() {
    }

    /**
     * @param during   what was being done, e.g. "starting replication from slot s"; starts the message
     * @param fallback the setting blamed when the SQLState does not point at a more specific one
     */
    static ReplicationException classify(SQLException e, String during, Setting fallback) {
        Optional<ReplicationException> explained = ConnectionFailures.explain(e, during);
        if (explained.isPresent()) {
            return explained.get();
        }
        String state = e.getSQLState() == null ? "" : e.getSQLState();
        String text = during + " failed: " + e.getMessage() + (state.isEmpty() ? "" : " [SQLState " + state + "]");
        if (state.equals(SqlStates.OBJECT_IN_USE)) {
            return ReplicationConnectionLostException.slotInUse(text + transientHint(state), e);
        }
        if (SqlStates.isReadOnlyTransaction(state) || isSyncedSlotRefusal(state, e)) {
            return ReplicationConnectionLostException.standby(text + "; the server is a standby or its promotion has not"
                    + " ended; the task tries again (if it goes on, check that database.hostname names the primary, or"
                    + " lists the primary and its standbys)", e);
        }
        if (isTransient(state)) {
            return new ReplicationConnectionLostException(transientSetting(state, fallback), text + transientHint(state), e);
        }
        return switch (state) {
            case SqlStates.INVALID_PASSWORD -> new ReplicationSetupException(Setting.PASSWORD, text + "; check the password", e);
            case SqlStates.INVALID_AUTHORIZATION -> new ReplicationSetupException(Setting.USER, text
                    + "; check database.user, and that pg_hba.conf admits this user to the database from the worker's address", e);
            case SqlStates.INVALID_CATALOG_NAME -> new ReplicationSetupException(Setting.DBNAME, text + "; check the database name", e);
            case SqlStates.INSUFFICIENT_PRIVILEGE -> new ReplicationSetupException(Setting.USER, text
                    + "; grant the role the needed privilege (ALTER ROLE ... REPLICATION, or table ownership for a FILTERED publication)", e);
            default -> new ReplicationSetupException(fallback, text, e);
        };
    }

    /**
     * A standby's synced failover slot refuses decoding until the promotion ends (PostgreSQL 17+: SQLState 55000,
     * "This replication slot is being synchronized from the primary server."). 55000 alone also means a permanent
     * misconfiguration such as wal_level, so the server's words tell them apart (English messages, lc_messages=C or
     * en; a translated one stays permanent, which fails closed).
     */
    static boolean isSyncedSlotRefusal(String state, SQLException e) {
        return state.equals(SqlStates.OBJECT_NOT_IN_PREREQUISITE_STATE) && String.valueOf(e.getMessage()).contains("being synchronized from the primary");
    }

    /** Whether a failure with {@code state} goes away by itself: the one table, {@link SqlStates}. */
    static boolean isTransient(String state) {
        return SqlStates.isTransient(state);
    }

    private static Setting transientSetting(String state, Setting fallback) {
        return state.equals(SqlStates.OBJECT_IN_USE) ? Setting.SLOT_NAME : state.startsWith("08") ? Setting.HOSTNAME : fallback;
    }

    private static String transientHint(String state) {
        return switch (state) {
            case SqlStates.OBJECT_IN_USE -> "; another walsender still holds the slot (a previous connection that has not exited yet, or a"
                    + " second consumer of the same slot); retry later, and make sure only one consumer uses each slot";
            case SqlStates.TOO_MANY_CONNECTIONS -> "; all connection or walsender places are taken; retry later, or raise max_connections/max_wal_senders";
            default -> state.startsWith("08") || SqlStates.isServerRestarting(state)
                    ? "; the task reconnects by itself after a short pause (if this goes on, check that the server"
                            + " is running and reachable from the Connect worker)"
                    : "; " + SqlStates.reason(state) + ", will retry";
        };
    }
}
