package io.github.pgoutput.spill;

import io.github.pgoutput.pgoutput.Xid;

/**
 * The byte limits every backend enforces on appends ({@code spill.max.transaction.bytes} for one transaction,
 * {@code spill.max.total.bytes} for all of them together) and the running total the second is checked against.
 * Bytes are counted in the backend's stored format (frames, rows); what one transaction holds stays the backend's
 * to count, next to the rest it knows of that transaction. Not thread-safe.
 */
final class SpillQuota {

    private final long maxTransactionBytes;
    private final long maxTotalBytes;
    private final String store;
    private final String totalRemedy;
    private long totalBytes;

    /**
     * @param store       where the spill keeps its data, for messages (a directory, {@code spill table "s"."t"})
     * @param totalRemedy what else frees room when the total is exceeded, appended to "raise spill.max.total.bytes"
     *                    (empty, or for example {@code " or free space"})
     */
    SpillQuota(SpillSettings settings, String store, String totalRemedy) {
        this.maxTransactionBytes = settings.maxTransactionBytes();
        this.maxTotalBytes = settings.maxTotalBytes();
        this.store = store;
        this.totalRemedy = totalRemedy;
    }

    /**
     * Checks that {@code bytes} more fit, before anything of them is stored; {@link #added} counts them once stored.
     *
     * @param transactionBytes what {@code xid} holds already
     * @param transactionStore where {@code xid}'s data is kept, for the message ("spill file", "spill table")
     * @param storeName        the name of that place (a path, a table); only turned into text for the message
     * @throws SpillException naming the limit that would be passed, and how to raise it
     */
    void checkRoom(Xid xid, long transactionBytes, long bytes, String transactionStore, Object storeName) {
        if (transactionBytes + bytes > maxTransactionBytes) {
            throw new SpillException("transaction " + xid + " needs more than spill.max.transaction.bytes="
                    + maxTransactionBytes + " bytes in " + transactionStore + " " + storeName
                    + "; raise spill.max.transaction.bytes or make the transaction smaller");
        }
        if (totalBytes + bytes > maxTotalBytes) {
            throw new SpillException("the open streamed transactions need more than spill.max.total.bytes="
                    + maxTotalBytes + " bytes in " + store + " (appending to xid " + xid + "); raise spill.max.total.bytes"
                    + totalRemedy);
        }
    }

    void added(long bytes) {
        totalBytes += bytes;
    }

    void released(long bytes) {
        totalBytes -= bytes;
    }

    /** Everything was forgotten at once. */
    void releasedAll() {
        totalBytes = 0;
    }

    /** What all transactions hold together. */
    long totalBytes() {
        return totalBytes;
    }
}
