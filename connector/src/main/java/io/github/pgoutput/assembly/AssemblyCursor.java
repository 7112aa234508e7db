package io.github.pgoutput.assembly;

import io.github.pgoutput.pgoutput.Lsn;
import io.github.pgoutput.pgoutput.PgOutputMessage;
import io.github.pgoutput.pgoutput.PgOutputMessage.Relation;
import java.util.List;

/**
 * What the cursors that read from the wire or the spill have in common: once at the end they return nothing; before
 * each step they check that the assembler has not failed, and any failure of a step fails the assembler; they number
 * the changes they hand out from 0.
 */
abstract class AssemblyCursor implements ChangeCursor {

    final AssemblyContext context;
    private long index;
    private boolean done;

    AssemblyCursor(AssemblyContext context) {
        this.context = context;
    }

    @Override
    public final ChangeEvent next() {
        if (done) {
            return null;
        }
        context.checkUsable();
        try {
            return step();
        } catch (RuntimeException e) {
            failed();
            throw context.fail(e);
        }
    }

    /**
     * Returns the next change, or null when none is available right now or (after calling {@link #finish()}) the end
     * was reached.
     */
    abstract ChangeEvent step();

    /** Called when {@link #step()} threw, before the assembler is failed: releases what the cursor holds. */
    void failed() {
    }

    /** Marks the end: every later {@link #next()} returns null and {@link #atEnd()} is true. */
    final void finish() {
        done = true;
    }

    /** The next change of this cursor: {@code change}, resolved against the relations in force now. */
    final ChangeEvent change(PgOutputMessage.StreamScoped change, Lsn walPosition) {
        return change(change, context.relations().relationsOf(change, walPosition), walPosition);
    }

    /** The next change of this cursor, with relations resolved already. */
    final ChangeEvent change(PgOutputMessage.StreamScoped change, List<Relation> relations, Lsn walPosition) {
        return new ChangeEvent(change, relations, walPosition, index++);
    }

    @Override
    public final boolean atEnd() {
        return done;
    }
}
