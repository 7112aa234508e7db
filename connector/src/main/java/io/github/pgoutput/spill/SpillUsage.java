package io.github.pgoutput.spill;

/**
 * What a spill holds right now, for metrics.
 *
 * @param transactions transactions with at least one appended message not yet discarded
 * @param bytes        bytes held for them in the store's own format (frames), including what is still buffered
 * @param bufferedBytes bytes appended but not yet written to the store (held in memory)
 */
public record SpillUsage(int transactions, long bytes, long bufferedBytes) {
}
