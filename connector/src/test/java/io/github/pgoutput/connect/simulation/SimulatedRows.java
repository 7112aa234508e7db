package io.github.pgoutput.connect.simulation;

import java.util.ArrayList;
import java.util.List;

import io.github.pgoutput.connect.simulation.SimulatedWal.Record;
import io.github.pgoutput.connect.simulation.SimulationHistory.ChangeStep;
import io.github.pgoutput.connect.simulation.SimulationHistory.Item;
import io.github.pgoutput.connect.simulation.SimulationHistory.Table;
import io.github.pgoutput.pgoutput.Bytes;
import io.github.pgoutput.pgoutput.ColumnValue;
import io.github.pgoutput.pgoutput.PgOutputMessage.Relation;
import io.github.pgoutput.pgoutput.RelationColumn;
import io.github.pgoutput.pgoutput.ReplicaIdentity;
import io.github.pgoutput.pgoutput.TupleData;
import io.github.pgoutput.pgoutput.Xid;

/**
 * The simulated tables' columns and the rows their changes write, in one place for the walsender (which sends them),
 * the database (which holds them) and the chunk reader (which reads them). A table has {@code id} (int4, its key),
 * {@code tx} (int8, the writing transaction's xid), {@code note} (text, where the change is in the WAL) and one int4
 * column {@code extraN} per ALTER TABLE before the change; the signal table has Debezium's text columns id, type and
 * data. Stateless.
 */
final class SimulatedRows {

    private SimulatedRows() {
    }

    static Relation relation(Table table, int version, Xid xid) {
        return new Relation(xid, table.oid, "public", table.sqlName(), ReplicaIdentity.DEFAULT, columns(table, version));
    }

    /** The columns of {@code table} at schema {@code version} (ALTERs so far). */
    static List<RelationColumn> columns(Table table, int version) {
        List<RelationColumn> columns = new ArrayList<>();
        if (table == Table.SIG) {
            columns.add(new RelationColumn(true, "id", 25, -1));
            columns.add(new RelationColumn(false, "type", 25, -1));
            columns.add(new RelationColumn(false, "data", 25, -1));
            return columns;
        }
        columns.add(new RelationColumn(true, "id", 23, -1));
        columns.add(new RelationColumn(false, "tx", 20, -1));
        columns.add(new RelationColumn(false, "note", 25, -1));
        for (int v = 1; v <= version; v++) {
            columns.add(new RelationColumn(false, "extra" + v, 23, -1));
        }
        return columns;
    }

    /** The text of each column of the row an INSERT or UPDATE {@code change} of {@code item} writes, in column order. */
    static List<String> values(ChangeStep step, Record change, Item item) {
        List<String> values = new ArrayList<>();
        values.add(Integer.toString(step.row()));
        values.add(Long.toString(item.xid()));
        values.add("at " + change.start());
        for (int v = 1; v <= change.version(); v++) {
            values.add(Integer.toString(v));
        }
        return values;
    }

    /** The new tuple of an INSERT or UPDATE. */
    static TupleData row(ChangeStep step, Record change, Item item) {
        List<ColumnValue> values = new ArrayList<>();
        for (String value : values(step, change, item)) {
            values.add(text(value));
        }
        return new TupleData(values);
    }

    /** The key tuple of a DELETE: the key, and 'n' for every other column (docs/pgoutput-protocol.md §6.7). */
    static TupleData key(ChangeStep step, Record change) {
        List<ColumnValue> values = new ArrayList<>();
        values.add(text(Integer.toString(step.row())));
        for (int i = 1; i < 3 + change.version(); i++) {
            values.add(ColumnValue.Null.INSTANCE);
        }
        return new TupleData(values);
    }

    /** A row of the signal table: {@code id}, and the signal's type and data. */
    static TupleData signalRow(String id, SimulatedSignal signal) {
        return new TupleData(List.of(text(id), text(signal.type), signal.data == null ? ColumnValue.Null.INSTANCE : text(signal.data)));
    }

    private static ColumnValue text(String value) {
        return new ColumnValue.Text(Bytes.utf8(value));
    }
}
