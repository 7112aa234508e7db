package io.github.pgoutput.connect.record;

import io.github.pgoutput.connect.Deliveries;

import static io.github.pgoutput.connect.Deliveries.assemble;
import static io.github.pgoutput.connect.Deliveries.concat;
import static io.github.pgoutput.connect.Deliveries.transaction;
import static io.github.pgoutput.connect.Deliveries.tuple;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import io.github.pgoutput.connect.record.ChangeRecordBuilder.Draft;
import io.github.pgoutput.converters.ConverterOptions;
import io.github.pgoutput.converters.PostgresTypeMapper;
import io.github.pgoutput.pgoutput.Lsn;
import io.github.pgoutput.pgoutput.OldTuple;
import io.github.pgoutput.pgoutput.PgOutputMessage;
import io.github.pgoutput.pgoutput.PgOutputMessage.Delete;
import io.github.pgoutput.pgoutput.PgOutputMessage.Insert;
import io.github.pgoutput.pgoutput.PgOutputMessage.Relation;
import io.github.pgoutput.pgoutput.PgOutputMessage.Update;
import io.github.pgoutput.pgoutput.RelationColumn;
import io.github.pgoutput.pgoutput.ReplicaIdentity;
import io.github.pgoutput.pgoutput.Xid;
import io.github.pgoutput.replication.CatalogKey;
import io.github.pgoutput.replication.CatalogType;
import io.github.pgoutput.replication.TableName;
import io.github.pgoutput.replication.TypeCatalog;
import io.github.pgoutput.snapshot.SnapshotRow;
import io.github.pgoutput.snapshot.SnapshotTable;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Struct;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Which columns form a record's key: those message.key.columns names, else the primary key, else the replica
 * identity index, else none; never every column because REPLICA IDENTITY FULL flags every column in the Relation.
 */
class RecordKeyChoiceTest {

    private static final long INT8 = 20;
    private static final long TEXT = 25;
    private static final long OID = 16500;

    @TempDir
    Path spill;

    /** A table of (id, note, code); under FULL pgoutput flags every column as key. */
    private static Relation notes(ReplicaIdentity identity, boolean... flags) {
        return new Relation(Xid.INVALID, OID, "public", "notes", identity, List.of(new RelationColumn(flags[0], "id", INT8, -1),
                new RelationColumn(flags[1], "note", TEXT, -1), new RelationColumn(flags[2], "code", TEXT, -1)));
    }

    private static Relation full() {
        return notes(ReplicaIdentity.FULL, true, true, true);
    }

    /** A catalog with built-in column types only and these tables' keys. */
    private static final class Catalog implements TypeCatalog {
        final Map<Long, CatalogKey> keys = new HashMap<>();
        int reads;

        Catalog with(List<String> primaryKey, List<String> replicaIdentityIndex) {
            keys.put(OID, new CatalogKey(OID, primaryKey, replicaIdentityIndex));
            return this;
        }

        @Override
        public Map<Long, CatalogType> describe(Set<Long> oids) throws SQLException {
            throw new SQLException("built-in types only: nothing to look up");
        }

        @Override
        public Optional<CatalogKey> tableKey(long relationId) {
            reads++;
            return Optional.ofNullable(keys.get(relationId));
        }
    }

    private static ChangeRecordBuilder builder(TypeCatalog catalog, String messageKeyColumns) {
        return new ChangeRecordBuilder("shop", "inventory", "1.0", new TopicNames("shop", "__heartbeat"), new AvroNames("shop"),
                new PostgresTypeMapper(ConverterOptions.DEFAULTS), new ColumnTypes(catalog), true, (s, t) -> true,
                MessageKeyColumns.parse(messageKeyColumns), false);
    }

    private List<Draft> build(ChangeRecordBuilder builder, PgOutputMessage... messages) {
        List<Draft> drafts = new ArrayList<>();
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

    /** Insert (1, NULL, NULL), update to (1, 'x', NULL), delete: the FULL old tuples carry every column. */
    private static PgOutputMessage[] insertUpdateDeleteWithNulls(Relation relation) {
        return concat(new PgOutputMessage[] {relation}, transaction(742, 0x5000,
                new Insert(Xid.INVALID, OID, tuple("1", null, null)),
                new Update(Xid.INVALID, OID, Optional.of(new OldTuple(OldTuple.Kind.FULL, tuple("1", null, null))), tuple("1", "x", null)),
                new Delete(Xid.INVALID, OID, new OldTuple(OldTuple.Kind.FULL, tuple("1", "x", null)))));
    }

    private static List<String> keyFields(Draft draft) {
        return draft.keySchema().fields().stream().map(Field::name).toList();
    }

    private static String op(Draft draft) {
        return draft.value() == null ? null : ((Struct) draft.value()).getString("op");
    }

    @Test
    void fullIdentityTableIsKeyedByItsPrimaryKeyAndNullColumnsStayInTheRow() {
        List<Draft> drafts = build(builder(new Catalog().with(List.of("id"), List.of()), ""), insertUpdateDeleteWithNulls(full()));

        assertThat(drafts).extracting(RecordKeyChoiceTest::op).containsExactly("c", "u", "d", null);
        assertThat(drafts).allSatisfy(d -> {
            assertThat(keyFields(d)).containsExactly("id");
            assertThat(((Struct) d.key()).get("id")).isEqualTo(1L);
        });
        Struct update = (Struct) drafts.get(1).value();
        assertThat(update.getStruct("before").get("note")).as("FULL widens before").isNull();
        assertThat(update.getStruct("before").get("id")).isEqualTo(1L);
        assertThat(update.getStruct("after").get("note")).isEqualTo("x");
        assertThat(((Struct) drafts.get(2).value()).getStruct("before").get("note")).isEqualTo("x");
    }

    @Test
    void fullIdentityTableWithoutPrimaryKeyOrIndexHasNullKeysAndNullKeyTombstones() {
        List<Draft> drafts = build(builder(new Catalog().with(List.of(), List.of()), ""), insertUpdateDeleteWithNulls(full()));

        assertThat(drafts).extracting(RecordKeyChoiceTest::op).as("the delete's tombstone has a null key, as Debezium's")
                .containsExactly("c", "u", "d", null);
        assertThat(drafts).allSatisfy(d -> {
            assertThat(d.key()).isNull();
            assertThat(d.keySchema()).isNull();
        });
        assertThat(((Struct) drafts.get(2).value()).getStruct("before").get("note")).isEqualTo("x");
    }

    @Test
    void replicaIdentityIndexKeysATableWithoutPrimaryKey() {
        Relation byIndex = notes(ReplicaIdentity.INDEX, false, false, true);
        List<Draft> drafts = build(builder(new Catalog().with(List.of(), List.of("code")), ""),
                concat(new PgOutputMessage[] {byIndex}, transaction(742, 0x5000,
                        new Insert(Xid.INVALID, OID, tuple("1", null, "A")),
                        new Delete(Xid.INVALID, OID, new OldTuple(OldTuple.Kind.KEY, tuple(null, null, "A"))))));

        assertThat(drafts).extracting(RecordKeyChoiceTest::op).containsExactly("c", "d", null);
        assertThat(drafts).allSatisfy(d -> assertThat(((Struct) d.key()).get("code")).isEqualTo("A"));
        assertThat(keyFields(drafts.get(0))).containsExactly("code");
    }

    @Test
    void primaryKeyWinsOverAReplicaIdentityIndexAndAKeyOnlyOldTupleWithoutItGivesANullKey() {
        Relation byIndex = notes(ReplicaIdentity.INDEX, false, false, true);
        List<Draft> drafts = build(builder(new Catalog().with(List.of("id"), List.of("code")), ""),
                concat(new PgOutputMessage[] {byIndex}, transaction(742, 0x5000,
                        new Insert(Xid.INVALID, OID, tuple("1", null, "A")),
                        new Update(Xid.INVALID, OID, Optional.of(new OldTuple(OldTuple.Kind.KEY, tuple(null, null, "A"))),
                                tuple("1", null, "B")),
                        new Delete(Xid.INVALID, OID, new OldTuple(OldTuple.Kind.KEY, tuple(null, null, "B"))))));

        // The old tuples hold the index's column only: the update stays one update under the new row's key, the
        // delete and its tombstone are emitted without key rather than stopping the task.
        assertThat(drafts).extracting(RecordKeyChoiceTest::op).containsExactly("c", "u", "d", null);
        assertThat(keyFields(drafts.get(0))).containsExactly("id");
        assertThat(((Struct) drafts.get(1).key()).get("id")).isEqualTo(1L);
        assertThat(drafts.get(2).key()).isNull();
        assertThat(((Struct) drafts.get(2).value()).getStruct("before").get("code")).isEqualTo("B");
    }

    @Test
    void messageKeyColumnsOverrideTheCatalogKeyAsOptionalFieldsThatMayBeNull() {
        List<Draft> drafts = build(builder(new Catalog().with(List.of("id"), List.of()), "public\\.other:id;public\\.no.*:code,note"),
                insertUpdateDeleteWithNulls(full()));

        // The update changes note, part of the named key: a delete of the old key, its tombstone, a create of the new.
        assertThat(drafts).extracting(RecordKeyChoiceTest::op).containsExactly("c", "d", null, "c", "d", null);
        assertThat(keyFields(drafts.get(0))).as("in the order named").containsExactly("code", "note");
        assertThat(drafts.get(0).keySchema().field("note").schema().isOptional()).isTrue();
        Struct created = (Struct) drafts.get(0).key();
        assertThat(created.get("code")).isNull();
        assertThat(created.get("note")).isNull();
        assertThat(drafts.get(1).key()).isEqualTo(created);
        assertThat(((Struct) drafts.get(3).key()).get("note")).isEqualTo("x");
        assertThat(drafts.get(4).key()).isEqualTo(drafts.get(3).key());
    }

    @Test
    void anEntryNamingAColumnTheTableDoesNotPublishFallsBackToTheCatalogKey() {
        List<Draft> drafts = build(builder(new Catalog().with(List.of("id"), List.of()), "public.notes:id,tenant"),
                insertUpdateDeleteWithNulls(full()));

        assertThat(drafts).allSatisfy(d -> assertThat(keyFields(d)).containsExactly("id"));
    }

    @Test
    void aPrimaryKeyColumnLeftOutOfThePublicationsColumnListLeavesTheTableWithoutKey() {
        Relation narrowed = new Relation(Xid.INVALID, OID, "public", "notes", ReplicaIdentity.FULL,
                List.of(new RelationColumn(true, "id", INT8, -1), new RelationColumn(true, "note", TEXT, -1)));
        List<Draft> drafts = build(builder(new Catalog().with(List.of("id", "region"), List.of()), ""),
                concat(new PgOutputMessage[] {narrowed}, transaction(742, 0x5000, new Insert(Xid.INVALID, OID, tuple("1", null)))));

        assertThat(drafts).singleElement().satisfies(d -> assertThat(d.key()).isNull());
    }

    @Test
    void aNewRelationMessageReadsTheKeyAgainAndAChangedKeyIsANewSchema() {
        Catalog catalog = new Catalog().with(List.of(), List.of());
        ChangeRecordBuilder builder = builder(catalog, "");
        Draft before = build(builder, concat(new PgOutputMessage[] {full()}, transaction(1, 0x5000,
                new Insert(Xid.INVALID, OID, tuple("1", null, null)), new Insert(Xid.INVALID, OID, tuple("2", null, null))))).get(0);
        assertThat(catalog.reads).as("once per Relation message, not per change").isEqualTo(1);

        catalog.with(List.of("id"), List.of()); // ALTER TABLE notes ADD PRIMARY KEY (id): PostgreSQL sends the same Relation again
        Draft after = build(builder, concat(new PgOutputMessage[] {full()}, transaction(2, 0x6000,
                new Insert(Xid.INVALID, OID, tuple("3", null, null))))).get(0);

        assertThat(before.key()).isNull();
        assertThat(((Struct) after.key()).get("id")).isEqualTo(3L);
        assertThat(after.keySchema()).isNotNull();
        assertThat(after.keySchema().version()).as("Debezium's Key structs carry no version").isNull();
        assertThat(after.valueSchema()).isNotSameAs(before.valueSchema());
    }

    @Test
    void snapshotRowsOfAFullIdentityTableAreKeyedLikeItsStreamedChanges() {
        ChangeRecordBuilder builder = builder(new Catalog().with(List.of("id"), List.of()), "");
        Relation relation = full();
        // As SnapshotTables describes it: the Relation's flags, every column under FULL.
        SnapshotTable table = new SnapshotTable(new TableName("public", "notes"), OID, relation.columns(), 0, false, null);

        Draft snapshot = builder.snapshotRow(new SnapshotRow(table, Arrays.asList("1", null, null), true, false,
                SnapshotRow.Marker.FIRST), Lsn.of(0x4000));
        Draft streamed = build(builder, concat(new PgOutputMessage[] {relation}, transaction(1, 0x5000,
                new Insert(Xid.INVALID, OID, tuple("1", null, null))))).get(0);

        assertThat(snapshot.key()).isEqualTo(streamed.key());
        assertThat(snapshot.keySchema()).isEqualTo(streamed.keySchema());
        assertThat(keyFields(snapshot)).containsExactly("id");
    }
}
