package io.github.pgoutput.snapshot;

import io.github.pgoutput.snapshot.ResumableProgress.KeyRange;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits the key space of one table into {@link KeyRange}s that separate connections read at the same time, each in
 * key order, for a snapshot that must be resumable. Pure.
 *
 * <p>Block ranges ({@link BlockRanges}) would be cheaper to read but name other rows in a later snapshot; key ranges
 * name the same rows in any snapshot, so a resumed read continues each range after the last key emitted from it. The
 * split points come from a sample of the table's keys ({@code TABLESAMPLE SYSTEM}, read by {@link SnapshotReader}):
 * the ranges hold about as many rows each as the sample says, and together every key, whatever the sample held, since
 * the first range is open below and the last open above (or bounded as the range being split is).
 */
final class KeyRanges {

    /** About this many blocks are sampled for the split points (2 MB of 8 kB blocks: milliseconds to read). */
    static final long SAMPLED_BLOCKS = 256;

    private KeyRanges() {
    }

    /** How many ranges a table of {@code blocks} heap blocks is read in by {@code readers} readers: as for block ranges. */
    static int count(long blocks, int readers) {
        if (readers < 1) {
            throw new IllegalArgumentException("readers must be at least 1, was " + readers);
        }
        return (int) Math.min(readers, Math.max(1, blocks / BlockRanges.MIN_BLOCKS_PER_RANGE));
    }

    /** The share of a table of {@code blocks} blocks, in percent, that {@code TABLESAMPLE SYSTEM} reads for the split points. */
    static double samplePercent(long blocks) {
        if (blocks <= SAMPLED_BLOCKS) {
            return 100;
        }
        // Rounded up to 4 decimals, so that the SQL literal stays plain and the sample is never empty for want of precision.
        return Math.ceil(100.0 * SAMPLED_BLOCKS / blocks * 10_000) / 10_000;
    }

    /**
     * {@code range} split into at most {@code count} ranges at keys of {@code sortedSample} (keys inside
     * {@code range}, in the key's order, without repeats), chosen so that each range holds about as many sampled keys;
     * {@code range} itself when the sample is too small to split it.
     */
    static List<KeyRange> split(KeyRange range, List<List<String>> sortedSample, int count) {
        if (count < 1) {
            throw new IllegalArgumentException("count must be at least 1, was " + count);
        }
        List<List<String>> bounds = new ArrayList<>();
        int n = sortedSample.size();
        int lastIndex = -1;
        for (int i = 1; i < count; i++) {
            int index = (int) ((long) n * i / count) - 1;
            if (index > lastIndex && index < n - 1) {
                bounds.add(sortedSample.get(index));
                lastIndex = index;
            }
        }
        List<KeyRange> ranges = new ArrayList<>(bounds.size() + 1);
        List<String> after = range.after();
        for (List<String> bound : bounds) {
            ranges.add(new KeyRange(after, bound));
            after = bound;
        }
        ranges.add(new KeyRange(after, range.upTo()));
        return ranges;
    }
}
