package io.github.pgoutput.parity;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.github.pgoutput.testing.Nightly;
import io.github.pgoutput.testing.PostgresDatabase;
import io.github.pgoutput.testing.PostgresTest;
import io.github.pgoutput.testing.kafka.ConnectWorkerCluster;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The long variants of {@link DownstreamClientsIT}'s JDBC-sink replica: every column type the sink supports, two-phase
 * transactions staged by our connector ({@code prepared.transaction.mode=stage}), and unchanged TOAST values. Each
 * replica must equal its source row by row ({@link ReplicaComparison}).
 *
 * <p>On PostgreSQL 17 only, in the nightly matrix too: what is compared does not depend on the server's version,
 * and its connectors' names, whose offsets Connect keeps after they are deleted, are not per version.
 */
@Nightly
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class JdbcSinkReplicaNightlyIT {

    private static final Duration WAIT = Duration.ofSeconds(120);

    @RegisterExtension
    static final ConnectWorkerCluster connect = ConnectWorkerCluster.withWorkers(1)
            .workerProperty("plugin.path", PluginFolders.pluginPath(PluginFolders.debezium(), PluginFolders.jdbcSink()));

    /**
     * One column per PostgreSQL type whose record schema the sink maps to a column type (its documentation's tables of
     * Kafka Connect, Debezium and PostgreSQL-dialect logical types, and its PostgreSQL dialect's types), in a snapshot
     * row and streamed inserts, updates and deletes. The types it does not replicate equal are in
     * {@link SinkColumnTypes#NOT_EQUAL}, each with the reason, and are checked to stay so.
     */
    @PostgresTest(minVersion = 17, maxVersion = 17)
    void everyColumnTypeTheSinkSupportsIsReplicatedEqual(PostgresDatabase db) {
        PostgresDatabase replica = JdbcSink.replicaOf(db);
        Sql.run(db, SinkColumnTypes.SOURCE_SETUP);
        Sql.run(replica, SinkColumnTypes.REPLICA_SETUP);
        Sql.run(db, SinkColumnTypes.createTable("types", SinkColumnTypes.EQUAL), SinkColumnTypes.createTable("lossy", SinkColumnTypes.NOT_EQUAL),
                "CREATE TABLE marker (id int PRIMARY KEY)", "INSERT INTO marker VALUES (0)");
        Sql.run(db, SinkColumnTypes.rows("types", SinkColumnTypes.EQUAL, 1, 2));
        Sql.run(db, SinkColumnTypes.rows("lossy", SinkColumnTypes.NOT_EQUAL, 1, 2));
        String prefix = "types_sink";
        JdbcSink.startWithSource(connect, SourceConfigs.of(SourceConfigs.OURS, db, prefix, "public\\..*"), db, replica, WAIT);
        try {
            Sql.run(db, SinkColumnTypes.rows("types", SinkColumnTypes.EQUAL, 3, 6), SinkColumnTypes.rows("lossy", SinkColumnTypes.NOT_EQUAL, 3, 4),
                    "UPDATE types SET " + SinkColumnTypes.copyFrom("types", SinkColumnTypes.EQUAL, 5) + " WHERE id = 1",
                    "UPDATE types SET " + SinkColumnTypes.nulls(SinkColumnTypes.EQUAL) + " WHERE id = 3",
                    "DELETE FROM types WHERE id = 6",
                    "INSERT INTO marker VALUES (1)");

            ReplicaComparison.Result types = JdbcSink.awaitReplicated(connect, prefix + "_sink", prefix, prefix, db, replica,
                    List.of("types", "marker"), "marker", 1, WAIT);
            ReplicaComparison.Result lossy = ReplicaComparison.compare(db, replica, List.of("lossy"));
            System.out.println("JDBC sink replica, every column type:\n" + types.describe() + "Types not replicated equal:\n"
                    + lossy.describe());

            assertThat(types.equal()).as("replica equals source:\n%s", types.describe()).isTrue();
            assertThat(types.tables().get(0).columns()).isEqualTo(SinkColumnTypes.EQUAL.size() + 1);
            for (SinkColumnTypes.ColumnType type : SinkColumnTypes.NOT_EQUAL) {
                assertThat(lossy.tables().get(0).differences()).as("%s is still replicated unequal (%s)", type.type(), type.why())
                        .anyMatch(d -> d.contains("column " + type.column() + " "));
            }
        } finally {
            connect.deleteConnector(prefix + "_sink");
            connect.deleteConnector(prefix);
        }
    }

    /**
     * {@code prepared.transaction.mode=stage}: a prepared transaction's changes reach the table topics at PREPARE, with
     * {@code pg.outcome=PREPARED}, and its outcome follows on the transaction topic (README, "Two-phase transactions"),
     * which a consumer must act on. The JDBC sink reads only the table topics and ignores headers, so it applies the
     * changes of a transaction that is then rolled back: the replica keeps rows the source never committed. This is why
     * docs/downstream.md says to keep the default {@code prepared.transaction.mode=fail} with this sink (with it the
     * replica is equal: DownstreamClientsIT); this test pins what stage mode does to such a sink, so that the advice is
     * revisited if it ever changes.
     */
    @PostgresTest(minVersion = 17, maxVersion = 17)
    void stageModeWithASinkThatIgnoresOutcomesLeavesTheRolledBackTransactionsChangesInTheReplica(PostgresDatabase db) {
        PostgresDatabase replica = JdbcSink.replicaOf(db);
        Sql.run(db, "CREATE TABLE orders (id int PRIMARY KEY, v text)", "CREATE TABLE marker (id int PRIMARY KEY)",
                "INSERT INTO orders VALUES (1, 'one'), (2, 'two')", "INSERT INTO marker VALUES (0)");
        String prefix = "stage_sink";
        Map<String, String> source = SourceConfigs.of(SourceConfigs.OURS, db, prefix, "public\\..*");
        source.put("prepared.transaction.mode", "stage");
        source.put("provide.transaction.metadata", "true");
        JdbcSink.startWithSource(connect, source, db, replica, WAIT);
        try {
            Sql.run(db,
                    "BEGIN; INSERT INTO orders VALUES (10, 'prepared, committed'); UPDATE orders SET v = 'one, updated' WHERE id = 1;"
                            + " PREPARE TRANSACTION 'stage_commit'",
                    "COMMIT PREPARED 'stage_commit'",
                    "BEGIN; INSERT INTO orders VALUES (20, 'prepared, rolled back'); DELETE FROM orders WHERE id = 2;"
                            + " UPDATE orders SET v = 'rolled back' WHERE id = 10; PREPARE TRANSACTION 'stage_rollback'",
                    "ROLLBACK PREPARED 'stage_rollback'",
                    "INSERT INTO marker VALUES (1)");

            ReplicaComparison.Result result = JdbcSink.awaitReplicated(connect, prefix + "_sink", prefix, prefix, db, replica,
                    List.of("orders", "marker"), "marker", 1, WAIT);
            System.out.println("JDBC sink replica, two-phase transactions staged:\n" + result.describe());
            assertThat(result.equal()).as("replica differs from the source:\n%s", result.describe()).isFalse();
            assertThat(replica.queryValue("SELECT v FROM orders WHERE id = 20"))
                    .as("the rolled-back insert applied at PREPARE").isEqualTo("prepared, rolled back");
            assertThat(replica.queryValue("SELECT v FROM orders WHERE id = 1"))
                    .as("the committed update applied").isEqualTo("one, updated");
        } finally {
            connect.deleteConnector(prefix + "_sink");
            connect.deleteConnector(prefix);
        }
    }

    /**
     * An UPDATE of another column of a row whose large text column is stored out of line (TOAST) and unchanged: without
     * REPLICA IDENTITY FULL, PostgreSQL does not send the unchanged value, and Debezium's records carry the placeholder
     * {@code __debezium_unavailable_value}, which the sink writes into the replica. Ours, with
     * {@code unchanged.toast.resolution=store}, carries the value the store holds from the initial snapshot, and the
     * replica equals the source. Debezium 3.7.1 (without its reselect post processor) runs the same pipeline into a
     * replica of its own, which keeps the placeholder.
     */
    @Nightly
    @PostgresTest(minVersion = 17, maxVersion = 17)
    void unchangedToastValueIsReplicatedEqual(PostgresDatabase db) {
        PostgresDatabase oursReplica = JdbcSink.replicaOf(db, "ours");
        PostgresDatabase debeziumReplica = JdbcSink.replicaOf(db, "dbz");
        Sql.run(db, "CREATE TABLE docs (id int PRIMARY KEY, title text, body text)", "CREATE TABLE marker (id int PRIMARY KEY)",
                // 20 kB of md5 text per row: incompressible enough to be stored out of line
                "INSERT INTO docs SELECT g, 'title ' || g, (SELECT string_agg(md5(g::text || i::text), '') FROM generate_series(1, 640) i)"
                        + " FROM generate_series(1, 3) g",
                "INSERT INTO marker VALUES (0)");
        assertThat(db.queryValue("SELECT pg_column_size(body) > 2000 FROM docs WHERE id = 1")).as("body stored out of line").isEqualTo("t");
        Map<String, PostgresDatabase> replicas = Map.of("toast_ours", oursReplica, "toast_dbz", debeziumReplica);
        Map<String, String> ours = SourceConfigs.of(SourceConfigs.OURS, db, "toast_ours", "public\\..*");
        // The store is fed by the initial snapshot's rows, so the update's unchanged body is known without a query.
        ours.put("unchanged.toast.resolution", "store");
        JdbcSink.startWithSource(connect, ours, db, oursReplica, WAIT);
        JdbcSink.startWithSource(connect, SourceConfigs.of(SourceConfigs.DEBEZIUM, db, "toast_dbz", "public\\..*"), db,
                debeziumReplica, WAIT);
        try {
            Sql.run(db, "UPDATE docs SET title = 'changed title' WHERE id IN (1, 2)", "INSERT INTO marker VALUES (1)");

            Map<String, ReplicaComparison.Result> results = new java.util.TreeMap<>();
            replicas.forEach((prefix, replica) -> results.put(prefix, JdbcSink.awaitReplicated(connect, prefix + "_sink", prefix,
                    prefix, db, replica, List.of("docs", "marker"), "marker", 1, WAIT)));
            results.forEach((prefix, result) -> System.out.println("JDBC sink replica, unchanged TOAST, source " + prefix + ":\n"
                    + result.describe() + "replica body of row 1 starts: "
                    + replicas.get(prefix).queryValue("SELECT left(body, 40) FROM docs WHERE id = 1")));

            assertThat(results.get("toast_ours").equal()).as("our replica equals source:\n%s", results.get("toast_ours").describe())
                    .isTrue();
            // Debezium, without its reselect post processor, writes its placeholder into the replica.
            assertThat(debeziumReplica.queryValue("SELECT body FROM docs WHERE id = 1")).as("Debezium's replica")
                    .isEqualTo("__debezium_unavailable_value");
        } finally {
            for (String prefix : replicas.keySet()) {
                connect.deleteConnector(prefix + "_sink");
                connect.deleteConnector(prefix);
            }
        }
    }
}
