package io.github.pgoutput.parity;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.github.pgoutput.testing.Nightly;
import io.github.pgoutput.testing.PostgresDatabase;
import io.github.pgoutput.testing.PostgresTest;
import io.github.pgoutput.testing.kafka.ConnectWorkerCluster;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Debezium's outbox {@code EventRouter} and {@code ExtractNewRecordState} with their common options, on our records and
 * on Debezium 3.7.1's from the same table and workload: the records after the SMT must be the same but for our
 * {@code pg.*} headers ({@link SmtComparison}). The every-build core is one case of each in {@link DownstreamClientsIT}.
 *
 * <p>On PostgreSQL 17 only, in the nightly matrix too: what is compared does not depend on the server's version,
 * and its connectors' names, whose offsets Connect keeps after they are deleted, are not per version.
 */
@Nightly
@Timeout(value = 8, unit = TimeUnit.MINUTES)
class DebeziumSmtsNightlyIT {

    private static final Duration WAIT = Duration.ofSeconds(90);
    private static final String CHANGES_TABLE = "CREATE TABLE accounts (id int PRIMARY KEY, owner text, balance numeric(12,2),"
            + " opened date, tags text[])";

    @RegisterExtension
    static final ConnectWorkerCluster connect = ConnectWorkerCluster.withWorkers(1)
            .workerProperty("plugin.path", PluginFolders.pluginPath(PluginFolders.debezium()));

    @PostgresTest(minVersion = 17, maxVersion = 17)
    void outboxRouterExpandingJsonPayloadsWithFieldsInHeadersAndEnvelope(PostgresDatabase db) {
        outbox(db, "smt_outbox_expand", Map.of(
                "transforms.outbox.table.expand.json.payload", "true",
                "transforms.outbox.table.fields.additional.placement", "type:header:eventType,aggregatetype:envelope:kind"),
                4);
    }

    @PostgresTest(minVersion = 17, maxVersion = 17)
    void outboxRouterRoutingByTheEventTypeWithTombstonesForEmptyPayloads(PostgresDatabase db) {
        outbox(db, "smt_outbox_type", Map.of(
                "transforms.outbox.route.by.field", "type",
                "transforms.outbox.route.tombstone.on.empty.payload", "true"),
                5);
    }

    @PostgresTest(minVersion = 17, maxVersion = 17)
    void unwrapWithTheDeprecatedDeleteHandlingModeRewrite(PostgresDatabase db) {
        unwrap(db, "smt_unwrap_legacy", Map.of(
                "transforms.unwrap.delete.handling.mode", "rewrite",
                "transforms.unwrap.drop.tombstones", "false"),
                // 7, as Debezium's own records give: with the deprecated delete.handling.mode the tombstones are dropped
                // although drop.tombstones=false
                7);
    }

    @PostgresTest(minVersion = 17, maxVersion = 17)
    void unwrapWithDeletesAsTombstonesOnly(PostgresDatabase db) {
        unwrap(db, "smt_unwrap_tombstone", Map.of("transforms.unwrap.delete.tombstone.handling.mode", "tombstone"), 7);
    }

    /**
     * One difference remains, and is asserted as it is: Debezium's tombstone shares its delete record's Headers object,
     * so the headers the SMT adds to the delete from its {@code source} block ({@code __table}, {@code __lsn},
     * {@code __db}) appear on Debezium's tombstone too; on a tombstone itself the SMT adds only {@code __op}. Ours
     * gives each record its own headers (its {@code pg.tx_order} differs between the two), so our tombstone has
     * {@code __op} only.
     */
    @PostgresTest(minVersion = 17, maxVersion = 17)
    void unwrapWithRewriteAndTombstoneAndEveryAddedFieldAndHeader(PostgresDatabase db) {
        unwrap(db, "smt_unwrap_fields", Map.of(
                "transforms.unwrap.delete.tombstone.handling.mode", "rewrite-with-tombstone",
                // not ts_ms: the envelope's processing time, which differs between any two runs
                "transforms.unwrap.add.fields", "op,table,schema,db,lsn,txId,source.ts_ms",
                "transforms.unwrap.add.fields.prefix", "meta_",
                "transforms.unwrap.add.headers", "op,table,lsn,db"), 9,
                d -> d.path().matches("public\\.accounts\\[tombstone\\] headers\\.__(table|lsn|db)") && d.ours().equals(Difference.ABSENT));
    }

    // ---- Helpers -------------------------------------------------------------------------------------------

    private static void outbox(PostgresDatabase db, String name, Map<String, String> options, int expected) {
        Sql.run(db, DownstreamClientsIT.OutboxTable.CREATE);
        Map<String, String> smt = new LinkedHashMap<>();
        smt.put("transforms", "outbox");
        smt.put("transforms.outbox.type", DownstreamClientsIT.OUTBOX_ROUTER);
        smt.putAll(options);
        SmtComparison.Outcome outcome = SmtComparison.run(connect, db, name, "public.outbox", smt,
                prefix -> Map.of("transforms.outbox.route.topic.replacement", prefix + ".outbox.${routedByValue}"),
                () -> Sql.run(db, DownstreamClientsIT.OutboxTable.events(1, 4),
                        "INSERT INTO outbox VALUES ('00000000-0000-0000-0000-000000000099', 'Order', 'order-99', 'OrderDeleted', NULL)",
                        "DELETE FROM outbox"),
                expected, WAIT);
        System.out.println(name + ": " + outcome.describe());
        assertThat(outcome.debeziumRecords()).hasSizeGreaterThanOrEqualTo(expected);
        assertThat(outcome.unacceptedDifferences()).as(outcome.describe()).isEmpty();
    }

    /** 3 inserts, an update, a key change (delete, tombstone, insert), a delete (and tombstone), per the options. */
    private static void unwrap(PostgresDatabase db, String name, Map<String, String> options, int expected) {
        unwrap(db, name, options, expected, d -> false);
    }

    /** As above; {@code known} selects the differences expected (at least one of them must occur). */
    private static void unwrap(PostgresDatabase db, String name, Map<String, String> options, int expected,
                               java.util.function.Predicate<Difference> known) {
        Sql.run(db, CHANGES_TABLE);
        Map<String, String> smt = new LinkedHashMap<>();
        smt.put("transforms", "unwrap");
        smt.put("transforms.unwrap.type", DownstreamClientsIT.UNWRAP);
        smt.putAll(options);
        SmtComparison.Outcome outcome = SmtComparison.run(connect, db, name, "public.accounts", smt, prefix -> Map.of(),
                () -> Sql.run(db,
                        "INSERT INTO accounts VALUES (1, 'ann', 10.50, '2026-01-01', '{a}'), (2, 'bob', 0, NULL, NULL),"
                                + " (3, 'cy', -4.25, '1999-12-31', '{}')",
                        "UPDATE accounts SET balance = balance + 1, tags = '{a,b}' WHERE id = 1",
                        "UPDATE accounts SET id = 30 WHERE id = 3",
                        "DELETE FROM accounts WHERE id = 2"),
                expected, WAIT);
        System.out.println(name + ": " + outcome.describe());
        assertThat(outcome.debeziumRecords()).hasSize(expected);
        assertThat(outcome.unacceptedDifferences().stream().filter(known.negate()).toList()).as(outcome.describe()).isEmpty();
        if (!outcome.unacceptedDifferences().isEmpty()) {
            assertThat(outcome.unacceptedDifferences()).as("the known differences still occur").anyMatch(known);
        }
    }
}
