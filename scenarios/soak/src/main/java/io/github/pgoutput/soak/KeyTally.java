package io.github.pgoutput.soak;

import java.util.BitSet;

/**
 * What a {@code read_committed} consumer has seen of rows {@code 1..rows}, by key: which ids arrived, how many records
 * arrived twice or more, and when the last missing id arrived. Ids outside the range count as strays (they would mean
 * records of another table or a corrupt key). Thread-safe: the consumer thread adds, the scenario reads.
 */
final class KeyTally {

    private final int rows;
    private final BitSet seen;
    private long records;
    private long duplicates;
    private long strays;
    /** {@link System#nanoTime()} of the record that completed the set; 0 while an id is missing. */
    private long completeNanos;

    KeyTally(int rows) {
        if (rows < 1) {
            throw new IllegalArgumentException("rows must be at least 1, not " + rows);
        }
        this.rows = rows;
        this.seen = new BitSet(rows + 1);
    }

    /** The record of row {@code id} arrived at {@code nanos}. */
    synchronized void add(long id, long nanos) {
        records++;
        if (id < 1 || id > rows) {
            strays++;
            return;
        }
        if (seen.get((int) id)) {
            duplicates++;
            return;
        }
        seen.set((int) id);
        if (completeNanos == 0 && seen.cardinality() == rows) {
            completeNanos = nanos;
        }
    }

    synchronized int distinct() {
        return seen.cardinality();
    }

    synchronized long missing() {
        return rows - seen.cardinality();
    }

    synchronized long records() {
        return records;
    }

    synchronized long duplicates() {
        return duplicates;
    }

    synchronized long strays() {
        return strays;
    }

    synchronized boolean complete() {
        return completeNanos != 0;
    }

    /** When the last missing id arrived ({@link System#nanoTime()}); 0 while one is missing. */
    synchronized long completeNanos() {
        return completeNanos;
    }
}
