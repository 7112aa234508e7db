package io.github.pgoutput.connect;

import io.github.pgoutput.replication.ConnectionFailures;
import io.github.pgoutput.replication.ReplicationConnectionLostException;
import io.github.pgoutput.replication.ReplicationException;
import io.github.pgoutput.replication.ReplicationSetupException;

import java.io.IOException;
import java.sql.SQLException;
import java.util.Optional;

import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.errors.RetriableException;

/**
 * The one place that decides whether a failure is transient or permanent. Everything that leaves the task goes
 * through {@link #classify}: a {@link RetriableException} makes Connect call {@code poll()} again later (the task
 * reconnects by itself); a plain {@link ConnectException} fails the task until a user fixes the configuration or
 * the database and restarts it.
 *
 * <p>Decided by the first {@link SQLException} with an SQLState in the cause chain:
 * <table>
 *   <caption>SQLState classes</caption>
 *   <tr><th>SQLState</th><th>Kind</th><th>Why</th></tr>
 *   <tr><td>08xxx connection exception (except 08P01)</td><td>retriable</td><td>network or server went away;
 *       a new connection usually works</td></tr>
 *   <tr><td>08P01 protocol violation</td><td>permanent</td><td>client and server disagree about the protocol;
 *       repeating the same request fails again</td></tr>
 *   <tr><td>40xxx transaction rollback (serialization failure, deadlock)</td><td>retriable</td><td>the same work
 *       succeeds when repeated</td></tr>
 *   <tr><td>53xxx insufficient resources (disk full, out of memory, too many connections)</td><td>retriable</td>
 *       <td>the server recovers when load or space changes; retrying costs nothing</td></tr>
 *   <tr><td>55006 object in use</td><td>retriable</td><td>above all "replication slot is active for PID": after a
 *       task restart or rebalance the previous walsender holds the slot until it notices its client is gone (at
 *       most wal_sender_timeout). If another client really uses the slot, the task retries it slot.max.retries
 *       times, slot.retry.delay.ms apart, and then fails (PgOutputSourceTask); the default budget outlasts the
 *       default wal_sender_timeout, so a healthy connector does not fail during a rebalance</td></tr>
 *   <tr><td>57P01 admin shutdown, 57P02 crash shutdown, 57P03 cannot connect now</td><td>retriable</td><td>the
 *       server is restarting or in recovery</td></tr>
 *   <tr><td>28xxx invalid authorization</td><td>permanent</td><td>wrong user or password, or pg_hba.conf refuses
 *       the connection</td></tr>
 *   <tr><td>42xxx syntax error or access rule violation</td><td>permanent</td><td>missing privilege, missing
 *       publication, table or slot</td></tr>
 *   <tr><td>everything else (3D000 unknown database, 55000 wrong wal_level, 22023 bad option, 0A000, XX000,
 *       57P04 database dropped, ...)</td><td>permanent</td><td>fail closed: an error not known to heal by itself
 *       is not retried forever</td></tr>
 * </table>
 * Before the SQLState is read, {@link ConnectionFailures} explains a host name that does not resolve (retriable)
 * and the TLS refusals (permanent, blamed on the TLS key to fix), which pgjdbc reports with generic 08xxx states.
 * A {@link ReplicationConnectionLostException} is retriable and a {@link ReplicationSetupException} permanent, as the
 * replication layer decided. Without an SQLState: an {@link IOException} anywhere in the chain, or a Kafka client
 * {@link org.apache.kafka.common.errors.RetriableException}, is retriable; a {@link ConfigException} and everything
 * else is permanent. An exception that already is a {@link ConnectException} is returned as it is.
 *
 * <p>Stateless and thread-safe.
 */
public final class ErrorClassifier {

    private ErrorClassifier() {
    }

    /** Whether a failure heals by itself, and why. */
    public record Verdict(boolean retriable, String reason) {
    }

    /**
     * @param context what the task was doing, e.g. {@code "reading the replication stream of slot s1"}
     * @return a {@link RetriableException} or a {@link ConnectException} with {@code error} as its cause and a
     *         message naming the context, the SQLState if any, and the verdict
     */
    public static ConnectException classify(String context, Throwable error) {
        if (error instanceof ConnectException alreadyClassified) {
            return alreadyClassified;
        }
        Optional<ReplicationException> explained = ConnectionFailures.explain(error, context);
        if (explained.isPresent()) {
            // An unknown host or a TLS refusal: the replication layer's explanation names the key to fix.
            ReplicationException failure = explained.get();
            String message = failure.getMessage() + " (" + verdict(failure).reason() + ")";
            return failure instanceof ReplicationConnectionLostException ? new RetriableException(message, error)
                    : new ConnectException(message, error);
        }
        Verdict verdict = verdict(error);
        String detail = error.getMessage() == null ? error.getClass().getName() : error.getMessage();
        String message = context + " failed: " + detail + " (" + verdict.reason() + ")";
        return verdict.retriable() ? new RetriableException(message, error) : new ConnectException(message, error);
    }

    /** The decision alone, for callers that log before they throw. */
    public static Verdict verdict(Throwable error) {
        // The replication layer has already decided; its exception type is the verdict.
        if (error instanceof ReplicationConnectionLostException) {
            return new Verdict(true, "connection to the server lost or slot busy, will reconnect and retry");
        }
        if (error instanceof ReplicationSetupException setup) {
            return new Verdict(false, "fix the setting behind '" + ConnectorSettings.keyOf(setup.setting())
                    + "' or the database, then restart the connector");
        }
        String sqlState = firstSqlState(error);
        if (sqlState != null) {
            return sqlStateVerdict(sqlState);
        }
        for (Throwable t = error; t != null; t = t.getCause()) {
            if (t instanceof IOException) {
                return new Verdict(true, "I/O error, will reconnect and retry");
            }
            if (t instanceof org.apache.kafka.common.errors.RetriableException) {
                return new Verdict(true, "transient Kafka client error, will retry");
            }
            if (t instanceof ConfigException) {
                return new Verdict(false, "configuration error, fix the configuration and restart the connector");
            }
        }
        return new Verdict(false, "not known to be transient, the task stops");
    }

    private static Verdict sqlStateVerdict(String sqlState) {
        String at = "SQLState " + sqlState + ", ";
        if (sqlState.equals("08P01")) {
            return new Verdict(false, at + "protocol violation, retrying would repeat it");
        }
        if (sqlState.startsWith("08")) {
            return new Verdict(true, at + "connection error, will reconnect and retry");
        }
        if (sqlState.startsWith("40")) {
            return new Verdict(true, at + "transaction rolled back by the server, will retry");
        }
        if (sqlState.startsWith("53")) {
            return new Verdict(true, at + "server out of resources, will retry");
        }
        if (sqlState.equals("55006")) {
            return new Verdict(true, at + "object in use (a replication slot still held by a previous connection "
                    + "is released within wal_sender_timeout), will retry");
        }
        if (sqlState.equals("57P01") || sqlState.equals("57P02") || sqlState.equals("57P03")) {
            return new Verdict(true, at + "server shutting down or starting up, will retry");
        }
        if (sqlState.startsWith("28")) {
            return new Verdict(false, at + "authentication failed, check database.user, database.password and "
                    + "pg_hba.conf");
        }
        if (sqlState.startsWith("42")) {
            return new Verdict(false, at + "missing object or privilege, fix the database or the configuration");
        }
        return new Verdict(false, at + "not known to be transient, the task stops");
    }

    private static String firstSqlState(Throwable error) {
        for (Throwable t = error; t != null; t = t.getCause()) {
            if (t instanceof SQLException sql && sql.getSQLState() != null) {
                return sql.getSQLState();
            }
        }
        return null;
    }
}
