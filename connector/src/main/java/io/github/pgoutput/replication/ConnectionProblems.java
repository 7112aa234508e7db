package io.github.pgoutput.replication;

import io.github.pgoutput.replication.PreflightChecks.Problem;
import java.sql.SQLException;
import java.util.Optional;

/**
 * A failure of a one-off check (validation): a connection it could not open, or a catalog query that failed, as a
 * {@link Problem} on the setting to fix, saying what was tried and what to check and never that anything will be
 * retried. Whether a failure is transient is still {@link SqlStates}' word ({@link Problem#retriable}). Stateless.
 */
final class ConnectionProblems {

    private ConnectionProblems() {
    }

    /**
     * A failed connection as a one-off check reports it: what was tried and what to check, never that something will
     * be retried (nothing is; the task's own retries are described where the task reports them). The server's
     * refusals of the login are explained by {@link ConnectionFailures}; a connection that reached no server says
     * which address and port were tried.
     */
    static Problem of(ReplicationSettings settings, SQLException e) {
        return of(settings, "connecting to " + ServerAddresses.describe(settings.host(), settings.port()) + "/" + settings.database()
                + " as " + settings.user(), e);
    }

    /** {@link #of(ReplicationSettings, SQLException)} of a failure while {@code during}, which starts the message. */
    static Problem of(ReplicationSettings settings, String during, SQLException e) {
        String target = ServerAddresses.describe(settings.host(), settings.port());
        Optional<ReplicationException> explained = ConnectionFailures.explain(e, during, settings.user());
        if (explained.isPresent()) {
            ReplicationException failure = explained.get();
            return new Problem(failure.setting(), failure.getMessage(), failure instanceof ReplicationConnectionLostException);
        }
        String state = e.getSQLState() == null ? "" : e.getSQLState();
        String text = during + " failed: " + e.getMessage() + (state.isEmpty() ? "" : " [SQLState " + state + "]");
        if (SqlStates.isConnectionLost(state)) {
            return new Problem(Setting.HOSTNAME, text + "; " + unreachableAdvice(target, e), true);
        }
        if (SqlStates.isServerRestarting(state)) {
            return new Problem(Setting.HOSTNAME, text + "; the server is starting up, shutting down or recovering: validate"
                    + " again once it accepts connections", true);
        }
        if (state.startsWith("53")) {
            return new Problem(Setting.HOSTNAME, text + "; the server has no connection to spare (max_connections, or the role's"
                    + " CONNECTION LIMIT, is reached): close idle connections or raise the limit, then validate again", true);
        }
        ReplicationException failure = SqlErrors.classify(e, during, Setting.HOSTNAME);
        return new Problem(failure.setting(), failure.getMessage(), failure instanceof ReplicationConnectionLostException);
    }

    /** What to check when no server answered: refused means nothing listens there, no answer means packets are dropped. */
    private static String unreachableAdvice(String target, SQLException e) {
        boolean refused = cause(e, java.net.ConnectException.class);
        boolean timedOut = cause(e, java.net.SocketTimeoutException.class);
        String seen = refused ? "the host answered, but nothing accepts connections on that port"
                : timedOut ? "nothing answered within the connect timeout (10 s)" : "no PostgreSQL server could be reached";
        return seen + ". Tried " + target + " (database.hostname, database.port). Check that PostgreSQL is running there;"
                + " that it listens on an address the Connect worker can reach (listen_addresses in postgresql.conf: '*' or"
                + " the server's address, not only localhost; a restart is needed after changing it); that the port is the"
                + " server's (port in postgresql.conf, 5432 by default); that no firewall or security group between the worker"
                + " and the server drops the connection; and that pg_hba.conf has a line for this role, database and address";
    }

    private static boolean cause(Throwable error, Class<? extends Throwable> type) {
        for (Throwable t = error; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (type.isInstance(t)) {
                return true;
            }
        }
        return false;
    }
}
