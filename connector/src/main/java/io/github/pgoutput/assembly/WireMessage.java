package io.github.pgoutput.assembly;

import io.github.pgoutput.pgoutput.Lsn;
import io.github.pgoutput.pgoutput.PgOutputMessage;
import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * One decoded pgoutput message with the raw payload it was decoded from and the WAL position of its XLogData frame.
 *
 * <p>The assembler stores {@code payload} (position to limit) in the spill for messages inside stream blocks and
 * decodes it again at commit. The payload has to stay unchanged only until the source is asked for the next message.
 */
public record WireMessage(PgOutputMessage message, ByteBuffer payload, Lsn walPosition) {

    public WireMessage {
        Objects.requireNonNull(message, "message");
        Objects.requireNonNull(payload, "payload");
        Objects.requireNonNull(walPosition, "walPosition");
    }

    /** Names the message for error texts: its tag and WAL position. */
    String describe() {
        return "'" + message.tag() + "' " + message.getClass().getSimpleName() + " at WAL position " + walPosition;
    }
}
