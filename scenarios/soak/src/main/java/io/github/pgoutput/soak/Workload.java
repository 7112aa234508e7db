package io.github.pgoutput.soak;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;

/**
 * The continuous mixed workload: one thread of small transactions (some aborted, some with a rolled-back savepoint,
 * now and then an ALTER TABLE ADD COLUMN) and two threads of large ones (streamed by PostgreSQL past 64 kB, with a
 * savepoint released and one rolled back; aborted large transactions; prepared transactions committed or rolled back,
 * small and large). Each thread reconnects when its connection breaks (PostgreSQL restarts under it) and then ends
 * the prepared transactions it left behind, as their GID says. Transactions are tagged as {@link Schema} describes.
 */
final class Workload {

    static final String GID_PREFIX = "soak-";
    private static final long ALTER_EVERY_MS = 45_000;

    private final SoakServices services;
    private final long seed;
    private final Consumer<String> log;
    private final AtomicLong nextTx = new AtomicLong(1);
    private final Map<String, LongAdder> attempts = new ConcurrentHashMap<>();
    private final Map<String, LongAdder> acknowledged = new ConcurrentHashMap<>();
    private final LongAdder failures = new LongAdder();
    private final LongAdder reconnects = new LongAdder();
    private final Set<String> preparedGids = new ConcurrentSkipListSet<>();
    private final Map<String, Long> outcomeBounds = new ConcurrentHashMap<>();
    private final List<Thread> threads = new ArrayList<>();
    private volatile boolean stopping;

    Workload(SoakServices services, long seed, Consumer<String> log) {
        this.services = services;
        this.seed = seed;
        this.log = log;
    }

    void start() {
        threads.add(new Thread(() -> loop(0, true), "soak-small"));
        threads.add(new Thread(() -> loop(1, false), "soak-large-1"));
        threads.add(new Thread(() -> loop(2, false), "soak-large-2"));
        threads.forEach(Thread::start);
    }

    /** GIDs whose PREPARE TRANSACTION is known to have succeeded. */
    Set<String> preparedGids() {
        return preparedGids;
    }

    /**
     * GID -> a WAL position read after its COMMIT or ROLLBACK PREPARED returned, so at or past the end of that record.
     * A GID missing here ended without the workload learning where (a broken connection).
     */
    Map<String, Long> outcomeBounds() {
        return outcomeBounds;
    }

    long nextTransactionId() {
        return nextTx.getAndIncrement();
    }

    /** Kind -> transactions begun, and -> COMMIT (or COMMIT/ROLLBACK PREPARED) acknowledged by the server. */
    String summary() {
        StringBuilder text = new StringBuilder();
        new TreeMap<>(attempts).forEach((kind, n) -> text.append(String.format("    %-24s %8d begun %8d acknowledged%n",
                kind, n.sum(), acknowledged.getOrDefault(kind, new LongAdder()).sum())));
        text.append(String.format("    statement failures %d, reconnects %d%n", failures.sum(), reconnects.sum()));
        return text.toString();
    }

    /** Stops the threads after their current transaction and ends every prepared transaction left behind. */
    void stop() throws InterruptedException {
        stopping = true;
        for (Thread thread : threads) {
            thread.join(120_000);
        }
        for (int attempt = 0; ; attempt++) {
            try (Connection connection = services.connect()) {
                resolveLeftovers(connection, GID_PREFIX);
                return;
            } catch (SQLException e) {
                if (attempt == 300) {
                    throw new IllegalStateException("cannot end the workload's prepared transactions: " + e, e);
                }
                Thread.sleep(1000);
            }
        }
    }

    private void loop(int index, boolean small) {
        Random random = new Random(seed * 31 + index);
        String gidPrefix = GID_PREFIX + index + "-";
        Connection connection = null;
        long nextAlter = System.currentTimeMillis() + ALTER_EVERY_MS;
        while (!stopping) {
            try {
                if (connection == null) {
                    connection = services.connect();
                    // A prepared transaction left behind holds its row locks: never wait on one for ever.
                    execute(connection, "SET lock_timeout = '20s'");
                    resolveLeftovers(connection, gidPrefix);
                }
                if (small) {
                    if (System.currentTimeMillis() >= nextAlter) {
                        nextAlter = System.currentTimeMillis() + ALTER_EVERY_MS;
                        alter(connection);
                    } else {
                        small(connection, random);
                    }
                    Thread.sleep(10 + random.nextInt(30));
                } else {
                    large(connection, random, index, gidPrefix);
                    Thread.sleep(300 + random.nextInt(1200));
                }
            } catch (SQLException e) {
                failures.increment();
                connection = afterFailure(connection, gidPrefix);
            } catch (InterruptedException e) {
                return;
            }
        }
        close(connection);
    }

    private void small(Connection connection, Random random) throws SQLException {
        int dice = random.nextInt(100);
        String kind = dice < 5 ? "small-aborted" : dice < 10 ? "small-savepoint" : "small";
        long tx = begin(connection, kind);
        List<String> extras = extraColumns(connection);
        String marker = kind.equals("small-aborted") ? Schema.DOOMED : Schema.OK;
        smallChanges(connection, random, tx, marker, extras, 1 + random.nextInt(4));
        if (kind.equals("small-savepoint")) {
            execute(connection, "SAVEPOINT s");
            smallChanges(connection, random, tx, Schema.DOOMED, extras, 1 + random.nextInt(3));
            execute(connection, "ROLLBACK TO SAVEPOINT s");
            smallChanges(connection, random, tx, Schema.OK, extras, 1);
        }
        ledger(connection, tx, kind, null, marker);
        end(connection, kind, kind.equals("small-aborted") ? "ROLLBACK" : "COMMIT");
    }

    private void smallChanges(Connection connection, Random random, long tx, String marker, List<String> extras,
                              int count) throws SQLException {
        for (int i = 0; i < count; i++) {
            long id = random.nextInt(Schema.SMALL_ROWS);
            if (random.nextInt(100) < 15) {
                execute(connection, "DELETE FROM soak_small WHERE id = " + id);
                continue;
            }
            try (PreparedStatement upsert = connection.prepareStatement("INSERT INTO soak_small (id, tx, marker, note) "
                    + "VALUES (?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET tx = excluded.tx, marker = excluded.marker, "
                    + "note = excluded.note")) {
                upsert.setLong(1, id);
                upsert.setLong(2, tx);
                upsert.setString(3, marker);
                upsert.setString(4, "note " + random.nextInt(1_000_000));
                upsert.executeUpdate();
            }
            if (!extras.isEmpty() && random.nextBoolean()) {
                String column = extras.get(random.nextInt(extras.size()));
                execute(connection, "UPDATE soak_small SET " + column + " = '" + column + " of " + tx + "' WHERE id = " + id);
            }
        }
    }

    private void alter(Connection connection) throws SQLException {
        long tx = begin(connection, "alter");
        execute(connection, "SET LOCAL lock_timeout = '5s'");
        execute(connection, "ALTER TABLE soak_small ADD COLUMN extra_" + tx + " text");
        ledger(connection, tx, "alter", null, Schema.OK);
        end(connection, "alter", "COMMIT");
        log.accept("workload: ALTER TABLE soak_small ADD COLUMN extra_" + tx);
    }

    private void large(Connection connection, Random random, int index, String gidPrefix) throws SQLException {
        long base = (long) (index - 1) * Schema.LARGE_ROWS_PER_THREAD;
        int dice = random.nextInt(100);
        if (dice < 45) {
            long tx = begin(connection, "large");
            upsertRange(connection, random, base, tx, Schema.OK);
            execute(connection, "SAVEPOINT kept");
            upsertRange(connection, random, base, tx, Schema.OK);
            execute(connection, "RELEASE SAVEPOINT kept");
            execute(connection, "SAVEPOINT dropped");
            upsertRange(connection, random, base, tx, Schema.DOOMED);
            long from = base + random.nextInt(Schema.LARGE_ROWS_PER_THREAD - 50);
            execute(connection, "DELETE FROM soak_large WHERE id BETWEEN " + from + " AND " + (from + 30));
            execute(connection, "ROLLBACK TO SAVEPOINT dropped");
            upsertRange(connection, random, base, tx, Schema.OK);
            from = base + random.nextInt(Schema.LARGE_ROWS_PER_THREAD - 50);
            execute(connection, "DELETE FROM soak_large WHERE id BETWEEN " + from + " AND " + (from + 10));
            ledger(connection, tx, "large", null, Schema.OK);
            end(connection, "large", "COMMIT");
        } else if (dice < 60) {
            long tx = begin(connection, "large-aborted");
            upsertRange(connection, random, base, tx, Schema.DOOMED);
            upsertRange(connection, random, base, tx, Schema.DOOMED);
            ledger(connection, tx, "large-aborted", null, Schema.DOOMED);
            end(connection, "large-aborted", "ROLLBACK");
        } else {
            boolean commit = random.nextBoolean();
            boolean big = random.nextBoolean();
            String kind = "prepared-" + (big ? "large-" : "small-") + (commit ? "commit" : "rollback");
            String marker = commit ? Schema.OK : Schema.PREPARED_ROLLBACK;
            long tx = begin(connection, kind);
            String gid = gidPrefix + tx + (commit ? "-commit" : "-rollback");
            if (big) {
                upsertRange(connection, random, base, tx, marker);
            } else {
                upsertRows(connection, base + random.nextInt(Schema.LARGE_ROWS_PER_THREAD - 5), 1 + random.nextInt(4),
                        tx, marker);
            }
            if (random.nextInt(3) == 0) {
                execute(connection, "SAVEPOINT dropped");
                upsertRows(connection, base + random.nextInt(Schema.LARGE_ROWS_PER_THREAD - 5), 3, tx, Schema.DOOMED);
                execute(connection, "ROLLBACK TO SAVEPOINT dropped");
            }
            ledger(connection, tx, kind, gid, marker);
            execute(connection, "PREPARE TRANSACTION '" + gid + "'");
            preparedGids.add(gid);
            try {
                Thread.sleep(random.nextInt(300));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            end(connection, kind, (commit ? "COMMIT PREPARED '" : "ROLLBACK PREPARED '") + gid + "'");
            recordOutcomeBound(connection, gid);
        }
    }

    /** 150 to 400 rows of ~300 bytes: three of them make a transaction well past logical_decoding_work_mem. */
    private static void upsertRange(Connection connection, Random random, long base, long tx, String marker)
            throws SQLException {
        int count = 150 + random.nextInt(250);
        upsertRows(connection, base + random.nextInt(Schema.LARGE_ROWS_PER_THREAD - count), count, tx, marker);
    }

    private static void upsertRows(Connection connection, long from, int count, long tx, String marker)
            throws SQLException {
        try (PreparedStatement upsert = connection.prepareStatement("INSERT INTO soak_large (id, tx, marker, payload) "
                + "SELECT g, ?, ?, repeat(md5(g::text || ?::text), 8) FROM generate_series(?::bigint, ?::bigint) g "
                + "ON CONFLICT (id) DO UPDATE SET tx = excluded.tx, marker = excluded.marker, "
                + "payload = excluded.payload")) {
            upsert.setLong(1, tx);
            upsert.setString(2, marker);
            upsert.setLong(3, tx);
            upsert.setLong(4, from);
            upsert.setLong(5, from + count - 1);
            upsert.executeUpdate();
        }
    }

    private long begin(Connection connection, String kind) throws SQLException {
        attempts.computeIfAbsent(kind, k -> new LongAdder()).increment();
        execute(connection, "BEGIN");
        return nextTx.getAndIncrement();
    }

    private void end(Connection connection, String kind, String sql) throws SQLException {
        execute(connection, sql);
        acknowledged.computeIfAbsent(kind, k -> new LongAdder()).increment();
    }

    private void recordOutcomeBound(Connection connection, String gid) throws SQLException {
        try (Statement statement = connection.createStatement();
             ResultSet row = statement.executeQuery("SELECT pg_current_wal_insert_lsn()::text")) {
            row.next();
            outcomeBounds.put(gid, Reconciliation.lsn(row.getString(1)));
        }
    }

    private static void ledger(Connection connection, long tx, String kind, String gid, String marker)
            throws SQLException {
        try (PreparedStatement insert = connection.prepareStatement(
                "INSERT INTO soak_tx (tx, kind, gid, marker) VALUES (?, ?, ?, ?)")) {
            insert.setLong(1, tx);
            insert.setString(2, kind);
            insert.setString(3, gid);
            insert.setString(4, marker);
            insert.executeUpdate();
        }
    }

    private static List<String> extraColumns(Connection connection) throws SQLException {
        return Schema.columns(connection, "soak_small").stream().filter(c -> c.startsWith("extra_")).toList();
    }

    /**
     * Ends the prepared transactions named {@code prefix}* that a broken connection left behind: PREPARE may have
     * succeeded without the client hearing it, and COMMIT/ROLLBACK PREPARED may not have run.
     */
    private void resolveLeftovers(Connection connection, String prefix) throws SQLException {
        List<String> gids = new ArrayList<>();
        try (Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("SELECT gid FROM pg_prepared_xacts WHERE gid LIKE '" + prefix
                     + "%' AND database = current_database()")) {
            while (rows.next()) {
                gids.add(rows.getString(1));
            }
        }
        for (String gid : gids) {
            preparedGids.add(gid);
            execute(connection, (gid.endsWith("-commit") ? "COMMIT PREPARED '" : "ROLLBACK PREPARED '") + gid + "'");
            recordOutcomeBound(connection, gid);
            log.accept("workload: ended prepared transaction " + gid + " left behind by a broken connection");
        }
    }

    private Connection afterFailure(Connection connection, String gidPrefix) {
        if (connection == null) {
            sleepQuietly(200);
            return null;
        }
        try {
            if (connection.isValid(5)) {
                execute(connection, "ROLLBACK");
                resolveLeftovers(connection, gidPrefix);
                return connection;
            }
        } catch (SQLException broken) {
            // fall through: a new connection
        }
        close(connection);
        reconnects.increment();
        sleepQuietly(200);
        return null;
    }

    private static void execute(Connection connection, String sql) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }

    private static void close(Connection connection) {
        if (connection == null) {
            return;
        }
        try {
            connection.close();
        } catch (SQLException ignored) {
            // the connection is broken already
        }
    }

    private static void sleepQuietly(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
