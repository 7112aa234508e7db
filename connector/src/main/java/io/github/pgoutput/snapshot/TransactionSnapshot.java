package io.github.pgoutput.snapshot;

import java.util.Set;

/**
 * Which transactions a database snapshot sees, as {@code pg_current_snapshot()} describes it ({@code xmin:xmax:xip}).
 * An incremental snapshot's chunk is read in such a snapshot, and the chunk may be put in the stream only after every
 * transaction the stream has delivered: a delivered transaction the snapshot does not see (its commit record was
 * decoded before the committing backend left the process array) would be undone by the chunk's older rows. Immutable.
 *
 * <p>The stream names transactions by 32-bit xids, the snapshot by 64-bit ones (epoch and xid); {@link #sees(long)}
 * widens a 32-bit xid to the one nearest {@code xmax}, which is exact for every transaction less than 2^31 xids
 * away, as every transaction that is running or just committed is.
 *
 * @param xmin       every transaction below it is finished (committed ones are seen)
 * @param xmax       every transaction from it on is not seen
 * @param inProgress the transactions between them that were running, so not seen
 */
public record TransactionSnapshot(long xmin, long xmax, Set<Long> inProgress) {

    private static final long XID_SPACE = 1L << 32;
    private static final long HALF = 1L << 31;

    public TransactionSnapshot {
        inProgress = Set.copyOf(inProgress);
        if (xmin > xmax) {
            throw new IllegalArgumentException("a snapshot's xmin " + xmin + " is after its xmax " + xmax);
        }
    }

    /**
     * Parses the text form of {@code pg_snapshot}: {@code xmin:xmax:xip,xip,...} (the list may be empty).
     *
     * @throws IllegalArgumentException naming the text when it is not of that form
     */
    public static TransactionSnapshot parse(String text) {
        String[] parts = text == null ? new String[0] : text.split(":", -1);
        if (parts.length != 3) {
            throw new IllegalArgumentException("not a pg_snapshot (xmin:xmax:xip,...): " + text);
        }
        try {
            Set<Long> running = new java.util.HashSet<>();
            if (!parts[2].isEmpty()) {
                for (String xid : parts[2].split(",")) {
                    running.add(Long.parseLong(xid));
                }
            }
            return new TransactionSnapshot(Long.parseLong(parts[0]), Long.parseLong(parts[1]), running);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not a pg_snapshot (xmin:xmax:xip,...): " + text, e);
        }
    }

    /** Whether the snapshot sees the (committed) transaction with the 32-bit id {@code xid}. */
    public boolean sees(long xid) {
        long full = widen(xid);
        if (full < xmin) {
            return true;
        }
        return full < xmax && !inProgress.contains(full);
    }

    /** The 64-bit id of the 32-bit {@code xid} nearest this snapshot's {@code xmax}. */
    long widen(long xid) {
        long candidate = (xmax & ~(XID_SPACE - 1)) | (xid & (XID_SPACE - 1));
        if (candidate - xmax > HALF) {
            candidate -= XID_SPACE;
        } else if (xmax - candidate > HALF) {
            candidate += XID_SPACE;
        }
        return candidate;
    }
}
