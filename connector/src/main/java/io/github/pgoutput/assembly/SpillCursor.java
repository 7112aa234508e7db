package io.github.pgoutput.assembly;

import io.github.pgoutput.pgoutput.PgOutputMessage;
import io.github.pgoutput.pgoutput.PgOutputMessage.LogicalMessage;
import io.github.pgoutput.pgoutput.Xid;
import io.github.pgoutput.spill.SpillReader;
import io.github.pgoutput.spill.SpilledMessage;

/**
 * The changes of a spilled transaction (a streamed one, or the spilled part of a {@link HeldTransaction}), read back
 * from the spill and decoded again. Relation and Type messages met on the way are applied to the session's cache, so
 * each change is resolved against the schema in force when it was written; at the end the transaction is discarded
 * from the spill.
 */
final class SpillCursor implements ChangeCursor {

    private final TransactionAssembler assembler;
    private final Xid xid;
    private final SpillReader reader;
    private final boolean streamed;
    private long index;
    private boolean done;

    /** @param streamed whether the payloads were received inside stream blocks (and so carry the xid prefix) */
    SpillCursor(TransactionAssembler assembler, Xid xid, SpillReader reader, boolean streamed) {
        this.assembler = assembler;
        this.xid = xid;
        this.reader = reader;
        this.streamed = streamed;
    }

    @Override
    public ChangeEvent next() {
        if (done) {
            return null;
        }
        assembler.checkUsable();
        try {
            WireMessage spilled = assembler.relations().takeApplyingDefinitions(this::readDecoded, WireMessage::message);
            if (spilled == null) {
                reader.close();
                assembler.spill().discard(xid);
                done = true;
                return null;
            }
            PgOutputMessage message = spilled.message();
            if (message instanceof PgOutputMessage.Change || message instanceof LogicalMessage) {
                PgOutputMessage.StreamScoped change = (PgOutputMessage.StreamScoped) message;
                return new ChangeEvent(change, assembler.relations().relationsOf(change, spilled.walPosition()),
                        spilled.walPosition(), index++);
            }
            throw new AssemblyException("the spill of transaction " + xid + " returned a '" + message.tag()
                    + "' " + message.getClass().getSimpleName() + " at WAL position " + spilled.walPosition()
                    + "; only changes, Relation, Type and transactional messages are spilled");
        } catch (RuntimeException e) {
            reader.close();
            throw assembler.fail(e);
        }
    }

    /** The next spilled message decoded again, or null at the end of the spill. */
    private WireMessage readDecoded() {
        SpilledMessage spilled = reader.next();
        if (spilled == null) {
            return null;
        }
        PgOutputMessage message = assembler.decoder().decode(spilled.payload(), spilled.walPosition(), streamed);
        return new WireMessage(message, spilled.payload(), spilled.walPosition());
    }

    @Override
    public boolean atEnd() {
        return done;
    }

    @Override
    public void close() {
        reader.close();
    }
}
