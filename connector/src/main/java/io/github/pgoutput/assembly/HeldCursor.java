package io.github.pgoutput.assembly;

import io.github.pgoutput.pgoutput.PgOutputMessage;
import io.github.pgoutput.pgoutput.Xid;
import io.github.pgoutput.spill.SpillReader;
import java.util.List;

/**
 * The changes of a {@link HeldTransaction}: the held messages first, then the spilled rest if there is one. Relation
 * and Type messages met on the way are applied to the session's cache, so each change is resolved against the schema
 * in force when it was written.
 */
final class HeldCursor implements ChangeCursor {

    private final TransactionAssembler assembler;
    private final List<HeldTransaction.Held> held;
    private final SpillCursor rest;
    private int next;
    private long index;
    private boolean done;

    /** @param rest the reader of the spilled part, or null when everything was held */
    HeldCursor(TransactionAssembler assembler, Xid xid, List<HeldTransaction.Held> held, SpillReader rest) {
        this.assembler = assembler;
        this.held = held;
        this.rest = rest == null ? null : new SpillCursor(assembler, xid, rest, false);
    }

    @Override
    public ChangeEvent next() {
        if (done) {
            return null;
        }
        assembler.checkUsable();
        try {
            HeldTransaction.Held message =
                    assembler.relations().takeApplyingDefinitions(this::takeHeld, HeldTransaction.Held::message);
            if (message != null) {
                PgOutputMessage.StreamScoped change = (PgOutputMessage.StreamScoped) message.message();
                return new ChangeEvent(change, assembler.relations().relationsOf(change, message.walPosition()),
                        message.walPosition(), index++);
            }
        } catch (RuntimeException e) {
            throw assembler.fail(e);
        }
        if (rest == null) {
            done = true;
            return null;
        }
        ChangeEvent spilled = rest.next();
        if (spilled == null) {
            done = rest.atEnd();
            return null;
        }
        return new ChangeEvent(spilled.message(), spilled.relations(), spilled.walPosition(), index++);
    }

    /** The next held message, or null once all were taken. */
    private HeldTransaction.Held takeHeld() {
        if (next >= held.size()) {
            return null;
        }
        HeldTransaction.Held message = held.get(next);
        // Dropped once read: the consumer keeps its own copy of what it needs.
        held.set(next++, null);
        return message;
    }

    @Override
    public boolean atEnd() {
        return done;
    }

    @Override
    public void close() {
        if (rest != null) {
            rest.close();
        }
    }
}
