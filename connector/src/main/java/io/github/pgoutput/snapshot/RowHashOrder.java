package io.github.pgoutput.snapshot;

import io.github.pgoutput.pgoutput.RelationColumn;
import io.github.pgoutput.replication.TableName;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * The order a resumable snapshot reads a table without a unique key in: by the SHA-256 of each row's published
 * columns in their binary send form ({@code record_send}), as lower-case hex. Immutable.
 *
 * <p>Why this order survives a restart: a row's hash is a function of its values only, so the rows a position names
 * as still to read (hashes above each range's last one read) are the same rows in any later exported snapshot, and a
 * streamed change (whose whole row pgoutput sends: new rows always, old rows under REPLICA IDENTITY FULL) is placed
 * before or after the position by hashing its row the same way ({@link #streamHashQuery()}). Neither the physical
 * position (ctid: updates and VACUUM move rows, and pgoutput sends none) nor the text of the columns (timestamptz,
 * ranges of it and money print by session settings) would be. The binary form is independent of the session, and a
 * change's text values cast back to their types give the stored values again (PostgreSQL 12+ prints floats exactly).
 * A type without a binary send function is hashed by its text instead.
 *
 * <p>Rows with equal hashes (identical rows, and in theory a collision) form one group, which the snapshot hands out
 * and commits whole; equal hashes never need telling apart, so a collision costs only a larger group.
 *
 * <p>The hash depends on the column list: {@link #fingerprint} names it (names, types, type modifiers), and a position
 * carries it, so that a resumption after the table's columns changed is refused instead of comparing hashes of two
 * different functions.
 */
public final class RowHashOrder implements TableOrder {

    /** The hash function's version, the start of every fingerprint: a future other function is another order. */
    private static final String VERSION = "h1";
    /** Compares as the hashes are sorted: byte-wise, like Java's compareTo on lower-case hex. */
    private static final String BYTEWISE = " COLLATE \"C\"";

    /**
     * One hashed column.
     *
     * @param type   {@code format_type} of its type with its modifier, for the casts of streamed values
     * @param asText true for a type without a binary send function, hashed by its text output
     */
    record Hashed(String name, String type, boolean asText) {
    }

    private final TableName table;
    private final List<Hashed> columns;
    private final String fingerprint;

    RowHashOrder(TableName table, List<Hashed> columns, String fingerprint) {
        this.table = Objects.requireNonNull(table, "table");
        this.columns = List.copyOf(columns);
        this.fingerprint = Objects.requireNonNull(fingerprint, "fingerprint");
    }

    /** The order of {@code table} with the published {@code columns} (a snapshot's, or a Relation message's). */
    static RowHashOrder of(Connection sql, TableName table, List<RelationColumn> columns) throws SQLException {
        List<Hashed> hashed = new ArrayList<>(columns.size());
        // A type without a send function, or an array of one: record_send would fail on its values.
        try (PreparedStatement st = sql.prepareStatement("SELECT format_type(t.oid, ?), t.typsend = 0 OR EXISTS (SELECT 1"
                + " FROM pg_type e WHERE e.oid = t.typelem AND t.typsubscript = 'array_subscript_handler'::regproc AND e.typsend = 0)"
                + " FROM pg_type t WHERE t.oid = ?")) {
            for (RelationColumn c : columns) {
                st.setInt(1, c.typeModifier());
                st.setLong(2, c.typeOid());
                try (ResultSet rs = st.executeQuery()) {
                    if (!rs.next()) {
                        throw new SnapshotException(SnapshotException.Reason.READ_FAILED, "column " + c.name() + " of table " + table
                                + " has type oid " + c.typeOid() + ", which pg_type does not list");
                    }
                    hashed.add(new Hashed(c.name(), rs.getString(1), rs.getBoolean(2)));
                }
            }
        }
        return new RowHashOrder(table, hashed, fingerprint(columns));
    }

    /**
     * {@code h1-} and 16 hex digits of the SHA-256 of the columns' names, type oids and modifiers, in order: equal for
     * a snapshot's description and a Relation message of the same columns. Pure.
     */
    public static String fingerprint(List<RelationColumn> columns) {
        StringBuilder text = new StringBuilder();
        for (RelationColumn c : columns) {
            text.append(c.name()).append('\u0000').append(c.typeOid()).append('\u0000').append(c.typeModifier()).append('\u0001');
        }
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(text.toString().getBytes(StandardCharsets.UTF_8));
            return VERSION + "-" + HexFormat.of().formatHex(digest, 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }

    /** The hash of the row whose column values are the SQL expressions {@code values}, in column order. */
    private String hash(List<String> values) {
        List<String> parts = new ArrayList<>(values.size());
        for (int i = 0; i < values.size(); i++) {
            parts.add(columns.get(i).asText() ? "(" + values.get(i) + ")::text" : values.get(i));
        }
        return "encode(sha256(record_send(ROW(" + String.join(", ", parts) + "))), 'hex')";
    }

    /**
     * The table's published columns and its rows' hashes as a subquery with the columns renamed {@code h, c1, ...}, so
     * that no column of the table can clash with the hash's name.
     */
    private String hashedRows(SnapshotTable snapshotTable, String sample) {
        List<String> quoted = snapshotTable.columns().stream().map(c -> quote(c.name())).toList();
        String from = (snapshotTable.partitioned() ? "" : "ONLY ") + table.quoted() + sample
                + (snapshotTable.rowFilter() == null ? "" : " WHERE " + snapshotTable.rowFilter());
        String aliases = IntStream.rangeClosed(1, quoted.size()).mapToObj(i -> ", c" + i).collect(Collectors.joining());
        return "(SELECT " + hash(quoted) + (quoted.isEmpty() ? "" : ", " + String.join(", ", quoted)) + " FROM " + from
                + ") AS s(h" + aliases + ")";
    }

    @Override
    public String orderedCopy(SnapshotTable snapshotTable, ResumableProgress.KeyRange range) {
        requireColumns(snapshotTable);
        List<String> conditions = new ArrayList<>(2);
        if (!range.after().isEmpty()) {
            conditions.add("h" + BYTEWISE + " > " + literal(range.after()));
        }
        if (!range.upTo().isEmpty()) {
            conditions.add("h" + BYTEWISE + " <= " + literal(range.upTo()));
        }
        String list = IntStream.rangeClosed(1, columns.size()).mapToObj(i -> "c" + i + ", ").collect(Collectors.joining());
        return "COPY (SELECT " + list + "h FROM " + hashedRows(snapshotTable, "")
                + (conditions.isEmpty() ? "" : " WHERE " + String.join(" AND ", conditions)) + " ORDER BY h" + BYTEWISE + ") TO STDOUT";
    }

    @Override
    public String sampledKeysCopy(SnapshotTable snapshotTable, double percent) {
        requireColumns(snapshotTable);
        return "COPY (SELECT DISTINCT h" + BYTEWISE + " FROM " + hashedRows(snapshotTable, " TABLESAMPLE SYSTEM (" + percent + ")")
                + " ORDER BY 1) TO STDOUT";
    }

    /** The order was made for this table's columns: a COPY must hash the same ones. */
    private void requireColumns(SnapshotTable snapshotTable) {
        if (!snapshotTable.name().equals(table) || !fingerprint(snapshotTable.columns()).equals(fingerprint)) {
            throw new IllegalArgumentException("the row order of " + table + " (" + fingerprint + ") does not fit the columns of "
                    + snapshotTable.name() + " (" + fingerprint(snapshotTable.columns()) + ")");
        }
    }

    /** A hash as an SQL literal: it is lower-case hex, so it needs no escaping, but it comes from a stored offset. */
    private static String literal(List<String> key) {
        String hash = key.get(0);
        if (key.size() != 1 || !hash.matches("[0-9a-f]{64}")) {
            throw new IllegalArgumentException("not a row hash: " + key);
        }
        return "'" + hash + "'";
    }

    @Override
    public int keyWidth() {
        return 1;
    }

    @Override
    public int extraColumns() {
        return 1;
    }

    @Override
    public List<String> takeKey(List<String> copied) {
        return List.of(copied.remove(copied.size() - 1));
    }

    @Override
    public String rowOrder() {
        return fingerprint;
    }

    public String fingerprint() {
        return fingerprint;
    }

    /**
     * {@code SELECT} of the hash of one row given as one text parameter per column, in column order, each cast to its
     * type (SQL NULL for a NULL value): the row of a streamed change, hashed as the snapshot hashed the table's rows.
     */
    String streamHashQuery() {
        List<String> casts = columns.stream().map(c -> "CAST(? AS " + c.type() + ")").toList();
        return "SELECT " + hash(casts);
    }

    /** The names of the hashed columns, in order. */
    List<String> columnNames() {
        return columns.stream().map(Hashed::name).toList();
    }

    /**
     * The refusal of a group of {@code rows} identical rows (equal hashes) of {@code table}, more than {@code limit}
     * ({@code transaction.max.records}): a resumed read could not tell which of them Kafka has, so they are written in
     * one Kafka transaction, under any {@code transaction.boundary}. Thrown before any row of the group is handed out.
     */
    static SnapshotException tooManyIdenticalRows(TableName table, TableOrder order, int limit, long rows) {
        if (!(order instanceof RowHashOrder)) {
            throw new IllegalStateException("a unique key has one row per key, but " + table + " has " + rows + " with one key");
        }
        return new SnapshotException(SnapshotException.Reason.NOT_RESUMABLE, "table " + table + " has no unique key and " + rows
                + " identical rows (equal in every published column), more than transaction.max.records=" + limit + ". A resumable"
                + " snapshot reads such a table in the order of its rows' hashes and cannot tell identical rows apart after a"
                + " restart, so it writes them in one Kafka transaction, under any transaction.boundary (a transaction of"
                + " snapshot rows ends with a poll, and Connect keeps its records in the worker's heap until it commits). Raise"
                + " transaction.max.records to at least " + rows + " with the worker's heap, give the table a primary key, or"
                + " leave it out with snapshot.include.list. Nothing of these rows was written");
    }

    private static String quote(String identifier) {
        return '"' + identifier.replace("\"", "\"\"") + '"';
    }

    /** Whether {@code hash} lies in {@code range}: the hex text's order is the bytes' order, as the snapshot sorted. Pure. */
    static boolean inRange(String hash, ResumableProgress.KeyRange range) {
        return (range.after().isEmpty() || hash.compareTo(range.after().get(0)) > 0)
                && (range.upTo().isEmpty() || hash.compareTo(range.upTo().get(0)) <= 0);
    }
}
