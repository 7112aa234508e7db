package io.github.pgoutput.soak;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.pgoutput.testing.Nightly;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Under {@code transaction.boundary=connector} a 100,000-row transaction is one Kafka transaction, which takes
 * seconds to write; with the connector's producer {@code transaction.timeout.ms} at 2 s the task fails with a message
 * naming the settings, a {@code read_committed} consumer sees none of the transaction (no silent split, no partial
 * commit), and once the timeout is raised and the task restarted, every row arrives exactly once.
 */
@Nightly
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class DeliveryTimeoutIT {

    private static final int ROWS = 100_000;

    @Test
    void aDeliveryLongerThanTheTransactionTimeoutFailsLoudlyCommitsNothingAndArrivesWholeOnceTheTimeoutIsRaised()
            throws Exception {
        Path root = Path.of(System.getProperty("project.root", "..")).toAbsolutePath().normalize();
        try (WorkerKillScenario scenario = new WorkerKillScenario(root,
                new WorkerKillScenario.Settings("1g", Map.of(), Map.of(), Duration.ofSeconds(120)),
                line -> System.out.println(Instant.now() + " " + line))) {
            scenario.start();

            WorkerKillScenario.TimeoutResult result = scenario.timeoutRun(ROWS, 2_000, 120_000);
            System.out.println(result);

            assertThat(result.taskState()).startsWith("FAILED")
                    .contains("open for").contains("transaction.timeout.ms is 2000 ms")
                    .contains("producer.override.transaction.timeout.ms").contains("transaction.max.timeout.ms");
            assertThat(result.visibleAfterFail()).as("records a read_committed consumer saw of the failed delivery")
                    .isZero();
            WorkerKillScenario.Result after = result.afterRaise();
            assertThat(after.taskState()).isEqualTo("RUNNING");
            assertThat(after.lost()).as("rows lost").isZero();
            assertThat(after.duplicates()).as("rows seen twice").isZero();
            assertThat(after.records()).isEqualTo(ROWS);
        }
    }
}
