package io.github.pgoutput.connect.simulation;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.function.LongPredicate;

import io.github.pgoutput.pgoutput.Lsn;
import io.github.pgoutput.pgoutput.Xid;
import io.github.pgoutput.spill.SpillException;
import io.github.pgoutput.spill.SpillReader;
import io.github.pgoutput.spill.SpillUsage;
import io.github.pgoutput.spill.TransactionSpill;

/**
 * The real disk spill with injected I/O failures: the operations numbered by {@code failAt} (counted across the
 * run) throw the {@link SpillException} a full or unwritable disk gives, with its {@link IOException} cause, which
 * the task treats as transient. Nothing is changed in the spill by a failed operation, as the SPI promises.
 */
final class SimulatedSpill implements TransactionSpill {

    private final TransactionSpill real;
    private final LongPredicate failAt;
    private final Runnable onFailure;
    private final long[] operations;

    /** @param operations a one-element counter shared by every spill of the run */
    SimulatedSpill(TransactionSpill real, long[] operations, LongPredicate failAt, Runnable onFailure) {
        this.real = real;
        this.operations = operations;
        this.failAt = failAt;
        this.onFailure = onFailure;
    }

    private void operation(String what) {
        long number = ++operations[0];
        if (failAt.test(number)) {
            onFailure.run();
            throw new SpillException("simulated spill failure at operation " + number + " (" + what + ")",
                    new IOException("No space left on device"));
        }
    }

    @Override
    public void append(Xid xid, Xid subXid, Lsn walPosition, ByteBuffer payload) {
        operation("append xid " + xid);
        real.append(xid, subXid, walPosition, payload);
    }

    @Override
    public SpillReader read(Xid xid) {
        operation("read xid " + xid);
        return real.read(xid);
    }

    @Override
    public void discard(Xid xid) {
        real.discard(xid);
    }

    @Override
    public void discardSubtransaction(Xid xid, Xid subXid) {
        real.discardSubtransaction(xid, subXid);
    }

    @Override
    public void clear() {
        real.clear();
    }

    @Override
    public SpillUsage usage() {
        return real.usage();
    }

    @Override
    public void close() {
        real.close();
    }
}
