package io.github.pgoutput.snapshot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class TransactionSnapshotTest {

    @Test
    void seesTransactionsBelowXminAndFinishedOnesBelowXmax() {
        TransactionSnapshot s = TransactionSnapshot.parse("100:110:102,105");
        assertThat(s.sees(99)).isTrue();
        assertThat(s.sees(100)).isTrue();
        assertThat(s.sees(101)).isTrue();
        assertThat(s.sees(109)).isTrue();
    }

    @Test
    void doesNotSeeRunningTransactionsNorThoseFromXmax() {
        TransactionSnapshot s = TransactionSnapshot.parse("100:110:102,105");
        assertThat(s.sees(102)).isFalse();
        assertThat(s.sees(105)).isFalse();
        assertThat(s.sees(110)).isFalse();
        assertThat(s.sees(4_000)).isFalse();
    }

    @Test
    void widensThirtyTwoBitIdsAcrossAnEpochBoundary() {
        long epoch = 3L << 32;
        // xmax just after the wrap into epoch 3: an xid near 2^32 is from epoch 2, a small one from epoch 3.
        TransactionSnapshot s = new TransactionSnapshot(epoch - 10, epoch + 5, java.util.Set.of(epoch - 2, epoch + 1));
        assertThat(s.widen(0xFFFF_FFFEL)).isEqualTo(epoch - 2);
        assertThat(s.widen(3)).isEqualTo(epoch + 3);
        assertThat(s.sees(0xFFFF_FFFEL)).isFalse();
        assertThat(s.sees(0xFFFF_FFFDL)).isTrue();
        assertThat(s.sees(1)).isFalse();
        assertThat(s.sees(3)).isTrue();
        assertThat(s.sees(5)).isFalse();
        // xmax just before the wrap: a small xid is from the next epoch, not yet seen.
        TransactionSnapshot before = new TransactionSnapshot(epoch - 20, epoch - 4, java.util.Set.of());
        assertThat(before.widen(2)).isEqualTo(epoch + 2);
        assertThat(before.sees(2)).isFalse();
        assertThat(before.sees(0xFFFF_FFF0L)).isTrue();
    }

    @Test
    void parsesAnEmptyRunningList() {
        assertThat(TransactionSnapshot.parse("7:7:")).isEqualTo(new TransactionSnapshot(7, 7, java.util.Set.of()));
    }

    @Test
    void refusesTextThatIsNotASnapshot() {
        assertThatThrownBy(() -> TransactionSnapshot.parse("7:7")).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("7:7");
        assertThatThrownBy(() -> TransactionSnapshot.parse("a:7:")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> TransactionSnapshot.parse("9:7:")).isInstanceOf(IllegalArgumentException.class);
    }
}
