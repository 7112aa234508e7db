package io.github.pgoutput.assembly;

import static io.github.pgoutput.assembly.AssemblyException.unexpected;

import io.github.pgoutput.pgoutput.PgOutputMessage;
import io.github.pgoutput.pgoutput.PgOutputMessage.BeginPrepare;
import io.github.pgoutput.pgoutput.PgOutputMessage.LogicalMessage;
import io.github.pgoutput.pgoutput.PgOutputMessage.Prepare;

/**
 * The changes of a prepared transaction sent whole (Begin Prepare ... Prepare), pulled from the wire as the consumer
 * reads them. It was prepared before PostgreSQL sent it, and Begin Prepare already carries the PREPARE record's end
 * LSN, so nothing needs holding back (unlike a plain transaction, see {@link HeldTransaction}).
 */
final class WireCursor extends AssemblyCursor {

    private final WireMessage beginWire;
    private final BeginPrepare begin;

    WireCursor(AssemblyContext context, WireMessage beginWire) {
        super(context);
        this.beginWire = beginWire;
        this.begin = (BeginPrepare) beginWire.message();
    }

    @Override
    ChangeEvent step() {
        WireMessage wire = context.relations().takeApplyingDefinitions(context::take, WireMessage::message);
        if (wire == null) {
            return null;
        }
        PgOutputMessage message = wire.message();
        if (message instanceof PgOutputMessage.Change || message instanceof LogicalMessage logical && logical.transactional()) {
            return change((PgOutputMessage.StreamScoped) message, wire.walPosition());
        }
        if (message instanceof Prepare prepare) {
            check(prepare, wire);
            finish();
            return null;
        }
        throw unexpected(wire, "inside prepared transaction " + begin.xid() + " (begun by "
                + beginWire.describe() + "); expected changes, Relation, Type or its Prepare");
    }

    /** The Prepare must close the transaction Begin Prepare opened, at the end LSN it announced. */
    private void check(Prepare prepare, WireMessage wire) {
        if (!prepare.xid().equals(begin.xid()) || !prepare.gid().equals(begin.gid())) {
            throw unexpected(wire, "for xid " + prepare.xid() + " gid '" + prepare.gid()
                    + "' inside the prepared transaction xid " + begin.xid() + " gid '" + begin.gid() + "'");
        }
        if (!prepare.prepareLsn().equals(begin.prepareLsn()) || !prepare.endLsn().equals(begin.endLsn())) {
            throw unexpected(wire, "with prepare_lsn " + prepare.prepareLsn() + " and end_lsn "
                    + prepare.endLsn() + " for gid '" + begin.gid() + "', whose Begin Prepare announced " + begin.prepareLsn()
                    + " and " + begin.endLsn());
        }
    }

    @Override
    public void close() {
    }
}
