package io.github.pgoutput.snapshot;

/**
 * A snapshot that cannot be taken or read. The message says what was seen and how to fix it; {@link #reason()} lets
 * the connect layer choose between a permanent and a retriable error.
 */
public final class SnapshotException extends RuntimeException {

    /** Why the snapshot failed. */
    public enum Reason {
        /** The role lacks a privilege on a table; permanent until granted. */
        PRIVILEGE,
        /** Slot creation waited too long for open (or prepared) transactions; retriable once they end. */
        SLOT_CREATION_BLOCKED,
        /** The exported snapshot could not be imported (exporting connection gone, or too old); start a new snapshot. */
        SNAPSHOT_NOT_IMPORTABLE,
        /** The stored offset and the slot do not fit the configured snapshot mode; permanent until the mode changes. */
        MODE_CONFLICT,
        /**
         * A slot of the configured name exists that the connector cannot show to be its own and unused, so it may hold
         * another consumer's position and is not dropped; permanent until a user drops it or changes the mode.
         */
        SLOT_NOT_OWNED,
        /**
         * The slot this connector created for its unfinished snapshot is still held by a walsender (usually the
         * previous task's, until it notices its client is gone); retriable.
         */
        SLOT_ACTIVE,
        /**
         * An exactly-once snapshot cannot read or resume a table in key order (no unique replica identity), or cannot
         * be resumed (its table list changed, its slot is gone, a change in the gap cannot be placed); permanent until a
         * user acts as the message says.
         */
        NOT_RESUMABLE,
        /**
         * Debezium's stored offset, found after an in-place switch of {@code connector.class}, cannot be continued from
         * (its snapshot did not finish, or its slot decodes with another plugin); permanent until a user acts as the
         * message says.
         */
        DEBEZIUM_OFFSET,
        /** Any other database failure while reading; retrying redoes the snapshot. */
        READ_FAILED
    }

    private final Reason reason;

    public SnapshotException(Reason reason, String message, Throwable cause) {
        super(message, cause);
        this.reason = reason;
    }

    public SnapshotException(Reason reason, String message) {
        this(reason, message, null);
    }

    public Reason reason() {
        return reason;
    }
}
