package io.github.pgoutput.replication;

import java.util.Locale;
import java.util.Objects;

/**
 * A table's replica identity, which decides the old values an update or delete carries in the WAL: {@code DEFAULT}
 * (the primary key's columns), {@code FULL} (every column), {@code NOTHING}, or {@code USING INDEX} a unique index.
 * Immutable.
 *
 * @param kind      which identity
 * @param indexName the index, for {@link Kind#INDEX} only (as stored in the catalog); null otherwise
 */
public record ReplicaIdentity(Kind kind, String indexName) {

    /** The identities, with the letter {@code pg_class.relreplident} stores for each. */
    public enum Kind {
        DEFAULT('d'), FULL('f'), NOTHING('n'), INDEX('i');

        private final char catalogLetter;

        Kind(char catalogLetter) {
            this.catalogLetter = catalogLetter;
        }

        static Kind ofCatalogLetter(char letter) {
            for (Kind kind : values()) {
                if (kind.catalogLetter == letter) {
                    return kind;
                }
            }
            throw new IllegalArgumentException("relreplident '" + letter + "' is none of d, f, n, i");
        }
    }

    public ReplicaIdentity {
        Objects.requireNonNull(kind, "kind");
        if ((kind == Kind.INDEX) != (indexName != null)) {
            throw new IllegalArgumentException("an index name goes with INDEX, and only with it: " + kind + " " + indexName);
        }
    }

    public static ReplicaIdentity of(Kind kind) {
        return new ReplicaIdentity(kind, null);
    }

    public static ReplicaIdentity usingIndex(String indexName) {
        return new ReplicaIdentity(Kind.INDEX, Objects.requireNonNull(indexName, "indexName"));
    }

    /** The clause after {@code ALTER TABLE ... REPLICA IDENTITY}, with the index name quoted. */
    String sql() {
        return kind == Kind.INDEX ? "USING INDEX " + Identifiers.quote(indexName) : kind.name();
    }

    /** As a user writes it: {@code FULL}, {@code INDEX orders_pk}. */
    @Override
    public String toString() {
        return kind == Kind.INDEX ? "INDEX " + indexName : kind.name().toUpperCase(Locale.ROOT);
    }
}
