package io.github.pgoutput.assembly;

/**
 * The changes of one delivery, read one at a time so a transaction is never held in memory whole. Not thread-safe.
 *
 * <p>A consumer may stop at any point and call {@link #next()} again later (back-pressure): the cursor keeps its
 * place. The assembler hands out the next delivery only after this cursor is {@linkplain #atEnd() at its end}.
 */
public interface ChangeCursor extends AutoCloseable {

    /**
     * Returns the next change, or {@code null} when none is available right now or the end was reached; tell the two
     * apart with {@link #atEnd()}.
     *
     * @throws AssemblyException when the stream breaks a protocol rule or the spill fails (the assembler is then failed)
     */
    ChangeEvent next();

    /** True once every change was returned (for a transaction read from the wire: once its commit arrived). */
    boolean atEnd();

    /** Releases resources (an open spill reader). Does not make the cursor reach its end. */
    @Override
    void close();
}
