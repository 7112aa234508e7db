package io.github.pgoutput.replication;

import io.github.pgoutput.pgoutput.DecoderSettings;
import io.github.pgoutput.pgoutput.StreamingMode;

/**
 * Picks the pgoutput protocol version and checks every requested option against what the server's major version
 * supports (docs/pgoutput-protocol.md §5.1), before anything is sent. The server would refuse most of these itself, but with
 * messages that do not say which connector setting to change.
 *
 * <p>Stateless and thread-safe.
 */
public final class ProtocolNegotiation {

    /** The highest pgoutput protocol version this code can decode. */
    public static final int HIGHEST_KNOWN_PROTOCOL = 4;

    /** The oldest server major version the connector supports (pgoutput protocol 2, streaming). */
    public static final int OLDEST_SUPPORTED_SERVER = 14;

    private ProtocolNegotiation() {
    }

    /** The highest pgoutput protocol a server of {@code serverMajor} speaks: 14 -> 2, 15 -> 3, 16 and later -> 4. */
    public static int highestProtocolOf(int serverMajor) {
        if (serverMajor < OLDEST_SUPPORTED_SERVER) {
            throw new ReplicationSetupException(Setting.HOSTNAME, "PostgreSQL " + serverMajor + " is not supported; the connector needs "
                    + OLDEST_SUPPORTED_SERVER + " or later (pgoutput protocol 2)");
        }
        if (serverMajor == 14) {
            return 2;
        }
        if (serverMajor == 15) {
            return 3;
        }
        return HIGHEST_KNOWN_PROTOCOL;
    }

    /**
     * Resolves the protocol version (0 = highest the server speaks) and checks each option.
     *
     * @throws ReplicationSetupException on the first request the server cannot serve, naming the setting and the fix
     */
    public static NegotiatedProtocol negotiate(ReplicationSettings settings, int serverMajor) {
        int highest = highestProtocolOf(serverMajor);
        int version = settings.protocolVersion() == ReplicationSettings.AUTO_PROTOCOL_VERSION ? highest : settings.protocolVersion();
        if (version > highest) {
            throw new ReplicationSetupException(Setting.PROTOCOL_VERSION, "pgoutput protocol version " + version
                    + " was requested, but PostgreSQL " + serverMajor + " speaks at most version " + highest
                    + "; set the protocol version to " + highest + " or lower, or to auto");
        }
        StreamingMode streaming = settings.streaming();
        if (streaming == StreamingMode.ON && version < 2) {
            throw new ReplicationSetupException(Setting.STREAMING, "streaming ON needs pgoutput protocol version 2 or higher, but version "
                    + version + " was requested; raise the protocol version or turn streaming OFF");
        }
        if (streaming == StreamingMode.PARALLEL && (serverMajor < 16 || version < 4)) {
            throw new ReplicationSetupException(Setting.STREAMING, "streaming PARALLEL needs PostgreSQL 16+ and pgoutput protocol version 4,"
                    + " but the server is PostgreSQL " + serverMajor + " and version " + version + " was requested;"
                    + (serverMajor < 16 ? " use streaming ON" : " set the protocol version to 4 (or 0) or use streaming ON"));
        }
        if (settings.twoPhase() && (serverMajor < 15 || version < 3)) {
            throw new ReplicationSetupException(Setting.TWO_PHASE, "two-phase decoding needs PostgreSQL 15+ and pgoutput protocol version 3 or higher,"
                    + " but the server is PostgreSQL " + serverMajor + " and version " + version + " was requested;"
                    + (serverMajor < 15 ? " turn two-phase off" : " set the protocol version to 3 or higher (or 0), or turn two-phase off"));
        }
        if (settings.origin() != OriginFilter.SERVER_DEFAULT && serverMajor < 16) {
            throw new ReplicationSetupException(Setting.ORIGIN, "the origin filter " + settings.origin() + " needs PostgreSQL 16+,"
                    + " but the server is PostgreSQL " + serverMajor + "; leave the origin filter at its default");
        }
        return new NegotiatedProtocol(version, streaming, settings.twoPhase(), settings.binary(), settings.messages(), settings.origin());
    }

    /**
     * The options sent with {@code START_REPLICATION}.
     *
     * @param protocolVersion pgoutput protocol version, 1-4
     */
    public record NegotiatedProtocol(int protocolVersion, StreamingMode streaming, boolean twoPhase, boolean binary,
                                     boolean messages, OriginFilter origin) {

        /** What the decoder must be built with to read this session's messages. */
        public DecoderSettings decoderSettings() {
            return new DecoderSettings(protocolVersion, streaming);
        }
    }
}
