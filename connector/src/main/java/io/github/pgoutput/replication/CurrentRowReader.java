package io.github.pgoutput.replication;

import io.github.pgoutput.pgoutput.Bytes;
import io.github.pgoutput.pgoutput.ColumnValue;
import io.github.pgoutput.pgoutput.PgOutputMessage.Relation;
import io.github.pgoutput.pgoutput.RelationColumn;
import io.github.pgoutput.pgoutput.Xid;
import io.github.pgoutput.toast.CurrentRows;
import io.github.pgoutput.toast.RowKey;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The reselect of unchanged TOAST values: for one table, one query per batch of keys,
 * {@code SELECT xmin, <key columns>, <columns> FROM <table> WHERE (<key columns>) IN ((...), ...)}, each value read
 * as its type's text output ({@code ::text}, the form pgoutput sends). Keys are compared in the key columns' own types
 * ({@code CAST(? AS <type>)}), so the table's key index serves the lookup.
 *
 * <p>One connection (autocommit, read committed: each query sees what is committed when it runs), opened at the first
 * query and kept; closed with {@link #close()}. A connection that failed is dropped and opened anew at the next
 * query. Not thread-safe.
 */
public final class CurrentRowReader implements CurrentRows {

    /** Keys per query: a statement has at most 65535 parameters. */
    static final int MAX_PARAMETERS = 30_000;

    private final Supplier<ReplicationSettings> settings;
    private Connection connection;
    /** The key columns' type names per table version ({@code format_type}), read once. */
    private final Map<Relation, List<String>> keyTypes = new IdentityHashMap<>();

    public CurrentRowReader(Supplier<ReplicationSettings> settings) {
        this.settings = settings;
    }

    @Override
    public Map<RowKey, Row> read(Relation relation, Collection<String> columns, Collection<RowKey> keys) throws SQLException {
        List<RelationColumn> keyColumns = relation.columns().stream().filter(RelationColumn::partOfKey).toList();
        if (keyColumns.isEmpty() || keys.isEmpty()) {
            return Map.of();
        }
        try {
            Connection c = connection();
            List<String> types = keyTypes(c, relation, keyColumns);
            Map<RowKey, Row> rows = new HashMap<>();
            Set<RowKey> duplicated = new HashSet<>();
            List<RowKey> all = new ArrayList<>(keys);
            int perQuery = Math.max(1, MAX_PARAMETERS / keyColumns.size());
            for (int from = 0; from < all.size(); from += perQuery) {
                List<RowKey> chunk = all.subList(from, Math.min(all.size(), from + perQuery));
                query(c, relation, keyColumns, types, List.copyOf(columns), chunk, rows, duplicated);
            }
            duplicated.forEach(rows::remove);
            return rows;
        } catch (SQLException e) {
            dropConnection();
            throw e;
        }
    }

    private void query(Connection c, Relation relation, List<RelationColumn> keyColumns, List<String> types, List<String> columns,
                       List<RowKey> keys, Map<RowKey, Row> rows, Set<RowKey> duplicated) throws SQLException {
        StringBuilder sql = new StringBuilder("SELECT xmin::text");
        for (RelationColumn key : keyColumns) {
            sql.append(", ").append(Identifiers.quote(key.name())).append("::text");
        }
        for (String column : columns) {
            sql.append(", ").append(Identifiers.quote(column)).append("::text");
        }
        sql.append(" FROM ").append(new TableName(relation.namespace(), relation.relationName()).quoted()).append(" WHERE (");
        for (int i = 0; i < keyColumns.size(); i++) {
            sql.append(i == 0 ? "" : ", ").append(Identifiers.quote(keyColumns.get(i).name()));
        }
        sql.append(") IN (");
        StringBuilder tuple = new StringBuilder("(");
        for (int i = 0; i < types.size(); i++) {
            tuple.append(i == 0 ? "" : ", ").append("CAST(? AS ").append(types.get(i)).append(')');
        }
        tuple.append(')');
        for (int k = 0; k < keys.size(); k++) {
            sql.append(k == 0 ? "" : ", ").append(tuple);
        }
        sql.append(')');
        try (PreparedStatement statement = c.prepareStatement(sql.toString())) {
            int parameter = 1;
            for (RowKey key : keys) {
                for (String value : key.values()) {
                    statement.setString(parameter++, value);
                }
            }
            try (ResultSet result = statement.executeQuery()) {
                while (result.next()) {
                    Xid xmin = Xid.of(Long.parseLong(result.getString(1)));
                    List<String> keyValues = new ArrayList<>(keyColumns.size());
                    for (int i = 0; i < keyColumns.size(); i++) {
                        keyValues.add(result.getString(2 + i));
                    }
                    Map<String, ColumnValue> values = new LinkedHashMap<>();
                    for (int i = 0; i < columns.size(); i++) {
                        String text = result.getString(2 + keyColumns.size() + i);
                        values.put(columns.get(i), text == null ? ColumnValue.Null.INSTANCE : new ColumnValue.Text(Bytes.utf8(text)));
                    }
                    RowKey key = new RowKey(relation.relationId(), keyValues);
                    if (rows.putIfAbsent(key, new Row(xmin, values)) != null) {
                        duplicated.add(key);
                    }
                }
            }
        }
    }

    private List<String> keyTypes(Connection c, Relation relation, List<RelationColumn> keyColumns) throws SQLException {
        List<String> types = keyTypes.get(relation);
        if (types != null) {
            return types;
        }
        types = new ArrayList<>();
        try (PreparedStatement statement = c.prepareStatement("SELECT format_type(?::oid, NULL)")) {
            for (RelationColumn column : keyColumns) {
                statement.setLong(1, column.typeOid());
                try (ResultSet result = statement.executeQuery()) {
                    result.next();
                    types.add(result.getString(1));
                }
            }
        }
        if (keyTypes.size() > 1_000) {
            keyTypes.clear();
        }
        keyTypes.put(relation, types);
        return types;
    }

    private Connection connection() throws SQLException {
        if (connection == null) {
            connection = PgConnections.openSql(settings.get());
            connection.setAutoCommit(true);
        }
        return connection;
    }

    private void dropConnection() {
        Connection c = connection;
        connection = null;
        if (c != null) {
            try {
                c.close();
            } catch (SQLException ignored) {
                // Already broken; a new one is opened at the next query.
            }
        }
    }

    @Override
    public void close() {
        dropConnection();
    }
}
