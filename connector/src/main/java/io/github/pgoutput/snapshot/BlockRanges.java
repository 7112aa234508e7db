package io.github.pgoutput.snapshot;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits one table into ranges of heap blocks that separate connections read at the same time. Pure.
 *
 * <p>A range is a condition on {@code ctid}, which PostgreSQL 14+ answers with a TID Range Scan: each reader reads only
 * its own blocks, without an index or a sort. Every row version lies in exactly one block, so the ranges together hold
 * every row of the snapshot exactly once. The first range is open below and the last open above: the block count is
 * the relation's size when the snapshot began, and rows visible to the snapshot are never in blocks past the ones
 * counted then, but nothing depends on that guess being exact.
 *
 * <p>Block ranges are for one read of one exported snapshot. They do not name the same rows in another snapshot (an
 * update moves a row to another block, {@code VACUUM FULL} moves them all), so a resumable snapshot, which continues
 * in a later snapshot, reads in key order instead ({@link TableKey}).
 */
final class BlockRanges {

    /** 8 MB of 8 kB blocks: a smaller table is read in one piece, as a second COPY would cost more than it saves. */
    static final long MIN_BLOCKS_PER_RANGE = 1024;

    private BlockRanges() {
    }

    /**
     * The conditions that split a table of {@code blocks} blocks into at most {@code ranges} ranges of at least
     * {@link #MIN_BLOCKS_PER_RANGE} blocks each, in block order; an empty list when the table is read in one piece.
     */
    static List<String> conditions(long blocks, int ranges) {
        if (ranges < 1) {
            throw new IllegalArgumentException("ranges must be at least 1, was " + ranges);
        }
        int count = (int) Math.min(ranges, Math.max(1, blocks / MIN_BLOCKS_PER_RANGE));
        if (count == 1) {
            return List.of();
        }
        List<String> conditions = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            long from = blocks * i / count;
            long to = blocks * (i + 1) / count;
            if (i == 0) {
                conditions.add("ctid < " + tid(to));
            } else if (i == count - 1) {
                conditions.add("ctid >= " + tid(from));
            } else {
                conditions.add("ctid >= " + tid(from) + " AND ctid < " + tid(to));
            }
        }
        return conditions;
    }

    /** The first tuple of block {@code block}: every tuple of earlier blocks sorts before it. */
    private static String tid(long block) {
        return "'(" + block + ",0)'::tid";
    }
}
