package io.github.pgoutput.parity;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;

import io.github.pgoutput.testing.PostgresDatabase;

/**
 * Small transactions committed one after another by a thread of their own until {@link #stop()}: transaction
 * {@code k} inserts one to three rows into {@code <schema>.orders} (ids counted up from 1; order 0 is the snapshot's) and sets
 * {@code batch = k} on one of the five rows of {@code <schema>.categories}. Every change is one event a consumer can
 * name ({@link #event}): {@code orders:<id>} for an insert, {@code categories:<k>} for an update; {@link #committed()}
 * holds the events of the transactions whose COMMIT returned.
 */
final class SwitchWorkload implements AutoCloseable {

    private static final int CATEGORIES = 5;
    private static final long PAUSE_MS = 10;

    private final PostgresDatabase db;
    private final String schema;
    private final Set<String> committed = ConcurrentHashMap.newKeySet();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private volatile boolean stopping;
    private volatile long transactions;
    private Thread thread;

    SwitchWorkload(PostgresDatabase db, String schema) {
        this.db = db;
        this.schema = schema;
    }

    /** The tables, with the five categories the snapshot reads. */
    static List<String> setup(String schema) {
        List<String> statements = new ArrayList<>();
        if (!schema.equals("public")) {
            statements.add("CREATE SCHEMA " + schema);
        }
        statements.add("CREATE TABLE " + schema + ".orders (id bigint PRIMARY KEY, batch bigint NOT NULL, note text)");
        statements.add("CREATE TABLE " + schema + ".categories (id int PRIMARY KEY, batch bigint NOT NULL)");
        statements.add("INSERT INTO " + schema + ".categories SELECT g, 0 FROM generate_series(0, " + (CATEGORIES - 1) + ") g");
        // Order 0 makes the snapshot write to the orders topic too, so that both topics exist before streaming.
        statements.add("INSERT INTO " + schema + ".orders VALUES (0, 0, 'before the snapshot')");
        return statements;
    }

    /** The name of the event a change record stands for: {@code <table>:<id or batch>} from its {@code after} row. */
    static String event(String table, long orderIdOrBatch) {
        return table + ":" + orderIdOrBatch;
    }

    void start() {
        thread = new Thread(this::run, "switch-workload-" + schema);
        thread.setDaemon(true);
        thread.start();
    }

    private void run() {
        try (Connection sql = db.connect();
             PreparedStatement insert = sql.prepareStatement("INSERT INTO " + schema + ".orders (id, batch, note) VALUES (?, ?, ?)");
             PreparedStatement update = sql.prepareStatement("UPDATE " + schema + ".categories SET batch = ? WHERE id = ?")) {
            sql.setAutoCommit(false);
            long nextId = 1;
            for (long k = 1; !stopping; k++) {
                List<String> events = new ArrayList<>();
                for (int row = 0; row <= k % 3; row++) {
                    insert.setLong(1, nextId);
                    insert.setLong(2, k);
                    insert.setString(3, "order " + nextId + " of transaction " + k);
                    insert.executeUpdate();
                    events.add(event("orders", nextId++));
                }
                update.setLong(1, k);
                update.setInt(2, (int) (k % CATEGORIES));
                update.executeUpdate();
                events.add(event("categories", k));
                sql.commit();
                committed.addAll(events);
                transactions = k;
                Thread.sleep(PAUSE_MS);
            }
        } catch (SQLException | RuntimeException e) {
            failure.set(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Transactions committed so far. */
    long transactions() {
        return transactions;
    }

    /** Stops committing after the transaction under way; throws what stopped the thread before, if anything did. */
    Set<String> stop() throws InterruptedException {
        stopping = true;
        if (thread != null) {
            thread.join(30_000);
        }
        Throwable failed = failure.get();
        if (failed != null) {
            throw new AssertionError("the workload failed after " + transactions + " transactions", failed);
        }
        return committed();
    }

    /** The events of every committed transaction. */
    Set<String> committed() {
        return Collections.unmodifiableSet(committed);
    }

    @Override
    public void close() throws InterruptedException {
        stopping = true;
        if (thread != null) {
            thread.join(30_000);
        }
    }
}
