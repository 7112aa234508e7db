package io.github.pgoutput.connect;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.pgoutput.testing.kafka.ConnectWorkerCluster;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.github.pgoutput.testing.PostgresDatabase;
import io.github.pgoutput.testing.PostgresTest;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A Debezium-style configuration deployed through a real Connect worker: {@code publication.autocreate.mode=filtered}
 * with a {@code table.include.list} that mixes plain names and regular expressions, and the default snapshot. The
 * connector creates the publication for exactly the tables the list selects, snapshots them, and streams their
 * changes; a transaction that touches only tables outside the list produces nothing and loses nothing around it.
 */
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class FilteredPublicationIT {

    private static final Duration WAIT = Duration.ofSeconds(90);

    @RegisterExtension
    static final ConnectWorkerCluster connect = ConnectWorkerCluster.shared();

    @PostgresTest(representative = 17)
    void createsThePublicationForTheIncludedTablesOnlyAndStreamsThem(PostgresDatabase db) {
        String name = "filtered" + db.majorVersion();
        String slot = "filtered_slot";
        db.execute("CREATE SCHEMA inventory",
                "CREATE TABLE public.orders (id bigint PRIMARY KEY, note text)",
                "CREATE TABLE public.customers (id bigint PRIMARY KEY, note text)",
                "CREATE TABLE public.audit_log (id bigint PRIMARY KEY, note text)",
                "CREATE TABLE inventory.items (id bigint PRIMARY KEY, note text)",
                "INSERT INTO public.orders VALUES (1, 'before-start')",
                "INSERT INTO public.audit_log VALUES (1, 'before-start')");
        Map<String, String> config = MixedWorkloadIT.connectorConfig(db, name, slot);
        config.put("publication.autocreate.mode", "filtered");
        config.put("table.include.list", "public.orders,public\\.customer.*,inventory\\..*");
        config.remove("snapshot.mode"); // Debezium's default: initial
        config.put("name", name); // what the REST API's validate endpoint gets

        assertThat(connect.validationErrors(PgOutputSourceConnector.class.getName(), config)).isEmpty();
        connect.configureConnector(name, config);
        connect.awaitRunning(name, 1, WAIT);

        awaitPublishedTables(db, slot + "_pub", "inventory.items", "public.customers", "public.orders");
        // A first snapshot writes the rows only (no truncate records).
        List<ConsumerRecord<byte[], byte[]>> snapshot = connect.awaitRecords(name + ".public.orders", 1, WAIT);
        assertThat(snapshot).map(ConnectWorkerCluster::valueText).last().asString().contains("before-start");

        db.execute("INSERT INTO public.audit_log VALUES (2, 'only-excluded')",
                "BEGIN; INSERT INTO public.orders VALUES (2, 'streamed'); INSERT INTO public.audit_log VALUES (3, 'x'); COMMIT",
                "INSERT INTO public.audit_log VALUES (4, 'only-excluded-again')",
                "INSERT INTO public.customers VALUES (1, 'streamed')",
                "INSERT INTO inventory.items VALUES (1, 'streamed')");
        assertThat(connect.awaitRecords(name + ".public.orders", 2, WAIT)).map(ConnectWorkerCluster::valueText).last()
                .asString().contains("streamed");
        assertThat(connect.awaitRecords(name + ".public.customers", 1, WAIT)).map(ConnectWorkerCluster::valueText).last()
                .asString().contains("streamed");
        assertThat(connect.awaitRecords(name + ".inventory.items", 1, WAIT)).map(ConnectWorkerCluster::valueText).last()
                .asString().contains("streamed");
        assertThat(connect.readAllIfExists(name + ".public.audit_log", Duration.ofSeconds(5))).as("not captured").isEmpty();

        connect.deleteConnector(name);
        ConnectWorkerCluster.awaitCondition(WAIT, "slot released", () ->
                db.query("SELECT 1 FROM pg_replication_slots WHERE slot_name = '" + slot + "' AND active").isEmpty());
    }

    /** Debezium's rule: a table is captured when its schema passes schema.include.list and its name table.include.list. */
    @PostgresTest(representative = 17)
    void schemaIncludeListAndTableIncludeListTogetherSelectTheTablesBothMatch(PostgresDatabase db) {
        String name = "schemas" + db.majorVersion();
        String slot = "schemas_slot";
        db.execute("CREATE SCHEMA inventory", "CREATE SCHEMA sales",
                "CREATE TABLE inventory.orders (id bigint PRIMARY KEY, note text)",
                "CREATE TABLE inventory.order_lines (id bigint PRIMARY KEY, note text)",
                "CREATE TABLE inventory.customers (id bigint PRIMARY KEY, note text)",
                "CREATE TABLE sales.orders (id bigint PRIMARY KEY, note text)",
                "CREATE TABLE public.orders (id bigint PRIMARY KEY, note text)",
                "INSERT INTO inventory.orders VALUES (1, 'before-start')",
                "INSERT INTO sales.orders VALUES (1, 'before-start')",
                "INSERT INTO inventory.customers VALUES (1, 'before-start')");
        Map<String, String> config = MixedWorkloadIT.connectorConfig(db, name, slot);
        config.put("publication.autocreate.mode", "filtered");
        config.put("schema.include.list", "inventory");
        config.put("table.include.list", ".*\\.order.*"); // matches sales.orders and public.orders too
        config.remove("snapshot.mode"); // Debezium's default: initial
        config.put("name", name);

        assertThat(connect.validationErrors(PgOutputSourceConnector.class.getName(), config)).isEmpty();
        connect.configureConnector(name, config);
        connect.awaitRunning(name, 1, WAIT);

        awaitPublishedTables(db, slot + "_pub", "inventory.order_lines", "inventory.orders");
        assertThat(connect.awaitRecords(name + ".inventory.orders", 1, WAIT)).map(ConnectWorkerCluster::valueText)
                .last().asString().contains("before-start");

        db.execute("INSERT INTO sales.orders VALUES (2, 'other-schema')",
                "INSERT INTO public.orders VALUES (2, 'other-schema')",
                "INSERT INTO inventory.customers VALUES (2, 'other-table')",
                "BEGIN; INSERT INTO inventory.order_lines VALUES (1, 'streamed'); INSERT INTO sales.orders VALUES (3, 'x'); COMMIT",
                "INSERT INTO inventory.orders VALUES (2, 'streamed')");
        assertThat(connect.awaitRecords(name + ".inventory.orders", 2, WAIT)).map(ConnectWorkerCluster::valueText).last()
                .asString().contains("streamed");
        assertThat(connect.awaitRecords(name + ".inventory.order_lines", 1, WAIT)).map(ConnectWorkerCluster::valueText)
                .last().asString().contains("streamed");
        for (String notCaptured : List.of("sales.orders", "public.orders", "inventory.customers")) {
            assertThat(connect.readAllIfExists(name + "." + notCaptured, Duration.ofSeconds(3))).as(notCaptured).isEmpty();
        }

        connect.deleteConnector(name);
        ConnectWorkerCluster.awaitCondition(WAIT, "slot released", () ->
                db.query("SELECT 1 FROM pg_replication_slots WHERE slot_name = '" + slot + "' AND active").isEmpty());
    }

    @PostgresTest(representative = 17)
    void aSchemaIncludeListThatMatchesNoSchemaIsRefusedOnThatKey(PostgresDatabase db) {
        db.execute("CREATE SCHEMA inventory", "CREATE TABLE inventory.orders (id bigint PRIMARY KEY)");
        Map<String, String> config = MixedWorkloadIT.connectorConfig(db, "noschema" + db.majorVersion(), "noschema_slot");
        config.put("publication.autocreate.mode", "filtered");
        config.put("schema.include.list", "invntory");
        config.put("table.include.list", "inventory\\.orders");
        config.put("name", "noschema" + db.majorVersion());

        Map<String, List<String>> errors = connect.validationErrors(PgOutputSourceConnector.class.getName(), config);

        assertThat(errors).containsOnlyKeys("schema.include.list");
        assertThat(errors.get("schema.include.list")).singleElement().asString()
                .contains("schema.include.list (invntory) and table.include.list (inventory\\.orders) select no table")
                .contains("tables seen: inventory.orders");
    }

    @PostgresTest(representative = 17)
    void aDebeziumKeyThatWouldChangeTheRecordsIsRefusedByTheWorkersValidation(PostgresDatabase db) {
        db.execute("CREATE TABLE public.orders (id bigint PRIMARY KEY, card text)");
        Map<String, String> config = MixedWorkloadIT.connectorConfig(db, "masked" + db.majorVersion(), "masked_slot");
        config.put("publish.via.partition.root", "true");
        config.put("name", "masked" + db.majorVersion());

        Map<String, List<String>> errors = connect.validationErrors(PgOutputSourceConnector.class.getName(), config);

        assertThat(errors).containsOnlyKeys("publish.via.partition.root");
        assertThat(errors.get("publish.via.partition.root")).singleElement().asString()
                .contains("is a Debezium setting this connector does not support");
    }

    @PostgresTest(representative = 17)
    void anIncludeListThatSelectsNoTableIsRefusedOnTheKey(PostgresDatabase db) {
        db.execute("CREATE TABLE public.orders (id bigint PRIMARY KEY)");
        Map<String, String> config = MixedWorkloadIT.connectorConfig(db, "nomatch" + db.majorVersion(), "nomatch_slot");
        config.put("publication.autocreate.mode", "filtered");
        config.put("table.include.list", "public\\.order_lines");
        config.put("name", "nomatch" + db.majorVersion());

        Map<String, List<String>> errors = connect.validationErrors(PgOutputSourceConnector.class.getName(), config);

        assertThat(errors).containsOnlyKeys("table.include.list");
        assertThat(errors.get("table.include.list")).singleElement().asString().contains("select no table")
                .contains("publication.autocreate.mode=all_tables");
    }

    @PostgresTest
    void aPublicationWhoseColumnListLeavesOutAColumnTheColumnKeysKeepIsRefusedOnTheColumnKey(PostgresDatabase db) {
        org.junit.jupiter.api.Assumptions.assumeTrue(db.majorVersion() >= 15, "column lists need PostgreSQL 15");
        db.execute("CREATE TABLE public.orders (id bigint PRIMARY KEY, card text, note text)",
                "CREATE PUBLICATION stale_pub FOR TABLE public.orders (id, note)");
        Map<String, String> config = MixedWorkloadIT.connectorConfig(db, "stale" + db.majorVersion(), "stale");
        config.put("publication.autocreate.mode", "filtered");
        config.put("table.include.list", "public\\.orders");
        config.put("column.exclude.list", "public\\.orders\\.note");
        config.put("name", "stale" + db.majorVersion());

        Map<String, List<String>> errors = connect.validationErrors(PgOutputSourceConnector.class.getName(), config);

        assertThat(errors).containsOnlyKeys("column.exclude.list");
        assertThat(errors.get("column.exclude.list")).singleElement().asString()
                .contains("table public.orders lists [id, note], without [card]");
    }

    /**
     * Waits until publication {@code name} holds exactly the tables {@code expected}, in name order: the task creates it
     * in its first poll, and Connect reports the task RUNNING before that (seen under load in the nightly matrix).
     */
    private static void awaitPublishedTables(PostgresDatabase db, String name, String... expected) {
        String sql = "SELECT schemaname || '.' || tablename FROM pg_publication_tables WHERE pubname = '" + name + "' ORDER BY 1";
        ConnectWorkerCluster.awaitCondition(WAIT, "publication " + name + " with exactly " + List.of(expected),
                () -> db.query(sql).stream().map(row -> row.get(0)).toList().equals(List.of(expected)));
        assertThat(db.query(sql)).flatMap(row -> row).containsExactly(expected);
    }
}
