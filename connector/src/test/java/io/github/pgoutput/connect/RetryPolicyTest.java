package io.github.pgoutput.connect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.pgoutput.replication.ReplicationConnectionLostException;
import io.github.pgoutput.replication.Setting;

import java.sql.SQLException;

import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.errors.RetriableException;
import org.junit.jupiter.api.Test;

class RetryPolicyTest {

    private static final RetriableException LOST = new RetriableException("connection lost");

    private static Throwable connectionRefused() {
        return new ReplicationConnectionLostException(Setting.HOSTNAME, "connection refused", new SQLException("refused", "08001"));
    }

    private static Throwable slotHeld() {
        return ReplicationConnectionLostException.slotInUse("replication slot \"s\" is active for PID 42", null);
    }

    @Test
    void transientFailuresWaitTheReconnectPauseUntilErrorsMaxRetriesIsSpent() {
        RetryPolicy retries = new RetryPolicy("s", 2, 5, 7_000);

        assertThat(retries.afterPollFailure(LOST, connectionRefused()).delayMillis()).isEqualTo(RetryPolicy.RECONNECT_BACKOFF_MS);
        assertThat(retries.afterPollFailure(LOST, connectionRefused()).delayMillis()).isEqualTo(RetryPolicy.RECONNECT_BACKOFF_MS);
        assertThatThrownBy(() -> retries.afterPollFailure(LOST, connectionRefused()))
                .isExactlyInstanceOf(ConnectException.class)
                .hasMessageContaining("no replication session after 2 retries").hasMessageContaining("errors.max.retries")
                .hasMessageContaining("Last error: connection lost");
    }

    @Test
    void aSlotHeldByAnotherWalsenderWaitsSlotRetryDelayUntilSlotMaxRetriesIsSpent() {
        RetryPolicy retries = new RetryPolicy("s", 0, 1, 7_000);

        assertThat(retries.afterPollFailure(LOST, slotHeld()).delayMillis()).isEqualTo(7_000);
        assertThatThrownBy(() -> retries.afterPollFailure(LOST, slotHeld()))
                .isExactlyInstanceOf(ConnectException.class)
                .hasMessageContaining("Slot 's'").hasMessageContaining("after 1 retries 7000 ms apart")
                .hasMessageContaining("slot.max.retries").hasMessageContaining("slot.retry.delay.ms");
    }

    @Test
    void aReadOnlyRefusalFromAPathThatDoesNotClassifyIsBoundedLikeAStandby() {
        RetryPolicy retries = new RetryPolicy("s", 0, 1, 3_000);
        Throwable readOnly = new RuntimeException(new SQLException("cannot execute INSERT in a read-only transaction", "25006"));

        assertThat(retries.afterPollFailure(LOST, readOnly).delayMillis()).isEqualTo(3_000);
        assertThatThrownBy(() -> retries.afterPollFailure(LOST, readOnly)).hasMessageContaining("slot.max.retries");
    }

    @Test
    void minusOneRetriesWithoutLimit() {
        RetryPolicy retries = new RetryPolicy("s", -1, 0, 1);

        for (int i = 0; i < 1_000; i++) {
            assertThat(retries.afterPollFailure(LOST, connectionRefused()).delayMillis()).isEqualTo(RetryPolicy.RECONNECT_BACKOFF_MS);
        }
    }

    @Test
    void anOpenedSessionRenewsBothBudgets() {
        RetryPolicy retries = new RetryPolicy("s", 1, 1, 5);
        retries.afterPollFailure(LOST, connectionRefused());
        retries.afterPollFailure(LOST, slotHeld());

        retries.sessionOpened();

        assertThat(retries.afterPollFailure(LOST, connectionRefused()).delayMillis()).isEqualTo(RetryPolicy.RECONNECT_BACKOFF_MS);
        assertThat(retries.afterPollFailure(LOST, slotHeld()).delayMillis()).isEqualTo(5);
    }

    @Test
    void failuresAtStartCountAgainstTheBudgetThePollsCheck() {
        RetryPolicy retries = new RetryPolicy("s", 1, 5, 9);

        assertThat(retries.atStart(connectionRefused())).isEqualTo(RetryPolicy.RECONNECT_BACKOFF_MS);
        assertThat(retries.atStart(slotHeld())).isEqualTo(9);
        assertThatThrownBy(() -> retries.afterPollFailure(LOST, connectionRefused())).hasMessageContaining("errors.max.retries");
    }
}
