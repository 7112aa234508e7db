package io.github.pgoutput.soak;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * The soak's tables. Every workload transaction writes one row of {@code soak_tx} (its id and kind), so the ledger
 * tells which transactions committed however their client connection ended. Every changed row carries the id of the
 * transaction that wrote it ({@code tx}) and a {@code marker}: {@value #OK} for a change that commits,
 * {@value #DOOMED} for one that is rolled back (aborted transaction or rolled-back savepoint: it must never reach
 * Kafka), {@value #PREPARED_ROLLBACK} for one of a prepared transaction that ROLLBACK PREPARED ends (it may reach
 * Kafka only as PREPARED).
 */
final class Schema {

    static final String PUBLICATION = "soak_pub";
    static final List<String> TABLES = List.of("soak_tx", "soak_small", "soak_large");
    static final String OK = "ok";
    static final String DOOMED = "doomed";
    static final String PREPARED_ROLLBACK = "prep-rollback";
    /** Ids of soak_small are 0 .. SMALL_ROWS - 1. */
    static final int SMALL_ROWS = 2000;
    /** Each large-transaction thread upserts its own slice of this many ids of soak_large, so they never deadlock. */
    static final int LARGE_ROWS_PER_THREAD = 10_000;

    void create(Statement statement) throws SQLException {
        statement.execute("CREATE TABLE soak_tx (tx bigint PRIMARY KEY, kind text NOT NULL, gid text, "
                + "marker text NOT NULL)");
        statement.execute("CREATE TABLE soak_small (id bigint PRIMARY KEY, tx bigint NOT NULL, marker text NOT NULL, "
                + "note text)");
        statement.execute("CREATE TABLE soak_large (id bigint PRIMARY KEY, tx bigint NOT NULL, marker text NOT NULL, "
                + "payload text NOT NULL)");
        statement.execute("CREATE PUBLICATION " + PUBLICATION + " FOR TABLE " + String.join(", ", TABLES));
    }

    /** The table's columns in ordinal order; the first is {@code id} or {@code tx}, its key. */
    static List<String> columns(Connection connection, String table) throws SQLException {
        List<String> columns = new ArrayList<>();
        try (Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("SELECT attname FROM pg_attribute WHERE attrelid = '" + table
                     + "'::regclass AND attnum > 0 AND NOT attisdropped ORDER BY attnum")) {
            while (rows.next()) {
                columns.add(rows.getString(1));
            }
        }
        return columns;
    }

    static String topic(String table) {
        return SoakServices.TOPIC_PREFIX + ".public." + table;
    }

    static String transactionTopic() {
        return SoakServices.TOPIC_PREFIX + ".transaction";
    }
}
