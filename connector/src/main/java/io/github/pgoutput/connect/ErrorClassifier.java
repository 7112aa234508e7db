package io.github.pgoutput.connect;

import io.github.pgoutput.connect.config.ConnectorSettings;
import io.github.pgoutput.replication.ConnectionFailures;
import io.github.pgoutput.replication.ReplicationConnectionLostException;
import io.github.pgoutput.replication.ReplicationException;
import io.github.pgoutput.replication.ReplicationSetupException;
import io.github.pgoutput.replication.SqlStates;
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
 * <p>Decided by the first {@link SQLException} with an SQLState in the cause chain, by the replication layer's table
 * {@link SqlStates} (the one its own classifier reads, so the same error is retried or fatal whichever layer raised
 * it); this class only maps the verdict to Connect's exception types.
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

    /** The replication layer's table decides, so a failure is retried or fatal whatever layer raised it. */
    private static Verdict sqlStateVerdict(String sqlState) {
        boolean transientFailure = SqlStates.isTransient(sqlState);
        return new Verdict(transientFailure, "SQLState " + sqlState + ", " + SqlStates.reason(sqlState)
                + (transientFailure ? ", will reconnect and retry" : ", the task stops"));
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
