package io.github.pgoutput.snapshot;

import io.github.pgoutput.replication.PgConnections;
import io.github.pgoutput.replication.ReplicationSettings;
import io.github.pgoutput.replication.TableName;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;

/**
 * The forked side of {@link LargeTableSnapshotIT}: snapshots one table and prints the row count and an
 * order-independent checksum (the sum over rows of the first 60 bits of md5 of the values joined with '|'), which
 * the test compares with the same figures computed by PostgreSQL.
 *
 * <p>Arguments: host port database user table [--count-only] [--threads N] [--key-order]. With {@code --count-only}
 * the rows are only counted (the reader into nothing, for {@code bench/snapshot-benchmark.sh}); {@code --threads} is
 * {@code snapshot.max.threads} (default {@link SnapshotSettings#DEFAULT_MAX_THREADS}), which splits the one table into
 * that many block ranges when it is big enough, or with {@code --key-order} (the resumable snapshot's reading, in key
 * order) into that many key ranges. Besides the total time (slot creation, import, reading) it prints the
 * reading time alone, from the reader's start to its last row.
 */
public final class LargeSnapshotRun {

    private LargeSnapshotRun() {
    }

    public static void main(String[] args) throws Exception {
        ReplicationSettings settings = ReplicationSettings.builder(args[0], Integer.parseInt(args[1]), args[2], args[3], "large_slot", "pub").build();
        TableName table = TableName.parse(args[4]);
        List<String> options = List.of(args).subList(5, args.length);
        boolean checksumming = !options.contains("--count-only");
        int threads = options.contains("--threads") ? Integer.parseInt(options.get(options.indexOf("--threads") + 1))
                : SnapshotSettings.DEFAULT_MAX_THREADS;
        boolean keyOrder = options.contains("--key-order");
        SnapshotSettings snapshotSettings = SnapshotSettings.defaults().withMaxThreads(threads);
        MessageDigest md5 = MessageDigest.getInstance("MD5");
        BigInteger checksum = BigInteger.ZERO;
        long count = 0;
        long start = System.nanoTime();
        long readStart;
        try (ExportedSnapshot exported = ExportedSnapshot.create(settings, true, Duration.ofSeconds(30));
             SnapshotReader reader = keyOrder
                     ? SnapshotReader.startInKeyOrder(() -> PgConnections.openSql(settings), exported.snapshotName(), List.of(table),
                             settings.user(), snapshotSettings, ResumableProgress.Position.startOf(0), false)
                     : SnapshotReader.start(() -> PgConnections.openSql(settings), exported.snapshotName(), List.of(table),
                             settings.user(), snapshotSettings)) {
            exported.close();
            readStart = System.nanoTime();
            while (!reader.finished()) {
                SnapshotRow row = reader.next(Duration.ofSeconds(1));
                if (row == null) {
                    continue;
                }
                count++;
                if (!checksumming) {
                    continue;
                }
                byte[] digest = md5.digest(String.join("|", row.values()).getBytes(StandardCharsets.UTF_8));
                String hex = HexFormat.of().formatHex(digest, 0, 8).substring(0, 15);
                checksum = checksum.add(BigInteger.valueOf(Long.parseLong(hex, 16)));
            }
        }
        long end = System.nanoTime();
        System.out.println("RESULT count=" + count + " checksum=" + checksum + " seconds=" + String.format(Locale.ROOT, "%.2f", (end - start) / 1e9)
                + " readSeconds=" + String.format(Locale.ROOT, "%.3f", (end - readStart) / 1e9) + " peakHeapBytes=" + peakHeap());
    }

    private static long peakHeap() {
        long peak = 0;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP) {
                peak += pool.getPeakUsage().getUsed();
            }
        }
        return peak;
    }
}
