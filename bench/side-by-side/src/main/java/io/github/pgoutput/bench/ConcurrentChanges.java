package io.github.pgoutput.bench;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import io.github.pgoutput.localrun.LocalPostgres;

/**
 * W7's concurrent workload: while the incremental snapshot reads {@code public.bench}, small transactions update,
 * delete and insert rows at a fixed pace, on their own connection and thread, until {@link #stop} (or a time limit). Each transaction is one statement that
 * updates {@value #UPDATES} rows (a new {@code v}), deletes {@value #DELETES} and inserts {@value #INSERTS}; the
 * updated and deleted ids are drawn uniformly from the table's first ids, different ones within a transaction, from a
 * fixed seed, so every leg sees the same changes in the same order. Uniform ids reach every chunk, the ones being read
 * too; the tests ({@code IncrementalSnapshotIT}) aim changes at the chunk in flight on purpose.
 */
final class ConcurrentChanges implements AutoCloseable {

    static final int TRANSACTIONS_PER_SECOND = 100;
    static final int UPDATES = 6;
    static final int DELETES = 2;
    static final int INSERTS = 2;
    private static final long SEED = 7;

    private static final String STATEMENT = "WITH u AS (UPDATE public.bench SET v = repeat(md5(random()::text), 3), "
            + "n = n + 1 WHERE id = ANY (?)), d AS (DELETE FROM public.bench WHERE id = ANY (?)), "
            + "i AS (INSERT INTO public.bench (v, n, ts, flag) SELECT repeat(md5(random()::text), 3), g, now(), true "
            + "FROM generate_series(1, " + INSERTS + ") g) SELECT 1";

    private final Thread thread;
    private final AtomicLong transactions = new AtomicLong();
    private volatile long lastCommitNanos;
    private volatile Exception failure;
    private volatile boolean stopped;

    private ConcurrentChanges(LocalPostgres pg, int rows, long seconds) {
        thread = new Thread(() -> run(pg, rows, seconds), "w7-changes");
        thread.setDaemon(true);
    }

    /** Starts changing the first {@code rows} ids, for {@code seconds} at most. */
    static ConcurrentChanges start(LocalPostgres pg, int rows, long seconds) {
        ConcurrentChanges changes = new ConcurrentChanges(pg, rows, seconds);
        changes.thread.start();
        return changes;
    }

    private void run(LocalPostgres pg, int rows, long seconds) {
        SplittableRandom random = new SplittableRandom(SEED);
        long periodNanos = TimeUnit.SECONDS.toNanos(1) / TRANSACTIONS_PER_SECOND;
        long total = seconds * TRANSACTIONS_PER_SECOND;
        try (Connection connection = pg.connect(); PreparedStatement statement = connection.prepareStatement(STATEMENT)) {
            long begin = System.nanoTime();
            for (long t = 0; t < total && !stopped; t++) {
                long due = begin + t * periodNanos;
                long wait = due - System.nanoTime();
                if (wait > 0) {
                    TimeUnit.NANOSECONDS.sleep(wait);
                }
                Long[] ids = distinctIds(random, rows, UPDATES + DELETES);
                Long[] updated = java.util.Arrays.copyOfRange(ids, 0, UPDATES);
                Long[] deleted = java.util.Arrays.copyOfRange(ids, UPDATES, UPDATES + DELETES);
                Array u = connection.createArrayOf("bigint", updated);
                Array d = connection.createArrayOf("bigint", deleted);
                statement.setArray(1, u);
                statement.setArray(2, d);
                statement.execute();
                lastCommitNanos = System.nanoTime();
                transactions.incrementAndGet();
            }
        } catch (SQLException | InterruptedException e) {
            failure = e;
        }
    }

    private static Long[] distinctIds(SplittableRandom random, int rows, int n) {
        Long[] ids = new Long[n];
        for (int i = 0; i < n; i++) {
            long id;
            boolean repeated;
            do {
                id = 1 + random.nextInt(rows);
                repeated = false;
                for (int j = 0; j < i; j++) {
                    repeated |= ids[j] == id;
                }
            } while (repeated);
            ids[i] = id;
        }
        return ids;
    }

    /**
     * Stops after the transaction in progress and waits for it; returns {@link System#nanoTime()} right after the last
     * commit. A failure of the changes themselves is thrown as it came (the benchmark's fault, not a contender's).
     */
    long stop() throws Exception {
        stopped = true;
        thread.join();
        if (failure != null) {
            throw failure;
        }
        return lastCommitNanos;
    }

    /** Changes made so far: rows updated, deleted and inserted, counted by statement. */
    long changes() {
        return transactions.get() * (UPDATES + DELETES + INSERTS);
    }

    @Override
    public void close() throws InterruptedException {
        stopped = true;
        thread.join(TimeUnit.SECONDS.toMillis(30));
    }
}
