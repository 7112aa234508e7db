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
final class HeldCursor extends AssemblyCursor {

    private final List<HeldTransaction.Held> held;
    private final SpillCursor rest;
    private int next;

    /** @param rest the reader of the spilled part, or null when everything was held */
    HeldCursor(AssemblyContext context, Xid xid, List<HeldTransaction.Held> held, SpillReader rest) {
        super(context);
        this.held = held;
        this.rest = rest == null ? null : new SpillCursor(context, xid, rest, false);
    }

    @Override
    ChangeEvent step() {
        HeldTransaction.Held message =
                context.relations().takeApplyingDefinitions(this::takeHeld, HeldTransaction.Held::message);
        if (message != null) {
            return change((PgOutputMessage.StreamScoped) message.message(), message.walPosition());
        }
        if (rest == null) {
            finish();
            return null;
        }
        // The spilled part fails the assembler itself when it fails; its changes are renumbered after the held ones.
        ChangeEvent spilled = rest.next();
        if (spilled == null) {
            if (rest.atEnd()) {
                finish();
            }
            return null;
        }
        return change(spilled.message(), spilled.relations(), spilled.walPosition());
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
    public void close() {
        if (rest != null) {
            rest.close();
        }
    }
}
