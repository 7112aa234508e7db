package io.github.pgoutput.assembly;

import io.github.pgoutput.pgoutput.PgOutputMessage;
import io.github.pgoutput.pgoutput.PgOutputMessage.Begin;
import io.github.pgoutput.pgoutput.PgOutputMessage.BeginPrepare;
import io.github.pgoutput.pgoutput.PgOutputMessage.Commit;
import io.github.pgoutput.pgoutput.PgOutputMessage.LogicalMessage;
import io.github.pgoutput.pgoutput.PgOutputMessage.Prepare;
import io.github.pgoutput.pgoutput.PgOutputMessage.Relation;
import io.github.pgoutput.pgoutput.PgOutputMessage.Type;

/**
 * The changes of a non-streamed transaction, pulled from the wire as the consumer reads them. The transaction was
 * decided before PostgreSQL sent it (commit or prepare), so nothing needs buffering.
 */
final class WireCursor implements ChangeCursor {

    private final TransactionAssembler assembler;
    private final WireMessage begin;
    private Delivery delivery;
    private long index;
    private boolean done;

    WireCursor(TransactionAssembler assembler, WireMessage begin) {
        this.assembler = assembler;
        this.begin = begin;
    }

    void bind(Delivery owner) {
        this.delivery = owner;
    }

    @Override
    public ChangeEvent next() {
        if (done) {
            return null;
        }
        assembler.checkUsable();
        try {
            while (true) {
                WireMessage wire = assembler.take();
                if (wire == null) {
                    return null;
                }
                PgOutputMessage message = wire.message();
                if (message instanceof PgOutputMessage.Change || message instanceof LogicalMessage logical && logical.transactional()) {
                    PgOutputMessage.StreamScoped change = (PgOutputMessage.StreamScoped) message;
                    return new ChangeEvent(change, assembler.relations().relationsOf(change, wire.walPosition()),
                            wire.walPosition(), index++);
                }
                if (message instanceof Relation relation) {
                    assembler.relations().apply(relation);
                } else if (message instanceof Type type) {
                    assembler.relations().apply(type);
                } else if (!finishes(wire)) {
                    throw TransactionAssembler.unexpected(wire, "inside transaction " + delivery.xid() + " (begun by "
                            + begin.describe() + "); expected changes, Relation, Type or its "
                            + (begin.message() instanceof Begin ? "Commit" : "Prepare"));
                } else {
                    done = true;
                    return null;
                }
            }
        } catch (RuntimeException e) {
            throw assembler.fail(e);
        }
    }

    /** Checks and applies the message that ends the transaction; false if {@code wire} is not that message. */
    private boolean finishes(WireMessage wire) {
        if (begin.message() instanceof Begin b && wire.message() instanceof Commit commit) {
            if (!commit.commitLsn().equals(b.finalLsn())) {
                throw TransactionAssembler.unexpected(wire, "with commit_lsn " + commit.commitLsn() + " for transaction "
                        + b.xid() + ", whose Begin announced final_lsn " + b.finalLsn());
            }
            delivery.end(commit.endLsn());
            return true;
        }
        if (begin.message() instanceof BeginPrepare b && wire.message() instanceof Prepare prepare) {
            if (!prepare.xid().equals(b.xid()) || !prepare.gid().equals(b.gid())) {
                throw TransactionAssembler.unexpected(wire, "for xid " + prepare.xid() + " gid '" + prepare.gid()
                        + "' inside the prepared transaction xid " + b.xid() + " gid '" + b.gid() + "'");
            }
            delivery.end(prepare.endLsn());
            return true;
        }
        return false;
    }

    @Override
    public boolean atEnd() {
        return done;
    }

    @Override
    public void close() {
    }
}
