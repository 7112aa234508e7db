package io.github.pgoutput.connect.record;

import io.github.pgoutput.connect.Deliveries;

import static io.github.pgoutput.connect.Deliveries.assemble;
import static io.github.pgoutput.connect.Deliveries.concat;
import static io.github.pgoutput.connect.Deliveries.transaction;
import static io.github.pgoutput.connect.Deliveries.tuple;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.Optional;

import io.github.pgoutput.connect.record.ChangeRecordBuilder.Draft;
import io.github.pgoutput.converters.BinaryHandlingMode;
import io.github.pgoutput.converters.ConverterOptions;
import io.github.pgoutput.converters.PostgresTypeMapper;
import io.github.pgoutput.pgoutput.OldTuple;
import io.github.pgoutput.pgoutput.PgOutputMessage;
import io.github.pgoutput.pgoutput.PgOutputMessage.Delete;
import io.github.pgoutput.pgoutput.PgOutputMessage.Insert;
import io.github.pgoutput.pgoutput.PgOutputMessage.Relation;
import io.github.pgoutput.pgoutput.PgOutputMessage.Truncate;
import io.github.pgoutput.pgoutput.PgOutputMessage.Update;
import io.github.pgoutput.pgoutput.RelationColumn;
import io.github.pgoutput.pgoutput.ReplicaIdentity;
import io.github.pgoutput.pgoutput.Lsn;
import io.github.pgoutput.pgoutput.Xid;
import io.github.pgoutput.replication.TableName;
import io.github.pgoutput.snapshot.SnapshotRow;
import io.github.pgoutput.snapshot.SnapshotTable;
import io.github.pgoutput.replication.CatalogColumn;
import io.github.pgoutput.replication.CatalogKey;
import io.github.pgoutput.replication.CatalogType;
import io.github.pgoutput.replication.TypeCatalog;
import java.sql.SQLException;
import java.util.Map;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.errors.ConnectException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ChangeRecordBuilderTest {

    private static final long INT8 = 20;
    private static final long TEXT = 25;
    private static final long NUMERIC = 1700;

    @TempDir
    Path spill;

    private static Relation orders(RelationColumn... extra) {
        List<RelationColumn> columns = new java.util.ArrayList<>(List.of(new RelationColumn(true, "id", INT8, -1),
                new RelationColumn(false, "name", TEXT, -1)));
        columns.addAll(List.of(extra));
        return new Relation(Xid.INVALID, 16400, "public", "orders", ReplicaIdentity.DEFAULT, columns);
    }

    private static ChangeRecordBuilder builder(boolean tombstones) {
        return new ChangeRecordBuilder("shop", "inventory", "1.0", new TopicNames("shop", "__heartbeat"), new AvroNames("shop"),
                new PostgresTypeMapper(ConverterOptions.DEFAULTS), new ColumnTypes(oids -> {
                    throw new java.sql.SQLException("built-in types only: nothing to look up");
                }), tombstones, (s, t) -> !t.equals("ignored"));
    }

    /** A builder whose catalog describes one table (keys, NOT NULL columns, defaults), as PgCatalogKeys reads it. */
    private static ChangeRecordBuilder builder(CatalogKey table, boolean transactionMetadata) {
        TypeCatalog catalog = new TypeCatalog() {
            @Override
            public Map<Long, CatalogType> describe(Set<Long> oids) throws SQLException {
                throw new SQLException("built-in types only: nothing to look up");
            }

            @Override
            public Optional<CatalogKey> tableKey(long relationId) {
                return relationId == table.relationId() ? Optional.of(table) : Optional.empty();
            }
        };
        return new ChangeRecordBuilder("shop", "inventory", "1.0", new TopicNames("shop", "__heartbeat"), new AvroNames("shop"),
                new PostgresTypeMapper(ConverterOptions.DEFAULTS), new ColumnTypes(catalog), true, (s, t) -> true,
                MessageKeyColumns.NONE, transactionMetadata);
    }

    /** A builder with {@code options} (context headers, skipped operations, message content and prefixes). */
    private static ChangeRecordBuilder builder(ChangeRecordBuilder.Options options) {
        return new ChangeRecordBuilder("shop", "inventory", "1.0", new TopicNames("shop", "__heartbeat"), new AvroNames("shop"),
                new PostgresTypeMapper(ConverterOptions.DEFAULTS), new ColumnTypes(oids -> {
                    throw new java.sql.SQLException("built-in types only: nothing to look up");
                }), true, (s, t) -> true, MessageKeyColumns.NONE, true, options);
    }

    private static ChangeRecordBuilder.Options skipping(String... ops) {
        return new ChangeRecordBuilder.Options(LifecycleHeaders.Context.NONE, Set.of(ops), BinaryHandlingMode.BYTES, prefix -> true);
    }

    private static PgOutputMessage keyChangingUpdate() {
        return new Update(Xid.INVALID, 16400, Optional.of(new OldTuple(OldTuple.Kind.KEY, tuple("7", null))), tuple("8", "pen"));
    }

    private static Object op(Draft draft) {
        return draft.value() == null ? null : value(draft).get("op");
    }

    private static org.apache.kafka.connect.header.Headers debeziumHeaders(Draft draft, LifecycleHeaders.Context context) {
        org.apache.kafka.connect.header.Headers headers = new org.apache.kafka.connect.header.ConnectHeaders();
        draft.addDebeziumHeaders(headers, context);
        return headers;
    }

    /** orders as the catalog has it: id the primary key, name NOT NULL with default 'unnamed'. */
    private static CatalogKey ordersCatalog(CatalogColumn... extra) {
        List<CatalogColumn> columns = new ArrayList<>(List.of(new CatalogColumn("id", true, null),
                new CatalogColumn("name", true, "'unnamed'::text")));
        columns.addAll(List.of(extra));
        return new CatalogKey(16400, List.of("id"), List.of(), columns);
    }

    private List<Draft> build(ChangeRecordBuilder builder, PgOutputMessage... messages) {
        List<Draft> drafts = new java.util.ArrayList<>();
        for (Deliveries.Read read : assemble(spill, messages)) {
            long order = 1;
            for (var change : read.changes()) {
                List<Draft> built = builder.build(change, read.delivery());
                order += built.size();
                drafts.addAll(built);
            }
        }
        return drafts;
    }

    private static Struct value(Draft draft) {
        return (Struct) draft.value();
    }

    @Test
    void insertBecomesACreateEnvelopeKeyedByThePrimaryKey() {
        List<Draft> drafts = build(builder(true), concat(new PgOutputMessage[] {orders()},
                transaction(742, 0x5000, new Insert(Xid.INVALID, 16400, tuple("7", "pen")))));

        assertThat(drafts).hasSize(1);
        Draft draft = drafts.get(0);
        assertThat(draft.topic()).isEqualTo("shop.public.orders");
        assertThat(draft.keySchema().name()).isEqualTo("shop.public.orders.Key");
        assertThat(((Struct) draft.key()).get("id")).isEqualTo(7L);
        Struct value = value(draft);
        assertThat(draft.valueSchema().name()).isEqualTo("shop.public.orders.Envelope");
        assertThat(value.get("op")).isEqualTo("c");
        assertThat(value.get("before")).isNull();
        assertThat(value.getStruct("after").get("name")).isEqualTo("pen");
        assertThat(value.getInt64("ts_ms")).isPositive();
        Struct source = value.getStruct("source");
        assertThat(source.get("name")).isEqualTo("shop");
        assertThat(source.get("db")).isEqualTo("inventory");
        assertThat(source.get("schema")).isEqualTo("public");
        assertThat(source.get("table")).isEqualTo("orders");
        assertThat(source.get("txId")).isEqualTo(742L);
        assertThat(source.get("ts_ms")).isEqualTo(java.time.Instant.parse("2026-01-02T03:04:05Z").toEpochMilli());
        assertThat(source.get("connector")).isEqualTo("postgresql");
        assertThat(source.get("version")).isEqualTo("1.0");
        assertThat(source.get("snapshot")).isEqualTo("false");
        assertThat(source.get("ts_us")).isEqualTo(java.time.Instant.parse("2026-01-02T03:04:05Z").toEpochMilli() * 1000);
        assertThat(source.get("sequence")).as("no commit seen yet, then the change's own LSN")
                .isEqualTo("[null,\"" + source.get("lsn") + "\"]");
        assertThat(value.getInt64("ts_us") / 1000).isEqualTo(value.getInt64("ts_ms"));
        assertThat(value.getInt64("ts_ns") / 1000).isEqualTo(value.getInt64("ts_us"));
        Struct transaction = value.getStruct("transaction");
        assertThat(transaction.get("id")).as("Debezium's <xid>:<lsn of the record>").isEqualTo("742:" + source.get("lsn"));
        assertThat(transaction.get("total_order")).isEqualTo(1L);
        assertThat(transaction.get("data_collection_order")).isEqualTo(1L);
        draft.valueSchema().schema();
        org.apache.kafka.connect.data.ConnectSchema.validateValue(draft.valueSchema(), value);
    }

    @Test
    void deleteIsFollowedByATombstoneOnlyWhenConfigured() {
        PgOutputMessage[] stream = concat(new PgOutputMessage[] {orders()},
                transaction(742, 0x5000, new Delete(Xid.INVALID, 16400, new OldTuple(OldTuple.Kind.KEY, tuple("7", null)))));

        List<Draft> with = build(builder(true), stream);
        assertThat(with).extracting(d -> d.value() == null ? null : value(d).get("op")).containsExactly("d", null);
        assertThat(value(with.get(0)).getStruct("before").get("id")).isEqualTo(7L);
        assertThat(value(with.get(0)).get("after")).isNull();
        assertThat(with.get(1).key()).isEqualTo(with.get(0).key());
        assertThat(with.get(1).valueSchema()).isNull();

        assertThat(build(builder(false), stream)).hasSize(1);
    }

    @Test
    void updateThatChangesTheKeyBecomesDeleteTombstoneAndCreate() {
        List<Draft> drafts = build(builder(true), concat(new PgOutputMessage[] {orders()}, transaction(742, 0x5000,
                new Update(Xid.INVALID, 16400, Optional.of(new OldTuple(OldTuple.Kind.KEY, tuple("7", null))), tuple("8", "pen")))));

        assertThat(drafts).extracting(d -> d.value() == null ? null : value(d).get("op")).containsExactly("d", null, "c");
        assertThat(((Struct) drafts.get(0).key()).get("id")).isEqualTo(7L);
        assertThat(((Struct) drafts.get(2).key()).get("id")).isEqualTo(8L);
        assertThat(drafts).extracting(d -> d.value() == null ? null : value(d).getStruct("transaction").get("total_order"))
                .as("Debezium counts data change events only, not tombstones").containsExactly(1L, null, 2L);
    }

    @Test
    void updateInPlaceIsOneUpdateRecordWithUnchangedToastAsPlaceholder() {
        List<Draft> drafts = build(builder(true), concat(new PgOutputMessage[] {orders()}, transaction(742, 0x5000,
                new Update(Xid.INVALID, 16400, Optional.empty(), tuple("7", "\u0000u")))));

        assertThat(drafts).singleElement().satisfies(d -> {
            assertThat(value(d).get("op")).isEqualTo("u");
            assertThat(value(d).getStruct("after").get("name")).isEqualTo(ConverterOptions.DEFAULT_UNAVAILABLE_VALUE_PLACEHOLDER);
        });
    }

    @Test
    void unchangedToastOfATypeWithoutPlaceholderFailsInsteadOfInventingAValue() {
        Relation withNumeric = orders(new RelationColumn(false, "price", NUMERIC, -1));
        assertThatThrownBy(() -> build(builder(true), concat(new PgOutputMessage[] {withNumeric}, transaction(742, 0x5000,
                new Update(Xid.INVALID, 16400, Optional.empty(), tuple("7", "pen", "\u0000u"))))))
                .isInstanceOf(ConnectException.class).hasMessageContaining("price").hasMessageContaining("REPLICA IDENTITY FULL");
    }

    @Test
    void schemaIsBuiltAnewWhenTheRelationChangesAndKeptWhenResent() {
        ChangeRecordBuilder builder = builder(true);
        Relation added = orders(new RelationColumn(false, "note", TEXT, -1));
        List<Draft> drafts = build(builder, concat(new PgOutputMessage[] {orders()},
                transaction(1, 0x5000, new Insert(Xid.INVALID, 16400, tuple("1", "a"))),
                new PgOutputMessage[] {orders()},
                transaction(2, 0x6000, new Insert(Xid.INVALID, 16400, tuple("2", "b"))),
                new PgOutputMessage[] {added},
                transaction(3, 0x7000, new Insert(Xid.INVALID, 16400, tuple("3", "c", "x")))));

        assertThat(drafts.get(0).valueSchema()).isSameAs(drafts.get(1).valueSchema());
        Schema altered = drafts.get(2).valueSchema();
        assertThat(altered).isNotSameAs(drafts.get(0).valueSchema());
        assertThat(altered.version()).as("Debezium's envelope version, whatever the table's history").isEqualTo(2);
        assertThat(altered.field("after").schema().field("note")).isNotNull();
        assertThat(value(drafts.get(2)).getStruct("after").get("note")).isEqualTo("x");
    }

    @Test
    void namesAreAvroValidForOddTableNames() {
        Relation odd = new Relation(Xid.INVALID, 16500, "Sales Dept", "2024-orders", ReplicaIdentity.DEFAULT,
                List.of(new RelationColumn(true, "id", INT8, -1)));
        Draft draft = build(builder(true), concat(new PgOutputMessage[] {odd},
                transaction(1, 0x5000, new Insert(Xid.INVALID, 16500, tuple("1"))))).get(0);

        assertThat(draft.topic()).isEqualTo("shop.Sales_Dept.2024-orders");
        assertThat(draft.valueSchema().name()).isEqualTo("shop.Sales_Dept._2024_orders.Envelope");
        assertThat(draft.keySchema().name()).isEqualTo("shop.Sales_Dept._2024_orders.Key");
    }

    @Test
    void truncateIsOneRecordPerCapturedTableWithoutKey() {
        Relation other = new Relation(Xid.INVALID, 16401, "public", "lines", ReplicaIdentity.DEFAULT,
                List.of(new RelationColumn(true, "id", INT8, -1)));
        Relation ignored = new Relation(Xid.INVALID, 16402, "public", "ignored", ReplicaIdentity.DEFAULT,
                List.of(new RelationColumn(true, "id", INT8, -1)));
        List<Draft> drafts = build(builder(true), concat(new PgOutputMessage[] {orders(), other, ignored},
                transaction(1, 0x5000, new Truncate(Xid.INVALID, 0, List.of(16400L, 16401L, 16402L)))));

        assertThat(drafts).extracting(Draft::topic).containsExactly("shop.public.orders", "shop.public.lines");
        assertThat(drafts).allSatisfy(d -> {
            assertThat(d.key()).isNull();
            assertThat(value(d).get("op")).isEqualTo("t");
            assertThat(value(d).get("before")).isNull();
            assertThat(value(d).get("after")).isNull();
        });
    }

    @Test
    void tableWithoutKeyColumnsHasNoKeyAndChangesOfUncapturedTablesGiveNothing() {
        Relation keyless = new Relation(Xid.INVALID, 16600, "public", "log", ReplicaIdentity.NOTHING,
                List.of(new RelationColumn(false, "line", TEXT, -1)));
        Relation ignored = new Relation(Xid.INVALID, 16402, "public", "ignored", ReplicaIdentity.DEFAULT,
                List.of(new RelationColumn(true, "id", INT8, -1)));
        List<Draft> drafts = build(builder(true), concat(new PgOutputMessage[] {keyless, ignored}, transaction(1, 0x5000,
                new Insert(Xid.INVALID, 16600, tuple("hello")), new Insert(Xid.INVALID, 16402, tuple("1")))));

        assertThat(drafts).singleElement().satisfies(d -> {
            assertThat(d.key()).isNull();
            assertThat(d.keySchema()).isNull();
        });
    }

    private static SnapshotTable ordersSnapshot() {
        Relation orders = orders();
        return new SnapshotTable(new TableName("public", "orders"), orders.relationId(), orders.columns(), 0, false, null);
    }

    @Test
    void snapshotRowCarriesTheSameRowAsTheStreamedInsertOfTheSameValues() {
        ChangeRecordBuilder builder = builder(true);
        Struct streamed = (Struct) value(build(builder, concat(new PgOutputMessage[] {orders()},
                transaction(742, 0x5000, new Insert(Xid.INVALID, 16400, tuple("7", "pen"))))).get(0)).get("after");

        Draft snapshot = builder.snapshotRow(new SnapshotRow(ordersSnapshot(), Arrays.asList("7", "pen"), true, false,
                SnapshotRow.Marker.FIRST), Lsn.of(0x6000));

        assertThat(snapshot.topic()).isEqualTo("shop.public.orders");
        assertThat(value(snapshot).getStruct("after")).isEqualTo(streamed);
        assertThat(value(snapshot).get("op")).isEqualTo("r");
        assertThat(((Struct) snapshot.key()).get("id")).isEqualTo(7L);
        Struct source = value(snapshot).getStruct("source");
        assertThat(source.get("snapshot")).isEqualTo("first");
        assertThat(source.get("lsn")).isEqualTo(0x6000L);
        assertThat(source.get("table")).isEqualTo("orders");
    }

    @Test
    void snapshotRowWithNullAndNonAsciiTextKeepsBoth() {
        Draft snapshot = builder(true).snapshotRow(new SnapshotRow(ordersSnapshot(), Arrays.asList("8", null), false, false,
                SnapshotRow.Marker.TRUE), Lsn.of(0x6000));
        Draft accented = builder(true).snapshotRow(new SnapshotRow(ordersSnapshot(), Arrays.asList("9", "crème brûlée ☕"), false,
                false, SnapshotRow.Marker.TRUE), Lsn.of(0x6000));

        assertThat(value(snapshot).getStruct("after").get("name")).isNull();
        assertThat(value(accented).getStruct("after").get("name")).isEqualTo("crème brûlée ☕");
    }

    @Test
    void snapshotRowsShareASourceBlockOnlyWhenEveryFieldInItAgrees() {
        ChangeRecordBuilder builder = builder(true);
        SnapshotTable table = ordersSnapshot();
        List<Draft> drafts = new ArrayList<>();
        for (int i = 0; i < 20_000; i++) {
            SnapshotRow.Marker marker = i == 0 ? SnapshotRow.Marker.FIRST : i == 19_999 ? SnapshotRow.Marker.LAST : SnapshotRow.Marker.TRUE;
            drafts.add(builder.snapshotRow(new SnapshotRow(table, List.of(Integer.toString(i), "x"), i == 0, i == 19_999, marker),
                    Lsn.of(0x6000)));
        }

        Set<Struct> distinctSources = Collections.newSetFromMap(new IdentityHashMap<>());
        for (int i = 0; i < drafts.size(); i++) {
            Struct value = value(drafts.get(i));
            Struct source = value.getStruct("source");
            assertThat(source.get("ts_ms")).as("the snapshot's time, as Debezium's")
                    .isEqualTo(value(drafts.get(0)).getStruct("source").get("ts_ms"));
            assertThat((Long) source.get("ts_ms")).isLessThanOrEqualTo((Long) value.get("ts_ms"));
            assertThat(source.get("snapshot")).isEqualTo(i == 0 ? "first" : i == 19_999 ? "last" : "true");
            distinctSources.add(source);
        }
        // One per marker (first, true, last): far fewer than one per row.
        assertThat(distinctSources).hasSize(3);
    }

    @Test
    void snapshotRowOfTheWrongWidthFailsNamingTheTable() {
        assertThatThrownBy(() -> builder(true).snapshotRow(new SnapshotRow(ordersSnapshot(), List.of("7"), true, true,
                SnapshotRow.Marker.FIRST), Lsn.of(0x6000)))
                .isInstanceOf(ConnectException.class)
                .hasMessageContaining("public.orders has 1 columns, but the table has 2");
    }

    @Test
    void envelopeIsDebeziumsVersionTwoWithItsFieldOrderAndKeyAndValueCarryNoVersion() {
        Draft draft = build(builder(true), concat(new PgOutputMessage[] {orders()},
                transaction(742, 0x5000, new Insert(Xid.INVALID, 16400, tuple("7", "pen"))))).get(0);

        Schema envelope = draft.valueSchema();
        assertThat(envelope.version()).isEqualTo(2);
        assertThat(envelope.fields()).extracting(Field::name)
                .containsExactly("before", "after", "source", "transaction", "op", "ts_ms", "ts_us", "ts_ns");
        assertThat(envelope.field("op").schema().isOptional()).isFalse();
        assertThat(envelope.field("before").schema()).isSameAs(envelope.field("after").schema());
        assertThat(envelope.field("after").schema().isOptional()).isTrue();
        assertThat(envelope.field("after").schema().version()).isNull();
        assertThat(draft.keySchema().version()).isNull();
        Schema source = envelope.field("source").schema();
        assertThat(source.name()).isEqualTo("io.debezium.connector.postgresql.Source");
        assertThat(source.fields()).extracting(Field::name).containsExactly("version", "connector", "name", "ts_ms", "snapshot",
                "db", "sequence", "ts_us", "ts_ns", "schema", "table", "txId", "lsn", "xmin", "origin", "origin_lsn");
        Schema snapshot = source.field("snapshot").schema();
        assertThat(snapshot.name()).isEqualTo("io.debezium.data.Enum");
        assertThat(snapshot.defaultValue()).isEqualTo("false");
        assertThat(snapshot.parameters()).containsEntry("allowed",
                "true,first,first_in_data_collection,last_in_data_collection,last,false,incremental");
        assertThat(envelope.field("transaction").schema().name()).isEqualTo("event.block");
    }

    @Test
    void notNullColumnsAreRequiredFieldsAndCarryTheirDefault() {
        Draft draft = build(builder(ordersCatalog(new CatalogColumn("note", false, "'none'::text")), false),
                concat(new PgOutputMessage[] {orders(new RelationColumn(false, "note", TEXT, -1))},
                        transaction(742, 0x5000, new Insert(Xid.INVALID, 16400, tuple("7", "pen", null))))).get(0);

        Schema row = draft.valueSchema().field("after").schema();
        assertThat(row.field("id").schema().isOptional()).isFalse();
        assertThat(row.field("name").schema().isOptional()).isFalse();
        assertThat(row.field("name").schema().defaultValue()).isEqualTo("unnamed");
        assertThat(row.field("note").schema().isOptional()).isTrue();
        assertThat(row.field("note").schema().defaultValue()).as("a nullable column keeps its default too").isEqualTo("none");
        assertThat(draft.keySchema().field("id").schema()).isSameAs(row.field("id").schema());
        assertThat(value(draft).getStruct("after").getWithoutDefault("note")).as("a NULL stays null in the Struct").isNull();
        assertThat(value(draft).getStruct("after").get("note"))
                .as("Connect's Struct.get, and the JSON converter unless replace.null.with.default=false, show the default,"
                        + " as for Debezium's records").isEqualTo("none");
    }

    @Test
    void keyOnlyDeleteFillsRequiredColumnsWithTheirDefaultOrTheTypesZeroAsDebeziumDoes() {
        CatalogKey table = ordersCatalog(new CatalogColumn("price", true, null), new CatalogColumn("note", false, null));
        Draft delete = build(builder(table, false), concat(
                new PgOutputMessage[] {orders(new RelationColumn(false, "price", INT8, -1), new RelationColumn(false, "note", TEXT, -1))},
                transaction(742, 0x5000, new Delete(Xid.INVALID, 16400, new OldTuple(OldTuple.Kind.KEY, tuple("7", null, null, null))))))
                .get(0);

        Struct before = value(delete).getStruct("before");
        assertThat(before.get("id")).isEqualTo(7L);
        assertThat(before.get("name")).as("NOT NULL with a default").isEqualTo("unnamed");
        assertThat(before.get("price")).as("NOT NULL without default: the type's zero").isEqualTo(0L);
        assertThat(before.get("note")).as("nullable: null").isNull();
        assertThat(((Struct) delete.key()).get("id")).isEqualTo(7L);
    }

    @Test
    void withoutTransactionMetadataTheTransactionBlockIsNull() {
        Draft draft = build(builder(ordersCatalog(), false), concat(new PgOutputMessage[] {orders()},
                transaction(742, 0x5000, new Insert(Xid.INVALID, 16400, tuple("7", "pen"))))).get(0);

        assertThat(value(draft).get("transaction")).isNull();
    }

    @Test
    void sequenceNamesTheEndOfTheLastCommittedTransaction() {
        List<Draft> drafts = build(builder(ordersCatalog(), false), concat(new PgOutputMessage[] {orders()},
                transaction(742, 0x5000, new Insert(Xid.INVALID, 16400, tuple("7", "pen"))),
                transaction(743, 0x6000, new Insert(Xid.INVALID, 16400, tuple("8", "ink")))));

        Struct second = value(drafts.get(1)).getStruct("source");
        assertThat(second.get("sequence")).isEqualTo("[\"" + 0x5020 + "\",\"" + second.get("lsn") + "\"]");
    }

    @Test
    void logicalMessageIsDebeziumsMessageValueWithTheNestedMessageBlock() {
        Draft draft = build(builder(ordersCatalog(), false), transaction(742, 0x5000,
                new PgOutputMessage.LogicalMessage(Xid.INVALID, true, Lsn.of(0x4000), "audit",
                        io.github.pgoutput.pgoutput.Bytes.utf8("hi")))).get(0);

        assertThat(draft.topic()).isEqualTo("shop.message");
        assertThat(draft.keySchema().name()).isEqualTo("io.debezium.connector.postgresql.MessageKey");
        assertThat(((Struct) draft.key()).get("prefix")).isEqualTo("audit");
        assertThat(draft.valueSchema().name()).isEqualTo("io.debezium.connector.postgresql.MessageValue");
        assertThat(draft.valueSchema().fields()).extracting(Field::name)
                .containsExactly("op", "ts_ms", "source", "transaction", "message");
        Struct value = value(draft);
        assertThat(value.get("op")).isEqualTo("m");
        assertThat(value.getStruct("message").get("prefix")).isEqualTo("audit");
        assertThat((byte[]) value.getStruct("message").get("content")).containsExactly('h', 'i');
        assertThat(value.getStruct("source").get("schema")).isEqualTo("");
        assertThat(value.getStruct("source").get("table")).isEqualTo("");
        org.apache.kafka.connect.data.ConnectSchema.validateValue(draft.valueSchema(), value);
    }

    @Test
    void snapshotRowsAreMarkedAsDebeziumMarksThem() {
        assertThat(ChangeRecordBuilder.snapshotMarker(row(true, false, SnapshotRow.Marker.FIRST))).isEqualTo("first");
        assertThat(ChangeRecordBuilder.snapshotMarker(row(false, true, SnapshotRow.Marker.LAST))).isEqualTo("last");
        assertThat(ChangeRecordBuilder.snapshotMarker(row(true, false, SnapshotRow.Marker.TRUE)))
                .isEqualTo("first_in_data_collection");
        assertThat(ChangeRecordBuilder.snapshotMarker(row(false, true, SnapshotRow.Marker.TRUE)))
                .isEqualTo("last_in_data_collection");
        assertThat(ChangeRecordBuilder.snapshotMarker(row(true, true, SnapshotRow.Marker.TRUE)))
                .as("a table of one row: its last row wins").isEqualTo("last_in_data_collection");
        assertThat(ChangeRecordBuilder.snapshotMarker(row(false, false, SnapshotRow.Marker.TRUE))).isEqualTo("true");
    }

    private static SnapshotRow row(boolean first, boolean last, SnapshotRow.Marker marker) {
        return new SnapshotRow(ordersSnapshot(), List.of("1", "a"), first, last, marker);
    }

    @Test
    void keyChangingUpdateNamesTheOtherKeyInDebeziumsHeaders() {
        List<Draft> drafts = build(builder(true), concat(new PgOutputMessage[] {orders()}, transaction(742, 0x5000, keyChangingUpdate())));

        assertThat(drafts).extracting(ChangeRecordBuilderTest::op).containsExactly("d", null, "c");
        for (Draft deleteOrTombstone : drafts.subList(0, 2)) {
            org.apache.kafka.connect.header.Header newKey = debeziumHeaders(deleteOrTombstone, LifecycleHeaders.Context.NONE)
                    .lastWithName("__debezium.newkey");
            assertThat(((Struct) newKey.value()).get("id")).isEqualTo(8L);
            assertThat(newKey.schema()).isEqualTo(drafts.get(2).keySchema());
        }
        org.apache.kafka.connect.header.Headers create = debeziumHeaders(drafts.get(2), LifecycleHeaders.Context.NONE);
        assertThat(((Struct) create.lastWithName("__debezium.oldkey").value()).get("id")).isEqualTo(7L);
        assertThat(create.lastWithName("__debezium.newkey")).isNull();
    }

    @Test
    void plainChangesCarryNoKeyHeader() {
        List<Draft> drafts = build(builder(true), concat(new PgOutputMessage[] {orders()}, transaction(742, 0x5000,
                new Insert(Xid.INVALID, 16400, tuple("7", "pen")),
                new Update(Xid.INVALID, 16400, Optional.empty(), tuple("7", "ink")))));

        assertThat(drafts).allSatisfy(d -> assertThat(debeziumHeaders(d, LifecycleHeaders.Context.NONE)).isEmpty());
    }

    @Test
    void contextHeadersGoOnDataChangesAndSnapshotRowsButNotOnMessages() {
        java.util.UUID runId = java.util.UUID.randomUUID();
        LifecycleHeaders.Context context = LifecycleHeaders.Context.of("shop", "0", runId);
        ChangeRecordBuilder builder = builder(new ChangeRecordBuilder.Options(context, Set.of(), BinaryHandlingMode.BYTES, p -> true));
        List<Draft> drafts = build(builder, concat(new PgOutputMessage[] {orders()}, transaction(742, 0x5000,
                new Insert(Xid.INVALID, 16400, tuple("7", "pen")),
                new Delete(Xid.INVALID, 16400, new OldTuple(OldTuple.Kind.KEY, tuple("7", null))),
                new PgOutputMessage.LogicalMessage(Xid.INVALID, true, Lsn.of(0x4000), "audit",
                        io.github.pgoutput.pgoutput.Bytes.utf8("hi")))));
        drafts.add(builder.snapshotRow(new SnapshotRow(ordersSnapshot(), Arrays.asList("9", "cup"), true, true,
                SnapshotRow.Marker.LAST), Lsn.of(0x6000)));

        assertThat(drafts).extracting(ChangeRecordBuilderTest::op).containsExactly("c", "d", null, "m", "r");
        for (Draft change : List.of(drafts.get(0), drafts.get(1), drafts.get(2), drafts.get(4))) {
            org.apache.kafka.connect.header.Headers headers = debeziumHeaders(change, builder.contextHeaders());
            assertThat(headers.lastWithName("__debezium.context.connectorLogicalName").value()).isEqualTo("shop");
            assertThat(headers.lastWithName("__debezium.context.connectorName").value()).isEqualTo("postgresql");
            assertThat(headers.lastWithName("__debezium.context.taskId").value()).isEqualTo("0");
            assertThat(headers.lastWithName("__debezium.context.runId").value()).isEqualTo(runId.toString());
            assertThat(headers.lastWithName("__debezium.context.runId").schema()).isEqualTo(Schema.STRING_SCHEMA);
        }
        assertThat(debeziumHeaders(drafts.get(3), builder.contextHeaders())).isEmpty();
    }

    @Test
    void contextHeadersAreTheSameObjectsOnEveryRecord() {
        LifecycleHeaders.Context context = LifecycleHeaders.Context.of("shop", "0", java.util.UUID.randomUUID());
        org.apache.kafka.connect.header.Headers first = context.addTo(new org.apache.kafka.connect.header.ConnectHeaders());
        org.apache.kafka.connect.header.Headers second = context.addTo(new org.apache.kafka.connect.header.ConnectHeaders());

        assertThat(first.lastWithName("__debezium.context.runId")).isSameAs(second.lastWithName("__debezium.context.runId"));
    }

    @Test
    void skippedOperationsGiveNoRecords() {
        PgOutputMessage[] stream = concat(new PgOutputMessage[] {orders()}, transaction(742, 0x5000,
                new Insert(Xid.INVALID, 16400, tuple("7", "pen")),
                new Update(Xid.INVALID, 16400, Optional.empty(), tuple("7", "ink")),
                new Delete(Xid.INVALID, 16400, new OldTuple(OldTuple.Kind.KEY, tuple("7", null))),
                new Truncate(Xid.INVALID, 0, List.of(16400L))));

        assertThat(build(builder(skipping()), stream)).extracting(ChangeRecordBuilderTest::op).containsExactly("c", "u", "d", null, "t");
        assertThat(build(builder(skipping("t")), stream)).extracting(ChangeRecordBuilderTest::op).containsExactly("c", "u", "d", null);
        assertThat(build(builder(skipping("c", "d")), stream)).extracting(ChangeRecordBuilderTest::op).containsExactly("u", "t");
        assertThat(build(builder(skipping("u", "r")), stream)).extracting(ChangeRecordBuilderTest::op).containsExactly("c", "d", null, "t");
    }

    @Test
    void keyChangingUpdateIsSkippedAsTheDeleteAndCreateItBecomes() {
        PgOutputMessage[] stream = concat(new PgOutputMessage[] {orders()}, transaction(742, 0x5000, keyChangingUpdate()));

        assertThat(build(builder(skipping("u")), stream)).extracting(ChangeRecordBuilderTest::op).containsExactly("d", null, "c");
        assertThat(build(builder(skipping("d")), stream)).extracting(ChangeRecordBuilderTest::op).containsExactly("c");
        assertThat(build(builder(skipping("c")), stream)).extracting(ChangeRecordBuilderTest::op).containsExactly("d", null);
    }

    @Test
    void skippedChangesAreNotCountedInTheTransactionBlock() {
        List<Draft> drafts = build(builder(skipping("c")), concat(new PgOutputMessage[] {orders()}, transaction(742, 0x5000,
                new Insert(Xid.INVALID, 16400, tuple("7", "pen")),
                new Update(Xid.INVALID, 16400, Optional.empty(), tuple("7", "ink")))));

        assertThat(drafts).singleElement().satisfies(d -> {
            assertThat(value(d).getStruct("transaction").get("total_order")).isEqualTo(1L);
            assertThat(value(d).getStruct("transaction").get("data_collection_order")).isEqualTo(1L);
        });
    }

    @Test
    void messageContentFollowsBinaryHandlingMode() {
        PgOutputMessage[] stream = transaction(742, 0x5000, new PgOutputMessage.LogicalMessage(Xid.INVALID, true, Lsn.of(0x4000),
                "audit", io.github.pgoutput.pgoutput.Bytes.utf8("hi?")));
        Map<BinaryHandlingMode, Object> expected = Map.of(BinaryHandlingMode.BASE64, "aGk/", BinaryHandlingMode.BASE64_URL_SAFE, "aGk_",
                BinaryHandlingMode.HEX, "68693f");

        expected.forEach((mode, content) -> {
            Draft draft = build(builder(new ChangeRecordBuilder.Options(LifecycleHeaders.Context.NONE, Set.of(), mode, p -> true)),
                    stream).get(0);
            Struct message = value(draft).getStruct("message");
            assertThat(message.schema().field("content").schema()).isEqualTo(Schema.OPTIONAL_STRING_SCHEMA);
            assertThat(message.get("content")).as(mode.name()).isEqualTo(content);
        });
        Struct bytes = value(build(builder(skipping()), stream).get(0)).getStruct("message");
        assertThat(bytes.schema().field("content").schema()).isEqualTo(Schema.OPTIONAL_BYTES_SCHEMA);
    }

    @Test
    void messagesOfPrefixesNotCapturedGiveNoRecords() {
        PgOutputMessage[] stream = transaction(742, 0x5000,
                new PgOutputMessage.LogicalMessage(Xid.INVALID, true, Lsn.of(0x4000), "audit", io.github.pgoutput.pgoutput.Bytes.utf8("a")),
                new PgOutputMessage.LogicalMessage(Xid.INVALID, true, Lsn.of(0x4010), "debug", io.github.pgoutput.pgoutput.Bytes.utf8("b")));

        List<Draft> drafts = build(builder(new ChangeRecordBuilder.Options(LifecycleHeaders.Context.NONE, Set.of(),
                BinaryHandlingMode.BYTES, "audit"::equals)), stream);

        assertThat(drafts).extracting(d -> value(d).getStruct("message").get("prefix")).containsExactly("audit");
    }

    @Test
    void nonTransactionalMessageRepeatsTheLastCommitTimeAsDebezium() {
        List<Draft> drafts = build(builder(skipping()), concat(new PgOutputMessage[] {orders()},
                transaction(742, 0x5000, new Insert(Xid.INVALID, 16400, tuple("7", "pen"))),
                new PgOutputMessage[] {new PgOutputMessage.LogicalMessage(Xid.INVALID, false, Lsn.of(0x7000), "audit",
                        io.github.pgoutput.pgoutput.Bytes.utf8("hi"))}));

        assertThat(drafts).extracting(ChangeRecordBuilderTest::op).containsExactly("c", "m");
        Struct source = value(drafts.get(1)).getStruct("source");
        assertThat(source.get("ts_ms")).isEqualTo(java.time.Instant.parse("2026-01-02T03:04:05Z").toEpochMilli());
        assertThat(source.get("txId")).isNull();
    }

    @Test
    void snapshotRowCarriesTheSnapshotTransactionsId() {
        Draft row = builder(true).snapshotRow(new SnapshotRow(ordersSnapshot(), Arrays.asList("7", "pen"), true, false,
                SnapshotRow.Marker.FIRST), Lsn.of(0x6000), 991L);

        assertThat(value(row).getStruct("source").get("txId")).isEqualTo(991L);
    }
}
