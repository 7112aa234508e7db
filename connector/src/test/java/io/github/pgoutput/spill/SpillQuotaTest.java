package io.github.pgoutput.spill;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.pgoutput.pgoutput.Xid;
import org.junit.jupiter.api.Test;

class SpillQuotaTest {

    private static final Xid XID = Xid.of(740);

    private static SpillQuota quota(long maxTransactionBytes, long maxTotalBytes) {
        return new SpillQuota(SpillSettings.defaults("quota_slot").withLimits(maxTransactionBytes, maxTotalBytes),
                "/spill/dir", " or free space");
    }

    @Test
    void letsATransactionFillItsLimitExactlyAndRefusesOneByteMore() {
        SpillQuota quota = quota(100, 1000);

        assertThatCode(() -> quota.checkRoom(XID, 60, 40, "spill file", "/spill/dir/t.spill")).doesNotThrowAnyException();
        assertThatThrownBy(() -> quota.checkRoom(XID, 60, 41, "spill file", "/spill/dir/t.spill"))
                .isInstanceOf(SpillException.class)
                .hasMessage("transaction " + XID + " needs more than spill.max.transaction.bytes=100 bytes in spill file"
                        + " /spill/dir/t.spill; raise spill.max.transaction.bytes or make the transaction smaller");
    }

    @Test
    void refusesAnAppendThatWouldPassTheTotalOfAllTransactions() {
        SpillQuota quota = quota(1000, 300);
        quota.added(250);

        assertThatCode(() -> quota.checkRoom(XID, 0, 50, "spill file", "f")).doesNotThrowAnyException();
        assertThatThrownBy(() -> quota.checkRoom(XID, 0, 51, "spill file", "f"))
                .isInstanceOf(SpillException.class)
                .hasMessage("the open streamed transactions need more than spill.max.total.bytes=300 bytes in /spill/dir"
                        + " (appending to xid " + XID + "); raise spill.max.total.bytes or free space");
    }

    @Test
    void checkingCountsNothingAndReleasedBytesMakeRoomAgain() {
        SpillQuota quota = quota(1000, 300);
        quota.checkRoom(XID, 0, 300, "spill table", "t");
        assertThat(quota.totalBytes()).isZero();

        quota.added(300);
        assertThatThrownBy(() -> quota.checkRoom(XID, 0, 1, "spill table", "t")).isInstanceOf(SpillException.class);
        quota.released(100);
        assertThat(quota.totalBytes()).isEqualTo(200);
        assertThatCode(() -> quota.checkRoom(XID, 0, 100, "spill table", "t")).doesNotThrowAnyException();
        quota.releasedAll();
        assertThat(quota.totalBytes()).isZero();
    }

    @Test
    void withoutLimitsAnythingFits() {
        SpillQuota quota = quota(SpillSettings.UNLIMITED, SpillSettings.UNLIMITED);
        quota.added(1L << 40);

        assertThatCode(() -> quota.checkRoom(XID, 1L << 40, 1L << 30, "spill file", "f")).doesNotThrowAnyException();
    }
}
