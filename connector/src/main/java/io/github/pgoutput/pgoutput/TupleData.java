package io.github.pgoutput.pgoutput;

import java.util.List;

/** The column values of one row, in the column order of the relation's latest Relation message. */
public record TupleData(List<ColumnValue> columns) {

    public TupleData {
        columns = List.copyOf(columns);
    }

    public int size() {
        return columns.size();
    }

    public ColumnValue get(int index) {
        return columns.get(index);
    }
}
