package io.github.pgoutput.pgoutput;

/** The old row sent with an Update or Delete: only the replica identity columns ({@code K}) or all of them ({@code O}). */
public record OldTuple(Kind kind, TupleData tuple) {

    public enum Kind {
        /** {@code K}: replica identity key columns; other columns are sent as null. */
        KEY,
        /** {@code O}: the whole old row (REPLICA IDENTITY FULL). */
        FULL
    }
}
