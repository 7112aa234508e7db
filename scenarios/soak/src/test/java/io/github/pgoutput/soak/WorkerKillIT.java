package io.github.pgoutput.soak;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.github.pgoutput.testing.Nightly;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * kill -9 of a real Connect worker with exactly-once source support. In every build: inside one 20,000-row
 * transaction under connector boundaries, the Kafka transaction open at the kill (a read_committed consumer gets
 * every row exactly once). Nightly, at scale: while one 100,000-row transaction, streamed by
 * PostgreSQL before its commit, is being written, and a restart of the worker at once: a {@code read_committed}
 * consumer gets every row exactly once, by key, with {@code transaction.boundary=connector} and with {@code poll}.
 * The poll run has the connector's producer {@code transaction.timeout.ms} at the recommended 10 s, and its recovery
 * (kill to the last row seen) is compared with an at-least-once run of the same crash. {@code scenarios/worker-kill.sh}
 * runs the full-size version (1M rows, several runs, figures). The same kill in the middle of an exactly-once snapshot
 * of 100,000 rows ({@code snapshot.mode=initial}, {@code exactly.once.support=required}, read in two key ranges at once
 * with {@code snapshot.max.threads=2}): every row exactly once,
 * under poll boundaries ({@code scenarios/worker-kill.sh --snapshot} runs both boundaries at full size; the connector
 * boundaries' snapshot kill left this suite to keep CI under its time limit). And in the middle of an incremental
 * snapshot of 100,000 rows (issue 18) signalled while the connector streams: under exactly-once (poll boundaries) it
 * resumes at the last chunk committed with its offset, so every row arrives exactly once
 * ({@code scenarios/worker-kill.sh --incremental} at full size, connector boundaries and at-least-once too). And in the
 * middle of an exactly-once snapshot of tables without a key, which is resumed in the order of their rows' hashes:
 * every row as often as the table holds it, under both boundaries.
 */
@Timeout(value = 6, unit = TimeUnit.MINUTES)
class WorkerKillIT {

    private static final int ROWS = 100_000;
    private static final int FAST_ROWS = 20_000;

    @Test
    void readCommittedConsumerGetsEveryRowOnceAfterAWorkerKilledInsideAnOpenDeliveryWithConnectorBoundaries() throws Exception {
        Path root = Path.of(System.getProperty("project.root", "..")).toAbsolutePath().normalize();
        WorkerKillScenario.Settings settings = new WorkerKillScenario.Settings("1g", Map.of(), Map.of(), Duration.ofSeconds(180));
        try (WorkerKillScenario scenario = new WorkerKillScenario(root, settings,
                line -> System.out.println(Instant.now() + " " + line))) {
            scenario.start();
            // The restarted worker reads its offsets once the broker has aborted the killed task's open transaction,
            // after transaction.timeout.ms: 30 s, several times what the whole delivery takes even on a starved machine.
            WorkerKillScenario.Result connector = scenario.run(DeliveryGuarantee.EXACTLY_ONCE_CONNECTOR, FAST_ROWS, true,
                    Map.of("producer.override.transaction.timeout.ms", "30000"));
            System.out.println(connector.line());

            assertThat(connector.inLogAtKill()).as("records written before the kill").isPositive().isLessThan(FAST_ROWS);
            assertThat(connector.visibleAtKill()).as("nothing of the open delivery visible at the kill").isZero();
            assertExactlyOnce(connector, FAST_ROWS);
        }
    }

    @Test
    @Nightly
    void readCommittedConsumerGetsEveryRowOnceAfterAKilledWorkerAndRecoversAboutAsFastAsAtLeastOnce() throws Exception {
        Path root = Path.of(System.getProperty("project.root", "..")).toAbsolutePath().normalize();
        WorkerKillScenario.Settings settings = new WorkerKillScenario.Settings("1g", Map.of(),
                Map.of(), Duration.ofSeconds(180));
        try (WorkerKillScenario scenario = new WorkerKillScenario(root, settings,
                line -> System.out.println(Instant.now() + " " + line))) {
            scenario.start();

            WorkerKillScenario.Result connector = scenario.run(DeliveryGuarantee.EXACTLY_ONCE_CONNECTOR, ROWS, true,
                    Map.of());
            WorkerKillScenario.Result poll = scenario.run(DeliveryGuarantee.EXACTLY_ONCE_POLL, ROWS, true,
                    Map.of("producer.override.transaction.timeout.ms", "10000"));
            WorkerKillScenario.Result atLeastOnce = scenario.run(DeliveryGuarantee.AT_LEAST_ONCE, ROWS, true, Map.of());
            System.out.println(connector.line() + "\n" + poll.line() + "\n" + atLeastOnce.line());

            assertThat(connector.inLogAtKill()).as("records written before the kill").isPositive().isLessThan(ROWS);
            assertThat(connector.visibleAtKill()).as("connector boundaries: nothing of the open delivery visible")
                    .isZero();
            assertExactlyOnce(connector, ROWS);
            assertThat(poll.visibleAtKill()).as("poll boundaries: committed batches visible before the kill")
                    .isPositive();
            assertExactlyOnce(poll, ROWS);
            assertThat(atLeastOnce.lost()).as("at least once: rows lost").isZero();
            // The 60 s of the producer's default transaction.timeout.ms would show here as a recovery some 60 s
            // slower than at least once; 35 s leaves room for a loaded machine (20 s was exceeded by 0.2 s with three
            // nightly areas running at once) and still catches that wait.
            assertThat(poll.recoveryMillis()).as("exactly-once (poll) recovery against at-least-once's "
                    + atLeastOnce.recoveryMillis() + " ms").isLessThan(atLeastOnce.recoveryMillis() + 35_000);
        }
    }

    @Test
    @Nightly
    void readCommittedConsumerGetsEveryRowOnceAfterAWorkerKilledDuringAnExactlyOnceSnapshotOrIncrementalSnapshot() throws Exception {
        Path root = Path.of(System.getProperty("project.root", "..")).toAbsolutePath().normalize();
        // 100 rows per poll, one Kafka transaction each: the kill lands inside the snapshot, whatever the machine's
        // speed. The producer's transaction.timeout.ms is Kafka's default, 60 s: with 10 s a starved machine once
        // took longer than that for one poll's transaction, the broker aborted it and the task failed (as it should,
        // but the scenario then waited in vain); the restarted worker reads its offsets once the killed task's open
        // transaction is aborted, 60 s after the kill at most. Two connections read the table in two key ranges at
        // once, and the restarted task continues each after its last committed row.
        Map<String, String> snapshot = Map.of("max.batch.size", "100", "producer.override.transaction.timeout.ms", "60000",
                "snapshot.max.threads", "2");
        WorkerKillScenario.Settings settings = new WorkerKillScenario.Settings("1g", Map.of(), Map.of(), Duration.ofSeconds(180));
        try (WorkerKillScenario scenario = new WorkerKillScenario(root, settings,
                line -> System.out.println(Instant.now() + " " + line))) {
            scenario.start();

            WorkerKillScenario.Result poll = scenario.run(DeliveryGuarantee.EXACTLY_ONCE_POLL, ROWS, true, snapshot, true);
            String workerLog = java.nio.file.Files.readString(scenario.workDir().resolve("worker.log"),
                    java.nio.charset.StandardCharsets.ISO_8859_1);
            assertThat(workerLog).as("the snapshot was read in two key ranges, and resumed in them after the kill")
                    .contains("is read in 2 key ranges at once").contains("Resuming the snapshot of slot");
            // An incremental snapshot signalled while streaming, on the same worker: 256-row chunks, 100 records a poll,
            // so many Kafka transactions are committed before the kill, whatever the machine's speed.
            Map<String, String> chunks = Map.of("incremental.snapshot.chunk.size", "256", "max.batch.size", "100",
                    "producer.override.transaction.timeout.ms", "60000");
            WorkerKillScenario.Result incremental = scenario.run(DeliveryGuarantee.EXACTLY_ONCE_POLL, ROWS, true, chunks,
                    WorkerKillScenario.RowSource.INCREMENTAL_SNAPSHOT);
            System.out.println(poll.line() + "\n" + incremental.line());

            for (WorkerKillScenario.Result result : java.util.List.of(poll, incremental)) {
                assertThat(result.inLogAtKill()).as(result.guarantee() + ": killed inside the snapshot").isPositive().isLessThan(ROWS);
                assertThat(result.visibleAtKill()).as(result.guarantee() + ": snapshot rows committed before the kill").isPositive();
                assertExactlyOnce(result, ROWS);
            }
        }
    }

    /**
     * The kill in the middle of an exactly-once snapshot of tables without a key (issue 36): one with REPLICA IDENTITY
     * FULL and identical rows (100,000 rows of 40,000 values, read in two hash ranges at once), one with REPLICA IDENTITY
     * DEFAULT and no key (20,000 rows); while the worker is down, one of two identical rows is deleted, rows are updated
     * and copies inserted. Under both boundaries a read_committed consumer rebuilds each table from its topic with every
     * row as often as the table holds it: none missing, none too often ({@code scenarios/worker-kill.sh --keyless}).
     */
    @Test
    @Nightly
    void readCommittedConsumerGetsEveryRowOfTablesWithoutAKeyAsOftenAsTheyHoldItAfterAWorkerKilledInTheirSnapshot() throws Exception {
        Path root = Path.of(System.getProperty("project.root", "..")).toAbsolutePath().normalize();
        WorkerKillScenario.Settings settings = new WorkerKillScenario.Settings("1g", Map.of(), Map.of(), Duration.ofSeconds(180));
        try (WorkerKillScenario scenario = new WorkerKillScenario(root, settings,
                line -> System.out.println(Instant.now() + " " + line))) {
            scenario.start();
            KeylessSnapshotKill kill = new KeylessSnapshotKill(scenario, line -> System.out.println(Instant.now() + " " + line));
            KeylessSnapshotKill.Result poll = kill.run(DeliveryGuarantee.EXACTLY_ONCE_POLL, ROWS, Map.of());
            KeylessSnapshotKill.Result connector = kill.run(DeliveryGuarantee.EXACTLY_ONCE_CONNECTOR, ROWS, Map.of());
            System.out.println(poll.line() + "\n" + connector.line());

            for (KeylessSnapshotKill.Result result : java.util.List.of(poll, connector)) {
                String mode = result.guarantee().id;
                assertThat(result.inLogAtKill()).as(mode + ": killed inside the first table").isPositive().isLessThan(ROWS);
                assertThat(result.visibleAtKill()).as(mode + ": snapshot rows committed before the kill").isPositive();
                assertThat(result.resumedInside()).as(mode + ": resumed inside the table without a key").isTrue();
                assertThat(result.taskState()).as(mode + " task").isEqualTo("RUNNING");
                assertThat(result.recoveryMillis()).as(mode + ": every row there").isPositive();
                assertThat(result.tables()).as(mode).hasSize(2).allSatisfy(table -> {
                    assertThat(table.rows()).as(table.table() + " rows").isPositive();
                    assertThat(table.missing()).as(table.table() + " rows missing").isZero();
                    assertThat(table.duplicates()).as(table.table() + " rows too often").isZero();
                });
            }
        }
    }

    private static void assertExactlyOnce(WorkerKillScenario.Result result, int rows) {
        assertThat(result.taskState()).as(result.guarantee() + " task").isEqualTo("RUNNING");
        assertThat(result.recoveryMillis()).as(result.guarantee() + " every row seen").isPositive();
        assertThat(result.lost()).as(result.guarantee() + " rows lost").isZero();
        assertThat(result.duplicates()).as(result.guarantee() + " rows seen twice").isZero();
        assertThat(result.strays()).as(result.guarantee() + " records of no row").isZero();
        assertThat(result.records()).as(result.guarantee() + " records").isEqualTo(rows);
    }
}
