package io.github.pgoutput.spill;

/**
 * Builds a {@link TransactionSpill}. A custom backend is a class implementing this interface with a public
 * no-argument constructor, named in {@code spill.backend}; it can prove itself with the abstract contract test suite
 * {@code TransactionSpillContract} from this project's test sources.
 */
@FunctionalInterface
public interface TransactionSpillFactory {

    /**
     * Opens a spill for {@code context.slotName()}. The returned spill may still hold data of an earlier run;
     * its user calls {@link TransactionSpill#clear()} before the first append.
     *
     * @throws SpillException when the store cannot be used (unwritable directory, missing privileges, ...)
     */
    TransactionSpill open(SpillContext context);
}
