package io.github.pgoutput.assembly;

import io.github.pgoutput.pgoutput.PgOutputMessage;
import io.github.pgoutput.spill.SpilledMessage;
import io.github.pgoutput.spill.TransactionSpill;
import java.util.Objects;

/**
 * What one assembler shares with the transactions it collects and the cursors it hands out: the message source (a
 * prepared transaction's cursor reads on from it), the spill and the decoder of spilled payloads, the session's
 * relation cache, and the failed state, which every one of them checks before working and sets when it fails.
 *
 * <p>It exists so that the cursors and {@link HeldTransaction} depend on this and not on the
 * {@link TransactionAssembler}, which depends on them. Not thread-safe; one per assembler.
 */
final class AssemblyContext {

    private final MessageSource source;
    private final PreparedTransactionMode preparedMode;
    private final TransactionSpill spill;
    private final SpilledMessageDecoder decoder;
    private final RelationCache relations = new RelationCache();
    private WireMessage pushedBack;
    private RuntimeException failure;

    AssemblyContext(MessageSource source, TransactionSpill spill, SpilledMessageDecoder decoder,
                    PreparedTransactionMode preparedMode) {
        this.source = Objects.requireNonNull(source, "source");
        this.spill = Objects.requireNonNull(spill, "spill");
        this.decoder = Objects.requireNonNull(decoder, "decoder");
        this.preparedMode = Objects.requireNonNull(preparedMode, "preparedMode");
    }

    /** The next message, from the push-back slot or the source; checks two-phase messages against the mode first. */
    WireMessage take() {
        WireMessage wire = pushedBack != null ? pushedBack : source.next();
        pushedBack = null;
        if (wire != null && preparedMode == PreparedTransactionMode.FAIL
                && wire.message() instanceof PgOutputMessage.TwoPhase twoPhase) {
            throw new AssemblyException("received " + wire.describe() + " (xid " + twoPhase.xid() + ", gid '"
                    + twoPhase.gid() + "'), but prepared.transaction.mode=fail: the slot decodes prepared transactions"
                    + " at PREPARE time (two_phase); set prepared.transaction.mode=stage, or recreate the slot without"
                    + " two_phase");
        }
        return wire;
    }

    /** Makes {@code wire} the next message {@link #take()} returns (it was read one message too early). */
    void pushBack(WireMessage wire) {
        pushedBack = wire;
    }

    RelationCache relations() {
        return relations;
    }

    TransactionSpill spill() {
        return spill;
    }

    /** Decodes a payload read back from the spill, with the WAL position it was appended with. */
    WireMessage decode(SpilledMessage spilled, boolean insideStreamBlock) {
        PgOutputMessage message = decoder.decode(spilled.payload(), spilled.walPosition(), insideStreamBlock);
        return new WireMessage(message, spilled.payload(), spilled.walPosition());
    }

    /** @throws AssemblyException when anything of this assembler failed before */
    void checkUsable() {
        if (failure != null) {
            throw new AssemblyException("the transaction assembler failed earlier and cannot go on; reconnect from the last"
                    + " confirmed position. First failure: " + failure.getMessage(), failure);
        }
    }

    /** Records the first failure (every later call fails with it) and returns {@code e} for the caller to throw. */
    RuntimeException fail(RuntimeException e) {
        if (failure == null) {
            failure = e;
        }
        return e;
    }
}
