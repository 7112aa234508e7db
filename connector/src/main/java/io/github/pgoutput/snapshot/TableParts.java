package io.github.pgoutput.snapshot;

import java.util.ArrayList;
import java.util.List;

/**
 * How the parts of one table being read at once are getting on, so that exactly one row is marked the table's last:
 * the row its parts read last is held here until the last part ends, whichever part finishes last and even when that
 * part is empty. Not thread-safe: the readers call {@link #partEnded} under this object's lock, and queue what it returns
 * before they let go of it, so the row marked last is queued after every other row of the table.
 */
final class TableParts {

    private int partsLeft;
    private SnapshotRow held;
    private int heldPart;

    /** A row to queue, and the part it was read in. */
    record PartRow(int part, SnapshotRow row) {
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
     * @param part       the part that ended, as the reader numbers its parts
     * @param lastOfPart the part's last row, held back until now, or null for a part without rows
     * @return the rows to queue now, in this order: the row held before this one, and when this was the table's last
     * part, the table's last row marked {@link SnapshotRow#lastInTable()}
     */
    List<PartRow> partEnded(int part, SnapshotRow lastOfPart) {
        if (partsLeft == 0) {
            throw new IllegalStateException("every part of " + (held == null ? "the table" : held.table().name()) + " has ended");
        }
        List<PartRow> rows = new ArrayList<>(2);
        if (lastOfPart != null) {
            if (held != null) {
                rows.add(new PartRow(heldPart, held));
            }
            held = lastOfPart;
            heldPart = part;
        }
        if (--partsLeft == 0 && held != null) {
            rows.add(new PartRow(heldPart, new SnapshotRow(held.table(), held.values(), false, true, held.marker())));
            held = null;
        }
        return rows;
    }

    /** Whether every part has ended. */
    boolean done() {
        return partsLeft == 0;
    }
}
