package io.github.pgoutput.connect;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.pgoutput.testing.kafka.ConnectWorkerCluster;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.pgoutput.pgoutput.Lsn;
import io.github.pgoutput.testing.PostgresDatabase;
import io.github.pgoutput.testing.PostgresTest;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The connector's walsender is terminated twice while a workload commits: the task reconnects by itself (a transient
 * error, no restart over REST), nothing is lost or skipped, and the slot is never confirmed past what Kafka has.
 */
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class ReconnectIT {

    private static final Logger log = LoggerFactory.getLogger(ReconnectIT.class);
    private static final Duration WAIT = Duration.ofSeconds(90);
    private static final List<String> COLUMNS = List.of("id", "name");

    @RegisterExtension
    static final ConnectWorkerCluster connect = ConnectWorkerCluster.shared();

    @PostgresTest(representative = 15)
    void taskReconnectsAfterItsWalsenderIsTerminatedAndLosesNothing(PostgresDatabase db) {
        // In the full matrix (.ci/nightly) one worker cluster serves every version: names per version.
        String name = "reconnect" + db.majorVersion();
        String topic = name + ".public.t";
        db.execute("CREATE TABLE t (id bigint PRIMARY KEY, name text)");
        Map<String, String> config = MixedWorkloadIT.connectorConfig(db, name, "reconnect_slot");
        config.put("status.update.interval.ms", "500");
        connect.configureConnector(name, config);
        connect.awaitRunning(name, 1, WAIT);
        // RUNNING comes before the task has created the slot; changes committed before that are not in its stream.
        ConnectWorkerCluster.awaitCondition(WAIT, "slot active", () ->
                !db.query("SELECT 1 FROM pg_replication_slots WHERE slot_name = 'reconnect_slot' AND active").isEmpty());
        String firstPid = awaitNewWalsender(db, "none");

        int checks = 0;
        try (ContinuousWorkload workload = new ContinuousWorkload(db).start()) {
            String pid = firstPid;
            for (int kill = 1; kill <= 2; kill++) {
                int before = workload.committed();
                ConnectWorkerCluster.awaitCondition(WAIT, "new transactions in Kafka", () ->
                        connect.readAllIfExists(topic, Duration.ofSeconds(20)).size() > before);
                checks += checkConfirmedIsInKafka(db, workload, topic);
                assertThat(db.queryValue("SELECT pg_terminate_backend(" + pid + ")")).isEqualTo("t");
                pid = awaitNewWalsender(db, pid);
                log.info("ReconnectIT: walsender {} terminated after {} transactions; task reconnected as {}", kill,
                        workload.committed(), pid);
                checks += checkConfirmedIsInKafka(db, workload, topic);
            }
            int after = workload.committed();
            ConnectWorkerCluster.awaitCondition(WAIT, "transactions after the second reconnect in Kafka", () ->
                    connect.readAllIfExists(topic, Duration.ofSeconds(20)).size() > after);
            checks += checkConfirmedIsInKafka(db, workload, topic);
            int committed = workload.stop();

            Map<Long, Map<String, String>> expected = TopicReplica.fromDatabase(
                    db.query("SELECT id::text, name FROM t ORDER BY id"), COLUMNS);
            List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
            ConnectWorkerCluster.awaitCondition(WAIT, "the table rebuilt from its topic", () -> {
                records.clear();
                records.addAll(connect.readAllIfExists(topic, Duration.ofSeconds(20)));
                return TopicReplica.rebuild(records, COLUMNS).equals(expected);
            });
            long duplicates = TopicReplica.duplicates(records);
            log.info("ReconnectIT: {} transactions, {} records, {} duplicates, {} confirmed-LSN checks", committed,
                    records.size(), duplicates, checks);
            assertThat(TopicReplica.rebuild(records, COLUMNS)).isEqualTo(expected);
            assertThat(expected).hasSize(committed);
            assertThat(ConnectWorkerCluster.isRunning(connect.status(name), 1))
                    .as("task RUNNING without a restart").isTrue();
        }
        connect.deleteConnector(name);
        ConnectWorkerCluster.awaitCondition(WAIT, "slot released", () ->
                db.query("SELECT 1 FROM pg_replication_slots WHERE slot_name = 'reconnect_slot' AND active").isEmpty());
    }

    /** Waits until the slot is active under a walsender other than {@code previousPid}, and returns its pid. */
    private static String awaitNewWalsender(PostgresDatabase db, String previousPid) {
        String[] pid = new String[1];
        ConnectWorkerCluster.awaitCondition(WAIT, "slot active under a walsender other than " + previousPid, () -> {
            pid[0] = db.queryValue("SELECT active_pid::text FROM pg_replication_slots WHERE slot_name = 'reconnect_slot'");
            return pid[0] != null && !pid[0].equals(previousPid);
        });
        return pid[0];
    }

    /**
     * Reads the slot's confirmed_flush_lsn, then the topic: every transaction at or before that LSN must be there
     * already (the topic only grows, so reading it later cannot hide a violation). Returns 1, the number of checks.
     */
    static int checkConfirmedIsInKafka(PostgresDatabase db, ContinuousWorkload workload, String topic) {
        Lsn confirmed = Lsn.parse(db.queryValue(
                "SELECT confirmed_flush_lsn FROM pg_replication_slots WHERE slot_name = 'reconnect_slot'"));
        List<Long> mustBeThere = workload.committedUpTo(confirmed);
        Set<Long> inserted = new HashSet<>();
        for (ConsumerRecord<byte[], byte[]> record : connect.readAllIfExists(topic, Duration.ofSeconds(20))) {
            if (record.value() != null) {
                JsonNode value = TopicReplica.json(record.value());
                if (value.get("op").asText().equals("c")) {
                    inserted.add(value.get("after").get("id").asLong());
                }
            }
        }
        assertThat(inserted).as("rows of transactions at or before confirmed_flush_lsn %s", confirmed)
                .containsAll(mustBeThere);
        return 1;
    }
}
