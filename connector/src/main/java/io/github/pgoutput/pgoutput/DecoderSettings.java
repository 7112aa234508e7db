package io.github.pgoutput.pgoutput;

/**
 * What the session negotiated with the server: the {@code proto_version} and {@code streaming} options passed to
 * {@code START_REPLICATION}. The decoder needs both, because they decide which messages may appear and how
 * Stream Abort is laid out.
 *
 * @param protocolVersion pgoutput protocol version, 1 to 4
 * @param streaming       the streaming option; {@link StreamingMode#ON} needs protocol 2 or higher,
 *                        {@link StreamingMode#PARALLEL} protocol 4 or higher (the server refuses anything else)
 */
public record DecoderSettings(int protocolVersion, StreamingMode streaming) {

    public static final int MIN_PROTOCOL_VERSION = 1;
    public static final int MAX_PROTOCOL_VERSION = 4;

    public DecoderSettings {
        if (protocolVersion < MIN_PROTOCOL_VERSION || protocolVersion > MAX_PROTOCOL_VERSION) {
            throw new IllegalArgumentException("pgoutput protocol version " + protocolVersion
                    + " is not supported; expected " + MIN_PROTOCOL_VERSION + " to " + MAX_PROTOCOL_VERSION);
        }
        if (streaming == null) {
            throw new IllegalArgumentException("streaming mode must be given (OFF, ON or PARALLEL)");
        }
        if (streaming == StreamingMode.ON && protocolVersion < 2) {
            throw new IllegalArgumentException("streaming ON needs pgoutput protocol version 2 or higher, but protocol version "
                    + protocolVersion + " was given; raise the protocol version or turn streaming OFF");
        }
        if (streaming == StreamingMode.PARALLEL && protocolVersion < 4) {
            throw new IllegalArgumentException("streaming PARALLEL needs pgoutput protocol version 4 or higher, but protocol version "
                    + protocolVersion + " was given; raise the protocol version to 4 or use streaming ON");
        }
    }

    /** True when Stream Start/Stop/Commit/Abort may appear. */
    public boolean streamingEnabled() {
        return streaming != StreamingMode.OFF;
    }

    /** True when Begin Prepare, Prepare, Commit Prepared, Rollback Prepared and Stream Prepare may be decoded. */
    public boolean twoPhaseMessagesSupported() {
        return protocolVersion >= 3;
    }

    /** True when Stream Abort carries abort_lsn and abort_ts (protocol 4 with streaming = parallel). */
    public boolean streamAbortCarriesAbortInfo() {
        return protocolVersion >= 4 && streaming == StreamingMode.PARALLEL;
    }
}
