package io.github.pgoutput.connect;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The start-up check of the heap that the largest delivery allowed under connector boundaries needs. */
class OpenTransactionHeapTest {

    private static final long GIB = 1L << 30;

    @Test
    void theDefaultBoundFitsAWorkerWithTwoGibibytes() {
        assertThat(OpenTransactionHeap.needed(250_000)).isEqualTo(875_000_000L);
        assertThat(OpenTransactionHeap.warning("s", 250_000, 2 * GIB)).isEmpty();
    }

    @Test
    void aBoundForFiveMillionRowsNeedsAboutSeventeenGibibytesAndWarnsOnASmallerHeap() {
        assertThat(OpenTransactionHeap.warning("orders", 5_000_000, 8 * GIB)).hasValueSatisfying(w -> assertThat(w)
                .contains("Slot orders").contains("transaction.max.records=5000000").contains("16.3 GiB").contains("8.0 GiB")
                .contains("-Xmx").contains("never split"));
        assertThat(OpenTransactionHeap.warning("orders", 5_000_000, 40 * GIB)).isEmpty();
    }
}
