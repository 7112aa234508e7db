package io.github.pgoutput.connect;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.pgoutput.testing.Nightly;
import io.github.pgoutput.testing.kafka.ConnectWorkerCluster;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.github.pgoutput.pgoutput.Lsn;
import io.github.pgoutput.testing.PostgresDatabase;
import io.github.pgoutput.testing.PostgresTest;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.connect.util.clusters.WorkerHandle;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Issue 4, integration test 2: in a 3-worker cluster the worker running the task stops while a workload commits;
 * the task resumes on another worker and nothing is lost (duplicates are counted and reported); a clean stop and
 * resume over REST after everything is confirmed writes no duplicate.
 */
@Nightly
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class WorkerFailoverIT {

    private static final Logger log = LoggerFactory.getLogger(WorkerFailoverIT.class);
    private static final Duration WAIT = Duration.ofSeconds(90);
    private static final List<String> COLUMNS = List.of("id", "name");

    @RegisterExtension
    static final ConnectWorkerCluster connect = ConnectWorkerCluster.withWorkers(3);

    @PostgresTest(representative = 16)
    void taskMovesToAnotherWorkerLosesNothingAndACleanRestartRepeatsNothing(PostgresDatabase db) {
        // In the full matrix (.ci/nightly) one worker cluster serves every version: the worker the run on
        // the previous version stopped is replaced, and names are per version.
        connect.restoreWorkers();
        String name = "failover" + db.majorVersion();
        String topic = name + ".public.t";
        db.execute("CREATE TABLE t (id bigint PRIMARY KEY, name text)");
        Map<String, String> config = MixedWorkloadIT.connectorConfig(db, name, "failover_slot");
        config.put("status.update.interval.ms", "500");
        connect.configureConnector(name, config);
        String firstWorker = connect.awaitRunning(name, 1, WAIT).tasks().get(0).workerId();
        // RUNNING comes before the task has created the slot; changes committed before that are not in its stream.
        ConnectWorkerCluster.awaitCondition(WAIT, "slot active", () ->
                !db.query("SELECT 1 FROM pg_replication_slots WHERE slot_name = 'failover_slot' AND active").isEmpty());

        List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
        int committed;
        try (ContinuousWorkload workload = new ContinuousWorkload(db).start()) {
            ConnectWorkerCluster.awaitCondition(WAIT, "the workload streaming", () ->
                    connect.readAllIfExists(topic, Duration.ofSeconds(20)).size() > 100);
            WorkerHandle running = connect.workers().stream()
                    .filter(w -> firstWorker.endsWith(":" + w.url().getPort())).findFirst().orElseThrow();
            int atStop = workload.committed();
            connect.stopWorker(running);
            String secondWorker = connect.awaitStatus(name, "RUNNING on a worker other than " + firstWorker,
                    status -> ConnectWorkerCluster.isRunning(status, 1)
                            && !status.tasks().get(0).workerId().equals(firstWorker), WAIT).tasks().get(0).workerId();
            log.info("IT2: worker {} stopped after {} transactions; task resumed on {}", firstWorker, atStop, secondWorker);
            int moved = workload.committed();
            ConnectWorkerCluster.awaitCondition(WAIT, "transactions after the move in Kafka", () ->
                    connect.readAllIfExists(topic, Duration.ofSeconds(20)).size() > moved);
            committed = workload.stop();
        }
        Map<Long, Map<String, String>> expected = TopicReplica.fromDatabase(
                db.query("SELECT id::text, name FROM t ORDER BY id"), COLUMNS);
        awaitRebuilt(topic, expected, records);
        long failoverDuplicates = TopicReplica.duplicates(records);
        log.info("IT2: {} transactions, {} records, {} duplicates after the worker loss", committed, records.size(),
                failoverDuplicates);
        assertThat(expected).hasSize(committed);

        // A clean restart: wait until the slot is confirmed past everything, then stop and resume over REST.
        Lsn end = Lsn.parse(db.queryValue("SELECT pg_current_wal_lsn()"));
        ConnectWorkerCluster.awaitCondition(WAIT, "slot confirmed past " + end, () -> !Lsn.parse(db.queryValue(
                "SELECT confirmed_flush_lsn FROM pg_replication_slots WHERE slot_name = 'failover_slot'")).isBefore(end));
        connect.stopConnector(name);
        connect.awaitStatus(name, "STOPPED", s -> "STOPPED".equals(s.connector().state()), WAIT);
        connect.resumeConnector(name);
        connect.awaitRunning(name, 1, WAIT);
        db.execute("INSERT INTO t VALUES (" + (committed + 1) + ", 'after-clean-restart')",
                "UPDATE t SET name = 'updated-after-clean-restart' WHERE id = 1");
        Map<Long, Map<String, String>> afterRestart = TopicReplica.fromDatabase(
                db.query("SELECT id::text, name FROM t ORDER BY id"), COLUMNS);
        awaitRebuilt(topic, afterRestart, records);
        assertThat(TopicReplica.duplicates(records))
                .as("duplicates after the clean restart (%d came from the worker loss)", failoverDuplicates)
                .isEqualTo(failoverDuplicates);

        connect.deleteConnector(name);
        ConnectWorkerCluster.awaitCondition(WAIT, "slot released", () ->
                db.query("SELECT 1 FROM pg_replication_slots WHERE slot_name = 'failover_slot' AND active").isEmpty());
    }

    private static void awaitRebuilt(String topic, Map<Long, Map<String, String>> expected, List<ConsumerRecord<byte[], byte[]>> records) {
        try {
            ConnectWorkerCluster.awaitCondition(WAIT, "the table rebuilt from its topic", () -> {
                records.clear();
                records.addAll(connect.readAllIfExists(topic, Duration.ofSeconds(20)));
                return TopicReplica.rebuild(records, COLUMNS).equals(expected);
            });
        } catch (AssertionError timedOut) {
            Map<Long, Map<String, String>> rebuilt = TopicReplica.rebuild(records, COLUMNS);
            List<String> differences = expected.entrySet().stream()
                    .filter(e -> !e.getValue().equals(rebuilt.get(e.getKey())))
                    .map(e -> e.getKey() + ": database " + e.getValue() + ", topic " + rebuilt.get(e.getKey()))
                    .limit(20).toList();
            throw new AssertionError(timedOut.getMessage() + "; " + records.size() + " records, "
                    + TopicReplica.duplicates(records) + " duplicates, rows " + rebuilt.size() + " of " + expected.size()
                    + "; first differences: " + differences, timedOut);
        }
    }
}
