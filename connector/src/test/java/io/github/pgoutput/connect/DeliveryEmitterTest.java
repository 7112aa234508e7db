package io.github.pgoutput.connect;

import io.github.pgoutput.connect.record.TopicNames;
import io.github.pgoutput.connect.record.TransactionTopicRecords;
import io.github.pgoutput.connect.record.LifecycleHeaders;
import io.github.pgoutput.connect.offsets.SourceOffsets;
import io.github.pgoutput.connect.record.ChangeRecordBuilder;
import io.github.pgoutput.connect.record.MessageKeyColumns;
import io.github.pgoutput.connect.record.ColumnTypes;
import io.github.pgoutput.connect.offsets.AcknowledgementTracker;
import io.github.pgoutput.connect.record.AvroNames;
import io.github.pgoutput.connect.offsets.ResumePoint;
import io.github.pgoutput.connect.offsets.DebeziumPartial;

import static io.github.pgoutput.connect.Deliveries.concat;
import static io.github.pgoutput.connect.Deliveries.transaction;
import static io.github.pgoutput.connect.Deliveries.tuple;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.github.pgoutput.connect.offsets.SourceOffsets.Position;
import io.github.pgoutput.converters.BinaryHandlingMode;
import io.github.pgoutput.converters.ConverterOptions;
import io.github.pgoutput.converters.PostgresTypeMapper;
import io.github.pgoutput.pgoutput.Lsn;
import io.github.pgoutput.pgoutput.PgOutputMessage;
import io.github.pgoutput.pgoutput.PgOutputMessage.BeginPrepare;
import io.github.pgoutput.pgoutput.PgOutputMessage.CommitPrepared;
import io.github.pgoutput.pgoutput.PgOutputMessage.Insert;
import io.github.pgoutput.pgoutput.PgOutputMessage.Prepare;
import io.github.pgoutput.pgoutput.PgOutputMessage.Relation;
import io.github.pgoutput.pgoutput.PgOutputMessage.RollbackPrepared;
import io.github.pgoutput.pgoutput.RelationColumn;
import io.github.pgoutput.pgoutput.ReplicaIdentity;
import io.github.pgoutput.pgoutput.Xid;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.source.SourceRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DeliveryEmitterTest {

    private static final Instant TIME = Instant.parse("2026-01-02T03:04:05Z");
    private static final Map<String, String> PARTITION = SourceOffsets.partition("db", "slot");
    private static final Relation T = new Relation(Xid.INVALID, 1, "public", "t", ReplicaIdentity.DEFAULT,
            List.of(new RelationColumn(true, "id", 20, -1)));

    @TempDir
    Path spill;

    private static final String NUMBERING = "n1";

    private final AcknowledgementTracker tracker = new AcknowledgementTracker();

    private static Insert insert(int id) {
        return new Insert(Xid.INVALID, 1, tuple(Integer.toString(id)));
    }

    /** Two transactions: xid 10 with two inserts committed at 0/5000, xid 11 with one insert at 0/6000. */
    private static PgOutputMessage[] twoTransactions() {
        return concat(new PgOutputMessage[] {T}, transaction(10, 0x5000, insert(1), insert(2)), transaction(11, 0x6000, insert(3)));
    }

    private List<SourceRecord> emitAll(boolean metadata, Position start, PgOutputMessage... messages) {
        return emitAll(ChangeRecordBuilder.Options.DEFAULTS, metadata, start, messages).records();
    }

    private record Emitted(List<SourceRecord> records, DeliveryEmitter emitter) {
    }

    private Emitted emitAll(ChangeRecordBuilder.Options options, boolean metadata, Position start, PgOutputMessage... messages) {
        return emitAll(options, metadata, new ResumePoint(start, Lsn.INVALID, NUMBERING), messages);
    }

    private Emitted emitAll(ChangeRecordBuilder.Options options, boolean metadata, ResumePoint resume, PgOutputMessage... messages) {
        Position start = resume.position();
        TopicNames topics = new TopicNames("p", "hb");
        AvroNames names = new AvroNames("p");
        var assembler = Deliveries.assembler(spill, messages);
        ChangeRecordBuilder builder = new ChangeRecordBuilder("p", "db", "1.0", topics, names,
                new PostgresTypeMapper(ConverterOptions.DEFAULTS), new ColumnTypes(oids -> {
                    throw new java.sql.SQLException("built-in types only: nothing to look up");
                }), true, (s, t) -> true, MessageKeyColumns.NONE, true, options);
        DeliveryEmitter emitter = new DeliveryEmitter(assembler, builder, metadata ? new TransactionTopicRecords(topics) : null,
                tracker, PARTITION, resume, start);
        List<SourceRecord> out = new ArrayList<>();
        while (!emitter.fill(out, out.size() + 2)) {
            // small batches: the emitter must keep its place between calls
        }
        return new Emitted(out, emitter);
    }

    private static Position offset(SourceRecord record) {
        return SourceOffsets.decode(record.sourceOffset());
    }

    private static String header(SourceRecord record, String name) {
        return String.valueOf(record.headers().lastWithName(name).value());
    }

    @Test
    void aDeliverySentAgainBeforeTheOneInProgressLeavesThePositionInsideIt() {
        // Resumed inside xid 11 after its first record; PostgreSQL sends xid 10 (all in Kafka) again first.
        Position inside = Position.insideDelivery(Lsn.of(0x5020), Lsn.of(0x6000), Lsn.of(0x6020), 1, NUMBERING);
        Emitted emitted = emitAll(ChangeRecordBuilder.Options.DEFAULTS, false, inside,
                concat(new PgOutputMessage[] {T}, transaction(10, 0x5000, insert(1), insert(2))));

        assertThat(emitted.records()).isEmpty();
        assertThat(emitted.emitter().position()).as("a later session must still skip xid 11's first record").isEqualTo(inside);
    }

    @Test
    void numbersRecordsPerDeliveryAndOnlyTheLastCarriesTheOffsetAfterIt() {
        List<SourceRecord> records = emitAll(false, Position.afterDelivery(Lsn.INVALID), twoTransactions());

        assertThat(records).extracting(r -> header(r, LifecycleHeaders.TX_ORDER)).containsExactly("1", "2", "1");
        assertThat(records).extracting(r -> header(r, LifecycleHeaders.COMMIT_LSN)).containsExactly("0/5020", "0/5020", "0/6020");
        assertThat(offset(records.get(0))).isEqualTo(Position.insideDelivery(Lsn.INVALID, Lsn.of(0x5000), Lsn.of(0x5020), 1, NUMBERING));
        assertThat(offset(records.get(1))).isEqualTo(Position.afterDelivery(Lsn.of(0x5020)));
        assertThat(offset(records.get(2))).isEqualTo(Position.afterDelivery(Lsn.of(0x6020)));
    }

    @Test
    void transactionMetadataWrapsEachDeliveryInBeginAndEnd() {
        List<SourceRecord> records = emitAll(true, Position.afterDelivery(Lsn.INVALID), twoTransactions());

        assertThat(records).extracting(SourceRecord::topic).containsExactly("p.transaction", "p.public.t", "p.public.t",
                "p.transaction", "p.transaction", "p.public.t", "p.transaction");
        Struct end = (Struct) records.get(3).value();
        assertThat(end.get("status")).isEqualTo("END");
        assertThat(end.get("event_count")).isEqualTo(2L);
        assertThat(end.get("end_lsn")).isEqualTo("0/5020");
        assertThat(end.get("tx_lsn")).isEqualTo("0/5000");
        Struct begin = (Struct) records.get(0).value();
        assertThat(begin.get("end_lsn")).as("known at BEGIN too").isEqualTo("0/5020");
        assertThat(records).allSatisfy(r -> assertThat(header(r, LifecycleHeaders.COMMIT_LSN)).isIn("0/5020", "0/6020"));
        assertThat(offset(records.get(2))).isEqualTo(Position.insideDelivery(Lsn.INVALID, Lsn.of(0x5000), Lsn.of(0x5020), 3, NUMBERING));
        assertThat(offset(records.get(3))).isEqualTo(Position.afterDelivery(Lsn.of(0x5020)));
    }

    @Test
    void transactionRecordsCarryDebeziumsSchemasAndIdsAndDataCollectionsByTable() {
        List<SourceRecord> records = emitAll(true, Position.afterDelivery(Lsn.INVALID), twoTransactions());

        SourceRecord beginRecord = records.get(0);
        assertThat(beginRecord.keySchema().name()).isEqualTo("io.debezium.connector.common.TransactionMetadataKey");
        assertThat(beginRecord.valueSchema().name()).isEqualTo("io.debezium.connector.common.TransactionMetadataValue");
        assertThat(beginRecord.valueSchema().field("outcome").schema().isOptional()).as("our additions are optional").isTrue();
        Struct begin = (Struct) beginRecord.value();
        Struct firstChange = (Struct) records.get(1).value();
        Struct end = (Struct) records.get(3).value();
        assertThat(begin.get("id")).as("<xid>:<position of the first change>")
                .isEqualTo("10:" + firstChange.getStruct("source").get("lsn"));
        assertThat(firstChange.getStruct("transaction").get("id")).isEqualTo(begin.get("id"));
        assertThat(end.get("id")).as("<xid>:<end of the commit record>").isEqualTo("10:" + 0x5020);
        assertThat(((Struct) records.get(3).key()).get("id")).isEqualTo(end.get("id"));
        assertThat(end.getArray("data_collections")).singleElement().satisfies(c -> {
            assertThat(((Struct) c).get("data_collection")).isEqualTo("public.t");
            assertThat(((Struct) c).get("event_count")).isEqualTo(2L);
        });
    }

    @Test
    void heartbeatsAreDebeziumsServerNameKeyAndHeartbeatValue() {
        var emitter = new DeliveryEmitter(Deliveries.assembler(spill), new ChangeRecordBuilder("p", "db", "1.0",
                new TopicNames("p", "hb"), new AvroNames("p"), new PostgresTypeMapper(ConverterOptions.DEFAULTS),
                new ColumnTypes(oids -> Map.of()), true, (s, t) -> true), null, tracker, PARTITION,
                new ResumePoint(Position.afterDelivery(Lsn.INVALID), Lsn.INVALID, NUMBERING), Position.afterDelivery(Lsn.INVALID));

        SourceRecord beat = emitter.heartbeat("hb.p", "p", Lsn.of(0x7000));

        assertThat(beat.keySchema().name()).isEqualTo("io.debezium.connector.common.ServerNameKey");
        assertThat(beat.kafkaPartition()).isZero();
        assertThat(((Struct) beat.key()).get("serverName")).isEqualTo("p");
        assertThat(beat.valueSchema().name()).isEqualTo("io.debezium.connector.common.Heartbeat");
        assertThat(beat.valueSchema().fields()).extracting(org.apache.kafka.connect.data.Field::name).containsExactly("ts_ms");
        assertThat(offset(beat)).isEqualTo(Position.afterDelivery(Lsn.of(0x7000)));
    }

    @Test
    void afterARestartSkipsWhatKafkaAlreadyHas() {
        List<SourceRecord> all = emitAll(true, Position.afterDelivery(Lsn.INVALID), twoTransactions());
        Position stored = offset(all.get(1)); // BEGIN and the first insert of xid 10 were stored

        List<SourceRecord> resumed = emitAll(true, stored, twoTransactions());

        assertThat(resumed).extracting(r -> r.topic() + "#" + header(r, LifecycleHeaders.TX_ORDER))
                .isEqualTo(all.subList(2, all.size()).stream().map(r -> r.topic() + "#" + header(r, LifecycleHeaders.TX_ORDER)).toList());
        assertThat(emitAll(true, offset(all.get(3)), twoTransactions())).hasSize(3);
    }

    /**
     * Three transactions: xid 10 (inserts 1, 2) ending at 0/5020, xid 11 (inserts 3, 4, 5 at WAL positions 0/1070,
     * 0/1080, 0/1090) ending at 0/6020, xid 12 (insert 6) ending at 0/7020.
     */
    private static PgOutputMessage[] threeTransactions() {
        return concat(new PgOutputMessage[] {T}, transaction(10, 0x5000, insert(1), insert(2)),
                transaction(11, 0x6000, insert(3), insert(4), insert(5)), transaction(12, 0x7000, insert(6)));
    }

    private static String topicAndOrder(SourceRecord record) {
        return record.topic() + "#" + header(record, LifecycleHeaders.TX_ORDER);
    }

    @Test
    void afterASwitchFromDebeziumSkipsTheChangesItsOffsetShowsInKafkaButNumbersThemAsAlways() {
        // Debezium's offset: after the transaction ending at 0/5020, inside xid 11 up to its change at 0/1080.
        ResumePoint resume = new ResumePoint(Position.afterDelivery(Lsn.of(0x5020)), Lsn.INVALID, NUMBERING,
                new DebeziumPartial(Xid.of(11), Lsn.of(0x1080), 1));

        List<SourceRecord> records = emitAll(ChangeRecordBuilder.Options.DEFAULTS, true, resume, threeTransactions()).records();

        // xid 11: BEGIN (1), insert 3 (2) and insert 4 (3) are Debezium's; insert 5 (4) and END (5) are new.
        assertThat(records).extracting(DeliveryEmitterTest::topicAndOrder).containsExactly("p.public.t#4", "p.transaction#5",
                "p.transaction#1", "p.public.t#2", "p.transaction#3");
        assertThat(((Struct) records.get(0).value()).getStruct("after").get("id")).isEqualTo(5L);
        assertThat(offset(records.get(0))).isEqualTo(Position.insideDelivery(Lsn.of(0x5020), Lsn.of(0x6000), Lsn.of(0x6020), 4, NUMBERING));
    }

    @Test
    void afterASwitchFromDebeziumAtTheLastChangeOfATransactionOnlyItsEndComesAgainWithMetadataAndNothingWithout() {
        ResumePoint resume = new ResumePoint(Position.afterDelivery(Lsn.of(0x5020)), Lsn.INVALID, NUMBERING,
                new DebeziumPartial(Xid.of(11), Lsn.of(0x1090), 1));

        assertThat(emitAll(ChangeRecordBuilder.Options.DEFAULTS, false, resume, threeTransactions()).records())
                .extracting(DeliveryEmitterTest::topicAndOrder).containsExactly("p.public.t#1");
        assertThat(emitAll(ChangeRecordBuilder.Options.DEFAULTS, true, resume, threeTransactions()).records())
                .extracting(DeliveryEmitterTest::topicAndOrder).containsExactly("p.transaction#5", "p.transaction#1", "p.public.t#2",
                        "p.transaction#3");
    }

    @Test
    void debeziumsPositionInAnotherTransactionSkipsNothingOfThisOne() {
        ResumePoint resume = new ResumePoint(Position.afterDelivery(Lsn.of(0x5020)), Lsn.INVALID, NUMBERING,
                new DebeziumPartial(Xid.of(99), Lsn.of(0x1090), 1));

        assertThat(emitAll(ChangeRecordBuilder.Options.DEFAULTS, false, resume, threeTransactions()).records())
                .extracting(r -> ((Struct) r.value()).getStruct("after").get("id")).containsExactly(3L, 4L, 5L, 6L);
    }

    @Test
    void stageModeEmitsPreparedChangesAndOneOutcomeRecordPerGid() {
        PgOutputMessage[] messages = concat(new PgOutputMessage[] {T,
                new BeginPrepare(Lsn.of(0x5000), Lsn.of(0x5040), TIME, Xid.of(20), "gid-1"), insert(1),
                new Prepare(0, Lsn.of(0x5000), Lsn.of(0x5040), TIME, Xid.of(20), "gid-1"),
                new BeginPrepare(Lsn.of(0x6000), Lsn.of(0x6040), TIME, Xid.of(21), "gid-2"), insert(2),
                new Prepare(0, Lsn.of(0x6000), Lsn.of(0x6040), TIME, Xid.of(21), "gid-2"),
                new CommitPrepared(0, Lsn.of(0x7000), Lsn.of(0x7040), TIME, Xid.of(20), "gid-1"),
                new RollbackPrepared(0, Lsn.of(0x6040), Lsn.of(0x8040), TIME, TIME, Xid.of(21), "gid-2")});

        List<SourceRecord> records = emitAll(true, Position.afterDelivery(Lsn.INVALID), messages);

        List<SourceRecord> changes = records.stream().filter(r -> r.topic().equals("p.public.t")).toList();
        assertThat(changes).allSatisfy(r -> {
            assertThat(header(r, LifecycleHeaders.OUTCOME)).isEqualTo("PREPARED");
            assertThat(header(r, LifecycleHeaders.TWO_PHASE)).isEqualTo("true");
        });
        assertThat(changes).extracting(r -> header(r, LifecycleHeaders.GID)).containsExactly("gid-1", "gid-2");
        List<SourceRecord> outcomes = records.subList(records.size() - 2, records.size());
        assertThat(outcomes).extracting(r -> ((Struct) r.value()).get("status")).containsExactly("COMMITTED", "ROLLED_BACK");
        assertThat(outcomes).extracting(r -> ((Struct) r.key()).get("id")).containsExactly("gid-1", "gid-2");
        assertThat(offset(outcomes.get(1))).isEqualTo(Position.afterDelivery(Lsn.of(0x8040)));
    }

    @Test
    void everyEmittedRecordIsTrackedUntilAcknowledged() {
        List<SourceRecord> records = emitAll(false, Position.afterDelivery(Lsn.INVALID), twoTransactions());

        assertThat(tracker.unacknowledged()).isEqualTo(3);
        records.forEach(tracker::acknowledged);
        assertThat(tracker.durableThrough(Lsn.of(0x6020))).isEqualTo(Lsn.of(0x6020));
    }

    @Test
    void aDeliveryWhoseChangesAreAllSkippedEmitsNothingYetEndsAndMovesThePosition() {
        ChangeRecordBuilder.Options skipInserts = new ChangeRecordBuilder.Options(LifecycleHeaders.Context.NONE, java.util.Set.of("c"),
                BinaryHandlingMode.BYTES, prefix -> true);

        Emitted emitted = emitAll(skipInserts, false, Position.afterDelivery(Lsn.INVALID), twoTransactions());

        assertThat(emitted.records()).isEmpty();
        assertThat(emitted.emitter().position()).isEqualTo(Position.afterDelivery(Lsn.of(0x6020)));
        assertThat(tracker.unacknowledged()).isZero();
        assertThat(tracker.durableThrough(Lsn.of(0x6020))).isEqualTo(Lsn.of(0x6020));
    }

    @Test
    void recordsCarryDebeziumsContextHeadersNextToOurs() {
        java.util.UUID runId = java.util.UUID.randomUUID();
        ChangeRecordBuilder.Options context = new ChangeRecordBuilder.Options(LifecycleHeaders.Context.of("p", "0", runId),
                java.util.Set.of(), BinaryHandlingMode.BYTES, prefix -> true);

        List<SourceRecord> records = emitAll(context, true, Position.afterDelivery(Lsn.INVALID), twoTransactions()).records();

        assertThat(records).filteredOn(r -> r.topic().equals("p.public.t")).hasSize(3).allSatisfy(r -> {
            assertThat(header(r, "__debezium.context.runId")).isEqualTo(runId.toString());
            assertThat(header(r, "__debezium.context.connectorLogicalName")).isEqualTo("p");
            assertThat(header(r, LifecycleHeaders.XID)).isNotNull();
        });
        assertThat(records).filteredOn(r -> r.topic().equals("p.transaction")).hasSize(4)
                .allSatisfy(r -> assertThat(r.headers().lastWithName("__debezium.context.runId")).isNull());
    }
}
