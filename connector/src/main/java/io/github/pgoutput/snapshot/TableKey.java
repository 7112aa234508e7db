package io.github.pgoutput.snapshot;

import io.github.pgoutput.pgoutput.RelationColumn;
import io.github.pgoutput.replication.TableName;
import io.github.pgoutput.snapshot.SnapshotException.Reason;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * The unique key a resumable snapshot reads a table in the order of: the replica identity's columns (the primary key,
 * or the index of REPLICA IDENTITY USING INDEX), or for a resumable snapshot of a table with REPLICA IDENTITY FULL or
 * NOTHING its primary key, with their SQL types and collations, so that the reading order, the lower bound of a resumed read and
 * the comparisons of {@link ResumedRows} all use the same btree order PostgreSQL uses for that key. Immutable.
 *
 * @param columns the key columns in attribute order (pgoutput's order), each with its index in {@link SnapshotTable#columns()}
 */
public record TableKey(TableName table, List<Column> columns) implements TableOrder {

    /**
     * One key column.
     *
     * @param index     its position in the table's published columns (and so in a snapshot row's values)
     * @param type      {@code format_type} of its type, for casts
     * @param collation its collation as a quoted name, or null for a type without one
     */
    public record Column(String name, int index, String type, String collation) {
        /** {@code CAST(value AS type) COLLATE collation}. */
        String cast(String value) {
            return "CAST(" + value + " AS " + type + ")" + (collation == null ? "" : " COLLATE " + collation);
        }
    }

    /** What reads a table in key order, as a message about a table without a usable key names it and the way out. */
    enum Reader {
        RESUMABLE_SNAPSHOT("a resumable snapshot (snapshot.resumable=true, or exactly.once.support=required)",
                "in an order it could resume in after a crash", "or leave it out of the snapshot with snapshot.include.list"),
        INCREMENTAL_SNAPSHOT("an incremental snapshot", "in chunks by key", "or leave it out of the signal's data-collections");

        private final String description;
        private final String how;
        private final String wayOut;

        Reader(String description, String how, String wayOut) {
            this.description = description;
            this.how = how;
            this.wayOut = wayOut;
        }
    }

    public TableKey {
        Objects.requireNonNull(table, "table");
        columns = List.copyOf(columns);
        if (columns.isEmpty()) {
            throw new IllegalArgumentException("a table key has at least one column");
        }
    }

    /**
     * The key of {@code table} as of the reader's snapshot.
     *
     * @param reader what needs the key, for the message
     * @throws SnapshotException {@link Reason#NOT_RESUMABLE} when the table has no unique key {@code reader} can use (no
     *                           primary key or replica identity index; under REPLICA IDENTITY FULL or NOTHING a
     *                           resumable snapshot uses the primary key, an incremental snapshot none), or the
     *                           publication leaves its columns out: its rows have no order that reader could continue in
     */
    static TableKey of(Connection sql, SnapshotTable table, Reader reader) throws SQLException {
        TableKey key = unique(sql, table, reader == Reader.RESUMABLE_SNAPSHOT);
        if (key != null) {
            return key;
        }
        String identity;
        try (PreparedStatement st = sql.prepareStatement("SELECT relreplident FROM pg_class WHERE oid = ?::regclass")) {
            st.setString(1, table.name().quoted());
            try (ResultSet rs = st.executeQuery()) {
                rs.next();
                identity = identity(rs.getString(1));
            }
        }
        if (!keyColumnNames(sql, table, reader == Reader.RESUMABLE_SNAPSHOT).isEmpty()) {
            throw new SnapshotException(Reason.NOT_RESUMABLE, "the publication's column list for table " + table.name()
                    + " leaves out its key columns, so " + reader.description + " cannot read it in key order; publish the key"
                    + " columns, " + reader.wayOut);
        }
        throw new SnapshotException(Reason.NOT_RESUMABLE, "table " + table.name() + " has no primary key (or replica identity"
                + " index) but REPLICA IDENTITY " + identity + ", so " + reader.description + " cannot read"
                + " it " + reader.how + ". Give it a primary key, or ALTER TABLE "
                + table.name().quoted() + " REPLICA IDENTITY USING INDEX <unique index>, " + reader.wayOut);
    }

    /**
     * The table's unique key among its published columns, or null when it has none or the publication leaves a key
     * column out: the primary key under REPLICA IDENTITY DEFAULT, the replica identity index under USING INDEX, and with
     * {@code anyIdentityPrimaryKey} the primary key under FULL (pgoutput then sends whole old rows, which hold it) or
     * NOTHING (pgoutput sends inserts only, whose rows hold it).
     */
    static TableKey unique(Connection sql, SnapshotTable table, boolean anyIdentityPrimaryKey) throws SQLException {
        List<String> names = keyColumnNames(sql, table, anyIdentityPrimaryKey);
        if (names.isEmpty()) {
            return null;
        }
        List<Column> columns = new ArrayList<>();
        try (PreparedStatement st = sql.prepareStatement("SELECT format_type(a.atttypid, a.atttypmod),"
                + " CASE WHEN a.attcollation = 0 THEN NULL ELSE a.attcollation::regcollation::text END"
                + " FROM pg_attribute a WHERE a.attrelid = ?::regclass AND a.attname = ?")) {
            List<RelationColumn> published = table.columns();
            for (int i = 0; i < published.size(); i++) {
                RelationColumn c = published.get(i);
                if (!names.contains(c.name())) {
                    continue;
                }
                st.setString(1, table.name().quoted());
                st.setString(2, c.name());
                try (ResultSet rs = st.executeQuery()) {
                    rs.next();
                    columns.add(new Column(c.name(), i, rs.getString(1), rs.getString(2)));
                }
            }
        }
        return columns.size() == names.size() ? new TableKey(table.name(), columns) : null;
    }

    /** The names of the columns of the table's unique key (see {@link #unique}), published or not; empty without one. */
    private static List<String> keyColumnNames(Connection sql, SnapshotTable table, boolean anyIdentityPrimaryKey) throws SQLException {
        List<String> names = new ArrayList<>();
        try (PreparedStatement st = sql.prepareStatement("SELECT a.attname FROM pg_class c JOIN pg_index i ON i.indrelid = c.oid"
                + " JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = ANY (i.indkey)"
                + " WHERE c.oid = ?::regclass AND ((c.relreplident = 'd' AND i.indisprimary) OR (c.relreplident = 'i' AND i.indisreplident)"
                + " OR (? AND c.relreplident IN ('f', 'n') AND i.indisprimary))")) {
            st.setString(1, table.name().quoted());
            st.setBoolean(2, anyIdentityPrimaryKey);
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    names.add(rs.getString(1));
                }
            }
        }
        return names;
    }

    private static String identity(String relreplident) {
        return switch (relreplident) {
            case "f" -> "FULL";
            case "n" -> "NOTHING";
            case "i" -> "USING INDEX";
            default -> "DEFAULT";
        };
    }

    /** The key values of a snapshot row (values in the table's published column order). */
    public List<String> of(List<String> rowValues) {
        List<String> key = new ArrayList<>(columns.size());
        for (Column c : columns) {
            key.add(rowValues.get(c.index()));
        }
        return key;
    }

    /**
     * The COPY reading the rows of {@code range} in key order. Literals are written as standard-conforming strings (the
     * reader sets {@code standard_conforming_strings}).
     */
    @Override
    public String orderedCopy(SnapshotTable snapshotTable, ResumableProgress.KeyRange range) {
        return orderedCopy(snapshotTable, range, null, 0);
    }

    @Override
    public String sampledKeysCopy(SnapshotTable snapshotTable, double percent) {
        return sampledKeysCopy(snapshotTable, ResumableProgress.KeyRange.ALL, percent);
    }

    @Override
    public int keyWidth() {
        return columns.size();
    }

    @Override
    public int extraColumns() {
        return 0;
    }

    @Override
    public List<String> takeKey(List<String> copied) {
        return of(copied);
    }

    @Override
    public String rowOrder() {
        return null;
    }

    /**
     * Like {@link #orderedCopy(SnapshotTable, ResumableProgress.KeyRange)}, with {@code condition} (an SQL condition, or
     * null) and at most {@code limit} rows (0: all): the COPY of one chunk of an incremental snapshot.
     */
    String orderedCopy(SnapshotTable snapshotTable, List<String> after, String condition, int limit) {
        return orderedCopy(snapshotTable, new ResumableProgress.KeyRange(after, List.of()), condition, limit);
    }

    private String orderedCopy(SnapshotTable snapshotTable, ResumableProgress.KeyRange range, String condition, int limit) {
        String list = snapshotTable.columns().stream().map(c -> quote(c.name())).collect(Collectors.joining(", "));
        List<String> conditions = new ArrayList<>();
        if (snapshotTable.rowFilter() != null) {
            conditions.add(snapshotTable.rowFilter());
        }
        if (condition != null && !condition.isBlank()) {
            conditions.add("(" + condition + ")");
        }
        conditions.addAll(rangeConditions(range));
        return "COPY (SELECT " + list + " FROM " + (snapshotTable.partitioned() ? "" : "ONLY ") + table.quoted()
                + (conditions.isEmpty() ? "" : " WHERE " + String.join(" AND ", conditions)) + " ORDER BY " + keyList()
                + (limit > 0 ? " LIMIT " + limit : "") + ") TO STDOUT";
    }

    /**
     * The COPY of the keys in {@code range} of a sample of about {@code percent} % of the table's blocks
     * ({@code TABLESAMPLE SYSTEM}), in key order: where to split the range into parts of similar size.
     */
    String sampledKeysCopy(SnapshotTable snapshotTable, ResumableProgress.KeyRange range, double percent) {
        List<String> conditions = rangeConditions(range);
        return "COPY (SELECT " + keyList() + " FROM " + (snapshotTable.partitioned() ? "" : "ONLY ") + table.quoted()
                + " TABLESAMPLE SYSTEM (" + percent + ")" + (conditions.isEmpty() ? "" : " WHERE " + String.join(" AND ", conditions))
                + " ORDER BY " + keyList() + ") TO STDOUT";
    }

    private List<String> rangeConditions(ResumableProgress.KeyRange range) {
        List<String> conditions = new ArrayList<>(2);
        if (!range.after().isEmpty()) {
            conditions.add("ROW(" + keyList() + ") > " + literalRow(range.after()));
        }
        if (!range.upTo().isEmpty()) {
            conditions.add("ROW(" + keyList() + ") <= " + literalRow(range.upTo()));
        }
        return conditions;
    }

    private String keyList() {
        return columns.stream().map(c -> quote(c.name())).collect(Collectors.joining(", "));
    }

    private String literalRow(List<String> key) {
        if (key.size() != columns.size()) {
            throw new IllegalArgumentException("a key of " + table + " has " + columns.size() + " values, not " + key.size());
        }
        List<String> bound = new ArrayList<>();
        for (int i = 0; i < columns.size(); i++) {
            bound.add(columns.get(i).cast("'" + key.get(i).replace("'", "''") + "'"));
        }
        return "ROW(" + String.join(", ", bound) + ")";
    }

    /** {@code SELECT ROW(a) > ROW(b)} with the key's casts: 2 × columns parameters, a's values first. */
    String comparison() {
        String left = columns.stream().map(c -> c.cast("?")).collect(Collectors.joining(", "));
        return "SELECT ROW(" + left + ") > ROW(" + left + ")";
    }

    private static String quote(String identifier) {
        return '"' + identifier.replace("\"", "\"\"") + '"';
    }
}
