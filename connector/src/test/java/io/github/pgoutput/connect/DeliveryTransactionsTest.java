package io.github.pgoutput.connect;

import io.github.pgoutput.connect.offsets.AcknowledgementTracker;
import io.github.pgoutput.connect.offsets.ResumePoint;
import io.github.pgoutput.connect.offsets.SourceOffsets;
import io.github.pgoutput.connect.record.AvroNames;
import io.github.pgoutput.connect.record.ChangeRecordBuilder;
import io.github.pgoutput.connect.record.ColumnTypes;
import io.github.pgoutput.connect.record.LifecycleHeaders;
import io.github.pgoutput.connect.record.MessageKeyColumns;
import io.github.pgoutput.connect.record.TopicNames;
import io.github.pgoutput.connect.record.TransactionTopicRecords;

import static io.github.pgoutput.connect.Deliveries.concat;
import static io.github.pgoutput.connect.Deliveries.transaction;
import static io.github.pgoutput.connect.Deliveries.tuple;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import io.github.pgoutput.connect.offsets.SourceOffsets.Position;
import io.github.pgoutput.converters.ConverterOptions;
import io.github.pgoutput.converters.PostgresTypeMapper;
import io.github.pgoutput.pgoutput.Bytes;
import io.github.pgoutput.pgoutput.Lsn;
import io.github.pgoutput.pgoutput.PgOutputMessage;
import io.github.pgoutput.pgoutput.PgOutputMessage.BeginPrepare;
import io.github.pgoutput.pgoutput.PgOutputMessage.CommitPrepared;
import io.github.pgoutput.pgoutput.PgOutputMessage.Insert;
import io.github.pgoutput.pgoutput.PgOutputMessage.LogicalMessage;
import io.github.pgoutput.pgoutput.PgOutputMessage.Prepare;
import io.github.pgoutput.pgoutput.PgOutputMessage.Relation;
import io.github.pgoutput.pgoutput.PgOutputMessage.RollbackPrepared;
import io.github.pgoutput.pgoutput.RelationColumn;
import io.github.pgoutput.pgoutput.ReplicaIdentity;
import io.github.pgoutput.pgoutput.Xid;
import org.apache.kafka.connect.source.SourceRecord;
import org.apache.kafka.connect.source.TransactionContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code transaction.boundary=connector}: the emitter and {@link DeliveryTransactions} ask Connect to commit once per
 * delivery, on its last record, however many polls its records take; the records between two commits are exactly
 * one delivery's.
 */
class DeliveryTransactionsTest {

    private static final Instant TIME = Instant.parse("2026-01-02T03:04:05Z");
    private static final Map<String, String> PARTITION = SourceOffsets.partition("db", "slot");
    private static final Relation T = new Relation(Xid.INVALID, 1, "public", "t", ReplicaIdentity.DEFAULT,
            List.of(new RelationColumn(true, "id", 20, -1)));
    /** A table the connector does not capture. */
    private static final Relation SKIPPED = new Relation(Xid.INVALID, 2, "public", "skipped", ReplicaIdentity.DEFAULT,
            List.of(new RelationColumn(true, "id", 20, -1)));

    @TempDir
    Path spill;

    /** Connect's side: the commit requests, and each poll's records as the producer gets them. */
    private static final class RecordingTransactionContext implements TransactionContext {
        final List<SourceRecord> commitRequests = new ArrayList<>();

        @Override
        public void commitTransaction() {
            throw new AssertionError("commits are requested per record");
        }

        @Override
        public void commitTransaction(SourceRecord record) {
            commitRequests.add(record);
        }

        @Override
        public void abortTransaction() {
            throw new AssertionError("nothing is aborted");
        }

        @Override
        public void abortTransaction(SourceRecord record) {
            throw new AssertionError("nothing is aborted");
        }
    }

    private record Run(List<List<SourceRecord>> polls, List<SourceRecord> records, List<List<SourceRecord>> transactions,
                       List<SourceRecord> commitRequests, DeliveryTransactions boundaries) {
    }

    /** Emits everything in polls of at most {@code room} records, as the task does, and splits it at the commits. */
    private Run run(TransactionContext context, int room, PgOutputMessage... messages) {
        return run(context, room, true, messages);
    }

    private Run run(TransactionContext context, int room, boolean metadata, PgOutputMessage... messages) {
        return run(context, room, metadata, 1, messages);
    }

    /** @param maxDeliveries {@code transaction.batch.max.deliveries} */
    private Run run(TransactionContext context, int room, boolean metadata, int maxDeliveries, PgOutputMessage... messages) {
        RecordingTransactionContext recording = context instanceof RecordingTransactionContext r ? r : null;
        DeliveryTransactions boundaries = new DeliveryTransactions(context, System::nanoTime,
                DeliveryTransactions.PRODUCER_TRANSACTION_TIMEOUT_DEFAULT_MS, "slot", Long.MAX_VALUE, maxDeliveries);
        TopicNames topics = new TopicNames("p", "hb");
        ChangeRecordBuilder builder = new ChangeRecordBuilder("p", "db", "1.0", topics, new AvroNames("p"),
                new PostgresTypeMapper(ConverterOptions.DEFAULTS), new ColumnTypes(oids -> Map.of()), true,
                (schema, table) -> !table.equals("skipped"), MessageKeyColumns.NONE, true);
        Position start = Position.afterDelivery(Lsn.INVALID);
        DeliveryEmitter emitter = new DeliveryEmitter(Deliveries.assembler(spill, messages), builder,
                metadata ? new TransactionTopicRecords(topics) : null, new AcknowledgementTracker(), PARTITION,
                new ResumePoint(start, Lsn.INVALID, "n1"), start, (delivery, last) -> {
                    if (last != null) {
                        boundaries.ended(last);
                    }
                });
        List<List<SourceRecord>> polls = new ArrayList<>();
        boolean idle = false;
        while (!idle) {
            List<SourceRecord> batch = new ArrayList<>();
            idle = emitter.fill(batch, room);
            if (!batch.isEmpty()) {
                polls.add(List.copyOf(batch));
                boundaries.handedOver(batch);
            }
        }
        List<SourceRecord> records = polls.stream().flatMap(List::stream).toList();
        List<SourceRecord> requests = recording == null ? List.of() : recording.commitRequests;
        List<List<SourceRecord>> transactions = new ArrayList<>();
        List<SourceRecord> open = new ArrayList<>();
        for (SourceRecord record : records) {
            open.add(record);
            if (requests.stream().anyMatch(r -> r == record)) {
                transactions.add(List.copyOf(open));
                open.clear();
            }
        }
        if (recording != null) {
            assertThat(open).as("records left in an open Kafka transaction").isEmpty();
        }
        return new Run(polls, records, transactions, requests, boundaries);
    }

    private static String header(SourceRecord record, String name) {
        var header = record.headers().lastWithName(name);
        return header == null ? null : String.valueOf(header.value());
    }

    /** The topic of a transaction's last record, and its status (transaction topic) or outcome header. */
    private static String kind(List<SourceRecord> transaction) {
        SourceRecord last = transaction.get(transaction.size() - 1);
        String what = last.topic().equals("p.transaction") ? ((org.apache.kafka.connect.data.Struct) last.value()).getString("status")
                : header(last, LifecycleHeaders.OUTCOME);
        return last.topic() + " " + what + " x" + transaction.size();
    }

    private static Insert insert(int relation, int id) {
        return new Insert(Xid.INVALID, relation, tuple(Integer.toString(id)));
    }

    @Test
    void eachDeliveryKindIsOneTransactionCommittedOnItsLastRecord() {
        PgOutputMessage[] messages = concat(new PgOutputMessage[] {T, SKIPPED},
                transaction(10, 0x5000, insert(1, 1), insert(1, 2)),
                new PgOutputMessage[] {
                        new BeginPrepare(Lsn.of(0x6000), Lsn.of(0x6040), TIME, Xid.of(20), "gid-1"), insert(1, 3),
                        new Prepare(0, Lsn.of(0x6000), Lsn.of(0x6040), TIME, Xid.of(20), "gid-1"),
                        new BeginPrepare(Lsn.of(0x7000), Lsn.of(0x7040), TIME, Xid.of(21), "gid-2"), insert(1, 4),
                        new Prepare(0, Lsn.of(0x7000), Lsn.of(0x7040), TIME, Xid.of(21), "gid-2"),
                        new CommitPrepared(0, Lsn.of(0x8000), Lsn.of(0x8040), TIME, Xid.of(20), "gid-1"),
                        new RollbackPrepared(0, Lsn.of(0x7040), Lsn.of(0x9040), TIME, TIME, Xid.of(21), "gid-2"),
                        new LogicalMessage(Xid.INVALID, false, Lsn.of(0x9100), "pfx", Bytes.utf8("hello"))},
                transaction(11, 0xA000, insert(2, 5)), // only a table that is not captured: BEGIN and END
                transaction(12, 0xB000, insert(1, 6)));

        Run run = run(new RecordingTransactionContext(), 2, messages);

        assertThat(run.polls().get(0)).as("polls of two records: deliveries span polls").hasSize(2);
        assertThat(run.transactions()).extracting(DeliveryTransactionsTest::kind).containsExactly(
                "p.transaction END x4", // BEGIN, two changes, END
                "p.transaction END x3", "p.transaction END x3", // the PREPARED deliveries
                "p.transaction COMMITTED x1", "p.transaction ROLLED_BACK x1", // their outcomes
                "p.message COMMITTED x1", // a non-transactional logical message
                "p.transaction END x2", "p.transaction END x3");
        assertThat(run.transactions().get(0)).extracting(SourceRecord::topic)
                .containsExactly("p.transaction", "p.public.t", "p.public.t", "p.transaction");
        assertThat(run.transactions()).allSatisfy(transaction -> {
            assertThat(SourceOffsets.decode(transaction.get(transaction.size() - 1).sourceOffset()).isInsideDelivery())
                    .as("the commit is on the record carrying the offset after the delivery").isFalse();
            assertThat(transaction.subList(0, transaction.size() - 1))
                    .allSatisfy(r -> assertThat(SourceOffsets.decode(r.sourceOffset()).isInsideDelivery()).isTrue());
        });
        assertThat(run.commitRequests()).hasSize(run.transactions().size());
        assertThat(run.boundaries().insideDelivery()).isFalse();
    }

    @Test
    void aDeliveryWhoseChangesAreAllFilteredOutHasNoRecordsAndNoCommit() {
        Run run = run(new RecordingTransactionContext(), 2, false, concat(new PgOutputMessage[] {T, SKIPPED},
                transaction(10, 0x5000, insert(1, 1), insert(1, 2)),
                transaction(11, 0x6000, insert(2, 3), insert(2, 4)),
                transaction(12, 0x7000, insert(1, 5))));

        assertThat(run.transactions()).extracting(t -> t.stream().map(r -> header(r, LifecycleHeaders.XID)).toList())
                .containsExactly(List.of("10", "10"), List.of("12"));
        assertThat(run.boundaries().insideDelivery()).isFalse();
    }

    @Test
    void aDeliveryOfManyPollsIsCommittedOnceAndStaysOpenUntilItsLastRecord() {
        PgOutputMessage[] body = IntStream.rangeClosed(1, 50).mapToObj(id -> insert(1, id)).toArray(PgOutputMessage[]::new);
        RecordingTransactionContext context = new RecordingTransactionContext();
        DeliveryTransactions boundaries = new DeliveryTransactions(context);
        TopicNames topics = new TopicNames("p", "hb");
        ChangeRecordBuilder builder = new ChangeRecordBuilder("p", "db", "1.0", topics, new AvroNames("p"),
                new PostgresTypeMapper(ConverterOptions.DEFAULTS), new ColumnTypes(oids -> Map.of()), true, (s, t) -> true);
        Position start = Position.afterDelivery(Lsn.INVALID);
        DeliveryEmitter emitter = new DeliveryEmitter(Deliveries.assembler(spill, concat(new PgOutputMessage[] {T}, transaction(10, 0x5000, body))),
                builder, null, new AcknowledgementTracker(), PARTITION, new ResumePoint(start, Lsn.INVALID, "n1"), start,
                (delivery, last) -> boundaries.ended(last));

        int polls = 0;
        boolean idle = false;
        List<SourceRecord> all = new ArrayList<>();
        while (!idle) {
            List<SourceRecord> batch = new ArrayList<>();
            idle = emitter.fill(batch, 7);
            if (batch.isEmpty()) {
                continue;
            }
            polls++;
            boundaries.handedOver(batch);
            all.addAll(batch);
            if (all.size() < 50) {
                assertThat(context.commitRequests).as("after poll %d", polls).isEmpty();
                assertThat(boundaries.insideDelivery()).isTrue();
            }
        }

        assertThat(polls).isEqualTo(8);
        assertThat(context.commitRequests).singleElement().isSameAs(all.get(49));
        assertThat(boundaries.insideDelivery()).isFalse();
    }

    @Test
    void aDeliveryLargerThanTransactionMaxRecordsFailsTheTaskNamingTheKeyAndNothingOfItIsCommitted() {
        PgOutputMessage[] body = IntStream.rangeClosed(1, 50).mapToObj(id -> insert(1, id)).toArray(PgOutputMessage[]::new);
        RecordingTransactionContext context = new RecordingTransactionContext();
        DeliveryTransactions boundaries = new DeliveryTransactions(context, System::nanoTime, 60_000, "slot", 20);
        TopicNames topics = new TopicNames("p", "hb");
        ChangeRecordBuilder builder = new ChangeRecordBuilder("p", "db", "1.0", topics, new AvroNames("p"),
                new PostgresTypeMapper(ConverterOptions.DEFAULTS), new ColumnTypes(oids -> Map.of()), true, (s, t) -> true);
        Position start = Position.afterDelivery(Lsn.INVALID);
        DeliveryEmitter emitter = new DeliveryEmitter(Deliveries.assembler(spill, concat(new PgOutputMessage[] {T}, transaction(10, 0x5000, body))),
                builder, null, new AcknowledgementTracker(), PARTITION, new ResumePoint(start, Lsn.INVALID, "n1"), start,
                (delivery, last) -> boundaries.ended(last));

        int handedOver = 0;
        Throwable failure = null;
        while (failure == null) {
            List<SourceRecord> batch = new ArrayList<>();
            emitter.fill(batch, 7);
            try {
                boundaries.handedOver(batch);
                handedOver += batch.size();
            } catch (RuntimeException e) {
                failure = e;
            }
        }

        // 7, 14, 21: the third poll takes the open transaction past 20 records.
        assertThat(handedOver).isEqualTo(14);
        assertThat(failure).isInstanceOf(org.apache.kafka.connect.errors.ConnectException.class)
                .hasMessageContaining("transaction.max.records=20").hasMessageContaining("21 records")
                .hasMessageContaining("transaction.boundary=poll");
        assertThat(context.commitRequests).isEmpty();
    }

    @Test
    void aDeliveryOfExactlyTransactionMaxRecordsIsCommitted() {
        PgOutputMessage[] body = IntStream.rangeClosed(1, 20).mapToObj(id -> insert(1, id)).toArray(PgOutputMessage[]::new);
        RecordingTransactionContext context = new RecordingTransactionContext();
        DeliveryTransactions boundaries = new DeliveryTransactions(context, System::nanoTime, 60_000, "slot", 20);
        TopicNames topics = new TopicNames("p", "hb");
        ChangeRecordBuilder builder = new ChangeRecordBuilder("p", "db", "1.0", topics, new AvroNames("p"),
                new PostgresTypeMapper(ConverterOptions.DEFAULTS), new ColumnTypes(oids -> Map.of()), true, (s, t) -> true);
        Position start = Position.afterDelivery(Lsn.INVALID);
        DeliveryEmitter emitter = new DeliveryEmitter(Deliveries.assembler(spill, concat(new PgOutputMessage[] {T}, transaction(10, 0x5000, body))),
                builder, null, new AcknowledgementTracker(), PARTITION, new ResumePoint(start, Lsn.INVALID, "n1"), start,
                (delivery, last) -> boundaries.ended(last));

        List<SourceRecord> all = new ArrayList<>();
        boolean idle = false;
        while (!idle) {
            List<SourceRecord> batch = new ArrayList<>();
            idle = emitter.fill(batch, 7);
            boundaries.handedOver(batch);
            all.addAll(batch);
        }

        assertThat(all).hasSize(20);
        assertThat(context.commitRequests).singleElement().isSameAs(all.get(19));
    }

    @Test
    void batchedDeliveriesEndingInOnePollShareATransactionUpToTheBoundAndThePollsLastEndAlwaysCommits() {
        PgOutputMessage[] messages = new PgOutputMessage[] {T};
        for (int i = 1; i <= 7; i++) {
            messages = concat(messages, transaction(10 + i, 0x5000 + 0x100 * i, insert(1, i)));
        }

        // Without metadata each one-row transaction is one record: polls of five hold [1..5] and [6, 7].
        Run run = run(new RecordingTransactionContext(), 5, false, 3, messages);

        assertThat(run.polls()).extracting(List::size).containsExactly(5, 2);
        assertThat(run.transactions()).extracting(t -> t.stream().map(r -> header(r, LifecycleHeaders.XID)).toList())
                .as("three, then the first poll's rest, then the second poll's two")
                .containsExactly(List.of("11", "12", "13"), List.of("14", "15"), List.of("16", "17"));
        assertThat(run.boundaries().insideDelivery()).isFalse();
    }

    @Test
    void batchingNeverSplitsADeliveryThatSpansPolls() {
        PgOutputMessage[] big = IntStream.rangeClosed(1, 6).mapToObj(id -> insert(1, 100 + id)).toArray(PgOutputMessage[]::new);
        PgOutputMessage[] messages = concat(new PgOutputMessage[] {T},
                transaction(11, 0x5100, insert(1, 1)),
                transaction(12, 0x5200, big),
                transaction(13, 0x5300, insert(1, 2)),
                transaction(14, 0x5400, insert(1, 3)));

        // Polls of four: [11, 12 x3], [12 x3, 13], [14]; at most 10 deliveries per transaction.
        Run run = run(new RecordingTransactionContext(), 4, false, 10, messages);

        assertThat(run.polls()).extracting(List::size).containsExactly(4, 4, 1);
        assertThat(run.transactions()).extracting(t -> t.stream().map(r -> header(r, LifecycleHeaders.XID)).distinct().toList())
                .as("11 alone (its poll ends inside 12), 12 whole with 13, then 14")
                .containsExactly(List.of("11"), List.of("12", "13"), List.of("14"));
        assertThat(run.transactions().get(1)).hasSize(7);
        assertThat(run.transactions()).allSatisfy(transaction -> assertThat(
                SourceOffsets.decode(transaction.get(transaction.size() - 1).sourceOffset()).isInsideDelivery())
                .as("every commit is on the record carrying the offset after a delivery").isFalse());
    }

    @Test
    void aBatchBoundBelowOneIsRefused() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new DeliveryTransactions(new RecordingTransactionContext(),
                System::nanoTime, 60_000, "slot", 10, 0)).hasMessageContaining("transaction.batch.max.deliveries");
    }

    @Test
    void aPollThatFailsRequestsNoCommit() {
        RecordingTransactionContext context = new RecordingTransactionContext();
        DeliveryTransactions boundaries = new DeliveryTransactions(context);
        List<SourceRecord> built = run(null, 10, concat(new PgOutputMessage[] {T}, transaction(10, 0x5000, insert(1, 1)))).records();

        boundaries.ended(built.get(built.size() - 1));
        boundaries.abandoned();
        boundaries.handedOver(List.of());

        assertThat(context.commitRequests).isEmpty();
    }

    @Test
    void aDeliveryThatKeepsItsTransactionOpenForHalfTheProducerTimeoutIsWarnedOfOnce() {
        long[] now = {0};
        List<SourceRecord> records = run(null, 10, concat(new PgOutputMessage[] {T}, transaction(10, 0x5000, insert(1, 1), insert(1, 2))))
                .records();
        DeliveryTransactions boundaries = new DeliveryTransactions(new RecordingTransactionContext(), () -> now[0], 1_000, "slot");

        boundaries.handedOver(records.subList(0, 1)); // BEGIN: the transaction opens
        now[0] = java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(400);
        boundaries.handedOver(records.subList(1, 2));
        assertThat(boundaries.warnedOfTimeout()).as("400 of 1000 ms").isFalse();
        now[0] = java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(600);
        boundaries.handedOver(records.subList(2, 3));
        assertThat(boundaries.warnedOfTimeout()).as("600 of 1000 ms").isTrue();

        boundaries.ended(records.get(3));
        boundaries.handedOver(records.subList(3, 4));
        assertThat(boundaries.insideDelivery()).isFalse();
    }

    @Test
    void aDeliveryStillOpenAtTheProducerTimeoutFailsTheTaskNamingTheSettingsAndNothingOfItIsCommitted() {
        long[] now = {0};
        List<SourceRecord> records = run(null, 10, concat(new PgOutputMessage[] {T}, transaction(10, 0x5000, insert(1, 1), insert(1, 2))))
                .records();
        RecordingTransactionContext context = new RecordingTransactionContext();
        DeliveryTransactions boundaries = new DeliveryTransactions(context, () -> now[0], 1_000, "slot");

        boundaries.handedOver(records.subList(0, 1)); // BEGIN: the transaction opens
        now[0] = java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(999);
        boundaries.handedOver(records.subList(1, 2));
        now[0] = java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(1_000);

        assertThatThrownBy(() -> boundaries.handedOver(records.subList(2, 3)))
                .isInstanceOf(org.apache.kafka.connect.errors.ConnectException.class)
                .hasMessageContaining("Slot 'slot'").hasMessageContaining("open for 1000 ms with 3 records")
                .hasMessageContaining("transaction.timeout.ms is 1000 ms")
                .hasMessageContaining("producer.override.transaction.timeout.ms")
                .hasMessageContaining("transaction.max.timeout.ms").hasMessageContaining("transaction.boundary=poll");
        assertThat(context.commitRequests).isEmpty();
    }

    @Test
    void aPollWithNothingToHandOverStillFailsADeliveryOpenPastTheProducerTimeout() {
        long[] now = {0};
        List<SourceRecord> records = run(null, 10, concat(new PgOutputMessage[] {T}, transaction(10, 0x5000, insert(1, 1))))
                .records();
        DeliveryTransactions boundaries = new DeliveryTransactions(new RecordingTransactionContext(), () -> now[0], 1_000, "slot");
        boundaries.idle(); // nothing open: nothing to check
        boundaries.handedOver(records.subList(0, 1));
        now[0] = java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(900);
        boundaries.idle();

        now[0] = java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(1_200);

        assertThatThrownBy(boundaries::idle).hasMessageContaining("open for 1200 ms");
    }

    @Test
    void aDeliveryWhoseLastRecordArrivesAfterTheTimeoutIsCommittedNotFailed() {
        // The poll holding the last record requests the commit: whether the broker still takes it is its decision.
        long[] now = {0};
        List<SourceRecord> records = run(null, 10, concat(new PgOutputMessage[] {T}, transaction(10, 0x5000, insert(1, 1))))
                .records();
        RecordingTransactionContext context = new RecordingTransactionContext();
        DeliveryTransactions boundaries = new DeliveryTransactions(context, () -> now[0], 1_000, "slot");
        boundaries.handedOver(records.subList(0, 2));
        now[0] = java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(1_500);

        boundaries.ended(records.get(2));
        boundaries.handedOver(records.subList(2, 3));

        assertThat(context.commitRequests).containsExactly(records.get(2));
        assertThat(boundaries.insideDelivery()).isFalse();
    }

    @Test
    void startUpAdviceUnderPollBoundariesWithTheDefaultTimeoutAsksForTenSeconds() {
        String advice = DeliveryTransactions.crashRecoveryAdvice(Map.of("exactly.once.support", "required",
                "transaction.boundary", "poll"), 60_000).orElseThrow();

        assertThat(advice).contains("transaction.timeout.ms (60000 ms, its default)")
                .contains("transaction.abort.timed.out.transaction.cleanup.interval.ms")
                .contains("set producer.override.transaction.timeout.ms=10000");
    }

    @Test
    void startUpAdviceUnderPollBoundariesWithATenSecondOverrideAsksForNothingMore() {
        String advice = DeliveryTransactions.crashRecoveryAdvice(Map.of("exactly.once.support", "required",
                "producer.override.transaction.timeout.ms", "10000"), 10_000).orElseThrow();

        assertThat(advice).contains("(10000 ms, from producer.override.transaction.timeout.ms)").doesNotContain("set ");
    }

    @Test
    void startUpAdviceUnderConnectorBoundariesWeighsTheLongestDeliveryAgainstRecovery() {
        String advice = DeliveryTransactions.crashRecoveryAdvice(Map.of("transaction.boundary", "connector"), 600_000)
                .orElseThrow();

        assertThat(advice).contains("600000 ms").contains("must exceed the longest delivery")
                .contains("as low as the largest transaction allows");
    }

    @Test
    void noStartUpAdviceWithoutExactlyOnceAskedFor() {
        assertThat(DeliveryTransactions.crashRecoveryAdvice(Map.of("exactly.once.support", "requested"), 60_000)).isEmpty();
    }

    @Test
    void withoutConnectorDefinedBoundariesNothingIsAskedOfConnect() {
        Run run = run(null, 3, concat(new PgOutputMessage[] {T}, transaction(10, 0x5000, insert(1, 1), insert(1, 2))));

        assertThat(run.boundaries().connectorDefined()).isFalse();
        assertThat(run.boundaries().insideDelivery()).as("nothing tracked").isFalse();
        assertThat(run.records()).hasSize(4);
    }
}
