package io.github.pgoutput.assembly;

import io.github.pgoutput.pgoutput.Lsn;
import io.github.pgoutput.pgoutput.PgOutputMessage;
import java.nio.ByteBuffer;

/**
 * Decodes a payload that was received inside a stream block (so R/Y/I/U/D/T/M carry the xid prefix), without
 * keeping state. The connector passes {@code (payload, lsn) -> decoder.decode(payload, lsn, true)}.
 */
@FunctionalInterface
public interface StreamMessageDecoder {

    PgOutputMessage decodeInStreamBlock(ByteBuffer payload, Lsn walPosition);
}
