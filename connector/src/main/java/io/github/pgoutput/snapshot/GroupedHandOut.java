package io.github.pgoutput.snapshot;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * The consumer side of {@link SnapshotReader}: turns the batches the readers queue into rows to hand out, a group at a
 * time. A group is the rows of one part with equal keys in key order ({@link TableOrder}: one row under a unique key,
 * the identical rows of a table read in row-hash order), or each single row otherwise. A group is released only once
 * the row after it (or the end) has arrived, since only then is it known whether its last row is the snapshot's
 * last; once released, its rows are handed out one after another without waiting, so that the caller can always put
 * a whole group into one Kafka transaction ({@link #groupContinues()}). The readers queue a group in one batch, so a
 * group whose rest is in a later batch never needs waiting for. Pure; not thread-safe (the consumer thread).
 */
final class GroupedHandOut {

    /**
     * A row to hand out.
     *
     * @param part       the part it was read in
     * @param key        its key in key order, null otherwise
     * @param rowInGroup its place among the rows of its group, from 1
     * @param endsGroup  the last row of its group: the position moves past its key only here
     * @param last       the snapshot's very last row
     */
    record Item(SnapshotRow row, int part, List<String> key, int rowInGroup, boolean endsGroup, boolean last) {
    }

    private final ArrayDeque<Item> ready = new ArrayDeque<>();
    /** The group held back, reused: empty when none is. */
    private final List<SnapshotRow> group = new ArrayList<>();
    private int groupPart;
    private List<String> groupKey;
    private List<SnapshotRow> batchRows = List.of();
    private List<List<String>> batchKeys;
    private int batchPart;
    private int index;
    private boolean ended;

    /**
     * The next batch of part {@code part}: its rows and, in key order, each row's key ({@code keys} null otherwise).
     *
     * @throws IllegalStateException when the rows of the batch before are not all taken yet, or after {@link #end()}
     */
    void batch(int part, List<SnapshotRow> rows, List<List<String>> keys) {
        if (ended || index < batchRows.size()) {
            throw new IllegalStateException("a batch arrived before the one before was taken, or after the end");
        }
        if (keys != null && keys.size() != rows.size()) {
            throw new IllegalArgumentException(rows.size() + " rows but " + keys.size() + " keys");
        }
        batchRows = rows;
        batchKeys = keys;
        batchPart = part;
        index = 0;
    }

    /** Every row has arrived: the group held back is released, its last row marked the snapshot's last. */
    void end() {
        if (index < batchRows.size()) {
            throw new IllegalStateException("the end arrived before every row of the last batch was taken");
        }
        ended = true;
        release(true);
    }

    /**
     * The next row to hand out, or null when none can be until the next batch (or the end) arrives, or when every row
     * was handed out.
     */
    Item next() {
        while (ready.isEmpty() && index < batchRows.size()) {
            SnapshotRow row = batchRows.get(index);
            List<String> key = batchKeys == null ? null : batchKeys.get(index);
            index++;
            if (!group.isEmpty() && key != null && groupPart == batchPart && key.equals(groupKey)) {
                group.add(row);
                continue;
            }
            release(false);
            group.add(row);
            groupPart = batchPart;
            groupKey = key;
        }
        return ready.poll();
    }

    private void release(boolean lastGroup) {
        for (int i = 0; i < group.size(); i++) {
            boolean endsGroup = i == group.size() - 1;
            ready.add(new Item(group.get(i), groupPart, groupKey, i + 1, endsGroup, lastGroup && endsGroup));
        }
        group.clear();
    }

    /** Whether the row handed out last is followed by more of its group, which {@link #next()} hands out without waiting. */
    boolean groupContinues() {
        return !ready.isEmpty();
    }

    /** Whether the end arrived and every row was handed out. */
    boolean finished() {
        return ended && ready.isEmpty();
    }

    /** Whether a batch (or the end) is needed before {@link #next()} can hand out anything more. */
    boolean waiting() {
        return !ended && ready.isEmpty() && index == batchRows.size();
    }
}
