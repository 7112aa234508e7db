package io.github.pgoutput.snapshot;

import java.util.ArrayList;
import java.util.List;

/**
 * How the parts of one table being read at once are getting on, so that exactly one row is marked the table's last:
 * the rows its parts read last are held here until the last part ends, whichever part finishes last and even when that
 * part is empty. A part's last rows are its last group: one row, or in a table read in row-hash order the identical
 * rows that end it ({@link TableOrder}), which must reach the queue together. Not thread-safe: the readers call
 * {@link #partEnded} under this object's lock, and queue what it returns before they let go of it, so the row marked
 * last is queued after every other row of the table.
 */
final class TableParts {

    private int partsLeft;
    private PartRows held;

    /**
     * Rows to queue together, the part they were read in, and their key.
     *
     * @param key the rows' key in a table read in key order, null otherwise
     */
    record PartRows(int part, List<SnapshotRow> rows, List<String> key) {
        PartRows {
            rows = List.copyOf(rows);
            if (rows.isEmpty()) {
                throw new IllegalArgumentException("a group has at least one row");
            }
        }
    }

    TableParts(int parts) {
        if (parts < 1) {
            throw new IllegalArgumentException("a table has at least one part, not " + parts);
        }
        this.partsLeft = parts;
    }

    /**
     * A part ended. Its other rows are queued already.
     *
     * @param lastOfPart the part's last group, held back until now, or null for a part without rows
     * @return the groups to queue now, in this order: the group held before this one, and when this was the table's
     * last part, the table's last group, its last row marked {@link SnapshotRow#lastInTable()}
     */
    List<PartRows> partEnded(PartRows lastOfPart) {
        if (partsLeft == 0) {
            throw new IllegalStateException("every part of " + (held == null ? "the table" : held.rows().get(0).table().name()) + " has ended");
        }
        List<PartRows> groups = new ArrayList<>(2);
        if (lastOfPart != null) {
            if (held != null) {
                groups.add(held);
            }
            held = lastOfPart;
        }
        if (--partsLeft == 0 && held != null) {
            List<SnapshotRow> rows = new ArrayList<>(held.rows());
            SnapshotRow last = rows.get(rows.size() - 1);
            rows.set(rows.size() - 1, new SnapshotRow(last.table(), last.values(), false, true, last.marker()));
            groups.add(new PartRows(held.part(), rows, held.key()));
            held = null;
        }
        return groups;
    }

    /** Whether every part has ended. */
    boolean done() {
        return partsLeft == 0;
    }
}
