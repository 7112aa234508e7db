package io.github.pgoutput.connect.record;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.pgoutput.connect.ErrorClassifier;
import io.github.pgoutput.converters.ConverterOptions;
import io.github.pgoutput.converters.PgColumnType;
import io.github.pgoutput.converters.PostgresTypeMapper;
import io.github.pgoutput.pgoutput.PgOutputMessage.Relation;
import io.github.pgoutput.pgoutput.RelationColumn;
import io.github.pgoutput.pgoutput.ReplicaIdentity;
import io.github.pgoutput.pgoutput.Xid;
import io.github.pgoutput.replication.CatalogType.Kind;
import io.github.pgoutput.replication.CatalogType;
import io.github.pgoutput.replication.TypeCatalog;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.errors.RetriableException;
import org.junit.jupiter.api.Test;

/**
 * How catalog rows become column types. The rows are what {@code PgTypeCatalogIT} reads from live servers for the same
 * DDL; the catalog here is a map, so the test is about the mapping decision alone.
 */
class ColumnTypesTest {

    private static final long INT4 = 23;
    private static final long TEXT = 25;
    private static final long NUMERIC = 1700;
    /** numeric(10,2): ((10 << 16) | 2) + 4. */
    private static final int NUMERIC_10_2 = (10 << 16 | 2) + 4;

    private static final CatalogType POSITIVE_INT = domain(16400, "positive_int", INT4, -1);
    private static final CatalogType PRICE = domain(16401, "price", NUMERIC, NUMERIC_10_2);
    private static final CatalogType POSITIVE_PRICE = domain(16402, "positive_price", 16401, -1);
    private static final CatalogType POSITIVE_INT_ARRAY = new CatalogType(16403, "public", "_positive_int", Kind.ARRAY, 0, -1,
            16400, List.of());
    private static final CatalogType MOOD = new CatalogType(16404, "public", "mood", Kind.ENUM, 0, -1, 0, List.of("sad", "happy"));
    private static final CatalogType EMAIL = domain(16405, "email", TEXT, -1);

    private final PostgresTypeMapper mapper = new PostgresTypeMapper(ConverterOptions.DEFAULTS);
    private final List<Set<Long>> lookups = new ArrayList<>();

    private static CatalogType domain(long oid, String name, long base, int baseTypmod) {
        return new CatalogType(oid, "public", name, Kind.DOMAIN, base, baseTypmod, 0, List.of());
    }

    /** A catalog holding {@code rows}; like the real one, it returns the asked-for types and the user types below them. */
    private TypeCatalog catalog(CatalogType... rows) {
        Map<Long, CatalogType> all = new HashMap<>();
        for (CatalogType row : rows) {
            all.put(row.oid(), row);
        }
        return oids -> {
            lookups.add(Set.copyOf(oids));
            Map<Long, CatalogType> found = new HashMap<>();
            List<Long> pending = new ArrayList<>(oids);
            while (!pending.isEmpty()) {
                CatalogType row = all.get(pending.remove(0));
                if (row != null && found.put(row.oid(), row) == null) {
                    for (long below : new long[] {row.baseTypeOid(), row.elementOid()}) {
                        if (below >= TypeCatalog.FIRST_USER_OID) {
                            pending.add(below);
                        }
                    }
                }
            }
            return found;
        };
    }

    private static Relation table(long... typeOids) {
        List<RelationColumn> columns = new ArrayList<>();
        for (int i = 0; i < typeOids.length; i++) {
            columns.add(new RelationColumn(i == 0, "c" + i, typeOids[i], -1));
        }
        return new Relation(Xid.INVALID, 16500, "public", "t", ReplicaIdentity.DEFAULT, columns);
    }

    private Schema schemaOf(PgColumnType type) {
        return mapper.converterFor(type).schema(true);
    }

    @Test
    void domainsConvertAsTheirBaseTypeWithTheDomainsModifier() {
        ColumnTypes types = new ColumnTypes(catalog(POSITIVE_INT, PRICE, POSITIVE_PRICE, EMAIL));

        List<PgColumnType> columns = types.of(table(INT4, 16400, 16401, 16402, 16405));

        assertThat(columns.get(1).kind()).isEqualTo(new PgColumnType.Domain(PgColumnType.builtIn((int) INT4, -1)));
        assertThat(columns.get(1).qualifiedName()).isEqualTo("public.positive_int");
        assertThat(schemaOf(columns.get(1)).type()).isEqualTo(Schema.Type.INT32);
        assertThat(schemaOf(columns.get(2)).name()).isEqualTo(Decimal.LOGICAL_NAME);
        assertThat(schemaOf(columns.get(2)).parameters()).containsEntry(Decimal.SCALE_FIELD, "2");
        // A domain over a domain: the inner domain's modifier reaches numeric.
        assertThat(schemaOf(columns.get(3)).parameters()).containsEntry(Decimal.SCALE_FIELD, "2");
        assertThat(mapper.converterFor(columns.get(3)).fromText("12.3")).isEqualTo(new java.math.BigDecimal("12.30"));
        assertThat(schemaOf(columns.get(4)).type()).isEqualTo(Schema.Type.STRING);
        assertThat(schemaOf(columns.get(4)).name()).isNull();
    }

    @Test
    void arraysOfDomainsAreArraysOfTheBaseTypeAndEnumsKeepTheirLabels() {
        ColumnTypes types = new ColumnTypes(catalog(POSITIVE_INT, POSITIVE_INT_ARRAY, MOOD));

        List<PgColumnType> columns = types.of(table(INT4, 16403, 16404));

        Schema array = schemaOf(columns.get(1));
        assertThat(array.type()).isEqualTo(Schema.Type.ARRAY);
        assertThat(array.valueSchema().type()).isEqualTo(Schema.Type.INT32);
        assertThat(mapper.converterFor(columns.get(1)).fromText("{1,NULL,2147483647}")).isEqualTo(
                java.util.Arrays.asList(1, null, Integer.MAX_VALUE));
        assertThat(columns.get(2).kind()).isEqualTo(new PgColumnType.Enum(List.of("sad", "happy")));
        assertThat(schemaOf(columns.get(2)).type()).isEqualTo(Schema.Type.STRING);
    }

    @Test
    void readsATablesUserTypesOnceForEachNewSchemaOfTheTable() {
        ColumnTypes types = new ColumnTypes(catalog(POSITIVE_INT, PRICE));

        types.of(table(INT4, 16400, 16401, 16400));
        types.of(table(INT4, 16400, 16401, TEXT));
        types.of(table(INT4, TEXT));

        assertThat(lookups).containsExactly(Set.of(16400L, 16401L), Set.of(16400L, 16401L));
    }

    @Test
    void aTypeTheCatalogNoLongerHasIsConvertedThroughItsTextForm() {
        ColumnTypes types = new ColumnTypes(catalog());

        PgColumnType dropped = types.of(table(INT4, 16999)).get(1);

        assertThat(dropped.kind()).isEqualTo(new PgColumnType.Unknown());
        assertThat(mapper.converterFor(dropped).fromText("(1,x)")).isEqualTo("(1,x)");
    }

    @Test
    void aLostCatalogConnectionIsRetriableAndOtherCatalogErrorsStopTheTask() {
        ColumnTypes lost = new ColumnTypes(oids -> {
            throw new SQLException("Connection refused", "08001");
        });
        ColumnTypes denied = new ColumnTypes(oids -> {
            throw new SQLException("permission denied for table pg_type", "42501");
        });

        // The record builder reports what it was reading; the task's classifier decides by the SQLState.
        assertThatThrownBy(() -> lost.of(table(INT4, 16400))).isInstanceOf(CatalogReadException.class)
                .hasMessageContaining("reading the column types [16400] of table public.t from pg_type failed: Connection refused")
                .satisfies(e -> assertThat(ErrorClassifier.classify("streaming", e)).isInstanceOf(RetriableException.class)
                        .hasMessageContaining("reading the column types [16400] of table public.t from pg_type failed"));
        assertThatThrownBy(() -> denied.of(table(INT4, 16400))).isInstanceOf(CatalogReadException.class)
                .hasMessageContaining("permission denied")
                .satisfies(e -> assertThat(ErrorClassifier.classify("streaming", e)).isExactlyInstanceOf(ConnectException.class));
    }

    @Test
    void builtInTypesNeedNoCatalog() {
        ColumnTypes types = new ColumnTypes(oids -> {
            throw new SQLException("must not be asked");
        });

        assertThat(types.of(table(INT4, TEXT, NUMERIC))).extracting(PgColumnType::name).containsExactly("int4", "text", "numeric");
    }
}
