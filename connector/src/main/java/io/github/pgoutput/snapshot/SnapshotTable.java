package io.github.pgoutput.snapshot;

import io.github.pgoutput.pgoutput.RelationColumn;
import io.github.pgoutput.replication.TableName;

import java.util.List;
import java.util.Objects;

/**
 * A table being snapshotted, described as pgoutput's Relation message describes it, so that snapshot rows and
 * streamed changes go through the same converters. Immutable.
 *
 * @param name          schema and table name
 * @param relationId    the table's OID (pgoutput's relation id)
 * @param columns       the columns pgoutput publishes (dropped and generated columns left out), in attribute order:
 *                      name, type OID ({@code atttypid}, a domain's own OID), {@code atttypmod}, and the key flag,
 *                      which like pgoutput's marks the replica identity: the primary key (REPLICA IDENTITY DEFAULT),
 *                      the chosen index (USING INDEX), every column (FULL) or none (NOTHING, or DEFAULT without a key)
 * @param estimatedRows {@code pg_class.reltuples}, or -1 when the table was never analysed
 * @param partitioned   a partitioned table (published through its root): its rows are those of all partitions
 * @param rowFilter     the publication's row filter for the table (an SQL condition), or null for every row
 */
public record SnapshotTable(TableName name, long relationId, List<RelationColumn> columns, long estimatedRows, boolean partitioned,
                            String rowFilter) {

    public SnapshotTable {
        Objects.requireNonNull(name, "name");
        columns = List.copyOf(columns);
    }

    /**
     * The COPY that reads the table in text format: the output function's text for each published column. A plain
     * table is copied without its inheritance children (pgoutput publishes those as tables of their own); a
     * partitioned one, or one with a row filter, through a query.
     */
    String copyCommand() {
        return copyCommand(null);
    }

    /**
     * {@link #copyCommand()} limited to the rows that also meet {@code condition} (a {@link BlockRanges} range of a
     * plain table), or every row for null.
     */
    String copyCommand(String condition) {
        String list = columns.stream().map(c -> quote(c.name())).collect(java.util.stream.Collectors.joining(", "));
        if (!partitioned && rowFilter == null && condition == null) {
            return "COPY " + name.quoted() + " (" + list + ") TO STDOUT";
        }
        String where = rowFilter == null ? condition : condition == null ? rowFilter : condition + " AND " + rowFilter;
        return "COPY (SELECT " + list + " FROM " + (partitioned ? "" : "ONLY ") + name.quoted()
                + (where == null ? "" : " WHERE " + where) + ") TO STDOUT";
    }

    private static String quote(String identifier) {
        return '"' + identifier.replace("\"", "\"\"") + '"';
    }
}
