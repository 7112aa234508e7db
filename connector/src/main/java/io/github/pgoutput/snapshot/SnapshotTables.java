package io.github.pgoutput.snapshot;

import io.github.pgoutput.pgoutput.RelationColumn;
import io.github.pgoutput.replication.Privileges;
import io.github.pgoutput.replication.TableName;
import io.github.pgoutput.snapshot.SnapshotException.Reason;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** Catalog look-ups for the snapshot: which tables a publication captures, their columns, and the SELECT privilege. */
public final class SnapshotTables {

    /** Tables are read in this order: by schema, then table name (Java string order, independent of collation). */
    static final Comparator<TableName> ORDER = Comparator.comparing(TableName::schema).thenComparing(TableName::table);

    private SnapshotTables() {
    }

    /** The tables the publication captures, in reading order. */
    public static List<TableName> published(Connection sql, String publication) throws SQLException {
        List<TableName> tables = new ArrayList<>();
        try (PreparedStatement st = sql.prepareStatement("SELECT schemaname, tablename FROM pg_publication_tables WHERE pubname = ?")) {
            st.setString(1, publication);
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    tables.add(new TableName(rs.getString(1), rs.getString(2)));
                }
            }
        }
        tables.sort(ORDER);
        return tables;
    }

    /**
     * The tables in Debezium's snapshot order: for each expression of {@code table.include.list} in its order (one that
     * matches every table when the list is empty), the tables it matches that are not listed yet, sorted by their
     * {@code schema.table} name. Tables no expression matches come last, sorted. Pure.
     */
    public static List<TableName> inCaptureOrder(List<TableName> tables, List<java.util.regex.Pattern> includeList) {
        List<TableName> sorted = tables.stream().distinct()
                .sorted(Comparator.comparing(t -> t.schema() + "." + t.table())).toList();
        java.util.LinkedHashSet<TableName> ordered = new java.util.LinkedHashSet<>();
        for (java.util.regex.Pattern pattern : includeList) {
            for (TableName t : sorted) {
                if (pattern.matcher(t.schema() + "." + t.table()).matches()) {
                    ordered.add(t);
                }
            }
        }
        ordered.addAll(sorted);
        return List.copyOf(ordered);
    }

    /**
     * Fails when the connection's role may not SELECT from every table (USAGE on its schema and SELECT on it, the
     * check validation makes too: {@link Privileges#unreadable}), naming each such table and the GRANT statements
     * that fix it, before anything is read.
     */
    static void requireSelectPrivilege(Connection sql, List<TableName> tables, String user) throws SQLException {
        List<Privileges.Unreadable> refused = Privileges.unreadable(sql, tables);
        if (!refused.isEmpty()) {
            String names = String.join(", ", refused.stream().map(u -> u.table().toString()).toList());
            throw new SnapshotException(Reason.PRIVILEGE, "the snapshot cannot read table" + (refused.size() > 1 ? "s " : " ")
                    + names + ": role '" + user + "' lacks the SELECT privilege on it (or USAGE on its schema). Run "
                    + Privileges.grantsToRead(refused, user) + ", or leave the table out with snapshot.include.list");
        }
    }

    /**
     * The table as pgoutput's Relation message would describe it (see {@link SnapshotTable}), narrowed to the
     * publication's column list and with its row filter when {@code publication} is not null.
     */
    static SnapshotTable describe(Connection sql, TableName table, String publication) throws SQLException {
        Set<String> columnList = null;
        String rowFilter = null;
        if (publication != null) {
            try (PreparedStatement st = sql.prepareStatement(
                    "SELECT attnames, rowfilter FROM pg_publication_tables WHERE pubname = ? AND schemaname = ? AND tablename = ?")) {
                st.setString(1, publication);
                st.setString(2, table.schema());
                st.setString(3, table.table());
                try (ResultSet rs = st.executeQuery()) {
                    if (!rs.next()) {
                        throw new SnapshotException(SnapshotException.Reason.READ_FAILED, "table " + table + " is not in publication '"
                                + publication + "' as of the snapshot; snapshot only the publication's tables");
                    }
                    Array names = rs.getArray(1);
                    columnList = names == null ? null : new HashSet<>(Arrays.asList((String[]) names.getArray()));
                    rowFilter = rs.getString(2);
                }
            }
        }
        long oid = 0;
        long estimate = -1;
        boolean partitioned = false;
        List<RelationColumn> columns = new ArrayList<>();
        try (PreparedStatement st = sql.prepareStatement(
                "SELECT c.oid, c.reltuples::bigint, c.relkind = 'p', a.attname, a.atttypid, a.atttypmod,"
                        + " c.relreplident = 'f' OR EXISTS (SELECT 1 FROM pg_index i WHERE i.indrelid = c.oid AND a.attnum = ANY (i.indkey)"
                        + "   AND ((c.relreplident = 'd' AND i.indisprimary) OR (c.relreplident = 'i' AND i.indisreplident)))"
                        + " FROM pg_class c JOIN pg_attribute a ON a.attrelid = c.oid"
                        + " WHERE c.oid = ?::regclass AND a.attnum > 0 AND NOT a.attisdropped AND a.attgenerated = ''"
                        + " ORDER BY a.attnum")) {
            st.setString(1, table.quoted());
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    oid = rs.getLong(1);
                    estimate = rs.getLong(2);
                    partitioned = rs.getBoolean(3);
                    if (columnList != null && !columnList.contains(rs.getString(4))) {
                        continue;
                    }
                    columns.add(new RelationColumn(rs.getBoolean(7), rs.getString(4), rs.getLong(5), rs.getInt(6)));
                }
            }
        }
        return new SnapshotTable(table, oid, columns, estimate < 0 ? -1 : estimate, partitioned,
                rowFilter == null ? null : "(" + rowFilter + ")");
    }
}
