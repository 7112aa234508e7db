package io.github.pgoutput.connect;

import io.github.pgoutput.connect.config.ConnectKeys;
import io.github.pgoutput.connect.config.PgOutputSourceConnectorConfig;
import io.github.pgoutput.connect.config.ThroughputKeys;
import java.util.Locale;
import java.util.Optional;

/**
 * Under {@code transaction.boundary=connector} Connect keeps every record of a delivery in the worker's heap until the
 * delivery's Kafka transaction commits, so the largest delivery the task lets through ({@code transaction.max.records})
 * needs heap in proportion. This says at start-up whether the worker's heap covers it. Pure.
 */
final class OpenTransactionHeap {

    /**
     * Heap per record held until its transaction commits: measured with {@code bench/side-by-side.sh --exactly-once}
     * on W1 (300,000 one-row inserts in one transaction; worker peak RSS 1.7 GB under connector boundaries against
     * 0.7 GB at-least-once), rounded up.
     */
    static final long BYTES_PER_OPEN_RECORD = 3_500;

    private OpenTransactionHeap() {
    }

    /** The heap the largest delivery {@code maxRecords} allows needs, in bytes. */
    static long needed(long maxRecords) {
        return maxRecords * BYTES_PER_OPEN_RECORD;
    }

    /**
     * A warning when the largest delivery allowed needs more than half of {@code maxHeapBytes} (the rest is the
     * worker's own, the producer's buffer and other connectors'), or empty when it fits.
     */
    static Optional<String> warning(String slotName, long maxRecords, long maxHeapBytes) {
        long needed = needed(maxRecords);
        if (needed <= maxHeapBytes / 2) {
            return Optional.empty();
        }
        return Optional.of(String.format(Locale.ROOT, "Slot %s: %s=connector keeps every record of an open delivery in the worker's heap"
                        + " until its Kafka transaction commits, about %d bytes each; %s=%d allows deliveries needing about %.1f GiB,"
                        + " more than half of the worker's maximum heap (%.1f GiB). A delivery that large could exhaust the worker:"
                        + " give the worker more heap (-Xmx, KAFKA_HEAP_OPTS) or lower %s (a bigger delivery then fails the task"
                        + " with a message naming the key; it is never split)", slotName,
                ConnectKeys.TRANSACTION_BOUNDARY_CONFIG, BYTES_PER_OPEN_RECORD,
                ThroughputKeys.TRANSACTION_MAX_RECORDS_CONFIG, maxRecords, needed / 1073741824.0,
                maxHeapBytes / 1073741824.0, ThroughputKeys.TRANSACTION_MAX_RECORDS_CONFIG));
    }
}
