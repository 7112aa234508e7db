package io.github.pgoutput.connect.record;

import static io.github.pgoutput.connect.Deliveries.assemble;
import static io.github.pgoutput.connect.Deliveries.concat;
import static io.github.pgoutput.connect.Deliveries.transaction;
import static io.github.pgoutput.connect.Deliveries.tuple;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.pgoutput.connect.Deliveries;
import io.github.pgoutput.connect.config.ColumnMapperKeys;
import io.github.pgoutput.connect.config.CustomConverterKeys;
import io.github.pgoutput.connect.record.ChangeRecordBuilder.Draft;
import io.github.pgoutput.connect.shaping.ColumnMappers;
import io.github.pgoutput.connect.shaping.ColumnSelection;
import io.github.pgoutput.connect.shaping.ColumnShaping;
import io.github.pgoutput.connect.shaping.CustomConverters;
import io.github.pgoutput.connect.shaping.RegexList;
import io.github.pgoutput.connect.shaping.UpperCaseConverter;
import io.github.pgoutput.converters.BinaryHandlingMode;
import io.github.pgoutput.converters.ConverterOptions;
import io.github.pgoutput.converters.PostgresTypeMapper;
import io.github.pgoutput.pgoutput.Lsn;
import io.github.pgoutput.pgoutput.OldTuple;
import io.github.pgoutput.pgoutput.PgOutputMessage.Delete;
import io.github.pgoutput.pgoutput.PgOutputMessage.Insert;
import io.github.pgoutput.pgoutput.PgOutputMessage.Relation;
import io.github.pgoutput.pgoutput.PgOutputMessage;
import io.github.pgoutput.pgoutput.RelationColumn;
import io.github.pgoutput.pgoutput.ReplicaIdentity;
import io.github.pgoutput.pgoutput.Xid;
import io.github.pgoutput.replication.CatalogColumn;
import io.github.pgoutput.replication.CatalogKey;
import io.github.pgoutput.replication.CatalogType;
import io.github.pgoutput.replication.TableName;
import io.github.pgoutput.replication.TypeCatalog;
import io.github.pgoutput.snapshot.SnapshotRow;
import io.github.pgoutput.snapshot.SnapshotTable;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.json.JsonConverter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Debezium's column keys on the records of one table, streamed and snapshot: what leaves the value stays in the key,
 * mappers change the value and never the key, custom converters replace a column in both, and the JSON that
 * {@code direct.encoding} writes is still JsonConverter's, byte for byte.
 */
class ShapedRecordsTest {

    private static final long INT8 = 20;
    private static final long TEXT = 25;
    private static final long BOOL = 16;
    private static final long NUMERIC = 1700;

    @TempDir
    Path spill;

    /** people (id bigint PRIMARY KEY, email text NOT NULL DEFAULT 'none', ssn text, active bool, score numeric). */
    private static Relation people() {
        return new Relation(Xid.INVALID, 16400, "public", "people", ReplicaIdentity.DEFAULT, List.of(
                new RelationColumn(true, "id", INT8, -1), new RelationColumn(false, "email", TEXT, -1),
                new RelationColumn(false, "ssn", TEXT, -1), new RelationColumn(false, "active", BOOL, -1),
                new RelationColumn(false, "score", NUMERIC, -1)));
    }

    private static final CatalogKey CATALOG = new CatalogKey(16400, List.of("id"), List.of(), List.of(
            new CatalogColumn("id", true, null), new CatalogColumn("email", true, "'none'::text"),
            new CatalogColumn("ssn", false, null), new CatalogColumn("active", false, null),
            new CatalogColumn("score", false, null)));

    private static ChangeRecordBuilder builder(ColumnShaping shaping) {
        TypeCatalog catalog = new TypeCatalog() {
            @Override
            public Map<Long, CatalogType> describe(Set<Long> oids) throws SQLException {
                throw new SQLException("built-in types only");
            }

            @Override
            public Optional<CatalogKey> tableKey(long relationId) {
                return Optional.of(CATALOG);
            }
        };
        ChangeRecordBuilder.Options options = new ChangeRecordBuilder.Options(LifecycleHeaders.Context.NONE, Set.of(),
                BinaryHandlingMode.BYTES, prefix -> true, RecordEncoder.STRUCTS, shaping);
        return new ChangeRecordBuilder("shop", "inventory", "1.0", new TopicNames("shop", "__heartbeat"), new AvroNames("shop"),
                new PostgresTypeMapper(ConverterOptions.DEFAULTS), new ColumnTypes(catalog), true, (s, t) -> true,
                MessageKeyColumns.NONE, false, options);
    }

    private static ColumnShaping shaping(ColumnSelection selection, Map<String, String> keys) {
        return new ColumnShaping(selection, ColumnMapperKeys.mappers(keys), CustomConverters.NONE);
    }

    private List<Draft> build(ChangeRecordBuilder builder, PgOutputMessage... body) {
        List<Draft> drafts = new ArrayList<>();
        for (Deliveries.Read read : assemble(spill, concat(new PgOutputMessage[] {people()}, transaction(700, 0x5000, body)))) {
            for (var change : read.changes()) {
                drafts.addAll(builder.build(change, read.delivery()));
            }
        }
        return drafts;
    }

    private static Draft snapshot(ChangeRecordBuilder builder, String... values) {
        SnapshotTable table = new SnapshotTable(new TableName("public", "people"), 16400, people().columns(), 0, false, null);
        return builder.snapshotRow(new SnapshotRow(table, Arrays.asList(values), true, true, SnapshotRow.Marker.LAST),
                Lsn.of(0x4000));
    }

    private static Struct after(Draft draft) {
        return ((Struct) draft.value()).getStruct("after");
    }

    private static Struct before(Draft draft) {
        return ((Struct) draft.value()).getStruct("before");
    }

    @Test
    void anExcludedColumnLeavesBeforeAndAfterButAKeyColumnStaysInTheKey() {
        ChangeRecordBuilder builder = builder(shaping(ColumnSelection.excluding(RegexList.parse("public\\.people\\.(ssn|id)")),
                Map.of()));

        Draft streamed = build(builder, new Insert(Xid.INVALID, 16400, tuple("7", "a@b.c", "123-45", "t", "1.5"))).get(0);
        Draft snapshot = snapshot(builder, "8", "x@y.z", "999-99", "f", "2");

        for (Draft draft : List.of(streamed, snapshot)) {
            Schema row = draft.valueSchema().field("after").schema();
            assertThat(row.fields()).extracting(f -> f.name()).containsExactly("email", "active", "score");
            assertThat(draft.keySchema().field("id").schema().isOptional()).as("required, as the catalog says").isFalse();
        }
        assertThat(((Struct) streamed.key()).get("id")).isEqualTo(7L);
        assertThat(((Struct) snapshot.key()).get("id")).as("the row's own key, not a placeholder").isEqualTo(8L);
        assertThat(after(snapshot).schema()).isSameAs(after(streamed).schema());
    }

    @Test
    void anIncludeListKeepsItsColumnsAndTheKey() {
        ChangeRecordBuilder builder = builder(shaping(ColumnSelection.including(RegexList.parse("PUBLIC\\.PEOPLE\\.EMAIL")),
                Map.of()));

        Draft draft = build(builder, new Insert(Xid.INVALID, 16400, tuple("7", "a@b.c", "123-45", "t", "1.5"))).get(0);

        assertThat(after(draft).schema().fields()).extracting(f -> f.name()).containsExactly("email");
        assertThat(((Struct) draft.key()).get("id")).isEqualTo(7L);
    }

    @Test
    void aMapperChangesTheValueButNotTheKey() {
        ChangeRecordBuilder builder = builder(shaping(ColumnSelection.ALL, Map.of(
                "column.mask.with.3.chars", "public\\.people\\.(id|ssn)",
                "column.truncate.to.2.chars", "public\\.people\\.email")));

        List<Draft> drafts = build(builder, new Insert(Xid.INVALID, 16400, tuple("7", "a@b.c", null, "t", "1.5")),
                new Delete(Xid.INVALID, 16400, new OldTuple(OldTuple.Kind.KEY, tuple("7", null, null, null, null))));

        Struct after = after(drafts.get(0));
        assertThat(after.get("id")).as("bigint: not masked, only marked").isEqualTo(7L);
        assertThat(after.schema().field("id").schema().parameters()).containsEntry("masked", "true");
        assertThat(after.get("ssn")).as("a NULL is masked too, as Debezium masks it").isEqualTo("***");
        assertThat(after.get("email")).isEqualTo("a@");
        assertThat(after.schema().field("email").schema().parameters()).containsEntry("truncateLength", "2");
        assertThat(drafts.get(0).keySchema().field("id").schema().parameters()).isNull();
        Struct before = before(drafts.get(1));
        assertThat(before.get("email")).as("a key-only delete fills the required column with its default, then cuts it")
                .isEqualTo("no");
        assertThat(((Struct) drafts.get(1).key()).get("id")).isEqualTo(7L);
    }

    @Test
    void sourceTypeParametersOnAVariableScaleNumericRebuildItsStruct() {
        ChangeRecordBuilder builder = builder(shaping(ColumnSelection.ALL, Map.of("column.propagate.source.type", ".*\\.score")));

        Draft draft = build(builder, new Insert(Xid.INVALID, 16400, tuple("7", "a", null, null, "12.345"))).get(0);

        Struct score = after(draft).getStruct("score");
        assertThat(score.schema().parameters()).containsEntry("__debezium.source.column.type", "NUMERIC")
                .containsEntry("__debezium.source.column.length", "131089");
        assertThat(score.get("scale")).isEqualTo(3);
        org.apache.kafka.connect.data.ConnectSchema.validateValue(draft.valueSchema(), draft.value());
    }

    @Test
    void aCustomConverterReplacesItsColumnInTheKeyAndTheValueAndConvertsTheDefault() {
        CustomConverters converters = CustomConverterKeys.load(List.of("upper"), Map.of(
                "upper.type", UpperCaseConverter.class.getName(), "upper.schema.name", "shop.Upper"),
                ShapedRecordsTest.class.getClassLoader());
        ChangeRecordBuilder builder = builder(new ColumnShaping(ColumnSelection.ALL,
                ColumnMapperKeys.mappers(Map.of("column.mask.with.4.chars", ".*\\.ssn")), converters));

        List<Draft> drafts = build(builder, new Insert(Xid.INVALID, 16400, tuple("7", "a@b.c", "123", "t", null)),
                new Delete(Xid.INVALID, 16400, new OldTuple(OldTuple.Kind.KEY, tuple("7", null, null, null, null))));
        Draft snapshot = snapshot(builder, "8", "x@y.z", null, "f", null);

        Struct after = after(drafts.get(0));
        Schema email = after.schema().field("email").schema();
        assertThat(email.name()).isEqualTo("shop.Upper");
        assertThat(email.isOptional()).isFalse();
        assertThat(email.defaultValue()).as("the default, converted").isEqualTo("NONE");
        assertThat(after.get("email")).isEqualTo("A@B.C");
        assertThat(after.get("active")).isEqualTo((short) 1);
        assertThat(after.get("ssn")).as("converted, then masked").isEqualTo("****");
        assertThat(after.schema().field("ssn").schema().parameters()).containsEntry("masked", "true");
        assertThat(before(drafts.get(1)).get("email")).as("a null in a required field: the converted default")
                .isEqualTo("NONE");
        assertThat(after(snapshot).get("email")).isEqualTo("X@Y.Z");
        assertThat(after(snapshot).get("active")).isEqualTo((short) 0);
        assertThat(after(snapshot).schema()).isEqualTo(after.schema());
    }

    @Test
    void aCustomConverterThatFailsOnAValueFailsTheChangeNamingTheColumn() {
        CustomConverters converters = CustomConverters.of(List.of(new io.debezium.spi.converter.CustomConverter<
                org.apache.kafka.connect.data.SchemaBuilder, io.debezium.spi.converter.RelationalColumn>() {
            @Override
            public void configure(java.util.Properties props) {
            }

            @Override
            public void converterFor(io.debezium.spi.converter.RelationalColumn column,
                                     ConverterRegistration<org.apache.kafka.connect.data.SchemaBuilder> registration) {
                if (column.name().equals("ssn")) {
                    registration.register(org.apache.kafka.connect.data.SchemaBuilder.string(), value -> {
                        throw new IllegalArgumentException("no ssn " + value);
                    });
                }
            }
        }));
        ChangeRecordBuilder builder = builder(new ColumnShaping(ColumnSelection.ALL, ColumnMappers.NONE, converters));

        assertThatThrownBy(() -> build(builder, new Insert(Xid.INVALID, 16400, tuple("7", "a", "123", null, null))))
                .isInstanceOf(ConnectException.class)
                .hasMessageContaining("the custom converter of column ssn of public.people failed on a java.lang.String")
                .hasMessageContaining("no ssn 123");
    }

    @Test
    void directEncodingWritesJsonConvertersBytesForShapedRecords() {
        CustomConverters converters = CustomConverterKeys.load(List.of("upper"), Map.of(
                "upper.type", UpperCaseConverter.class.getName(), "upper.schema.name", "shop.Upper"),
                ShapedRecordsTest.class.getClassLoader());
        ChangeRecordBuilder builder = builder(new ColumnShaping(ColumnSelection.excluding(RegexList.parse(".*\\.id")),
                ColumnMapperKeys.mappers(Map.of("column.mask.hash.SHA-256.with.salt.s", ".*\\.ssn",
                        "column.propagate.source.type", ".*\\.score")), converters));
        List<Draft> drafts = new ArrayList<>(build(builder, new Insert(Xid.INVALID, 16400, tuple("7", "a@b.c", "123", "t", "9.75")),
                new Delete(Xid.INVALID, 16400, new OldTuple(OldTuple.Kind.KEY, tuple("7", null, null, null, null)))));
        drafts.add(snapshot(builder, "8", "x@y.z", null, "f", null));

        for (boolean schemas : List.of(true, false)) {
            JsonConverter json = new JsonConverter();
            json.configure(Map.of("schemas.enable", Boolean.toString(schemas)), false);
            ConnectJsonWriter writer = new ConnectJsonWriter(schemas);
            for (Draft draft : drafts) {
                assertThat(writer.write(draft.valueSchema(), draft.value()))
                        .isEqualTo(json.fromConnectData(draft.topic(), draft.valueSchema(), draft.value()));
                assertThat(writer.write(draft.keySchema(), draft.key()))
                        .isEqualTo(json.fromConnectData(draft.topic(), draft.keySchema(), draft.key()));
            }
        }
    }
}
