package io.github.pgoutput.connect;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.pgoutput.testing.kafka.ConnectWorkerCluster;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.LongStream;

import io.github.pgoutput.connect.record.LifecycleHeaders;
import io.github.pgoutput.testing.PostgresDatabase;
import io.github.pgoutput.testing.PostgresTest;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Connector-defined transaction boundaries seen from outside: one PostgreSQL transaction of 40,000 rows (200,000 in
 * the nightly tier, 1M with {@code scenarios/eos-atomicity.sh}; each more than {@code max.queue.size}) over two tables,
 * with the transaction topic on, is one Kafka transaction with {@code transaction.boundary=connector}. An
 * admin client samples the {@code read_committed} end offsets (the last stable offsets) of the two table topics and
 * the transaction topic every few milliseconds while it is emitted: each moves from before to after in one step, all
 * three in the same sample. The control, {@code transaction.boundary=poll} on the same workload, moves in many steps,
 * so the sampling can see a transaction being committed in parts. Every row reaches its topic once. In stage mode a
 * PREPARED transaction of 40,000 rows and its COMMITTED outcome are each one step. With
 * {@code transaction.batch.max.deliveries} a burst of one-row transactions takes far fewer Kafka transactions (commit
 * markers in the topic) than rows, each row still once.
 */
@Timeout(value = 20, unit = TimeUnit.MINUTES)
class ConnectorTransactionBoundaryIT {

    private static final Logger log = LoggerFactory.getLogger(ConnectorTransactionBoundaryIT.class);
    /**
     * Rows per table of the big transaction: 20,000 in {@code mvn verify} (the two tables' 40,000 records are five
     * times max.queue.size, the loss path this test holds shut), 100,000 in {@code .ci/nightly};
     * {@code scenarios/eos-atomicity.sh} passes {@code -Dboundary.rows.per.table=500000} for the 1M-row transaction of the
     * issue.
     */
    private static final int ROWS_PER_TABLE = Integer.getInteger("boundary.rows.per.table", 20_000);
    private static final Duration WAIT = Duration.ofSeconds(120 + ROWS_PER_TABLE / 1000);
    private static final long SAMPLE_EVERY_MS = 10;
    private static final List<String> COLUMNS = List.of("id", "name");

    @RegisterExtension
    static final ConnectWorkerCluster connect = ConnectWorkerCluster.withWorkers(1).exactlyOnceSource()
            // Lets the connector raise its producer's transaction.timeout.ms, as the README tells big-transaction users.
            .workerProperty("connector.client.config.override.policy", "All");

    /** One sample of the read_committed end offsets, per topic. */
    private record Sample(long nanos, Map<String, Long> endOffsets) {
    }

    /** What the samples show for one topic: the values it took, in order, from the first sample to the last. */
    private record Steps(List<Long> values, int firstChangeAt) {
        int count() {
            return values.size() - 1;
        }
    }

    @PostgresTest(representative = 17)
    void aTwoTableTransactionOf200kRowsBecomesVisibleInOneStepOnEveryTopicWithConnectorBoundariesAndInManyWithPoll(PostgresDatabase db)
            throws Exception {
        connect.restoreWorkers();
        db.execute("CREATE TABLE ta (id bigint PRIMARY KEY, name text)", "CREATE TABLE tb (id bigint PRIMARY KEY, name text)");

        Map<String, Steps> connectorSteps = run(db, "connector", "bconn" + db.majorVersion(), "bconn_slot");
        assertThat(connectorSteps.values()).as("one step per topic with transaction.boundary=connector: %s", connectorSteps)
                .allSatisfy(steps -> assertThat(steps.count()).isEqualTo(1));
        assertThat(connectorSteps.values().stream().map(Steps::firstChangeAt).distinct())
                .as("both table topics and the transaction topic become visible in the same sample: %s", connectorSteps).hasSize(1);

        Map<String, Steps> pollSteps = run(db, "poll", "bpoll" + db.majorVersion(), "bpoll_slot");
        assertThat(pollSteps.get("bpoll" + db.majorVersion() + ".public.ta").count())
                .as("the control: with transaction.boundary=poll the same transaction is committed in parts, and seen so: %s", pollSteps)
                .isGreaterThan(1);
    }

    @PostgresTest(representative = 17)
    void aPreparedTransactionAndItsOutcomeAreEachOneStepInStageModeWithConnectorBoundaries(PostgresDatabase db) throws Exception {
        connect.restoreWorkers();
        int rows = 20_000;
        String name = "bstage" + db.majorVersion();
        String slot = "bstage_slot";
        String ta = name + ".public.ta";
        String tb = name + ".public.tb";
        String transactions = name + ".transaction";
        db.execute("CREATE TABLE ta (id bigint PRIMARY KEY, name text)", "CREATE TABLE tb (id bigint PRIMARY KEY, name text)");
        Map<String, String> config = MixedWorkloadIT.connectorConfig(db, name, slot);
        config.put("exactly.once.support", "required");
        config.put("transaction.boundary", "connector");
        config.put("prepared.transaction.mode", "stage");
        config.put("provide.transaction.metadata", "true");
        connect.configureConnector(name, config);
        connect.awaitRunning(name, 1, WAIT);
        ConnectWorkerCluster.awaitCondition(WAIT, "slot " + slot + " active", () ->
                !db.query("SELECT 1 FROM pg_replication_slots WHERE slot_name = '" + slot + "' AND active").isEmpty());
        long first = rows * 10L;
        db.execute("WITH a AS (INSERT INTO ta VALUES (" + first + ", 'first')) INSERT INTO tb VALUES (" + first + ", 'first')");
        connect.awaitRecords(ta, 1, WAIT);
        connect.awaitRecords(tb, 1, WAIT);
        connect.awaitRecords(transactions, 2, WAIT);

        List<Sample> samples;
        Map<String, Long> start;
        List<String> topics = List.of(ta, tb, transactions);
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, connect.bootstrapServers()));
             Sampler sampler = new Sampler(admin, topics)) {
            start = sampler.await(WAIT, "a first sample", any -> true).endOffsets();
            db.execute("BEGIN; INSERT INTO ta SELECT g, 'a' || g FROM generate_series(1, " + rows + ") g;"
                    + " INSERT INTO tb SELECT g, 'b' || g FROM generate_series(1, " + rows + ") g; PREPARE TRANSACTION 'big'");
            sampler.await(WAIT, "the PREPARED delivery committed on every topic", last ->
                    last.endOffsets().get(ta) >= start.get(ta) + rows && last.endOffsets().get(tb) >= start.get(tb) + rows
                            && last.endOffsets().get(transactions) >= start.get(transactions) + 2);
            Thread.sleep(300);
            long prepared = sampler.samples().get(sampler.samples().size() - 1).endOffsets().get(transactions);
            db.execute("COMMIT PREPARED 'big'");
            sampler.await(WAIT, "the COMMITTED outcome committed", last -> last.endOffsets().get(transactions) > prepared);
            Thread.sleep(300);
            samples = sampler.samples();
        }

        Map<String, Steps> steps = new HashMap<>();
        for (String topic : topics) {
            steps.put(topic, steps(samples, topic));
        }
        log.info("stage, transaction.boundary=connector: {} samples; steps per topic: {}", samples.size(),
                steps.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue().count() + " " + e.getValue().values())
                        .collect(Collectors.joining(", ")));
        assertThat(steps.get(ta).count()).as("PREPARED rows of ta in one step: %s", steps).isEqualTo(1);
        assertThat(steps.get(tb).count()).as("PREPARED rows of tb in one step: %s", steps).isEqualTo(1);
        assertThat(steps.get(transactions).count()).as("the PREPARED BEGIN/END in one step, the outcome in another: %s", steps)
                .isEqualTo(2);
        assertThat(List.of(steps.get(ta).firstChangeAt(), steps.get(tb).firstChangeAt(), steps.get(transactions).firstChangeAt()))
                .as("the PREPARED delivery visible on all three topics in the same sample: %s", steps).containsOnly(steps.get(ta).firstChangeAt());
        List<ConsumerRecord<byte[], byte[]>> lifecycle = connect.readAll(transactions, Duration.ofSeconds(20));
        assertThat(lifecycle).map(r -> TopicReplica.json(r.value()).get("status").asText())
                .containsExactly("BEGIN", "END", "BEGIN", "END", "COMMITTED");
        for (String topic : List.of(ta, tb)) {
            List<ConsumerRecord<byte[], byte[]>> records = connect.readAll(topic, Duration.ofSeconds(30));
            assertThat(TopicReplica.duplicates(records)).isZero();
            assertThat(records).hasSize(rows + 1);
            assertThat(records.subList(1, records.size()))
                    .allSatisfy(r -> assertThat(ConnectWorkerCluster.headerTexts(r)).containsEntry(LifecycleHeaders.OUTCOME, "PREPARED"));
        }
        connect.deleteConnector(name);
        ConnectWorkerCluster.awaitCondition(WAIT, "slot " + slot + " released", () ->
                db.query("SELECT 1 FROM pg_replication_slots WHERE slot_name = '" + slot + "' AND active").isEmpty());
        db.execute("SELECT pg_drop_replication_slot('" + slot + "')");
    }

    @PostgresTest(representative = 17)
    void aBurstOfOneRowTransactionsSharesKafkaTransactionsWithBatchedDeliveriesEachRowOnce(PostgresDatabase db) throws Exception {
        connect.restoreWorkers();
        int rows = 1_000;
        String name = "bbatch" + db.majorVersion();
        String slot = "bbatch_slot";
        String ta = name + ".public.ta";
        db.execute("CREATE TABLE ta (id bigint PRIMARY KEY, name text)");
        Map<String, String> config = MixedWorkloadIT.connectorConfig(db, name, slot);
        config.put("exactly.once.support", "required");
        config.put("transaction.boundary", "connector");
        config.put("transaction.batch.max.deliveries", "100");
        config.put("provide.transaction.metadata", "false");
        connect.configureConnector(name, config);
        connect.awaitRunning(name, 1, WAIT);
        ConnectWorkerCluster.awaitCondition(WAIT, "slot " + slot + " active", () ->
                !db.query("SELECT 1 FROM pg_replication_slots WHERE slot_name = '" + slot + "' AND active").isEmpty());
        db.execute("INSERT INTO ta VALUES (0, 'first')");
        connect.awaitRecords(ta, 1, WAIT);

        // Stopped while the burst is committed, so the resumed task finds many small deliveries waiting and its polls
        // fill with them: one Kafka transaction per delivery would leave one commit marker per row.
        connect.stopConnector(name);
        ConnectWorkerCluster.awaitCondition(WAIT, "slot " + slot + " released", () ->
                db.query("SELECT 1 FROM pg_replication_slots WHERE slot_name = '" + slot + "' AND active").isEmpty());
        db.execute("DO $$ BEGIN FOR i IN 1.." + rows + " LOOP INSERT INTO ta VALUES (i, 'r' || i); COMMIT; END LOOP; END $$");
        connect.resumeConnector(name);
        connect.awaitRecords(ta, rows + 1, WAIT);

        List<ConsumerRecord<byte[], byte[]>> records = connect.readAll(ta, Duration.ofSeconds(30));
        assertThat(TopicReplica.duplicates(records)).isZero();
        assertThat(records).hasSize(rows + 1);
        assertThat(TopicReplica.rebuild(records, COLUMNS).keySet())
                .containsExactlyInAnyOrderElementsOf(LongStream.rangeClosed(0, rows).boxed().toList());
        long endOffset;
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, connect.bootstrapServers()))) {
            endOffset = sample(admin, List.of(ta)).endOffsets().get(ta);
        }
        // One partition: every offset is a record or the commit marker of a Kafka transaction that wrote to it.
        long markers = endOffset - records.size();
        log.info("transaction.batch.max.deliveries=100: {} one-row transactions in {} Kafka transactions", rows + 1, markers);
        assertThat(markers).as("Kafka transactions for %d one-row deliveries", rows + 1).isGreaterThanOrEqualTo(rows / 100)
                .isLessThan(rows / 2);
        connect.deleteConnector(name);
        ConnectWorkerCluster.awaitCondition(WAIT, "slot " + slot + " released", () ->
                db.query("SELECT 1 FROM pg_replication_slots WHERE slot_name = '" + slot + "' AND active").isEmpty());
        db.execute("SELECT pg_drop_replication_slot('" + slot + "')");
    }

    /** Streams the big transaction through a new connector with {@code boundary}; returns the steps seen per topic. */
    private Map<String, Steps> run(PostgresDatabase db, String boundary, String name, String slot) throws Exception {
        String ta = name + ".public.ta";
        String tb = name + ".public.tb";
        String transactions = name + ".transaction";
        List<String> topics = List.of(ta, tb, transactions);
        Map<String, String> config = MixedWorkloadIT.connectorConfig(db, name, slot);
        config.put("exactly.once.support", "required");
        config.put("transaction.boundary", boundary);
        config.put("provide.transaction.metadata", "true");
        // A 200k-record delivery in one Kafka transaction must end within the producer's transaction timeout, and
        // bigger ones must be allowed by transaction.max.records.
        config.put("producer.override.transaction.timeout.ms", "900000");
        config.put("transaction.max.records", String.valueOf(Math.max(250_000, 2 * ROWS_PER_TABLE + 10)));
        Map<String, String> validated = new HashMap<>(config);
        validated.put("name", name);
        assertThat(connect.validationErrors("PgOutputSourceConnector", validated)).as("transaction.boundary=%s accepted", boundary)
                .isEmpty();
        connect.configureConnector(name, config);
        connect.awaitRunning(name, 1, WAIT);
        ConnectWorkerCluster.awaitCondition(WAIT, "slot " + slot + " active", () ->
                !db.query("SELECT 1 FROM pg_replication_slots WHERE slot_name = '" + slot + "' AND active").isEmpty());

        // A first small transaction over both tables creates the three topics, so their end offsets can be sampled.
        long first = ROWS_PER_TABLE * 10L;
        db.execute("WITH a AS (INSERT INTO ta VALUES (" + first + ", 'first')) INSERT INTO tb VALUES (" + first + ", 'first')");
        connect.awaitRecords(ta, 1, WAIT);
        connect.awaitRecords(tb, 1, WAIT);
        connect.awaitRecords(transactions, 2, WAIT);

        List<Sample> samples;
        long emitMs;
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, connect.bootstrapServers()));
             Sampler sampler = new Sampler(admin, topics)) {
            Map<String, Long> start = sampler.await(WAIT, "a first sample", any -> true).endOffsets();
            long inserted = System.nanoTime();
            // One PostgreSQL transaction, one statement: ROWS_PER_TABLE rows in each table.
            db.execute("WITH a AS (INSERT INTO ta SELECT g, 'a' || g FROM generate_series(1, " + ROWS_PER_TABLE + ") g)"
                    + " INSERT INTO tb SELECT g, 'b' || g FROM generate_series(1, " + ROWS_PER_TABLE + ") g");
            sampler.await(WAIT, "every row committed on both table topics and BEGIN and END on the transaction topic", last ->
                    last.endOffsets().get(ta) >= start.get(ta) + ROWS_PER_TABLE && last.endOffsets().get(tb) >= start.get(tb) + ROWS_PER_TABLE
                            && last.endOffsets().get(transactions) >= start.get(transactions) + 2);
            emitMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - inserted);
            Thread.sleep(300); // a few samples more, to see that nothing moves any more
            samples = sampler.samples();
        }

        Map<String, Steps> steps = new HashMap<>();
        for (String topic : topics) {
            steps.put(topic, steps(samples, topic));
        }
        List<Long> gaps = new ArrayList<>();
        for (int i = 1; i < samples.size(); i++) {
            gaps.add(TimeUnit.NANOSECONDS.toMillis(samples.get(i).nanos() - samples.get(i - 1).nanos()));
        }
        List<Long> sorted = gaps.stream().sorted().toList();
        long p95 = sorted.get((int) Math.ceil(sorted.size() * 0.95) - 1);
        long p99 = sorted.get((int) Math.ceil(sorted.size() * 0.99) - 1);
        log.info("transaction.boundary={}: {} samples over {} ms (gap p95 {} ms, p99 {} ms, max {} ms); steps per topic: {}", boundary,
                samples.size(), emitMs, p95, p99, sorted.get(sorted.size() - 1),
                steps.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue().count() + " " + e.getValue().values())
                        .collect(Collectors.joining(", ")));
        // The worker emitting on the same cores delays a sample now and then (p99 37-92 ms, max up to 745 ms measured).
        assertThat(p95).as("sampled at least every 100 ms (95th percentile of the gaps)").isLessThanOrEqualTo(100);

        // Every row once, on its topic.
        for (String table : List.of("ta", "tb")) {
            List<ConsumerRecord<byte[], byte[]>> records = connect.readAll(name + ".public." + table, Duration.ofSeconds(60));
            assertThat(TopicReplica.duplicates(records)).as("duplicates on %s", table).isZero();
            assertThat(records).as("records on %s", table).hasSize(ROWS_PER_TABLE + 1);
            assertThat(TopicReplica.rebuild(records, COLUMNS).keySet()).containsExactlyInAnyOrderElementsOf(
                    LongStream.concat(LongStream.rangeClosed(1, ROWS_PER_TABLE), LongStream.of(first)).boxed().toList());
        }
        assertThat(connect.readAll(transactions, Duration.ofSeconds(20))).as("BEGIN and END of both transactions").hasSize(4);
        connect.deleteConnector(name);
        ConnectWorkerCluster.awaitCondition(WAIT, "slot " + slot + " released", () ->
                db.query("SELECT 1 FROM pg_replication_slots WHERE slot_name = '" + slot + "' AND active").isEmpty());
        db.execute("SELECT pg_drop_replication_slot('" + slot + "')");
        db.execute("TRUNCATE ta, tb");
        return steps;
    }

    /** Samples the read_committed end offsets of {@code topics} every {@link #SAMPLE_EVERY_MS} ms, on its own thread. */
    private static final class Sampler implements AutoCloseable {
        private final List<Sample> samples = new ArrayList<>();
        private final Thread thread;
        private volatile boolean running = true;

        Sampler(Admin admin, List<String> topics) {
            thread = new Thread(() -> {
                while (running) {
                    try {
                        Sample sample = sample(admin, topics);
                        synchronized (samples) {
                            samples.add(sample);
                        }
                        Thread.sleep(SAMPLE_EVERY_MS);
                    } catch (InterruptedException e) {
                        return;
                    } catch (ExecutionException e) {
                        log.warn("sampling end offsets failed: {}", e.getMessage());
                    }
                }
            }, "end-offset-sampler");
            thread.setDaemon(true);
            thread.start();
        }

        /** Waits until the latest sample satisfies {@code condition}; returns it. */
        Sample await(Duration timeout, String what, java.util.function.Predicate<Sample> condition) {
            Sample[] seen = new Sample[1];
            ConnectWorkerCluster.awaitCondition(timeout, what, () -> {
                synchronized (samples) {
                    seen[0] = samples.isEmpty() ? null : samples.get(samples.size() - 1);
                }
                return seen[0] != null && condition.test(seen[0]);
            });
            return seen[0];
        }

        List<Sample> samples() {
            synchronized (samples) {
                return List.copyOf(samples);
            }
        }

        @Override
        public void close() throws InterruptedException {
            running = false;
            thread.interrupt();
            thread.join(10_000);
        }
    }

    private static Sample sample(Admin admin, List<String> topics) throws ExecutionException, InterruptedException {
        Map<TopicPartition, OffsetSpec> request = new HashMap<>();
        for (String topic : topics) {
            request.put(new TopicPartition(topic, 0), OffsetSpec.latest());
        }
        // One request for all three partitions (one broker): the end offsets of one moment.
        var result = admin.listOffsets(request, new ListOffsetsOptions(IsolationLevel.READ_COMMITTED)).all().get();
        Map<String, Long> offsets = new HashMap<>();
        result.forEach((partition, info) -> offsets.put(partition.topic(), info.offset()));
        return new Sample(System.nanoTime(), offsets);
    }

    private static Steps steps(List<Sample> samples, String topic) {
        List<Long> values = new ArrayList<>();
        int firstChangeAt = -1;
        for (int i = 0; i < samples.size(); i++) {
            long value = samples.get(i).endOffsets().get(topic);
            if (values.isEmpty() || values.get(values.size() - 1) != value) {
                if (!values.isEmpty() && firstChangeAt < 0) {
                    firstChangeAt = i;
                }
                values.add(value);
            }
        }
        return new Steps(values, firstChangeAt);
    }
}
