package io.github.pgoutput.benchmarks;

import io.github.pgoutput.pgoutput.Lsn;
import io.github.pgoutput.pgoutput.Xid;
import io.github.pgoutput.spill.DiskSpill;
import io.github.pgoutput.spill.SpillReader;
import io.github.pgoutput.spill.SpillSettings;
import io.github.pgoutput.spill.SpilledMessage;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.SplittableRandom;
import java.util.zip.CRC32C;

/**
 * One measurement of the disk spill, run by {@code bench/spill-benchmark.sh}: appends one streamed transaction of
 * {@code args[1]} MiB in {@code args[2]}-byte payloads (default 8192) to a {@link DiskSpill} in {@code args[0]} with
 * default settings, forces the file to disk, drops the page cache, and reads it back through {@code read()} (which
 * verifies every frame before the reader is returned) and the reader. Disk I/O is what is measured, not the page
 * cache: the append time includes {@code fsync} and the read starts cold.
 *
 * <p>This is a plain timed run rather than JMH: one operation moves gigabytes and takes seconds, so JMH's
 * repetition machinery adds nothing; the script repeats whole runs and alternates them with the raw {@code dd}
 * runs so that both see the same machine load. Prints one line of {@code key=value} pairs. MB = 10^6 bytes of
 * payload (the frame overhead, 17 bytes per payload, is not counted in the spill's favour).
 */
public final class SpillThroughput {

    private static final Xid XID = Xid.of(1);
    /** Between writing and reading, as in the script's raw runs: lets the VM host finish writing back. */
    private static final long PAUSE_MILLIS = Long.getLong("pause.ms", 5000);

    public static void main(String[] args) throws IOException, InterruptedException {
        Path directory = Path.of(args[0]);
        long totalBytes = Long.parseLong(args[1]) << 20;
        int payloadBytes = args.length > 2 ? Integer.parseInt(args[2]) : 8192;
        byte[] block = new byte[payloadBytes * 16];
        new SplittableRandom(42).nextBytes(block);
        long messages = totalBytes / payloadBytes;
        long payloadTotal = messages * payloadBytes;

        try (DiskSpill spill = DiskSpill.open("bench", SpillSettings.defaults("bench").withDirectory(directory))) {
            spill.clear();
            long start = System.nanoTime();
            for (long i = 0; i < messages; i++) {
                ByteBuffer payload = ByteBuffer.wrap(block, (int) (i % 16) * payloadBytes, payloadBytes);
                spill.append(XID, XID, Lsn.of(i + 1), payload);
            }
            long appended = System.nanoTime();
            Path file = directory.resolve("bench.txn-1.spill");
            try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
                channel.force(true);
            }
            long synced = System.nanoTime();
            long fileBytes = Files.size(file);
            boolean cold = dropPageCache();
            Thread.sleep(PAUSE_MILLIS);

            long readStart = System.nanoTime();
            long readBytes = 0;
            CRC32C sink = new CRC32C();
            long verified;
            try (SpillReader reader = spill.read(XID)) {
                verified = System.nanoTime();
                SpilledMessage message;
                while ((message = reader.next()) != null) {
                    readBytes += message.payload().remaining();
                    sink.update(message.payload().get(message.payload().position()));
                }
            }
            long readEnd = System.nanoTime();
            if (readBytes != payloadTotal) {
                throw new IllegalStateException("read back " + readBytes + " bytes, appended " + payloadTotal);
            }
            System.out.printf("payload_bytes=%d file_bytes=%d append_cached_mb_s=%.1f append_mb_s=%.1f read_mb_s=%.1f"
                            + " verify_s=%.2f read_s=%.2f cold_read=%s checksum=%x%n",
                    payloadTotal, fileBytes, mbPerSecond(payloadTotal, appended - start), mbPerSecond(payloadTotal, synced - start),
                    mbPerSecond(payloadTotal, readEnd - readStart), (verified - readStart) / 1e9, (readEnd - readStart) / 1e9,
                    cold, sink.getValue());
        }
    }

    private static double mbPerSecond(long bytes, long nanos) {
        return bytes / 1e6 / (nanos / 1e9);
    }

    /** Writes dirty pages out and empties the page cache (needs root); false where that is not allowed. */
    private static boolean dropPageCache() throws IOException, InterruptedException {
        Process drop = new ProcessBuilder("sh", "-c", "sync && echo 3 > /proc/sys/vm/drop_caches").inheritIO().start();
        return drop.waitFor() == 0;
    }
}
