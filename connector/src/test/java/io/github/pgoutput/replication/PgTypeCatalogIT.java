package io.github.pgoutput.replication;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.github.pgoutput.replication.CatalogType.Kind;
import io.github.pgoutput.testing.PostgresDatabase;
import io.github.pgoutput.testing.PostgresTest;
import org.junit.jupiter.api.Timeout;

/** The catalog lookup behind user-defined column types, against what live servers hold for the same DDL. */
class PgTypeCatalogIT {

    /** numeric(10,2) as typmod: ((precision << 16) | scale) + VARHDRSZ. */
    private static final int NUMERIC_10_2 = (10 << 16 | 2) + 4;

    private static long oid(PostgresDatabase db, String type) {
        return Long.parseLong(db.queryValue("SELECT '" + type + "'::regtype::oid"));
    }

    @PostgresTest
    @Timeout(60)
    void describesDomainsDownToTheirBuiltInBaseWithTheDomainsModifier(PostgresDatabase db) throws SQLException {
        db.execute("CREATE DOMAIN positive_int AS int4 CHECK (VALUE > 0)",
                "CREATE DOMAIN email AS text",
                "CREATE DOMAIN price AS numeric(10,2) CHECK (VALUE >= 0)",
                "CREATE DOMAIN positive_price AS price CHECK (VALUE > 0)",
                "CREATE DOMAIN int_list AS int4[]",
                "CREATE TABLE t (a positive_int, b positive_price, c positive_int[])");
        long positiveInt = oid(db, "positive_int");
        long price = oid(db, "price");
        long positivePrice = oid(db, "positive_price");
        long positiveIntArray = oid(db, "positive_int[]");

        Map<Long, CatalogType> found = TypeCatalog.of(LiveStreams.settings(db, "unused", "unused").build())
                .describe(Set.of(positiveInt, oid(db, "email"), positivePrice, oid(db, "int_list"), positiveIntArray));

        assertThat(found.get(positiveInt)).isEqualTo(new CatalogType(positiveInt, "public", "positive_int", Kind.DOMAIN, 23, -1, 0,
                List.of()));
        assertThat(found.get(oid(db, "email"))).extracting(CatalogType::kind, CatalogType::baseTypeOid).containsExactly(Kind.DOMAIN, 25L);
        // A domain over a domain names the inner one, which the lookup brings along with the modifier it holds.
        assertThat(found.get(positivePrice)).extracting(CatalogType::baseTypeOid, CatalogType::baseTypeModifier).containsExactly(price, -1);
        assertThat(found.get(price)).extracting(CatalogType::kind, CatalogType::baseTypeOid, CatalogType::baseTypeModifier)
                .containsExactly(Kind.DOMAIN, 1700L, NUMERIC_10_2);
        assertThat(found.get(oid(db, "int_list"))).extracting(CatalogType::baseTypeOid).isEqualTo(1007L);
        assertThat(found.get(positiveIntArray)).isEqualTo(new CatalogType(positiveIntArray, "public", "_positive_int", Kind.ARRAY, 0, -1,
                positiveInt, List.of()));
        assertThat(found).hasSize(6);
        // pgoutput's Relation message sends atttypmod: a domain column has none of its own, so the domain's must be used.
        assertThat(db.query("SELECT atttypmod FROM pg_attribute WHERE attrelid = 't'::regclass AND attnum > 0"))
                .containsOnly(List.of("-1"));
    }

    @PostgresTest
    @Timeout(60)
    void describesEnumsWithLabelsInSortOrderAndOtherTypesByTheirKind(PostgresDatabase db) throws SQLException {
        db.execute("CREATE SCHEMA \"Odd Schema\"",
                "CREATE TYPE \"Odd Schema\".mood AS ENUM ('sad', 'happy')",
                "ALTER TYPE \"Odd Schema\".mood ADD VALUE 'ok' BEFORE 'happy'",
                "CREATE TYPE pair AS (a int, b text)",
                "CREATE TYPE floatrange AS RANGE (subtype = float8)");
        long mood = oid(db, "\"Odd Schema\".mood");

        Map<Long, CatalogType> found = TypeCatalog.of(LiveStreams.settings(db, "unused", "unused").build())
                .describe(Set.of(mood, oid(db, "\"Odd Schema\".mood[]"), oid(db, "pair"), oid(db, "floatrange"), 4_000_000_000L));

        assertThat(found.get(mood)).isEqualTo(new CatalogType(mood, "Odd Schema", "mood", Kind.ENUM, 0, -1, 0,
                List.of("sad", "ok", "happy")));
        assertThat(found.get(oid(db, "\"Odd Schema\".mood[]"))).extracting(CatalogType::kind, CatalogType::elementOid)
                .containsExactly(Kind.ARRAY, mood);
        assertThat(found.get(oid(db, "pair")).kind()).isEqualTo(Kind.COMPOSITE);
        assertThat(found.get(oid(db, "floatrange")).kind()).isEqualTo(Kind.BASE);
        assertThat(found).as("an OID without a pg_type row is left out").doesNotContainKey(4_000_000_000L).hasSize(4);
    }

    @PostgresTest(representative = 16)
    @Timeout(60)
    void aCatalogThatCannotBeReadRaisesTheServersError(PostgresDatabase db) {
        db.execute("CREATE ROLE no_login NOLOGIN");
        TypeCatalog refused = TypeCatalog.of(ReplicationSettings.builder(db.host(), db.port(), db.name(), "no_login", "unused",
                "unused").build());

        assertThatThrownBy(() -> refused.describe(Set.of(16_384L))).isInstanceOfSatisfying(SQLException.class,
                e -> assertThat(e.getSQLState()).isEqualTo("28000"));
    }
}
