package io.github.pgoutput.pgoutput;

/**
 * One column of a TupleData. In a key-only old tuple ({@link OldTuple.Kind#KEY}) a {@link Null} also stands for
 * "not part of the key"; the Relation's column flags tell the two apart.
 */
public sealed interface ColumnValue {

    /** {@code n}: SQL NULL. */
    record Null() implements ColumnValue {
        public static final Null INSTANCE = new Null();
    }

    /** {@code u}: an unchanged TOASTed value that the server did not send (only in the new tuple of an Update). */
    record UnchangedToast() implements ColumnValue {
        public static final UnchangedToast INSTANCE = new UnchangedToast();
    }

    /** {@code t}: the type's text output, in the connection's client encoding (UTF-8). */
    record Text(Bytes value) implements ColumnValue {
        public String asString() {
            return value.toUtf8();
        }
    }

    /** {@code b}: the type's binary send format (only with the {@code binary} option). */
    record Binary(Bytes value) implements ColumnValue {
    }
}
