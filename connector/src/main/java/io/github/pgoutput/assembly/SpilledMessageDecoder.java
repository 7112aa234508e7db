package io.github.pgoutput.assembly;

import io.github.pgoutput.pgoutput.Lsn;
import io.github.pgoutput.pgoutput.PgOutputMessage;
import java.nio.ByteBuffer;

/**
 * Decodes a payload read back from the spill, without keeping state. {@code insideStreamBlock} tells how it was
 * received: inside a stream block (R/Y/I/U/D/T/M carry the xid prefix) or in a transaction sent whole (they do not).
 * The connector passes {@code decoder::decode}, the three-argument {@code PgOutputDecoder.decode}.
 */
@FunctionalInterface
public interface SpilledMessageDecoder {

    PgOutputMessage decode(ByteBuffer payload, Lsn walPosition, boolean insideStreamBlock);
}
