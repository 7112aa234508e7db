package io.github.pgoutput.replication;

/**
 * A transient failure: the replication connection dropped, the server is restarting or shutting down, or the slot is
 * still held by a walsender that has not exited yet. Close the session, then open a new one from the caller's own
 * durable LSN; nothing received after the last declared-durable position may be assumed delivered.
 */
public final class ReplicationConnectionLostException extends ReplicationException {

    /** Why a refusal is retried only a bounded number of times, or {@code null} for an ordinary lost connection. */
    private final String boundedBecause;

    public ReplicationConnectionLostException(Setting setting, String message, Throwable cause) {
        this(setting, message, cause, null);
    }

    private ReplicationConnectionLostException(Setting setting, String message, Throwable cause, String boundedBecause) {
        super(setting, message, cause);
        this.boundedBecause = boundedBecause;
    }

    /** The slot is held by another walsender (another consumer, or an earlier session that has not exited yet). */
    public static ReplicationConnectionLostException slotInUse(String message, Throwable cause) {
        return new ReplicationConnectionLostException(Setting.SLOT_NAME, message, cause, SLOT_IN_USE);
    }

    /**
     * The server is a standby, or a promoted one whose synced slot is not usable yet: a failover in progress, which
     * ends within seconds, or a host list / endpoint that names a standby, which does not.
     */
    public static ReplicationConnectionLostException standby(String message, Throwable cause) {
        return new ReplicationConnectionLostException(Setting.HOSTNAME, message, cause, STANDBY);
    }

    static final String SLOT_IN_USE = "is still held by another walsender";
    static final String STANDBY = "is on a server that is still a standby";

    /** Whether the refusal was a slot held by another walsender, which callers retry only a bounded number of times. */
    public boolean isSlotInUse() {
        return SLOT_IN_USE.equals(boundedBecause);
    }

    /**
     * Whether callers retry this refusal only a bounded number of times ({@code slot.max.retries}): a busy slot, or a
     * server that is (still) a standby.
     */
    public boolean isBounded() {
        return boundedBecause != null;
    }

    /**
     * What a bounded refusal means, as the predicate of "Slot 'name' ..." in the message when the retries run out;
     * {@code null} when not bounded.
     */
    public String boundedBecause() {
        return boundedBecause;
    }
}
