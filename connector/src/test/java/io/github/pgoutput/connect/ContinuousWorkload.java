package io.github.pgoutput.connect;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import io.github.pgoutput.pgoutput.Lsn;
import io.github.pgoutput.testing.PostgresDatabase;

/**
 * A writer that commits small transactions on table {@code t (id bigint PRIMARY KEY, name text)} in a background
 * thread until stopped: transaction {@code n} inserts row {@code n}, and every third one also updates an earlier row.
 * It remembers, per transaction, {@code pg_current_wal_lsn()} read right after the commit: an LSN at or past that
 * transaction's commit record, so a slot confirmed at or past it must have the transaction in Kafka.
 *
 * <p>{@link #start} and {@link #stop} from the test thread; {@link #committedUpTo} from any thread.
 */
final class ContinuousWorkload implements AutoCloseable {

    private final PostgresDatabase db;
    private final List<Lsn> lsnAfterCommit = Collections.synchronizedList(new ArrayList<>());
    private volatile boolean running;
    private volatile Throwable failure;
    private Thread thread;

    ContinuousWorkload(PostgresDatabase db) {
        this.db = db;
    }

    ContinuousWorkload start() {
        running = true;
        thread = new Thread(this::run, "continuous-workload");
        thread.start();
        return this;
    }

    /** Stops writing, and returns the number of committed transactions. */
    int stop() {
        running = false;
        try {
            thread.join(30_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while stopping the workload", e);
        }
        if (failure != null) {
            throw new AssertionError("the workload failed", failure);
        }
        return committed();
    }

    int committed() {
        return lsnAfterCommit.size();
    }

    /** The ids of rows inserted by transactions known to be at or before {@code lsn} in the WAL. */
    List<Long> committedUpTo(Lsn lsn) {
        List<Long> ids = new ArrayList<>();
        synchronized (lsnAfterCommit) {
            for (int i = 0; i < lsnAfterCommit.size(); i++) {
                if (!lsnAfterCommit.get(i).isAfter(lsn)) {
                    ids.add((long) i + 1);
                }
            }
        }
        return ids;
    }

    private void run() {
        try (Connection connection = db.connect(); Statement st = connection.createStatement()) {
            long next = 1;
            while (running) {
                connection.setAutoCommit(false);
                st.execute("INSERT INTO t VALUES (" + next + ", 'row-" + next + "')");
                if (next % 3 == 0) {
                    st.execute("UPDATE t SET name = 'updated-by-" + next + "' WHERE id = " + (next / 3));
                }
                connection.commit();
                connection.setAutoCommit(true);
                try (ResultSet rs = st.executeQuery("SELECT pg_current_wal_lsn()")) {
                    rs.next();
                    lsnAfterCommit.add(Lsn.parse(rs.getString(1)));
                }
                next++;
                Thread.sleep(5);
            }
        } catch (SQLException | RuntimeException e) {
            failure = e;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        if (thread != null && running) {
            stop();
        }
    }
}
