package io.github.pgoutput.toast;

import io.github.pgoutput.pgoutput.Lsn;

/**
 * Where in commit order a row's stored values were written: the commit (or prepare, or snapshot) LSN of the delivery
 * and the change's place in it. Snapshot rows are {@code (consistent point, 0)}, before every change streamed after
 * them; the change at index {@code i} of a delivery is {@code (lsn, i + 1)}.
 *
 * <p>A stored value answers for a change only when it was written strictly before it: after a restart the store may
 * hold values of changes PostgreSQL sends again, and such a value may be newer than the change being resolved.
 */
public record RowVersion(Lsn lsn, long sequence) implements Comparable<RowVersion> {

    public static RowVersion snapshot(Lsn consistentPoint) {
        return new RowVersion(consistentPoint, 0);
    }

    public static RowVersion change(Lsn deliveryLsn, long index) {
        return new RowVersion(deliveryLsn, index + 1);
    }

    @Override
    public int compareTo(RowVersion other) {
        int byLsn = lsn.compareTo(other.lsn);
        return byLsn != 0 ? byLsn : Long.compare(sequence, other.sequence);
    }

    public boolean isBefore(RowVersion other) {
        return compareTo(other) < 0;
    }

    @Override
    public String toString() {
        return lsn + "#" + sequence;
    }
}
