package io.github.pgoutput.replication;

/**
 * A transient failure: the replication connection dropped, the server is restarting or shutting down, or the slot is
 * still held by a walsender that has not exited yet. Close the session, then open a new one from the caller's own
 * durable LSN; nothing received after the last declared-durable position may be assumed delivered.
 */
public final class ReplicationConnectionLostException extends ReplicationException {

    public ReplicationConnectionLostException(Setting setting, String message, Throwable cause) {
        super(setting, message, cause);
    }
}
