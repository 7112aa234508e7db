package io.github.pgoutput.toast;

/**
 * Counts of unchanged TOAST resolution since the task started, for the task's metrics. Written by the poll thread,
 * read by JMX: each field is a volatile written by one thread only.
 */
public final class ToastStats {

    private volatile long storeHits;
    private volatile long reselectHits;
    private volatile long unresolved;
    private volatile long reselectQueries;
    private volatile long reselectRows;
    private volatile long reselectNanos;

    void storeHit() {
        storeHits++;
    }

    void reselected(long hits, long rows, long nanos) {
        reselectHits += hits;
        reselectRows += rows;
        reselectQueries++;
        reselectNanos += nanos;
    }

    void unresolved(long columns) {
        unresolved += columns;
    }

    /** Column values the store put in. */
    public long storeHits() {
        return storeHits;
    }

    /** Column values a reselect proved. */
    public long reselectHits() {
        return reselectHits;
    }

    /** Column values left as the placeholder (the record names them in a header). */
    public long unresolved() {
        return unresolved;
    }

    /** Reselect queries sent to the source (one per table and batch). */
    public long reselectQueries() {
        return reselectQueries;
    }

    /** Rows those queries returned. */
    public long reselectRows() {
        return reselectRows;
    }

    /** Time spent in those queries, in nanoseconds. */
    public long reselectNanos() {
        return reselectNanos;
    }
}
