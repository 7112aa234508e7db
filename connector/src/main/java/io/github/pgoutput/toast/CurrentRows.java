package io.github.pgoutput.toast;

import io.github.pgoutput.pgoutput.ColumnValue;
import io.github.pgoutput.pgoutput.PgOutputMessage.Relation;
import io.github.pgoutput.pgoutput.Xid;
import java.sql.SQLException;
import java.util.Collection;
import java.util.Map;

/**
 * Reads the current committed version of rows by their replica identity key: one query for many keys of one table.
 * The production implementation is {@code replication.CurrentRowReader}. Not thread-safe; owned by the poll thread.
 */
public interface CurrentRows extends AutoCloseable {

    /**
     * One row as read now.
     *
     * @param xmin    the id of the transaction that wrote this version of the row (the {@code xmin} system column)
     * @param columns the requested columns' values: their text form, or {@link ColumnValue.Null}
     */
    record Row(Xid xmin, Map<String, ColumnValue> columns) {
    }

    /**
     * The rows of {@code relation}'s table with the given keys, each with the named columns. A key with no row, or
     * with more than one (a child table of an inheritance tree holding the same key), is left out.
     */
    Map<RowKey, Row> read(Relation relation, Collection<String> columns, Collection<RowKey> keys) throws SQLException;

    @Override
    void close();
}
