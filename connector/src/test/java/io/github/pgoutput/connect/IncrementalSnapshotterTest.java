package io.github.pgoutput.connect;

import static io.github.pgoutput.connect.Deliveries.concat;
import static io.github.pgoutput.connect.Deliveries.transaction;
import static io.github.pgoutput.connect.Deliveries.tuple;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.pgoutput.connect.metrics.IncrementalSnapshotMetrics;
import io.github.pgoutput.connect.offsets.AcknowledgementTracker;
import io.github.pgoutput.connect.offsets.ResumePoint;
import io.github.pgoutput.connect.offsets.SourceOffsets.Position;
import io.github.pgoutput.connect.offsets.SourceOffsets;
import io.github.pgoutput.connect.record.AvroNames;
import io.github.pgoutput.connect.record.ChangeRecordBuilder;
import io.github.pgoutput.connect.record.ColumnTypes;
import io.github.pgoutput.connect.record.MessageKeyColumns;
import io.github.pgoutput.connect.record.TopicNames;
import io.github.pgoutput.converters.ConverterOptions;
import io.github.pgoutput.converters.PostgresTypeMapper;
import io.github.pgoutput.pgoutput.Lsn;
import io.github.pgoutput.pgoutput.PgOutputMessage.Insert;
import io.github.pgoutput.pgoutput.PgOutputMessage.Relation;
import io.github.pgoutput.pgoutput.PgOutputMessage;
import io.github.pgoutput.pgoutput.RelationColumn;
import io.github.pgoutput.pgoutput.ReplicaIdentity;
import io.github.pgoutput.pgoutput.Xid;
import io.github.pgoutput.replication.TableName;
import io.github.pgoutput.snapshot.ChunkReader.Chunk;
import io.github.pgoutput.snapshot.SnapshotRow;
import io.github.pgoutput.snapshot.SnapshotTable;
import io.github.pgoutput.snapshot.TableKey;
import io.github.pgoutput.snapshot.TransactionSnapshot;
import io.github.pgoutput.snapshot.IncrementalSnapshot;
import io.github.pgoutput.snapshot.PrefetchedChunks;
import io.github.pgoutput.snapshot.ScriptedSnapshots;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.source.SourceRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The incremental snapshot between the deliveries of the stream, over scripted deliveries and a scripted table: when
 * chunks go, what their records and offsets say, and when a chunk is held back.
 */
class IncrementalSnapshotterTest {

    private static final Map<String, String> PARTITION = SourceOffsets.partition("db", "slot");
    private static final TableName ORDERS = new TableName("public", "orders");
    private static final TableName SIGNALS = new TableName("public", "signals");
    private static final List<RelationColumn> ORDER_COLUMNS = List.of(new RelationColumn(true, "id", 20, -1),
            new RelationColumn(false, "note", 25, -1));
    private static final Relation ORDERS_RELATION = new Relation(Xid.INVALID, 1, "public", "orders", ReplicaIdentity.DEFAULT, ORDER_COLUMNS);
    private static final Relation SIGNALS_RELATION = new Relation(Xid.INVALID, 2, "public", "signals", ReplicaIdentity.DEFAULT,
            List.of(new RelationColumn(true, "id", 25, -1), new RelationColumn(false, "type", 25, -1), new RelationColumn(false, "data", 25, -1)));
    private static final SnapshotTable ORDERS_TABLE = new SnapshotTable(ORDERS, 1, ORDER_COLUMNS, 10, false, null);
    private static final TableKey ORDERS_KEY = new TableKey(ORDERS, List.of(new TableKey.Column("id", 0, "bigint", null)));
    private static final String EXECUTE = "{\"data-collections\": [\"public.orders\"], \"type\": \"incremental\"}";

    @TempDir
    Path spill;

    private final AcknowledgementTracker tracker = new AcknowledgementTracker();
    private final List<SourceRecord> chunkEnds = new ArrayList<>();

    /** A table of rows 1..rows whose chunks are read in snapshots {@link #visibility} says. */
    private final class ScriptedTable implements IncrementalSnapshot.Chunks {
        final int rows;
        final List<String> reads = new ArrayList<>();
        TransactionSnapshot visibility = TransactionSnapshot.parse("1:1000:");
        java.sql.SQLException failure;

        ScriptedTable(int rows) {
            this.rows = rows;
        }

        List<TableName> captured = new ArrayList<>(List.of(ORDERS, SIGNALS));

        @Override
        public List<TableName> capturedTables() {
            return List.copyOf(captured);
        }

        @Override
        public Chunk read(TableName table, List<String> after, int size, String condition) throws java.sql.SQLException {
            reads.add(table + " after " + after + (condition == null ? "" : " where " + condition));
            if (failure != null) {
                throw failure;
            }
            long from = after.isEmpty() ? 1 : Long.parseLong(after.get(0)) + 1;
            List<SnapshotRow> chunk = new ArrayList<>();
            for (long id = from; id <= rows && chunk.size() < size; id++) {
                chunk.add(new SnapshotRow(ORDERS_TABLE, List.of(Long.toString(id), "row " + id), false, false, SnapshotRow.Marker.INCREMENTAL));
            }
            return new Chunk(ORDERS_TABLE, ORDERS_KEY, chunk, visibility, chunk.size() < size);
        }

        @Override
        public void close() {
        }
    }

    private IncrementalSnapshotter snapshotter(ScriptedTable table, int chunkSize, Map<String, ?> stored) {
        return new IncrementalSnapshotter(ScriptedSnapshots.incrementalOver(table), new IncrementalSnapshot.Settings(chunkSize, SIGNALS, "sig", -1), null, tracker,
                PARTITION, stored, chunkEnds::add, System::nanoTime, new IncrementalSnapshotMetrics(System::nanoTime, Long.MAX_VALUE / 4));
    }

    private DeliveryEmitter emitter(IncrementalSnapshotter snapshotter, PgOutputMessage... messages) {
        return emitter(snapshotter, Position.afterDelivery(Lsn.INVALID), messages);
    }

    /** An emitter of one session resumed at {@code start}. */
    private DeliveryEmitter emitter(IncrementalSnapshotter snapshotter, Position start, PgOutputMessage... messages) {
        return emitter(snapshotter, start, (s, t) -> true, messages);
    }

    /** An emitter of one session resumed at {@code start} that makes records of the tables {@code captured} accepts. */
    private DeliveryEmitter emitter(IncrementalSnapshotter snapshotter, Position start, java.util.function.BiPredicate<String, String> captured,
                                    PgOutputMessage... messages) {
        TopicNames topics = new TopicNames("p", "hb");
        ChangeRecordBuilder builder = new ChangeRecordBuilder("p", "db", "1.0", topics, new AvroNames("p"),
                new PostgresTypeMapper(ConverterOptions.DEFAULTS), new ColumnTypes(oids -> {
                    throw new java.sql.SQLException("built-in types only: nothing to look up");
                }), true, captured, MessageKeyColumns.NONE, true, ChangeRecordBuilder.Options.DEFAULTS);
        return new DeliveryEmitter(Deliveries.assembler(spill, messages), builder, null, tracker, PARTITION,
                new ResumePoint(start, Lsn.INVALID, "n1"), start).withIncrementalSnapshots(snapshotter);
    }

    private static Insert order(long id) {
        return new Insert(Xid.INVALID, 1, tuple(Long.toString(id), "changed " + id));
    }

    private static Insert signal(String id, String type, String data) {
        return new Insert(Xid.INVALID, 2, tuple(id, type, data));
    }

    /** Polls of {@code batch} records until the emitter is idle, at most {@code polls}. */
    private static List<SourceRecord> drain(DeliveryEmitter emitter, IncrementalSnapshotter snapshotter, int batch, int polls) {
        List<SourceRecord> all = new ArrayList<>();
        for (int i = 0; i < polls; i++) {
            List<SourceRecord> out = new ArrayList<>();
            boolean idle = emitter.fill(out, batch);
            snapshotter.handedOver();
            all.addAll(out);
            if (idle && out.isEmpty()) {
                break;
            }
        }
        return all;
    }

    private static String describe(SourceRecord r) {
        Struct value = (Struct) r.value();
        Struct row = value.getStruct("after");
        String op = value.getString("op");
        if (op.equals("r")) {
            return "r" + row.get("id") + ":" + value.getStruct("source").getString("snapshot");
        }
        String table = r.topic().substring(r.topic().lastIndexOf('.') + 1);
        return op + (table.equals("signals") ? "" : row.get("id").toString()) + "@" + table;
    }

    @Test
    void aSignalRowStartsASnapshotWhoseChunksAlternateWithTheStreamsDeliveries() {
        ScriptedTable table = new ScriptedTable(5);
        IncrementalSnapshotter snapshotter = snapshotter(table, 2, null);
        DeliveryEmitter emitter = emitter(snapshotter, concat(new PgOutputMessage[] {ORDERS_RELATION, SIGNALS_RELATION},
                transaction(10, 0x5000, signal("s1", "execute-snapshot", EXECUTE)),
                transaction(11, 0x6000, order(100)), transaction(12, 0x7000, order(101))));

        List<SourceRecord> records = drain(emitter, snapshotter, 100, 10);

        assertThat(records).extracting(IncrementalSnapshotterTest::describe).containsExactly(
                "c@signals", "r1:incremental", "r2:incremental", "c100@orders", "r3:incremental", "r4:incremental",
                "c101@orders", "r5:incremental");
        assertThat(table.reads).containsExactly("public.orders after []", "public.orders after [2]", "public.orders after [4]");
        assertThat(underWay(snapshotter)).isFalse();
        assertThat(chunkEnds).extracting(IncrementalSnapshotterTest::describe).containsExactly("r2:incremental", "r4:incremental",
                "r5:incremental");
    }

    @Test
    void snapshotModeAlwaysReadsEveryCapturedTableItSelectsInChunksBetweenTheStreamsDeliveries() {
        ScriptedTable table = new ScriptedTable(3);
        IncrementalSnapshotter snapshotter = new IncrementalSnapshotter(ScriptedSnapshots.incrementalOver(table), new IncrementalSnapshot.Settings(2, null, null, -1), null,
                tracker, PARTITION, null, chunkEnds::add, System::nanoTime, new IncrementalSnapshotMetrics(System::nanoTime, Long.MAX_VALUE / 4));
        snapshotter.requestSnapshotOfCapturedTables(t -> t.equals(ORDERS));
        DeliveryEmitter emitter = emitter(snapshotter, concat(new PgOutputMessage[] {ORDERS_RELATION},
                transaction(10, 0x5000, order(100)), transaction(11, 0x6000, order(101))));

        List<String> records = drain(emitter, snapshotter, 100, 10).stream().map(IncrementalSnapshotterTest::describe).toList();

        assertThat(table.reads).as("orders only: the selection leaves the signal table out")
                .containsExactly("public.orders after []", "public.orders after [2]");
        assertThat(records).containsExactlyInAnyOrder("r1:incremental", "r2:incremental", "r3:incremental", "c100@orders", "c101@orders");
        assertThat(records.indexOf("c100@orders")).as("the stream keeps its order").isLessThan(records.indexOf("c101@orders"));
        assertThat(records.indexOf("r1:incremental")).as("a chunk's rows stay together").isEqualTo(records.indexOf("r2:incremental") - 1);
        assertThat(underWay(snapshotter)).isFalse();
    }

    @Test
    void snapshotModeAlwaysAsksAgainWhenThePollThatQueuedTheTablesFails() {
        ScriptedTable table = new ScriptedTable(1);
        IncrementalSnapshotter snapshotter = new IncrementalSnapshotter(ScriptedSnapshots.incrementalOver(table), new IncrementalSnapshot.Settings(5, null, null, -1), null,
                tracker, PARTITION, null, chunkEnds::add, System::nanoTime, new IncrementalSnapshotMetrics(System::nanoTime, Long.MAX_VALUE / 4));
        snapshotter.requestSnapshotOfCapturedTables(t -> true);
        emitter(snapshotter, ORDERS_RELATION).fill(new ArrayList<>(), 100);
        assertThat(table.reads).isNotEmpty();

        snapshotter.abandoned();
        assertThat(underWay(snapshotter)).as("the records that queued the tables never reached Kafka").isFalse();
        table.reads.clear();
        drain(emitter(snapshotter, ORDERS_RELATION), snapshotter, 100, 5);

        assertThat(table.reads).containsExactly("public.orders after []", "public.signals after []");
    }

    @Test
    void eachChunkRowsOffsetNamesItselfAsReadSoARestartReadsOnAfterIt() {
        ScriptedTable table = new ScriptedTable(5);
        IncrementalSnapshotter snapshotter = snapshotter(table, 3, null);
        DeliveryEmitter emitter = emitter(snapshotter, concat(new PgOutputMessage[] {ORDERS_RELATION, SIGNALS_RELATION},
                transaction(10, 0x5000, signal("s1", "execute-snapshot", EXECUTE))));
        List<SourceRecord> records = drain(emitter, snapshotter, 100, 2);
        SourceRecord second = records.get(2);
        assertThat(describe(second)).isEqualTo("r2:incremental");
        assertThat(SourceOffsets.decode(second.sourceOffset())).isEqualTo(Position.afterDelivery(Lsn.of(0x5020)));
        assertThat(SourceOffsets.signalLsn(second.sourceOffset())).isEqualTo(Lsn.of(0x5000));

        ScriptedTable again = new ScriptedTable(5);
        IncrementalSnapshotter restarted = snapshotter(again, 3, second.sourceOffset());
        DeliveryEmitter replay = emitter(restarted, concat(new PgOutputMessage[] {ORDERS_RELATION, SIGNALS_RELATION},
                transaction(10, 0x5000, signal("s1", "execute-snapshot", EXECUTE))));
        List<SourceRecord> resumed = drain(replay, restarted, 100, 5);

        // The replayed signal row is not a second signal: the offset says it was applied.
        // The chunk goes at the first boundary, before the replayed transaction.
        assertThat(resumed).extracting(IncrementalSnapshotterTest::describe).containsExactly("r3:incremental", "r4:incremental",
                "r5:incremental", "c@signals");
        assertThat(again.reads).containsExactly("public.orders after [2]", "public.orders after [5]");
        assertThat(underWay(restarted)).as("the snapshot is over").isFalse();
        assertThat(SourceOffsets.incrementalSnapshot(restarted.offset(new java.util.HashMap<>()))).isNull();
    }

    @Test
    void aChunkWhoseSnapshotDoesNotSeeADeliveredTransactionIsReadAgain() {
        ScriptedTable table = new ScriptedTable(2);
        // xid 11 is delivered, but the chunk's snapshot still lists it as running.
        table.visibility = TransactionSnapshot.parse("5:20:11");
        IncrementalSnapshotter snapshotter = snapshotter(table, 10, null);
        DeliveryEmitter emitter = emitter(snapshotter, concat(new PgOutputMessage[] {ORDERS_RELATION, SIGNALS_RELATION},
                transaction(11, 0x5000, order(1)), transaction(12, 0x6000, signal("s1", "execute-snapshot", EXECUTE))));

        List<SourceRecord> held = drain(emitter, snapshotter, 100, 3);
        assertThat(held).extracting(IncrementalSnapshotterTest::describe).containsExactly("c1@orders", "c@signals");
        assertThat(table.reads).isNotEmpty();

        table.visibility = TransactionSnapshot.parse("5:20:");
        List<SourceRecord> then = drain(emitter, snapshotter, 100, 3);
        assertThat(then).extracting(IncrementalSnapshotterTest::describe).containsExactly("r1:incremental", "r2:incremental");
    }

    /**
     * The next chunk is read in the background while the current one is sent ({@link PrefetchedChunks}), before the
     * stream delivers transaction 11. Its snapshot does not see 11, so it does not go after 11's delivery: it is read
     * again, and goes once a snapshot sees 11.
     */
    @Test
    void aChunkReadInTheBackgroundBeforeADeliveryItsSnapshotDoesNotSeeIsReadAgain() {
        ScriptedTable table = new ScriptedTable(4);
        table.visibility = TransactionSnapshot.parse("5:20:11");
        IncrementalSnapshotter snapshotter = new IncrementalSnapshotter(ScriptedSnapshots.incrementalOver(new PrefetchedChunks(table)),
                new IncrementalSnapshot.Settings(2, SIGNALS, "sig", -1), null, tracker, PARTITION, null, chunkEnds::add,
                System::nanoTime, new IncrementalSnapshotMetrics(System::nanoTime, Long.MAX_VALUE / 4));
        DeliveryEmitter emitter = emitter(snapshotter, concat(new PgOutputMessage[] {ORDERS_RELATION, SIGNALS_RELATION},
                transaction(10, 0x5000, signal("s1", "execute-snapshot", EXECUTE)), transaction(11, 0x6000, order(100))));

        List<SourceRecord> held = drain(emitter, snapshotter, 100, 4);
        assertThat(held).extracting(IncrementalSnapshotterTest::describe).containsExactly("c@signals", "r1:incremental",
                "r2:incremental", "c100@orders");
        assertThat(table.reads).as("the chunk after 2 was read ahead, then again at each boundary").startsWith(
                "public.orders after []", "public.orders after [2]", "public.orders after [2]");

        table.visibility = TransactionSnapshot.parse("5:20:");
        List<SourceRecord> then = drain(emitter, snapshotter, 100, 3);
        assertThat(then).extracting(IncrementalSnapshotterTest::describe).containsExactly("r3:incremental", "r4:incremental");
        snapshotter.close();
    }

    @Test
    void pauseHoldsTheChunksResumeLetsThemGoAndStopEndsTheSnapshot() {
        ScriptedTable table = new ScriptedTable(10);
        IncrementalSnapshotter snapshotter = snapshotter(table, 2, null);
        DeliveryEmitter emitter = emitter(snapshotter, concat(new PgOutputMessage[] {ORDERS_RELATION, SIGNALS_RELATION},
                transaction(10, 0x5000, signal("s1", "execute-snapshot", EXECUTE), signal("s2", "pause-snapshot", null)),
                transaction(11, 0x6000, order(100)),
                transaction(12, 0x7000, signal("s3", "resume-snapshot", "")),
                transaction(13, 0x8000, order(101)),
                transaction(14, 0x9000, signal("s4", "stop-snapshot", "{\"data-collections\": [\"public\\\\.ord.*\"]}")),
                transaction(15, 0xA000, order(102))));

        List<SourceRecord> records = drain(emitter, snapshotter, 100, 10);

        assertThat(records).extracting(IncrementalSnapshotterTest::describe).containsExactly("c@signals", "c@signals",
                "c100@orders", "c@signals", "r1:incremental", "r2:incremental", "c101@orders", "r3:incremental",
                "r4:incremental", "c@signals", "c102@orders");
        assertThat(underWay(snapshotter)).isFalse();
    }

    @Test
    void anAbandonedPollGoesBackToTheLastRowHandedOver() {
        ScriptedTable table = new ScriptedTable(6);
        IncrementalSnapshotter snapshotter = snapshotter(table, 4, null);
        DeliveryEmitter emitter = emitter(snapshotter, concat(new PgOutputMessage[] {ORDERS_RELATION, SIGNALS_RELATION},
                transaction(10, 0x5000, signal("s1", "execute-snapshot", EXECUTE))));
        List<SourceRecord> first = new ArrayList<>();
        emitter.fill(first, 3);
        snapshotter.handedOver();
        assertThat(first).extracting(IncrementalSnapshotterTest::describe).containsExactly("c@signals", "r1:incremental", "r2:incremental");

        List<SourceRecord> lost = new ArrayList<>();
        emitter.fill(lost, 3);
        // The stream is idle, so the next chunk follows at once.
        assertThat(lost).extracting(IncrementalSnapshotterTest::describe).containsExactly("r3:incremental", "r4:incremental",
                "r5:incremental");
        snapshotter.abandoned();

        List<SourceRecord> again = drain(emitter, snapshotter, 100, 3);
        assertThat(again).extracting(IncrementalSnapshotterTest::describe).containsExactly("r3:incremental", "r4:incremental",
                "r5:incremental", "r6:incremental");
        assertThat(table.reads).containsExactly("public.orders after []", "public.orders after [4]", "public.orders after [2]",
                "public.orders after [6]");
    }

    @Test
    void additionalConditionsGoWithTheirTable() {
        ScriptedTable table = new ScriptedTable(1);
        IncrementalSnapshotter snapshotter = snapshotter(table, 5, null);
        DeliveryEmitter emitter = emitter(snapshotter, concat(new PgOutputMessage[] {ORDERS_RELATION, SIGNALS_RELATION},
                transaction(10, 0x5000, signal("s1", "execute-snapshot", "{\"data-collections\": [\"public.orders\"],"
                        + " \"additional-conditions\": [{\"data-collection\": \"public.orders\", \"filter\": \"id > 0\"}]}"))));

        drain(emitter, snapshotter, 100, 3);

        assertThat(table.reads).containsExactly("public.orders after [] where id > 0");
    }

    @Test
    void aTableThatCannotBeReadIsLeftOutAndTheStreamGoesOn() {
        ScriptedTable table = new ScriptedTable(3);
        table.failure = new java.sql.SQLException("column \"colour\" does not exist", "42703");
        IncrementalSnapshotter snapshotter = snapshotter(table, 5, null);
        DeliveryEmitter emitter = emitter(snapshotter, concat(new PgOutputMessage[] {ORDERS_RELATION, SIGNALS_RELATION},
                transaction(10, 0x5000, signal("s1", "execute-snapshot", "{\"data-collections\": [\"public.orders\"],"
                        + " \"additional-condition\": \"colour = 'blue'\"}")), transaction(11, 0x6000, order(7))));

        assertThat(drain(emitter, snapshotter, 100, 3)).extracting(IncrementalSnapshotterTest::describe).containsExactly("c@signals",
                "c7@orders");
        assertThat(underWay(snapshotter)).isFalse();
    }

    @Test
    void aFailureThatMayHealFailsThePollSoTheTaskRetries() {
        ScriptedTable table = new ScriptedTable(3);
        table.failure = new java.sql.SQLException("terminating connection due to administrator command", "57P01");
        IncrementalSnapshotter snapshotter = snapshotter(table, 5, null);
        DeliveryEmitter emitter = emitter(snapshotter, concat(new PgOutputMessage[] {ORDERS_RELATION, SIGNALS_RELATION},
                transaction(10, 0x5000, signal("s1", "execute-snapshot", EXECUTE))));

        org.assertj.core.api.Assertions.assertThatThrownBy(() -> drain(emitter, snapshotter, 100, 3))
                .isInstanceOf(io.github.pgoutput.snapshot.SnapshotException.class).hasMessageContaining("57P01")
                .satisfies(e -> assertThat(ErrorClassifier.verdict(e).retriable()).isTrue());
        assertThat(underWay(snapshotter)).isTrue();
    }

    @Test
    void aTableCapturedLaterIsSnapshottedAloneAndTheOffsetsNameTheCapturedTables() {
        ScriptedTable table = new ScriptedTable(2);
        TableName later = new TableName("public", "later");
        IncrementalSnapshotter snapshotter = new IncrementalSnapshotter(ScriptedSnapshots.incrementalOver(table), new IncrementalSnapshot.Settings(5, null, null, 0), null,
                tracker, PARTITION, null, chunkEnds::add, System::nanoTime, new IncrementalSnapshotMetrics(System::nanoTime, Long.MAX_VALUE / 4));
        DeliveryEmitter emitter = emitter(snapshotter, concat(new PgOutputMessage[] {ORDERS_RELATION}, transaction(10, 0x5000, order(7))));

        assertThat(drain(emitter, snapshotter, 100, 2)).extracting(IncrementalSnapshotterTest::describe).containsExactly("c7@orders");
        assertThat(table.reads).as("the tables captured at the first look are known, not new").isEmpty();
        SourceRecord streamed = emitter.heartbeat("hb", "p", Lsn.of(0x6000));
        assertThat(SourceOffsets.capturedTables(streamed.sourceOffset())).isEqualTo("public:orders,public:signals");

        table.captured.add(later);
        drain(emitter, snapshotter, 100, 2);
        assertThat(table.reads).containsExactly("public.later after []");

        // A restart from an offset that names the tables: nothing is new.
        ScriptedTable again = new ScriptedTable(2);
        again.captured.add(later);
        IncrementalSnapshotter restarted = new IncrementalSnapshotter(ScriptedSnapshots.incrementalOver(again), new IncrementalSnapshot.Settings(5, null, null, 0), null,
                tracker, PARTITION, snapshotter.offset(new java.util.HashMap<>()), chunkEnds::add, System::nanoTime,
                new IncrementalSnapshotMetrics(System::nanoTime, Long.MAX_VALUE / 4));
        drain(emitter(restarted, ORDERS_RELATION), restarted, 100, 2);
        assertThat(again.reads).isEmpty();
    }

    @Test
    void aLogicalDecodingMessageWithTheSignalPrefixIsASignalAndOthersAreNot() {
        ScriptedTable table = new ScriptedTable(2);
        IncrementalSnapshotter snapshotter = snapshotter(table, 5, null);
        PgOutputMessage other = new PgOutputMessage.LogicalMessage(Xid.INVALID, false, Lsn.of(0x5000), "audit",
                io.github.pgoutput.pgoutput.Bytes.utf8("{\"type\": \"execute-snapshot\", \"data\": {\"data-collections\": [\"public.orders\"]}}"));
        DeliveryEmitter emitter = emitter(snapshotter, ORDERS_RELATION, other);
        drain(emitter, snapshotter, 100, 3);
        assertThat(table.reads).as("another prefix").isEmpty();

        PgOutputMessage signal = new PgOutputMessage.LogicalMessage(Xid.INVALID, false, Lsn.of(0x6000), "sig",
                io.github.pgoutput.pgoutput.Bytes.utf8("{\"type\": \"execute-snapshot\", \"data\": {\"data-collections\": [\"public.orders\"]}}"));
        DeliveryEmitter second = emitter(snapshotter, ORDERS_RELATION, signal);
        List<SourceRecord> records = drain(second, snapshotter, 100, 3);
        assertThat(table.reads).containsExactly("public.orders after []");
        assertThat(records).extracting(SourceRecord::topic).contains("p.public.orders");
        assertThat(SourceOffsets.signalLsn(records.get(records.size() - 1).sourceOffset())).isEqualTo(Lsn.of(0x6000));
    }

    @Test
    void aNameThatMatchesNoCapturedTableStartsNothing() {
        ScriptedTable table = new ScriptedTable(3);
        IncrementalSnapshotter snapshotter = snapshotter(table, 5, null);
        DeliveryEmitter emitter = emitter(snapshotter, concat(new PgOutputMessage[] {ORDERS_RELATION, SIGNALS_RELATION},
                transaction(10, 0x5000, signal("s1", "execute-snapshot", "{\"data-collections\": [\"public.nothing\"]}"))));

        assertThat(drain(emitter, snapshotter, 100, 3)).extracting(IncrementalSnapshotterTest::describe).containsExactly("c@signals");
        assertThat(table.reads).isEmpty();
    }

    @Test
    void aPreparedTransactionHoldsTheChunksUntilItsOutcome() {
        ScriptedTable table = new ScriptedTable(2);
        IncrementalSnapshotter snapshotter = snapshotter(table, 5, null);
        PgOutputMessage[] prepared = {
            new PgOutputMessage.BeginPrepare(Lsn.of(0x6000), Lsn.of(0x6020), java.time.Instant.parse("2026-01-02T03:04:05Z"), Xid.of(11), "g1"),
            order(100),
            new PgOutputMessage.Prepare(0, Lsn.of(0x6000), Lsn.of(0x6020), java.time.Instant.parse("2026-01-02T03:04:05Z"), Xid.of(11), "g1")};
        PgOutputMessage[] committed = {new PgOutputMessage.CommitPrepared(0, Lsn.of(0x7000), Lsn.of(0x7020),
                java.time.Instant.parse("2026-01-02T03:04:05Z"), Xid.of(11), "g1")};
        DeliveryEmitter emitter = emitter(snapshotter, concat(new PgOutputMessage[] {ORDERS_RELATION, SIGNALS_RELATION}, prepared,
                transaction(10, 0x6800, signal("s1", "execute-snapshot", EXECUTE)), transaction(12, 0x6900, order(200)), committed));

        List<SourceRecord> records = drain(emitter, snapshotter, 100, 6);

        // Without the hold the chunk would follow the signal at once, before c200.
        assertThat(records).extracting(IncrementalSnapshotterTest::describe).containsExactly("c100@orders", "c@signals",
                "c200@orders", "r1:incremental", "r2:incremental");
        assertThat(table.reads).containsExactly("public.orders after []");
    }

    @Test
    void aPreparedDeliverySentAgainAfterItsOutcomeWasDeliveredHoldsNoChunkBack() {
        ScriptedTable table = new ScriptedTable(2);
        IncrementalSnapshotter snapshotter = snapshotter(table, 5, null);
        PgOutputMessage[] prepared = {
            new PgOutputMessage.BeginPrepare(Lsn.of(0x6000), Lsn.of(0x6020), java.time.Instant.parse("2026-01-02T03:04:05Z"), Xid.of(11), "g1"),
            order(100),
            new PgOutputMessage.Prepare(0, Lsn.of(0x6000), Lsn.of(0x6020), java.time.Instant.parse("2026-01-02T03:04:05Z"), Xid.of(11), "g1")};
        // Its outcome was delivered before the reconnect (the position is past it); this session sends it again, then fails.
        Position pastTheOutcome = Position.afterDelivery(Lsn.of(0x7020));
        drain(emitter(snapshotter, pastTheOutcome, concat(new PgOutputMessage[] {ORDERS_RELATION, SIGNALS_RELATION}, prepared)),
                snapshotter, 100, 3);
        snapshotter.abandoned();
        // The next session starts past the outcome, which never comes again.
        DeliveryEmitter next = emitter(snapshotter, pastTheOutcome, concat(new PgOutputMessage[] {ORDERS_RELATION, SIGNALS_RELATION},
                transaction(10, 0x8000, signal("s1", "execute-snapshot", EXECUTE)), transaction(12, 0x9000, order(200))));

        List<SourceRecord> records = drain(next, snapshotter, 100, 6);

        assertThat(records).extracting(IncrementalSnapshotterTest::describe).containsExactly("c@signals", "r1:incremental", "r2:incremental",
                "c200@orders");
    }

    @Test
    void aSignalWhoseTransactionHasNoRecordIsNotConfirmedBeforeAnOffsetSayingWhatItDidIsCommitted() {
        ScriptedTable table = new ScriptedTable(0);
        IncrementalSnapshotter snapshotter = snapshotter(table, 5, null);
        // The signal table is not captured: its transaction makes no record.
        DeliveryEmitter emitter = emitter(snapshotter, Position.afterDelivery(Lsn.INVALID), (s, t) -> !t.equals("signals"),
                concat(new PgOutputMessage[] {ORDERS_RELATION, SIGNALS_RELATION}, transaction(10, 0x5000, signal("s1", "execute-snapshot", EXECUTE))));

        assertThat(drain(emitter, snapshotter, 100, 3)).isEmpty();
        assertThat(table.reads).as("the signal was applied").isNotEmpty();
        assertThat(tracker.durableThrough(Lsn.INVALID)).as("a failure now must find the signal sent again").isEqualTo(Lsn.INVALID);
        assertThat(tracker.durableThrough(Lsn.of(0x5020))).isEqualTo(Lsn.of(0x5020));
    }

    /** Whether the next record's offset says an incremental snapshot is under way: what a restarted task goes on from. */
    private static boolean underWay(IncrementalSnapshotter snapshotter) {
        return SourceOffsets.incrementalSnapshot(snapshotter.offset(new HashMap<>())) != null;
    }
}
