package io.github.pgoutput.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

import io.github.pgoutput.localrun.LocalPostgres;

/**
 * The workloads of issue 7, all on one table {@code public.bench (id bigserial PRIMARY KEY, v text, n numeric,
 * ts timestamptz, flag boolean)} whose rows are ~150 bytes (v is 96 characters). W5 is the snapshot of a filled table:
 * its "workload" is the connector itself; W6 the incremental snapshot of the same table, on signal; W7 that of a
 * smaller table while its rows change.
 */
enum Workload {
    /** 1,000,000 inserts in one transaction. */
    W1(1_000_000, "inserts in one transaction"),
    /** 100,000 one-row transactions from 4 pgbench clients. */
    W2(100_000, "one-row insert transactions from 4 pgbench clients"),
    /** 200,000 updates in 1,000-row transactions (of a table filled before the slot exists). */
    W3(200_000, "updates in 1,000-row transactions"),
    /** One 5,000,000-row insert transaction; logical_decoding_work_mem=64MB, so PostgreSQL streams or spills it. */
    W4(5_000_000, "inserts in one transaction, logical_decoding_work_mem=64MB"),
    /** Snapshot of a 5,000,000-row table. */
    W5(5_000_000, "rows snapshotted"),
    /**
     * Incremental snapshot of the W5 table by a streaming connector ({@code snapshot.mode=no_data}), asked for with an
     * {@code execute-snapshot} message on the Kafka signal topic (read-only: nothing is written to the database).
     */
    W6(5_000_000, "rows of an incremental snapshot signalled through Kafka"),
    /**
     * W6 under load (issue 18): the incremental snapshot of a 1,000,000-row table, signalled through Kafka while
     * {@link ConcurrentChanges} updates, deletes and inserts rows, and measured until the table rebuilt from the topic
     * equals the database's ({@link TableRebuild}).
     */
    W7(1_000_000, "rows of an incremental snapshot signalled through Kafka while rows change");

    static final String TABLE_DDL = "CREATE TABLE public.bench (id bigserial PRIMARY KEY, v text, n numeric, "
            + "ts timestamptz, flag boolean)";
    static final String PUBLICATION = "bench_pub";
    static final String COLUMNS = "id, v, n, ts, flag";

    final int defaultRows;
    final String description;

    Workload(int defaultRows, String description) {
        this.defaultRows = defaultRows;
        this.description = description;
    }

    boolean snapshot() {
        return this == W5;
    }

    /** The workload reads a filled table (initial or incremental snapshot): COPY is its limit, not pg_recvlogical. */
    boolean readsTable() {
        return this == W5 || this == W6 || this == W7;
    }

    /** An incremental snapshot asked for on the Kafka signal topic. */
    boolean signalled() {
        return this == W6 || this == W7;
    }

    /**
     * Brings the table into the state every leg of this workload starts from: empty for the insert workloads, filled
     * (and frozen) for W3 and W5. Runs before the connector's slot exists, so none of it is streamed.
     */
    void prepareTable(LocalPostgres pg, int rows) throws SQLException {
        try (Connection connection = pg.connect(); Statement statement = connection.createStatement()) {
            statement.execute("TRUNCATE public.bench RESTART IDENTITY");
            if (this == W3 || readsTable()) {
                statement.execute(insertSql(rows));
                // The rows carry their ids: the sequence goes past them so that W7's inserts take new ones.
                statement.execute("SELECT setval('public.bench_id_seq', " + rows + ")");
                statement.execute("VACUUM (FREEZE, ANALYZE) public.bench");
            }
            statement.execute("CHECKPOINT");
        }
    }

    /**
     * Resets what a leg changed (the inserted rows of W1, W2, W4; W7's changed table is filled again), then a
     * checkpoint so no leg inherits one.
     */
    void resetBetweenLegs(LocalPostgres pg, int rows) throws SQLException {
        if (this == W7) {
            prepareTable(pg, rows);
            return;
        }
        try (Connection connection = pg.connect(); Statement statement = connection.createStatement()) {
            if (this == W1 || this == W2 || this == W4) {
                statement.execute("TRUNCATE public.bench RESTART IDENTITY");
            }
            statement.execute("CHECKPOINT");
        }
    }

    /**
     * Runs the workload and returns {@link System#nanoTime()} right after its last COMMIT returned. W5 has no
     * workload of its own.
     */
    long run(LocalPostgres pg, int rows, Path clientBin, Path workDir) throws SQLException, IOException,
            InterruptedException {
        switch (this) {
            case W1, W4 -> {
                try (Connection connection = pg.connect(); Statement statement = connection.createStatement()) {
                    statement.execute(insertSql(rows));
                }
            }
            case W2 -> runPgbench(pg, rows, clientBin, workDir);
            case W3 -> {
                int transactions = rows / 1000;
                try (Connection connection = pg.connect(); Statement statement = connection.createStatement()) {
                    // A procedure-style DO block may COMMIT between statements when it is not inside a transaction.
                    statement.execute("DO $$ BEGIN FOR i IN 0.." + (transactions - 1) + " LOOP "
                            + "UPDATE public.bench SET n = n + 1, ts = ts + interval '1 s' "
                            + "WHERE id > i * 1000 AND id <= (i + 1) * 1000; COMMIT; END LOOP; END $$");
                }
            }
            case W5, W6, W7 -> throw new IllegalStateException(this + " has no workload: the snapshot is the connector's own");
        }
        return System.nanoTime();
    }

    private static String insertSql(int rows) {
        return "INSERT INTO public.bench (" + COLUMNS + ") SELECT g, repeat(md5(g::text), 3), g / 7.0, "
                + "timestamptz '2026-01-01' + g * interval '1 s', g % 2 = 0 FROM generate_series(1, " + rows + ") g";
    }

    private static void runPgbench(LocalPostgres pg, int rows, Path clientBin, Path workDir) throws IOException,
            InterruptedException {
        Path script = workDir.resolve("w2.sql");
        Files.writeString(script, "INSERT INTO public.bench (v, n, ts, flag) VALUES (repeat(md5(random()::text), 3), "
                + "random() * 1000, now(), random() < 0.5);\n");
        int clients = 4;
        Process pgbench = new ProcessBuilder(List.of(clientBin.resolve("pgbench").toString(), "-n", "-h", pg.host,
                "-p", String.valueOf(pg.port), "-U", pg.user, "-c", String.valueOf(clients), "-j", "2",
                "-t", String.valueOf(rows / clients), "-f", script.toString(), pg.database))
                .redirectErrorStream(true).redirectOutput(workDir.resolve("pgbench.log").toFile()).start();
        if (pgbench.waitFor() != 0) {
            throw new IllegalStateException("pgbench failed (exit " + pgbench.exitValue() + "); see "
                    + workDir.resolve("pgbench.log"));
        }
    }
}
