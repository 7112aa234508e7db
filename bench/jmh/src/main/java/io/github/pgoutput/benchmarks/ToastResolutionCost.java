package io.github.pgoutput.benchmarks;

import io.github.pgoutput.pgoutput.Bytes;
import io.github.pgoutput.pgoutput.ColumnValue;
import io.github.pgoutput.pgoutput.Lsn;
import io.github.pgoutput.pgoutput.PgOutputMessage.Relation;
import io.github.pgoutput.pgoutput.RelationColumn;
import io.github.pgoutput.pgoutput.ReplicaIdentity;
import io.github.pgoutput.pgoutput.Xid;
import io.github.pgoutput.replication.CurrentRowReader;
import io.github.pgoutput.replication.PgConnections;
import io.github.pgoutput.replication.ReplicationSettings;
import io.github.pgoutput.toast.CurrentRows;
import io.github.pgoutput.toast.RowKey;
import io.github.pgoutput.toast.RowVersion;
import io.github.pgoutput.toast.StoredRow;
import io.github.pgoutput.toast.ToastStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * What unchanged TOAST resolution costs, run by {@code bench/toast-benchmark.sh}. Prints {@code key=value} lines.
 *
 * <p>{@code store <dir> <keys> <valueBytes>}: the worker's side. Writes {@code keys} rows of one large value each to
 * a {@link ToastStore} (1 GiB disk bound, 32 MiB native memory, the defaults), then resolves one unchanged value per
 * row as an update does (a read of the row, then the write of its new version). Reports the rate of both, the disk
 * used after a flush and the resident memory the process grew by.
 *
 * <p>{@code source <host> <port> <db> <user> <rows> <perDelivery> <deliveries>}: the source's side, against table
 * {@code docs (id int primary key, body text, note text)} of {@code rows} rows. For {@code deliveries} deliveries of
 * {@code perDelivery} changed rows each, reads the unchanged {@code body} of those rows two ways: the batched reselect
 * (one query per delivery, {@link CurrentRowReader}, with the xmin the proof needs), and one query per record as
 * Debezium's reselect post processor sends them. Reports queries, rows read (pg_stat_user_tables) and time per
 * delivery for each, in the same run.
 */
public final class ToastResolutionCost {

    public static void main(String[] args) throws Exception {
        if (args[0].equals("store")) {
            store(Path.of(args[1]), Integer.parseInt(args[2]), Integer.parseInt(args[3]));
        } else {
            source(args[1], Integer.parseInt(args[2]), args[3], args[4], Integer.parseInt(args[5]), Integer.parseInt(args[6]),
                    Integer.parseInt(args[7]));
        }
    }

    private static void store(Path directory, int keys, int valueBytes) throws Exception {
        Random random = new Random(7);
        long rssBefore = rssBytes();
        try (ToastStore store = ToastStore.open(new ToastStore.Settings(directory, 1L << 30, 32L << 20), "bench")) {
            byte[] raw = new byte[valueBytes * 3 / 4];
            long start = System.nanoTime();
            for (int i = 0; i < keys; i++) {
                random.nextBytes(raw);
                store.put(new RowKey(16384, List.of(Integer.toString(i))), new StoredRow(new RowVersion(Lsn.of(0x1000 + i), 1),
                        Map.of("body", new ColumnValue.Text(Bytes.utf8(Base64.getEncoder().encodeToString(raw))))));
            }
            double writeSeconds = (System.nanoTime() - start) / 1e9;
            java.lang.reflect.Method flush = ToastStore.class.getDeclaredMethod("flush");
            flush.setAccessible(true);
            flush.invoke(store);
            long writtenOnce = store.diskBytes();
            start = System.nanoTime();
            for (int i = 0; i < keys; i++) {
                store.get(new RowKey(16384, List.of(Integer.toString(random.nextInt(keys)))));
            }
            double readSeconds = (System.nanoTime() - start) / 1e9;
            start = System.nanoTime();
            long hits = 0;
            for (int i = 0; i < keys; i++) {
                int k = random.nextInt(keys);
                RowKey key = new RowKey(16384, List.of(Integer.toString(k)));
                var row = store.get(key);
                if (row.isPresent()) {
                    hits++;
                    store.put(key, new StoredRow(new RowVersion(Lsn.of(0x10_0000_0000L + i), 1), row.get().columns()));
                }
            }
            double resolveSeconds = (System.nanoTime() - start) / 1e9;
            store.sync();
            long rssAfter = rssBytes();
            flush.invoke(store);
            long tableFiles = Files.list(directory).filter(p -> p.toString().endsWith(".sst")).count();
            long files = Files.walk(directory).filter(Files::isRegularFile).mapToLong(p -> p.toFile().length()).sum();
            System.out.printf("keys=%d value_bytes=%d write_per_s=%.0f read_per_s=%.0f resolve_per_s=%.0f resolve_us=%.1f hits=%d"
                            + " bytes_per_key_written_once=%.0f table_files=%d rocksdb_native_mb=%.1f heap_used_mb=%.1f"
                            + " sst_bytes=%d dir_bytes=%d bytes_per_key=%.0f rss_growth_mb=%.1f%n",
                    keys, valueBytes, keys / writeSeconds, keys / readSeconds, keys / resolveSeconds, resolveSeconds * 1e6 / keys, hits,
                    (double) writtenOnce / keys, tableFiles, store.nativeMemoryBytes() / 1e6,
                    (Runtime.getRuntime().totalMemory() - Runtime.getRuntime().freeMemory()) / 1e6,
                    store.diskBytes(), files, (double) files / keys, (rssAfter - rssBefore) / 1e6);
        }
    }

    private static void source(String host, int port, String db, String user, int rows, int perDelivery, int deliveries)
            throws Exception {
        ReplicationSettings settings = ReplicationSettings.builder(host, port, db, user, "bench_slot", "bench_pub").build();
        Relation docs = new Relation(Xid.INVALID, oid(settings), "public", "docs", ReplicaIdentity.DEFAULT,
                List.of(new RelationColumn(true, "id", 23, -1), new RelationColumn(false, "body", 25, -1),
                        new RelationColumn(false, "note", 25, -1)));
        Random random = new Random(11);
        List<List<RowKey>> batches = new ArrayList<>();
        for (int d = 0; d < deliveries; d++) {
            List<RowKey> keys = new ArrayList<>();
            for (int i = 0; i < perDelivery; i++) {
                keys.add(new RowKey(docs.relationId(), List.of(Integer.toString(1 + random.nextInt(rows)))));
            }
            batches.add(keys);
        }
        try (CurrentRows reader = new CurrentRowReader(() -> settings); Connection c = PgConnections.openSql(settings)) {
            // Warm both paths (connection, plan, buffers) before measuring.
            reader.read(docs, List.of("body"), batches.get(0));
            perRecord(c, batches.get(0));
            long[] before = stats(c);
            long start = System.nanoTime();
            long found = 0;
            for (List<RowKey> keys : batches) {
                found += reader.read(docs, List.of("body"), keys).size();
            }
            double batchedSeconds = (System.nanoTime() - start) / 1e9;
            long[] afterBatched = stats(c);
            start = System.nanoTime();
            long foundPerRecord = 0;
            for (List<RowKey> keys : batches) {
                foundPerRecord += perRecord(c, keys);
            }
            double perRecordSeconds = (System.nanoTime() - start) / 1e9;
            long[] afterPerRecord = stats(c);
            System.out.printf("rows=%d per_delivery=%d deliveries=%d batched_queries=%d batched_rows_read=%d batched_ms_per_delivery=%.2f"
                            + " batched_found=%d per_record_queries=%d per_record_rows_read=%d per_record_ms_per_delivery=%.2f"
                            + " per_record_found=%d%n",
                    rows, perDelivery, deliveries, deliveries, afterBatched[0] - before[0], batchedSeconds * 1e3 / deliveries, found,
                    (long) deliveries * perDelivery, afterPerRecord[0] - afterBatched[0], perRecordSeconds * 1e3 / deliveries,
                    foundPerRecord);
        }
    }

    private static long perRecord(Connection c, List<RowKey> keys) throws Exception {
        long found = 0;
        try (PreparedStatement st = c.prepareStatement("SELECT body FROM public.docs WHERE id = ?")) {
            for (RowKey key : keys) {
                st.setInt(1, Integer.parseInt(key.values().get(0)));
                try (ResultSet rs = st.executeQuery()) {
                    while (rs.next()) {
                        rs.getString(1);
                        found++;
                    }
                }
            }
        }
        return found;
    }

    /** Rows fetched from the table by index and by sequential scans, as the statistics collector counts them. */
    private static long[] stats(Connection c) throws Exception {
        // A backend flushes its table statistics when idle, at least 1 s after its last flush and at most 10 s later.
        Thread.sleep(11_000);
        try (var st = c.createStatement()) {
            st.execute("SELECT pg_stat_clear_snapshot()");
            try (ResultSet rs = st.executeQuery("SELECT coalesce(idx_tup_fetch, 0) + coalesce(seq_tup_read, 0)"
                    + " FROM pg_stat_user_tables WHERE relid = 'public.docs'::regclass")) {
                rs.next();
                return new long[] {rs.getLong(1)};
            }
        }
    }

    private static long oid(ReplicationSettings settings) throws Exception {
        try (Connection c = PgConnections.openSql(settings); var st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT 'public.docs'::regclass::oid")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static long rssBytes() throws Exception {
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith("VmRSS:")) {
                return Long.parseLong(line.replaceAll("\\D", "")) * 1024;
            }
        }
        return -1;
    }
}
