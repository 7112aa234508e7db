package io.github.pgoutput.pgoutput;

import java.util.List;

/** Reads a TupleData: {@code Int16 ncols}, then per column a kind byte ({@code n u t b}) and, for t/b, a length and bytes. */
final class TupleDataReader {

    private final PayloadReader in;

    TupleDataReader(PayloadReader in) {
        this.in = in;
    }

    TupleData read() {
        int count = in.nonNegativeInt16("tuple column count");
        // Every column takes at least its kind byte.
        in.requireRoomFor(count, 1, "tuple columns");
        ColumnValue[] columns = new ColumnValue[count];
        for (int i = 0; i < count; i++) {
            int kindAt = in.offset();
            char kind = (char) (in.int8("column kind") & 0xFF);
            columns[i] = switch (kind) {
                case 'n' -> ColumnValue.Null.INSTANCE;
                case 'u' -> ColumnValue.UnchangedToast.INSTANCE;
                case 't' -> new ColumnValue.Text(in.bytes(in.nonNegativeInt32("column value length"), "column value"));
                case 'b' -> new ColumnValue.Binary(in.bytes(in.nonNegativeInt32("column value length"), "column value"));
                default -> throw in.failureAt(kindAt, "unknown tuple column kind " + PgOutputDecoder.describeByte(kind)
                        + " in column " + (i + 1) + " of " + count + "; expected 'n' (null), 'u' (unchanged TOAST),"
                        + " 't' (text) or 'b' (binary)");
            };
        }
        return new TupleData(List.of(columns));
    }
}
