package io.github.pgoutput.replication;

/**
 * Base of the two failures the replication session reports. Callers decide by subtype:
 * {@link ReplicationSetupException} is permanent (fix the configuration or the database),
 * {@link ReplicationConnectionLostException} is transient (open a new session later, from the own stored LSN).
 */
public abstract sealed class ReplicationException extends RuntimeException
        permits ReplicationSetupException, ReplicationConnectionLostException {

    private final Setting setting;

    ReplicationException(Setting setting, String message, Throwable cause) {
        super(message, cause);
        this.setting = setting;
    }

    /** The setting the failure concerns, so a caller can attach the message to a config key; never null. */
    public Setting setting() {
        return setting;
    }
}
