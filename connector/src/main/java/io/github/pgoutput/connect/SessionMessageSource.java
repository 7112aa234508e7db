package io.github.pgoutput.connect;

import java.nio.ByteBuffer;
import java.util.Objects;

import io.github.pgoutput.assembly.MessageSource;
import io.github.pgoutput.assembly.WireMessage;
import io.github.pgoutput.pgoutput.PgOutputDecoder;
import io.github.pgoutput.replication.ReplicationStream;
import io.github.pgoutput.replication.WalFrame;

/** Feeds the assembler from a replication stream: one XLogData frame, decoded, per message. Not thread-safe. */
final class SessionMessageSource implements MessageSource {

    private final ReplicationStream session;
    private final PgOutputDecoder decoder;

    SessionMessageSource(ReplicationStream session, PgOutputDecoder decoder) {
        this.session = Objects.requireNonNull(session);
        this.decoder = Objects.requireNonNull(decoder);
    }

    @Override
    public WireMessage next() {
        WalFrame frame = session.readPending();
        if (frame == null) {
            return null;
        }
        ByteBuffer payload = frame.payload();
        return new WireMessage(decoder.decode(payload, frame.headerLsn()), payload, frame.headerLsn());
    }
}
