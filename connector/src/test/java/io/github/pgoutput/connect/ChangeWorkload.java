package io.github.pgoutput.connect;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import io.github.pgoutput.testing.PostgresDatabase;

/**
 * A concurrent workload on {@code (id bigint PRIMARY KEY, v int)} tables: each transaction inserts a new row, updates
 * one and deletes one, in one table chosen at random, ids never below {@code 1} nor above the table's limit. Ids in
 * {@code untouched} are left alone, so a test can change them itself. Runs on its own thread until {@link #stop()}.
 */
final class ChangeWorkload implements AutoCloseable {

    /** A table, its existing ids 1..{@code existing}, and the first id to insert. */
    record Table(String name, long existing, long firstNewId) {
    }

    private final PostgresDatabase db;
    private final List<Table> tables;
    private final List<Long> untouched;
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final AtomicLong transactions = new AtomicLong();
    private final Thread thread;
    private volatile Throwable failure;

    ChangeWorkload(PostgresDatabase db, List<Table> tables, List<Long> untouched) {
        this.db = db;
        this.tables = tables;
        this.untouched = untouched;
        thread = new Thread(this::run, "change-workload");
        thread.setDaemon(true);
        thread.start();
    }

    private void run() {
        Random random = new Random(42);
        long[] next = tables.stream().mapToLong(Table::firstNewId).toArray();
        try (Connection c = db.connect(); Statement st = c.createStatement()) {
            c.setAutoCommit(false);
            while (running.get()) {
                int t = random.nextInt(tables.size());
                Table table = tables.get(t);
                long update = pick(random, table.existing());
                long delete = pick(random, table.existing());
                st.execute("INSERT INTO " + table.name() + " VALUES (" + next[t]++ + ", " + random.nextInt(1000) + ")");
                st.execute("UPDATE " + table.name() + " SET v = v + 1 WHERE id = " + update);
                st.execute("DELETE FROM " + table.name() + " WHERE id = " + delete);
                c.commit();
                transactions.incrementAndGet();
                Thread.sleep(5);
            }
        } catch (SQLException | RuntimeException e) {
            failure = e;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private long pick(Random random, long existing) {
        long id;
        do {
            id = 1 + (long) (random.nextDouble() * existing);
        } while (untouched.contains(id));
        return id;
    }

    long transactions() {
        return transactions.get();
    }

    /** Stops the workload and waits for its last transaction; fails when the workload failed. */
    void stop() {
        running.set(false);
        try {
            thread.join(30_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (failure != null) {
            throw new AssertionError("the workload failed", failure);
        }
    }

    @Override
    public void close() {
        running.set(false);
    }
}
