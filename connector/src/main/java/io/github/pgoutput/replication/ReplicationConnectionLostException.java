package io.github.pgoutput.replication;

/**
 * A transient failure: the replication connection dropped, the server is restarting or shutting down, or the slot is
 * still held by a walsender that has not exited yet. Close the session, then open a new one from the caller's own
 * durable LSN; nothing received after the last declared-durable position may be assumed delivered.
 */
public final class ReplicationConnectionLostException extends ReplicationException {

    private final boolean slotInUse;

    public ReplicationConnectionLostException(Setting setting, String message, Throwable cause) {
        this(setting, message, cause, false);
    }

    private ReplicationConnectionLostException(Setting setting, String message, Throwable cause, boolean slotInUse) {
        super(setting, message, cause);
        this.slotInUse = slotInUse;
    }

    /** The slot is held by another walsender (another consumer, or an earlier session that has not exited yet). */
    public static ReplicationConnectionLostException slotInUse(String message, Throwable cause) {
        return new ReplicationConnectionLostException(Setting.SLOT_NAME, message, cause, true);
    }

    /** Whether the refusal was a slot held by another walsender, which callers retry only a bounded number of times. */
    public boolean isSlotInUse() {
        return slotInUse;
    }
}
