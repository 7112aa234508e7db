package io.github.pgoutput.spill;

import io.github.pgoutput.pgoutput.Lsn;
import java.nio.ByteBuffer;

/**
 * One message read back from a spill: the raw pgoutput payload exactly as it was appended (including the
 * stream-block xid prefix) and the WAL position it arrived with.
 *
 * <p>The payload is a read-only view that is valid only until the next call to {@link SpillReader#next()}
 * or {@link SpillReader#close()}; decode or copy it before that.
 */
public record SpilledMessage(Lsn walPosition, ByteBuffer payload) {
}
