package io.github.pgoutput.connect;

import static org.assertj.core.api.Assertions.assertThat;

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
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Issue 4, integration test 3: while the Kafka broker is down and the database keeps committing, the slot's
 * confirmed_flush_lsn never passes a transaction that is not in Kafka; after the broker returns everything arrives.
 */
@Timeout(value = 6, unit = TimeUnit.MINUTES)
class KafkaOutageIT {

    private static final Logger log = LoggerFactory.getLogger(KafkaOutageIT.class);
    private static final Duration WAIT = Duration.ofSeconds(120);
    private static final List<String> COLUMNS = List.of("id", "name");

    @RegisterExtension
    static final ConnectWorkerCluster connect = ConnectWorkerCluster.withWorkers(1);

    @PostgresTest(representative = 15)
    void slotIsNotConfirmedPastDataKafkaDoesNotHave(PostgresDatabase db) {
        // In the full matrix (.ci/nightly) one worker cluster serves every version: names per version.
        String name = "outage" + db.majorVersion();
        db.execute("CREATE TABLE t (id bigint PRIMARY KEY, name text)");
        Map<String, String> config = MixedWorkloadIT.connectorConfig(db, name, "outage_slot");
        config.put("status.update.interval.ms", "500");
        connect.configureConnector(name, config);
        connect.awaitRunning(name, 1, WAIT);
        // RUNNING comes before the task has created the slot; changes committed before that are not in its stream.
        ConnectWorkerCluster.awaitCondition(WAIT, "slot active", () ->
                !db.query("SELECT 1 FROM pg_replication_slots WHERE slot_name = 'outage_slot' AND active").isEmpty());
        for (int i = 1; i <= 50; i++) {
            db.execute("INSERT INTO t VALUES (" + i + ", 'before-" + i + "')");
        }
        connect.awaitRecords(name + ".public.t", 50, WAIT);

        connect.stopBroker();
        Lsn beforeOutageWrites = Lsn.parse(db.queryValue("SELECT pg_current_wal_lsn()"));
        List<Lsn> confirmedDuringOutage = new ArrayList<>();
        long outageEnds = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
        int next = 51;
        while (System.nanoTime() < outageEnds) {
            db.execute("INSERT INTO t VALUES (" + next + ", 'during-" + next + "')", "UPDATE t SET name = 'touched' WHERE id = " + (next - 50));
            next++;
            confirmedDuringOutage.add(confirmedFlush(db));
        }
        int written = next - 1;
        log.info("IT3: {} transactions committed during a 15 s broker outage; confirmed_flush_lsn stayed in {}..{}, first"
                        + " outage write at or after {}", 2 * (written - 50), confirmedDuringOutage.get(0),
                confirmedDuringOutage.get(confirmedDuringOutage.size() - 1), beforeOutageWrites);
        assertThat(confirmedDuringOutage).allSatisfy(lsn -> assertThat(lsn).isLessThanOrEqualTo(beforeOutageWrites));

        connect.startBroker();
        Map<Long, Map<String, String>> expected = TopicReplica.fromDatabase(db.query("SELECT id::text, name FROM t ORDER BY id"), COLUMNS);
        List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
        ConnectWorkerCluster.awaitCondition(WAIT, "every change written during the outage in Kafka", () -> {
            records.clear();
            records.addAll(connect.readAllIfExists(name + ".public.t", Duration.ofSeconds(20)));
            return TopicReplica.rebuild(records, COLUMNS).equals(expected);
        });
        Lsn end = Lsn.parse(db.queryValue("SELECT pg_current_wal_lsn()"));
        ConnectWorkerCluster.awaitCondition(WAIT, "slot confirmed past the outage writes once Kafka has them",
                () -> !confirmedFlush(db).isBefore(end));
        connect.deleteConnector(name);
        ConnectWorkerCluster.awaitCondition(WAIT, "slot released", () ->
                db.query("SELECT 1 FROM pg_replication_slots WHERE slot_name = 'outage_slot' AND active").isEmpty());
    }

    private static Lsn confirmedFlush(PostgresDatabase db) {
        return Lsn.parse(db.queryValue("SELECT confirmed_flush_lsn FROM pg_replication_slots WHERE slot_name = 'outage_slot'"));
    }
}
