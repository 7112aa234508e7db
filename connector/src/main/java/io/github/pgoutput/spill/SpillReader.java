package io.github.pgoutput.spill;

/**
 * The messages of one transaction, in append order. Not thread-safe. Close it when done, also when stopping early.
 */
public interface SpillReader extends AutoCloseable {

    /**
     * Returns the next message, or {@code null} after the last one.
     *
     * @throws SpillException if the store fails while reading (the data was verified when the reader was opened,
     *                        so this means it changed or the store broke afterwards)
     */
    SpilledMessage next();

    @Override
    void close();
}
