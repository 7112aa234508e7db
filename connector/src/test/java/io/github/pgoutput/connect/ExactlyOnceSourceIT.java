package io.github.pgoutput.connect;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.pgoutput.testing.kafka.ConnectWorkerCluster;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.github.pgoutput.testing.PostgresDatabase;
import io.github.pgoutput.testing.PostgresTest;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.connect.util.clusters.WorkerHandle;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Exactly-once source support: workers with {@code exactly.once.source.support=enabled} and the connector with
 * {@code exactly.once.support=required} write each poll's records and offsets in one Kafka transaction. While small
 * transactions keep committing, the task is restarted over REST and then loses its worker; a {@code read_committed}
 * consumer still sees every change exactly once, and the transaction topic every BEGIN and END once. The same with
 * {@code transaction.boundary=connector}, where a Kafka transaction is a delivery and spans polls.
 */
@Timeout(value = 8, unit = TimeUnit.MINUTES)
class ExactlyOnceSourceIT {

    private static final Logger log = LoggerFactory.getLogger(ExactlyOnceSourceIT.class);
    private static final Duration WAIT = Duration.ofSeconds(120);
    private static final List<String> COLUMNS = List.of("id", "name");

    @RegisterExtension
    static final ConnectWorkerCluster connect = ConnectWorkerCluster.withWorkers(2).exactlyOnceSource();

    @PostgresTest(representative = 17)
    void readCommittedConsumerSeesEveryChangeOnceAcrossATaskRestartAndAWorkerLoss(PostgresDatabase db) {
        run(db, "eos", "poll");
    }

    @PostgresTest(representative = 17)
    void readCommittedConsumerSeesEveryChangeOnceAcrossATaskRestartAndAWorkerLossWithConnectorDefinedBoundaries(PostgresDatabase db) {
        run(db, "eosc", "connector");
    }

    /** The workload, the restart and the worker loss, with {@code transaction.boundary} {@code boundary}. */
    private static void run(PostgresDatabase db, String prefix, String boundary) {
        // In the full matrix (.ci/nightly) one worker cluster serves every version: the worker the run on
        // the previous version stopped is replaced, and names are per version.
        connect.restoreWorkers();
        String name = prefix + db.majorVersion();
        String slot = prefix + "_slot";
        String topic = name + ".public.t";
        db.execute("CREATE TABLE t (id bigint PRIMARY KEY, name text)");
        Map<String, String> config = MixedWorkloadIT.connectorConfig(db, name, slot);
        config.put("exactly.once.support", "required");
        config.put("transaction.boundary", boundary);
        config.put("provide.transaction.metadata", "true"); // off by default, as in Debezium; its topic is checked below
        // Three records per poll, so Kafka transactions (one per poll) also end inside a delivery (BEGIN, insert,
        // update, END) and a restart must resume at the right record within it; with connector boundaries a
        // delivery's transaction stays open across polls instead.
        config.put("max.batch.size", "3");
        config.put("max.queue.size", "64");
        config.put("status.update.interval.ms", "500");
        Map<String, String> validated = new HashMap<>(config);
        validated.put("name", name);
        assertThat(connect.validationErrors("PgOutputSourceConnector", validated)).as("exactly.once.support=required accepted")
                .isEmpty();
        validated.put("snapshot.mode", "initial");
        assertThat(connect.validationErrors("PgOutputSourceConnector", validated)).as("a resumable snapshot is exactly-once")
                .isEmpty();

        connect.configureConnector(name, config);
        String firstWorker = connect.awaitRunning(name, 1, WAIT).tasks().get(0).workerId();
        ConnectWorkerCluster.awaitCondition(WAIT, "slot active", () ->
                !db.query("SELECT 1 FROM pg_replication_slots WHERE slot_name = '" + slot + "' AND active").isEmpty());

        int committed;
        try (ContinuousWorkload workload = new ContinuousWorkload(db).start()) {
            awaitMoreRecordsThan(topic, 50);
            int beforeRestart = connect.readAll(topic, Duration.ofSeconds(20)).size();
            connect.restartTask(name, 0);
            connect.awaitRunning(name, 1, WAIT);
            awaitMoreRecordsThan(topic, beforeRestart + 50);

            WorkerHandle running = connect.workers().stream()
                    .filter(w -> firstWorker.endsWith(":" + w.url().getPort())).findFirst().orElseThrow();
            int beforeLoss = connect.readAll(topic, Duration.ofSeconds(20)).size();
            connect.stopWorker(running);
            String secondWorker = connect.awaitStatus(name, "RUNNING on a worker other than " + firstWorker,
                    status -> ConnectWorkerCluster.isRunning(status, 1)
                            && !status.tasks().get(0).workerId().equals(firstWorker), WAIT).tasks().get(0).workerId();
            awaitMoreRecordsThan(topic, beforeLoss + 50);
            committed = workload.stop();
            log.info("EOS ({}): {} transactions; task restarted after {} records, worker {} lost after {} records, task resumed on {}",
                    boundary, committed, beforeRestart, firstWorker, beforeLoss, secondWorker);
        }

        Map<Long, Map<String, String>> expected = TopicReplica.fromDatabase(db.query("SELECT id::text, name FROM t ORDER BY id"),
                COLUMNS);
        assertThat(expected).hasSize(committed);
        List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
        ConnectWorkerCluster.awaitCondition(WAIT, "the table rebuilt from its topic", () -> {
            records.clear();
            records.addAll(connect.readAll(topic, Duration.ofSeconds(20)));
            return TopicReplica.rebuild(records, COLUMNS).equals(expected);
        });
        // Transaction n inserts row n, and every third one also updates a row: one record each, none twice.
        assertThat(TopicReplica.duplicates(records)).isZero();
        assertThat(records).hasSize(committed + committed / 3);
        List<ConsumerRecord<byte[], byte[]>> transactions = connect.readAll(name + ".transaction", Duration.ofSeconds(20));
        assertThat(TopicReplica.duplicates(transactions)).isZero();
        assertThat(transactions).hasSize(2 * committed);
        assertThat(hasTransactionMarkers(records)).as("records were written in Kafka transactions").isTrue();

        connect.deleteConnector(name);
        ConnectWorkerCluster.awaitCondition(WAIT, "slot released", () ->
                db.query("SELECT 1 FROM pg_replication_slots WHERE slot_name = '" + slot + "' AND active").isEmpty());
    }

    private static void awaitMoreRecordsThan(String topic, int count) {
        ConnectWorkerCluster.awaitCondition(WAIT, "more than " + count + " records in " + topic, () ->
                connect.readAllIfExists(topic, Duration.ofSeconds(20)).size() > count);
    }

    /** A commit marker takes an offset, so records written in transactions leave gaps between consecutive offsets. */
    private static boolean hasTransactionMarkers(List<ConsumerRecord<byte[], byte[]>> records) {
        for (int i = 1; i < records.size(); i++) {
            if (records.get(i).offset() > records.get(i - 1).offset() + 1) {
                return true;
            }
        }
        return false;
    }
}
