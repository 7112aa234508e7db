package io.github.pgoutput.localrun;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.function.Consumer;

/**
 * The {@code --demo} workload on the tables of {@code config/postgres-init.sql}, one step per capability: small
 * transactions; a large transaction (over {@code logical_decoding_work_mem}, so streamed and spilled) with a
 * rolled-back savepoint whose rows never reach Kafka; a prepared transaction committed and one rolled back.
 * Rows it writes are marked so a reader can tell them apart: the rolled-back savepoint's products are
 * {@value #ROLLED_BACK_PRODUCT}. The caller says when it is done (and what the user can do next).
 */
final class DemoWorkload {

    static final String ROLLED_BACK_PRODUCT = "demo-savepoint-rolled-back";
    static final String COMMITTED_GID = "demo-prepared-commit";
    static final String ROLLED_BACK_GID = "demo-prepared-rollback";
    /** Rows of the large transaction kept, and rows of its rolled-back savepoint. */
    static final int LARGE_ROWS = 1000;
    static final int SAVEPOINT_ROWS = 200;

    private final LocalPostgres postgres;
    private final Consumer<String> log;

    DemoWorkload(LocalPostgres postgres, Consumer<String> log) {
        this.postgres = postgres;
        this.log = log;
    }

    void run() throws SQLException, InterruptedException {
        try (Connection connection = postgres.connect(); Statement statement = connection.createStatement()) {
            smallTransactions(statement);
            largeTransaction(connection);
            preparedTransactions(connection, statement);
        }
    }

    private void smallTransactions(Statement statement) throws SQLException, InterruptedException {
        log.accept("demo: small transactions (insert, update, delete)");
        for (int i = 1; i <= 5; i++) {
            statement.execute("INSERT INTO public.customers (name, email) VALUES ('Demo " + i + "', 'demo" + i
                    + "-' || gen_random_uuid() || '@example.com')");
            Thread.sleep(400);
        }
        statement.execute("UPDATE public.orders SET status = 'paid' WHERE id = 1");
        statement.execute("DELETE FROM public.order_lines WHERE order_id = 1 AND line_no = 2");
    }

    private void largeTransaction(Connection connection) throws SQLException, InterruptedException {
        log.accept("demo: large transaction, " + LARGE_ROWS + " rows kept and " + SAVEPOINT_ROWS
                + " rolled back to a savepoint (streamed by the server, spilled by the connector)");
        connection.setAutoCommit(false);
        try (Statement statement = connection.createStatement()) {
            long order;
            try (ResultSet rows = statement.executeQuery(
                    "INSERT INTO public.orders (customer_id, status, total) VALUES (2, 'bulk', 0) RETURNING id")) {
                rows.next();
                order = rows.getLong(1);
            }
            // In slices with pauses, so the live view can show the spill growing while the transaction is open.
            int line = 0;
            for (int slice = 0; slice < 10; slice++) {
                insertLines(connection, order, line, LARGE_ROWS / 20, "bulk item");
                line += LARGE_ROWS / 20;
                Thread.sleep(300);
            }
            statement.execute("SAVEPOINT demo_savepoint");
            insertLines(connection, order, line, SAVEPOINT_ROWS, ROLLED_BACK_PRODUCT);
            statement.execute("ROLLBACK TO SAVEPOINT demo_savepoint");
            for (int slice = 0; slice < 10; slice++) {
                insertLines(connection, order, line, LARGE_ROWS / 20, "bulk item");
                line += LARGE_ROWS / 20;
                Thread.sleep(300);
            }
            connection.commit();
        } finally {
            connection.setAutoCommit(true);
        }
    }

    private static void insertLines(Connection connection, long order, int from, int count, String product)
            throws SQLException {
        try (PreparedStatement insert = connection.prepareStatement("INSERT INTO public.order_lines "
                + "(order_id, line_no, product, quantity, price) VALUES (?, ?, ? || repeat('.', 120), 1, 1.00)")) {
            for (int i = 1; i <= count; i++) {
                insert.setLong(1, order);
                insert.setInt(2, from + i);
                insert.setString(3, product);
                insert.addBatch();
            }
            insert.executeBatch();
        }
    }

    private void preparedTransactions(Connection connection, Statement statement)
            throws SQLException, InterruptedException {
        try (ResultSet rows = statement.executeQuery("SHOW max_prepared_transactions")) {
            rows.next();
            if (rows.getInt(1) == 0) {
                log.accept("demo: prepared transactions SKIPPED: the server has max_prepared_transactions=0 "
                        + "(set it above 0 and restart PostgreSQL to see PREPARED/COMMITTED/ROLLED_BACK)");
                return;
            }
        }
        log.accept("demo: prepared transaction '" + COMMITTED_GID + "' then COMMIT PREPARED");
        prepare(connection, COMMITTED_GID, "Prepared Then Committed");
        Thread.sleep(1000);
        statement.execute("COMMIT PREPARED '" + COMMITTED_GID + "'");
        log.accept("demo: prepared transaction '" + ROLLED_BACK_GID + "' then ROLLBACK PREPARED");
        prepare(connection, ROLLED_BACK_GID, "Prepared Then Rolled Back");
        Thread.sleep(1000);
        statement.execute("ROLLBACK PREPARED '" + ROLLED_BACK_GID + "'");
    }

    private static void prepare(Connection connection, String gid, String name) throws SQLException {
        connection.setAutoCommit(false);
        try (Statement statement = connection.createStatement()) {
            statement.execute("INSERT INTO public.customers (name, email) VALUES ('" + name + "', '" + gid
                    + "-' || gen_random_uuid() || '@example.com')");
            statement.execute("PREPARE TRANSACTION '" + gid + "'");
        } finally {
            // PREPARE TRANSACTION ended the transaction; the session is free again.
            connection.setAutoCommit(true);
        }
    }
}
