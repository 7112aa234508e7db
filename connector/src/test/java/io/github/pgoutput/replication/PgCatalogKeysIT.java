package io.github.pgoutput.replication;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.SQLException;
import java.util.List;
import java.util.Optional;

import io.github.pgoutput.testing.PostgresDatabase;
import io.github.pgoutput.testing.PostgresTest;
import org.junit.jupiter.api.Timeout;

/** The catalog lookup behind record keys: primary key and replica identity index by table OID, on live servers. */
class PgCatalogKeysIT {

    private static long oid(PostgresDatabase db, String table) {
        return Long.parseLong(db.queryValue("SELECT '" + table + "'::regclass::oid"));
    }

    @PostgresTest
    @Timeout(60)
    void readsPrimaryKeyAndReplicaIdentityIndexKeyColumnsWithoutIncludeColumns(PostgresDatabase db) throws SQLException {
        db.execute("CREATE TABLE pk (b text, a bigint, note text, PRIMARY KEY (a, b) INCLUDE (note))",
                "ALTER TABLE pk REPLICA IDENTITY FULL",
                "CREATE TABLE ri (id bigint, code text NOT NULL, note text)",
                "CREATE UNIQUE INDEX ri_code ON ri (code)",
                "ALTER TABLE ri REPLICA IDENTITY USING INDEX ri_code",
                "CREATE TABLE both_keys (id bigint PRIMARY KEY, code text NOT NULL UNIQUE)",
                "ALTER TABLE both_keys REPLICA IDENTITY USING INDEX both_keys_code_key",
                "CREATE TABLE bare (a int, note text)",
                "ALTER TABLE bare REPLICA IDENTITY FULL",
                "CREATE TABLE parted (id bigint PRIMARY KEY, note text) PARTITION BY RANGE (id)");
        TypeCatalog catalog = TypeCatalog.of(LiveStreams.settings(db, "unused", "unused").build());

        assertKeys(catalog.tableKey(oid(db, "pk")), List.of("b", "a"), List.of());
        assertKeys(catalog.tableKey(oid(db, "ri")), List.of(), List.of("code"));
        assertKeys(catalog.tableKey(oid(db, "both_keys")), List.of("id"), List.of("code"));
        assertKeys(catalog.tableKey(oid(db, "bare")), List.of(), List.of());
        assertKeys(catalog.tableKey(oid(db, "parted")), List.of("id"), List.of());
    }

    private static void assertKeys(Optional<CatalogKey> key, List<String> primaryKey, List<String> replicaIdentityIndex) {
        assertThat(key).hasValueSatisfying(k -> {
            assertThat(k.primaryKey()).isEqualTo(primaryKey);
            assertThat(k.replicaIdentityIndex()).isEqualTo(replicaIdentityIndex);
        });
    }

    @PostgresTest
    @Timeout(60)
    void readsEachLiveColumnsNotNullAndDefaultInColumnOrder(PostgresDatabase db) throws SQLException {
        db.execute("CREATE DOMAIN positive AS int NOT NULL CHECK (VALUE > 0)",
                "CREATE TABLE cols (id serial PRIMARY KEY, dropped int, name text NOT NULL DEFAULT 'it''s', at timestamptz"
                        + " DEFAULT now(), n positive, plain numeric(5,2))",
                "ALTER TABLE cols DROP COLUMN dropped");
        TypeCatalog catalog = TypeCatalog.of(LiveStreams.settings(db, "unused", "unused").build());

        CatalogKey cols = catalog.tableKey(oid(db, "cols")).orElseThrow();

        assertThat(cols.columns()).containsExactly(
                new CatalogColumn("id", true, "nextval('cols_id_seq'::regclass)"),
                new CatalogColumn("name", true, "'it''s'::text"),
                new CatalogColumn("at", false, "now()"),
                new CatalogColumn("n", true, null),
                new CatalogColumn("plain", false, null));
    }

    @PostgresTest
    @Timeout(60)
    void aDroppedTableIsNotFound(PostgresDatabase db) throws SQLException {
        db.execute("CREATE TABLE gone (id bigint PRIMARY KEY)");
        long gone = oid(db, "gone");
        db.execute("DROP TABLE gone");

        assertThat(TypeCatalog.of(LiveStreams.settings(db, "unused", "unused").build()).tableKey(gone)).isEqualTo(Optional.empty());
    }
}
