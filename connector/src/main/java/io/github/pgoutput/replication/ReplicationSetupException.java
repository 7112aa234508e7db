package io.github.pgoutput.replication;

/**
 * A permanent failure: retrying with the same settings against the same database will fail the same way.
 * The message says what was seen, what was expected and how to fix it.
 */
public final class ReplicationSetupException extends ReplicationException {

    public ReplicationSetupException(Setting setting, String message) {
        super(setting, message, null);
    }

    public ReplicationSetupException(Setting setting, String message, Throwable cause) {
        super(setting, message, cause);
    }
}
