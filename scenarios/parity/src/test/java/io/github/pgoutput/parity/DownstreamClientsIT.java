package io.github.pgoutput.parity;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.github.pgoutput.testing.PostgresDatabase;
import io.github.pgoutput.testing.PostgresTest;
import io.github.pgoutput.testing.kafka.ConnectWorkerCluster;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The every-build core of "real downstream clients" (issue 36): our records through the consumers Debezium users run,
 * on one real Connect worker whose {@code plugin.path} holds Debezium's PostgreSQL connector (and so its SMTs) and
 * Debezium's JDBC sink, with our connector on the class path.
 * <ul>
 *   <li>Debezium's JDBC sink, configured as its documentation recommends for Debezium sources, replicates a source
 *       database into a second database that equals the source row by row after inserts, updates, primary-key
 *       changes, deletes, a truncate, {@code ALTER TABLE ADD COLUMN}, a transaction PostgreSQL streams before its
 *       commit and two-phase transactions (one committed, one rolled back; {@code prepared.transaction.mode=fail}, the
 *       default).</li>
 *   <li>Debezium's outbox {@code EventRouter} routes our records of a Debezium-style outbox table to the same topics
 *       with the same keys, payloads and headers as Debezium's records.</li>
 *   <li>Debezium's {@code ExtractNewRecordState} with added fields, added headers and rewritten deletes gives the same
 *       records for ours as for Debezium's.</li>
 * </ul>
 * The longer variants (every column type, two-phase staging, unchanged TOAST, every SMT option, the real-world
 * configurations deployed) are the nightly {@link JdbcSinkReplicaNightlyIT}, {@link DebeziumSmtsNightlyIT} and
 * {@link DebeziumConfigsDeployNightlyIT}.
 *
 * <p>On PostgreSQL 17 only, in the nightly matrix too: what is compared does not depend on the server's version,
 * and its connectors' names, whose offsets Connect keeps after they are deleted, are not per version.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class DownstreamClientsIT {

    static final String OUTBOX_ROUTER = "io.debezium.transforms.outbox.EventRouter";
    static final String UNWRAP = ParityMode.UNWRAP_TRANSFORM;
    private static final Duration WAIT = Duration.ofSeconds(90);

    @RegisterExtension
    static final ConnectWorkerCluster connect = ConnectWorkerCluster.withWorkers(1)
            .workerProperty("plugin.path", PluginFolders.pluginPath(PluginFolders.debezium(), PluginFolders.jdbcSink()));

    @PostgresTest(minVersion = 17, maxVersion = 17, logicalDecodingWorkMem = "64kB")
    void replicaWrittenByDebeziumsJdbcSinkEqualsTheSourceAfterEveryKindOfChange(PostgresDatabase db) {
        PostgresDatabase replica = JdbcSink.replicaOf(db);
        Sql.run(db,
                "CREATE TABLE items (id int PRIMARY KEY, name text NOT NULL, qty int, price numeric(10,2), tags text[],"
                        + " updated timestamptz, doc jsonb)",
                "CREATE TABLE pairs (a int, b text, v text, PRIMARY KEY (a, b))",
                "CREATE TABLE emptied (id int PRIMARY KEY, v text)",
                "CREATE TABLE marker (id int PRIMARY KEY)",
                "INSERT INTO items SELECT g, 'item ' || g, g, g * 1.25, ARRAY['t' || g, 'u'], '2026-01-01 00:00:00+00'::timestamptz"
                        + " + g * interval '1 hour', jsonb_build_object('g', g) FROM generate_series(1, 50) g",
                "INSERT INTO pairs SELECT g % 5, 'b' || g, 'v' || g FROM generate_series(1, 20) g",
                "INSERT INTO emptied SELECT g, 'e' || g FROM generate_series(1, 10) g",
                "INSERT INTO marker VALUES (0)");
        String prefix = "core_sink";
        JdbcSink.startWithSource(connect, SourceConfigs.of(SourceConfigs.OURS, db, prefix, "public\\..*"), db, replica, WAIT);
        try {
            everyKindOfChange(db, prefix, replica);
        } finally {
            connect.deleteConnector(prefix + "_sink");
            connect.deleteConnector(prefix);
        }
    }

    private static void everyKindOfChange(PostgresDatabase db, String prefix, PostgresDatabase replica) {
        Sql.run(db,
                // inserts and updates
                "INSERT INTO items SELECT g, 'item ' || g, g, g * 0.5, NULL, now(), NULL FROM generate_series(51, 100) g",
                "UPDATE items SET qty = qty + 1, price = price * 2, tags = tags || 'x'::text WHERE id % 3 = 0",
                "UPDATE items SET doc = NULL, name = 'renamed' WHERE id = 7",
                // primary-key changes: a delete of the old key and an insert of the new one
                "UPDATE items SET id = id + 10000 WHERE id IN (5, 6)",
                "UPDATE pairs SET b = b || '-moved' WHERE a = 1",
                // deletes
                "DELETE FROM items WHERE id BETWEEN 10 AND 14",
                "DELETE FROM pairs WHERE a = 2",
                // a truncate, then a row after it
                "TRUNCATE emptied",
                "INSERT INTO emptied VALUES (100, 'after the truncate')",
                // a new column, used by updates and inserts
                "ALTER TABLE items ADD COLUMN note text",
                "UPDATE items SET note = 'note ' || id WHERE id <= 20",
                "INSERT INTO items (id, name, note) VALUES (200, 'with a note', 'new column')",
                // a transaction far beyond logical_decoding_work_mem=64kB: PostgreSQL streams it before its commit
                "BEGIN; INSERT INTO items SELECT g, repeat('streamed ', 20) || g, g, g, NULL, now(), NULL"
                        + " FROM generate_series(300, 2299) g; UPDATE items SET qty = -qty WHERE id BETWEEN 300 AND 799;"
                        + " DELETE FROM items WHERE id BETWEEN 2000 AND 2099; COMMIT",
                // two-phase transactions, one committed and one rolled back
                "BEGIN; INSERT INTO items (id, name) VALUES (5000, 'prepared, committed'); UPDATE items SET qty = 0 WHERE id = 1;"
                        + " PREPARE TRANSACTION 'core_sink_commit'",
                "COMMIT PREPARED 'core_sink_commit'",
                "BEGIN; INSERT INTO items (id, name) VALUES (6000, 'prepared, rolled back'); DELETE FROM items WHERE id = 2;"
                        + " PREPARE TRANSACTION 'core_sink_rollback'",
                "ROLLBACK PREPARED 'core_sink_rollback'",
                "INSERT INTO marker VALUES (1)");

        ReplicaComparison.Result result = JdbcSink.awaitReplicated(connect, prefix + "_sink", prefix, prefix, db, replica,
                List.of("items", "pairs", "emptied", "marker"), "marker", 1, WAIT);
        System.out.println("JDBC sink replica, every kind of change:\n" + result.describe());
        assertThat(result.equal()).as("replica equals source:\n%s", result.describe()).isTrue();
        assertThat(result.rowsCompared()).isEqualTo(Long.parseLong(db.queryValue(
                "SELECT (SELECT count(*) FROM items) + (SELECT count(*) FROM pairs) + (SELECT count(*) FROM emptied) + 2")));
        assertThat(replica.queryValue("SELECT count(*) FROM items WHERE id = 6000 OR id = 2")).as("rolled back").isEqualTo("1");
    }

    @PostgresTest(minVersion = 17, maxVersion = 17)
    void outboxEventRouterGivesTheSameTopicsKeysPayloadsAndHeadersForOursAsForDebezium(PostgresDatabase db) {
        Sql.run(db, OutboxTable.CREATE);
        Map<String, String> router = Map.of(
                "transforms", "outbox",
                "transforms.outbox.type", OUTBOX_ROUTER,
                "transforms.outbox.table.fields.additional.placement", "type:header:eventType");
        SmtComparison.Outcome outcome = SmtComparison.run(connect, db, "core_outbox", "public.outbox", router,
                prefix -> Map.of("transforms.outbox.route.topic.replacement", prefix + ".outbox.${routedByValue}"),
                () -> Sql.run(db, OutboxTable.events(1, 4), "DELETE FROM outbox"),
                4, WAIT);

        assertThat(outcome.debeziumRecords()).as("Debezium's routed records").hasSize(4)
                .allSatisfy(r -> assertThat(r.topic()).matches("dbz_core_outbox\\.outbox\\.(Order|Customer)"));
        assertThat(outcome.unacceptedDifferences()).as(outcome.describe()).isEmpty();
    }

    @PostgresTest(minVersion = 17, maxVersion = 17)
    void extractNewRecordStateWithAddedFieldsHeadersAndRewrittenDeletesGivesTheSameRecordsForOursAsForDebezium(PostgresDatabase db) {
        Sql.run(db, "CREATE TABLE accounts (id int PRIMARY KEY, owner text, balance numeric(12,2), opened date)");
        Map<String, String> unwrap = Map.of(
                "transforms", "unwrap",
                "transforms.unwrap.type", UNWRAP,
                "transforms.unwrap.add.fields", "op,table,lsn,source.ts_ms",
                "transforms.unwrap.add.headers", "db,op",
                "transforms.unwrap.delete.tombstone.handling.mode", "rewrite");
        SmtComparison.Outcome outcome = SmtComparison.run(connect, db, "core_unwrap", "public.accounts", unwrap, prefix -> Map.of(),
                () -> Sql.run(db,
                        "INSERT INTO accounts VALUES (1, 'ann', 10.50, '2026-01-01'), (2, 'bob', 0, NULL), (3, 'cy', -4.25, '1999-12-31')",
                        "UPDATE accounts SET balance = balance + 1 WHERE id = 1",
                        "UPDATE accounts SET id = 30 WHERE id = 3",
                        "DELETE FROM accounts WHERE id = 2"),
                // 3 inserts, 1 update, the key change's delete and insert, 1 delete; tombstones dropped by rewrite
                7, WAIT);

        assertThat(outcome.debeziumRecords()).as("Debezium's unwrapped records").hasSize(7);
        assertThat(outcome.unacceptedDifferences()).as(outcome.describe()).isEmpty();
    }

    // ---- Helpers -------------------------------------------------------------------------------------------

    /** The outbox table as Debezium's outbox documentation defines it, and events for it. */
    static final class OutboxTable {
        static final String CREATE = "CREATE TABLE outbox (id uuid PRIMARY KEY, aggregatetype varchar(255) NOT NULL,"
                + " aggregateid varchar(255) NOT NULL, type varchar(255) NOT NULL, payload jsonb)";

        private OutboxTable() {
        }

        /** Events {@code first..last}: odd ones of aggregate type Order, even ones Customer, each with a JSON payload. */
        static String events(int first, int last) {
            List<String> rows = new ArrayList<>();
            for (int i = first; i <= last; i++) {
                String aggregate = i % 2 == 1 ? "Order" : "Customer";
                rows.add("('00000000-0000-0000-0000-" + String.format("%012d", i) + "', '" + aggregate + "', '" + aggregate
                        .toLowerCase() + "-" + i + "', '" + aggregate + (i % 3 == 0 ? "Updated" : "Created") + "', '{\"n\": " + i
                        + ", \"items\": [1, 2], \"note\": \"event " + i + "\"}')");
            }
            return "INSERT INTO outbox VALUES " + String.join(", ", rows);
        }
    }
}
