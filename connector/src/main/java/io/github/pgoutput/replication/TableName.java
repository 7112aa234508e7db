package io.github.pgoutput.replication;

import java.util.Objects;

/**
 * A table named by exact (case-sensitive) schema and table name, as listed for a {@link PublicationMode#FILTERED}
 * publication. Immutable.
 */
public record TableName(String schema, String table) {

    public TableName {
        Identifiers.requireValid(schema, "schema name", Setting.PUBLICATION_TABLES);
        Identifiers.requireValid(table, "table name", Setting.PUBLICATION_TABLES);
    }

    /**
     * Parses {@code schema.table}, or {@code table} for a table in {@code public}. The text is split at the first dot;
     * neither part is case-folded, so {@code Sales.Orders} means the schema {@code Sales}, not {@code sales}.
     *
     * @throws ReplicationSetupException naming the entry when a part is empty or not a valid identifier
     */
    public static TableName parse(String text) {
        Objects.requireNonNull(text, "text");
        String trimmed = text.trim();
        int dot = trimmed.indexOf('.');
        if (dot < 0) {
            return new TableName("public", trimmed);
        }
        return new TableName(trimmed.substring(0, dot), trimmed.substring(dot + 1));
    }

    /** The name as SQL, each part double-quoted: {@code "Sales"."Orders"}. */
    public String quoted() {
        return Identifiers.quote(schema) + "." + Identifiers.quote(table);
    }

    @Override
    public String toString() {
        return schema + "." + table;
    }
}
