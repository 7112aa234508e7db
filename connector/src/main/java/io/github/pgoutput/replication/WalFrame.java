package io.github.pgoutput.replication;

import io.github.pgoutput.pgoutput.Lsn;

import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * One XLogData ({@code w}) frame: exactly one pgoutput message.
 *
 * @param payload   the pgoutput message, from {@code position()} (its type byte) to {@code limit()}. It is a slice of a
 *                  byte array that pgjdbc allocated for this frame alone, so it stays valid after later reads; note that
 *                  {@code arrayOffset()} is not 0. The caller owns it; not thread-safe.
 * @param headerLsn the frame header's dataStart, for error messages only. It is 0/0 for Relation and Type messages
 *                  and goes backwards at the Begin of an older transaction (docs/pgoutput-protocol.md §2.2): never use it as a progress
 *                  position. Progress points are the end LSNs inside Commit, Stream Commit, Prepare, Stream Prepare,
 *                  Commit Prepared and Rollback Prepared.
 */
public record WalFrame(ByteBuffer payload, Lsn headerLsn) {

    public WalFrame {
        Objects.requireNonNull(payload, "payload");
        Objects.requireNonNull(headerLsn, "headerLsn");
    }

    /** The pgoutput message type byte, e.g. {@code 'B'}. */
    public char tag() {
        return (char) (payload.get(payload.position()) & 0xFF);
    }
}
