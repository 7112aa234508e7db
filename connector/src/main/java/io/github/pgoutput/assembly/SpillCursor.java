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
final class SpillCursor extends AssemblyCursor {

    private final Xid xid;
    private final SpillReader reader;
    private final boolean streamed;

    /** @param streamed whether the payloads were received inside stream blocks (and so carry the xid prefix) */
    SpillCursor(AssemblyContext context, Xid xid, SpillReader reader, boolean streamed) {
        super(context);
        this.xid = xid;
        this.reader = reader;
        this.streamed = streamed;
    }

    @Override
    ChangeEvent step() {
        WireMessage spilled = context.relations().takeApplyingDefinitions(this::readDecoded, WireMessage::message);
        if (spilled == null) {
            reader.close();
            context.spill().discard(xid);
            finish();
            return null;
        }
        PgOutputMessage message = spilled.message();
        if (message instanceof PgOutputMessage.Change || message instanceof LogicalMessage) {
            return change((PgOutputMessage.StreamScoped) message, spilled.walPosition());
        }
        throw new AssemblyException("the spill of transaction " + xid + " returned a '" + message.tag()
                + "' " + message.getClass().getSimpleName() + " at WAL position " + spilled.walPosition()
                + "; only changes, Relation, Type and transactional messages are spilled");
    }

    @Override
    void failed() {
        reader.close();
    }

    /** The next spilled message decoded again, or null at the end of the spill. */
    private WireMessage readDecoded() {
        SpilledMessage spilled = reader.next();
        return spilled == null ? null : context.decode(spilled, streamed);
    }

    @Override
    public void close() {
        reader.close();
    }
}
