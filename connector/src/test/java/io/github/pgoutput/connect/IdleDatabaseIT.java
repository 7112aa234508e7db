package io.github.pgoutput.connect;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.pgoutput.testing.Nightly;
import io.github.pgoutput.testing.kafka.ConnectWorkerCluster;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.github.pgoutput.testing.PostgresCluster;
import io.github.pgoutput.testing.PostgresDatabase;
import io.github.pgoutput.testing.PostgresTest;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Issue 4, integration test 6: our database is idle while another database on the same server writes WAL for 60 s;
 * our slot is advanced from keepalives, so the WAL it retains stays bounded, and heartbeats keep flowing.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
@Nightly
class IdleDatabaseIT {

    private static final Logger log = LoggerFactory.getLogger(IdleDatabaseIT.class);
    private static final Duration WAIT = Duration.ofSeconds(120);
    private static final long WRITE_SECONDS = 60;

    @RegisterExtension
    static final ConnectWorkerCluster connect = ConnectWorkerCluster.shared();

    @PostgresTest(representative = 18)
    void slotOfAnIdleDatabaseRetainsBoundedWal(PostgresDatabase db, PostgresCluster cluster) {
        // In the full matrix (.ci/nightly) one worker cluster serves every version: names per version.
        String name = "idle" + db.majorVersion();
        db.execute("CREATE TABLE quiet (id bigint PRIMARY KEY)");
        Map<String, String> config = MixedWorkloadIT.connectorConfig(db, name, "idle_slot");
        config.put("status.update.interval.ms", "1000");
        config.put("heartbeat.interval.ms", "2000");
        connect.configureConnector(name, config);
        connect.awaitRunning(name, 1, WAIT);
        ConnectWorkerCluster.awaitCondition(WAIT, "slot active", () ->
                !db.query("SELECT 1 FROM pg_replication_slots WHERE slot_name = 'idle_slot' AND active").isEmpty());

        String busy = db.name() + "_busy";
        cluster.createDatabase(busy);
        try {
            cluster.execute(busy, "CREATE TABLE churn (id bigint, payload text)");
            String logRunningTransactions = db.majorVersion() >= 16 ? "SELECT pg_log_standby_snapshot()" : "CHECKPOINT";
            long start = walBytes(db, "pg_current_wal_lsn() - '0/0'::pg_lsn");
            long maxRetained = 0;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WRITE_SECONDS);
            while (System.nanoTime() < deadline) {
                cluster.execute(busy, "INSERT INTO churn SELECT g, repeat('w', 500) FROM generate_series(1, 2000) g",
                        "DELETE FROM churn",
                        // The bgwriter logs running transactions every 15 s; restart_lsn can only move to such a
                        // record. Logging one per round shows the slot's own lag rather than that interval
                        // (pg_log_standby_snapshot() from PostgreSQL 16; a checkpoint logs one too).
                        logRunningTransactions);
                long retained = walBytes(db, "pg_current_wal_lsn() - (SELECT restart_lsn FROM pg_replication_slots WHERE slot_name = 'idle_slot')");
                long elapsed = WRITE_SECONDS - TimeUnit.NANOSECONDS.toSeconds(deadline - System.nanoTime());
                if (elapsed > 20) {
                    maxRetained = Math.max(maxRetained, retained);
                }
            }
            long written = walBytes(db, "pg_current_wal_lsn() - '0/0'::pg_lsn") - start;
            long confirmedLag = walBytes(db, "pg_current_wal_lsn() - (SELECT confirmed_flush_lsn FROM pg_replication_slots WHERE slot_name = 'idle_slot')");
            log.info("IT6: another database wrote {} MB of WAL in {} s; after the first 20 s our slot retained at most {} MB"
                            + " (pg_current_wal_lsn - restart_lsn); confirmed_flush_lsn lag at the end {} kB", written >> 20,
                    WRITE_SECONDS, maxRetained >> 20, confirmedLag >> 10);
            assertThat(written).as("the test wrote enough WAL to mean something").isGreaterThan(64L << 20);
            assertThat(maxRetained).as("WAL retained by the idle slot").isLessThan(written / 4);
            List<ConsumerRecord<byte[], byte[]>> heartbeats = connect.readAllIfExists("__debezium-heartbeat." + name, Duration.ofSeconds(20));
            assertThat(heartbeats).as("heartbeats on an idle database").isNotEmpty();
        } finally {
            connect.deleteConnector(name);
            ConnectWorkerCluster.awaitCondition(WAIT, "slot released", () ->
                    db.query("SELECT 1 FROM pg_replication_slots WHERE slot_name = 'idle_slot' AND active").isEmpty());
            cluster.dropDatabase(busy);
        }
    }

    private static long walBytes(PostgresDatabase db, String expression) {
        return Long.parseLong(db.queryValue("SELECT (" + expression + ")::numeric::bigint"));
    }
}
