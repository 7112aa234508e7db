package io.github.pgoutput.connect;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.pgoutput.testing.Nightly;
import io.github.pgoutput.testing.kafka.ConnectWorkerCluster;
import io.github.pgoutput.connect.metrics.IncrementalSnapshotMetrics;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.management.MBeanServer;
import javax.management.ObjectName;

import io.github.pgoutput.testing.PostgresDatabase;
import io.github.pgoutput.testing.PostgresTest;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Issue 18: incremental snapshots on a streaming connector (snapshot.mode no_data, so the topics hold only what the
 * incremental snapshot and the stream bring), with the signal arriving while a workload of inserts, updates and
 * deletes runs over the whole table, chunks included: the table rebuilt from its topic equals the database. Through
 * the signal table, and through the Kafka signal topic with a role that may only SELECT (and REPLICATION), with a
 * pause, a resume and a task restart in the middle; a table the signal does not name gets no snapshot record.
 *
 * <p>{@code -Dincremental.rows=1000000} runs the 1M-row table of the issue (scenarios/incremental-snapshot.sh); CI reads
 * 200,000 rows.
 */
@Timeout(value = 8, unit = TimeUnit.MINUTES)
class IncrementalSnapshotIT {

    private static final Logger log = LoggerFactory.getLogger(IncrementalSnapshotIT.class);
    private static final Duration WAIT = Duration.ofSeconds(300);
    private static final int ROWS = Integer.getInteger("incremental.rows", 200_000);
    private static final int CHUNK = 1024;

    @RegisterExtension
    static final ConnectWorkerCluster connect = ConnectWorkerCluster.shared();

    private static final MBeanServer SERVER = ManagementFactory.getPlatformMBeanServer();

    private static Object attribute(ObjectName name, String attribute) {
        return SnapshotThenStreamIT.attribute(SERVER, name, attribute);
    }

    private static void createTables(PostgresDatabase db) {
        db.execute("CREATE TABLE big (id bigint PRIMARY KEY, v int NOT NULL)",
                "CREATE TABLE other (id bigint PRIMARY KEY, v int NOT NULL)",
                "CREATE TABLE dbz_signal (id varchar(42) PRIMARY KEY, type varchar(32) NOT NULL, data varchar(2048))",
                "INSERT INTO big SELECT g, g % 1000 FROM generate_series(1, " + ROWS + ") g",
                "INSERT INTO other SELECT g, g FROM generate_series(1, 1000) g",
                "ANALYZE big", "ANALYZE other");
    }

    private static ChangeWorkload workload(PostgresDatabase db) {
        return new ChangeWorkload(db, List.of(new ChangeWorkload.Table("big", ROWS, ROWS + 1), new ChangeWorkload.Table("other", 1000, 1001)),
                List.of());
    }

    /** Waits until the topic of {@code table} rebuilds it exactly; returns the replica for more checks. */
    private static IntTableReplica awaitRebuilt(PostgresDatabase db, String topic, String table) {
        IntTableReplica replica = new IntTableReplica(connect, topic, ROWS + 400_000);
        ConnectWorkerCluster.awaitCondition(WAIT, table + " rebuilt from " + topic, () -> {
            replica.catchUp(Duration.ofSeconds(2));
            String difference = replica.difference(db, table);
            if (difference != null) {
                log.info("not yet: {}", difference);
            }
            return difference == null;
        });
        return replica;
    }

    @PostgresTest(representative = 16)
    void aSignalRowSnapshotsTheNamedTableWhileAWorkloadChangesItsRows(PostgresDatabase db) throws Exception {
        String name = "incr-table-" + db.majorVersion();
        String prefix = "incrt" + db.majorVersion();
        createTables(db);
        Map<String, String> config = MixedWorkloadIT.connectorConfig(db, prefix, "incr_table_slot");
        config.put("signal.data.collection", "public.dbz_signal");
        config.put("incremental.snapshot.chunk.size", Integer.toString(CHUNK));
        ObjectName mbean = IncrementalSnapshotMetrics.objectName(name, 0);
        startStreaming(db, name, config, "incr_table_slot");

        try (ChangeWorkload workload = workload(db)) {
            ConnectWorkerCluster.awaitCondition(WAIT, "workload running", () -> workload.transactions() > 50);
            long started = System.nanoTime();
            // The signal arrives while changes stream.
            db.execute("INSERT INTO dbz_signal VALUES ('s1', 'execute-snapshot', '{\"data-collections\": [\"public.big\"], \"type\": \"incremental\"}')");
            ConnectWorkerCluster.awaitCondition(WAIT, "incremental snapshot running", () -> SERVER.isRegistered(mbean)
                    && (long) attribute(mbean, "RowsDone") > 0);
            assertThat((String) attribute(mbean, "CurrentTable")).isEqualTo("public.big");
            ConnectWorkerCluster.awaitCondition(WAIT, "incremental snapshot finished", () -> !(boolean) attribute(mbean, "Running"));
            double seconds = (System.nanoTime() - started) / 1e9;
            log.info("Incremental snapshot of {} rows with a workload of {} transactions: {} s, {} chunks, {} rows/s", attribute(mbean, "RowsDone"),
                    workload.transactions(), String.format("%.1f", seconds), attribute(mbean, "ChunksDone"),
                    Math.round((long) attribute(mbean, "RowsDone") / seconds));
            assertThat((int) attribute(mbean, "TablesDone")).isEqualTo(1);
            Thread.sleep(1_000);
            workload.stop();
        }

        try (IntTableReplica big = awaitRebuilt(db, prefix + ".public.big", "big");
             IntTableReplica other = new IntTableReplica(connect, prefix + ".public.other", 400_000)) {
            assertThat(big.ops("r")).as("one record per row read, each chunk once").isBetween((long) ROWS - 10_000, (long) ROWS + 10_000);
            assertThat(big.markers("incremental")).isEqualTo(big.ops("r"));
            assertThat(big.snapshotHeaders()).isEqualTo(big.ops("r"));
            assertThat(big.ops("u")).as("streamed updates").isPositive();
            other.catchUp(Duration.ofSeconds(2));
            assertThat(other.ops("r")).as("a table the signal does not name is not snapshotted").isZero();
            assertThat(other.ops("c")).isPositive();
        }
        connect.deleteConnector(name);
    }

    @PostgresTest(representative = 18)
    void aKafkaSignalSnapshotsWithARoleThatMayOnlySelectAndSurvivesPauseResumeAndATaskRestart(PostgresDatabase db) throws Exception {
        String name = "incr-kafka-" + db.majorVersion();
        String prefix = "incrk" + db.majorVersion();
        String role = "incr_reader_" + db.majorVersion();
        String topic = prefix + "-signal";
        createTables(db);
        db.execute("DROP ROLE IF EXISTS " + role, "CREATE ROLE " + role + " LOGIN REPLICATION",
                "GRANT SELECT ON big, other, dbz_signal TO " + role, "CREATE PUBLICATION incr_kafka_pub FOR TABLE big, other");
        assertThat(db.queryValue("SELECT count(*) FROM pg_class c WHERE c.relnamespace = 'public'::regnamespace AND c.relkind = 'r'"
                + " AND (has_table_privilege('" + role + "', c.oid, 'INSERT') OR has_table_privilege('" + role + "', c.oid, 'UPDATE')"
                + " OR has_table_privilege('" + role + "', c.oid, 'DELETE'))")).as("the role may write nowhere").isEqualTo("0");
        connect.createTopic(topic, 1);
        Map<String, String> config = MixedWorkloadIT.connectorConfig(db, prefix, "incr_kafka_slot");
        config.put("database.user", role);
        config.put("publication.name", "incr_kafka_pub");
        config.put("publication.autocreate.mode", "disabled");
        config.put("signal.enabled.channels", "kafka");
        config.put("signal.kafka.bootstrap.servers", connect.bootstrapServers());
        config.put("signal.kafka.topic", topic);
        config.put("read.only", "true");
        config.put("incremental.snapshot.chunk.size", Integer.toString(CHUNK));
        ObjectName mbean = IncrementalSnapshotMetrics.objectName(name, 0);
        startStreaming(db, name, config, "incr_kafka_slot");

        try (ChangeWorkload workload = workload(db)) {
            ConnectWorkerCluster.awaitCondition(WAIT, "workload running", () -> workload.transactions() > 50);
            long started = System.nanoTime();
            connect.embedded().kafka().produce(topic, prefix, "{\"type\": \"execute-snapshot\", \"data\": {\"data-collections\": [\"public\\\\.big\"]}}");
            ConnectWorkerCluster.awaitCondition(WAIT, "incremental snapshot running", () -> SERVER.isRegistered(mbean)
                    && (long) attribute(mbean, "RowsDone") > 10L * CHUNK);

            connect.embedded().kafka().produce(topic, prefix, "{\"type\": \"pause-snapshot\"}");
            ConnectWorkerCluster.awaitCondition(WAIT, "paused", () -> (boolean) attribute(mbean, "Paused"));
            long atPause = (long) attribute(mbean, "RowsDone");
            Thread.sleep(3_000);
            assertThat((long) attribute(mbean, "RowsDone")).as("no chunk while paused").isEqualTo(atPause);
            assertThat(workload.transactions()).isPositive();
            connect.embedded().kafka().produce(topic, prefix, "{\"type\": \"resume-snapshot\", \"data\": {}}");
            ConnectWorkerCluster.awaitCondition(WAIT, "resumed", () -> (long) attribute(mbean, "RowsDone") > atPause + 5L * CHUNK);

            // A restart in the middle reads on after the last row whose offset was committed, not from the start.
            connect.restartTask(name, 0);
            ConnectWorkerCluster.awaitCondition(WAIT, "task back, snapshot resumed", () -> SERVER.isRegistered(mbean)
                    && (boolean) attribute(mbean, "Running") && (long) attribute(mbean, "RowsDone") > 0);
            ConnectWorkerCluster.awaitCondition(WAIT, "incremental snapshot finished", () -> SERVER.isRegistered(mbean)
                    && !(boolean) attribute(mbean, "Running") && (int) attribute(mbean, "TablesDone") == 1);
            log.info("Incremental snapshot through the signal topic with a read-only role: {} s in all (with a 3 s pause)",
                    String.format("%.1f", (System.nanoTime() - started) / 1e9));
            Thread.sleep(1_000);
            workload.stop();
        }

        try (IntTableReplica big = awaitRebuilt(db, prefix + ".public.big", "big");
             IntTableReplica other = new IntTableReplica(connect, prefix + ".public.other", 400_000)) {
            log.info("big: {} r, {} c, {} u, {} d records", big.ops("r"), big.ops("c"), big.ops("u"), big.ops("d"));
            // Rows whose chunk was read twice around the restart come twice; the rest once.
            assertThat(big.ops("r")).as("the restart did not start the snapshot over").isLessThan(ROWS + ROWS / 2);
            assertThat(big.markers("incremental")).isEqualTo(big.ops("r"));
            other.catchUp(Duration.ofSeconds(2));
            assertThat(other.ops("r")).isZero();
        }
        connect.deleteConnector(name);
        db.execute("DROP PUBLICATION incr_kafka_pub");
    }

    @Nightly
    @PostgresTest(representative = 15)
    void aNewlyCapturedTableIsSnapshottedAloneWithSnapshotNewTablesIncremental(PostgresDatabase db) throws Exception {
        String name = "incr-new-" + db.majorVersion();
        String prefix = "incrn" + db.majorVersion();
        db.execute("CREATE TABLE ta (id bigint PRIMARY KEY, v int NOT NULL)", "CREATE TABLE tb (id bigint PRIMARY KEY, v int NOT NULL)",
                "CREATE TABLE te (id bigint PRIMARY KEY, v int NOT NULL)",
                "INSERT INTO ta SELECT g, g FROM generate_series(1, 1000) g", "INSERT INTO tb SELECT g, g FROM generate_series(1, 700) g",
                "INSERT INTO te SELECT g, g FROM generate_series(1, 300) g", "CREATE PUBLICATION incr_new_pub FOR TABLE ta, tb");
        Map<String, String> config = MixedWorkloadIT.connectorConfig(db, prefix, "incr_new_slot");
        config.remove("snapshot.mode"); // initial
        config.put("publication.name", "incr_new_pub");
        config.put("publication.autocreate.mode", "disabled");
        config.put("table.include.list", "public\\.ta");
        config.put("snapshot.new.tables", "incremental");
        connect.configureConnector(name, config);
        try (IntTableReplica a = new IntTableReplica(connect, prefix + ".public.ta", 2000);
             IntTableReplica b = new IntTableReplica(connect, prefix + ".public.tb", 2000);
             IntTableReplica e = new IntTableReplica(connect, prefix + ".public.te", 2000)) {
            ConnectWorkerCluster.awaitCondition(WAIT, "initial snapshot of ta", () -> {
                a.catchUp(Duration.ofSeconds(1));
                return a.difference(db, "ta") == null;
            });
            // Some streaming after the snapshot, so that committed offsets name the captured tables.
            db.execute("UPDATE ta SET v = -1 WHERE id = 1");
            ConnectWorkerCluster.awaitCondition(WAIT, "update streamed", () -> {
                a.catchUp(Duration.ofSeconds(1));
                return a.ops("u") == 1;
            });
            Thread.sleep(12_000); // past an offset commit of the test worker

            config.put("table.include.list", "public\\.ta,public\\.tb,public\\.te");
            connect.configureConnector(name, config);
            ConnectWorkerCluster.awaitCondition(WAIT, "tb, now in table.include.list, snapshotted incrementally", () -> {
                b.catchUp(Duration.ofSeconds(1));
                return b.difference(db, "tb") == null;
            });
            assertThat(b.markers("incremental")).isEqualTo(700);

            db.execute("ALTER PUBLICATION incr_new_pub ADD TABLE te");
            ConnectWorkerCluster.awaitCondition(WAIT, "te, now in the publication, snapshotted incrementally", () -> {
                e.catchUp(Duration.ofSeconds(1));
                return e.difference(db, "te") == null;
            });
            assertThat(e.markers("incremental")).isEqualTo(300);
            a.catchUp(Duration.ofSeconds(2));
            assertThat(a.ops("r")).as("the table captured from the start is not read again").isEqualTo(1000);
            assertThat(a.markers("incremental")).isZero();
        }
        connect.deleteConnector(name);
        db.execute("DROP PUBLICATION incr_new_pub");
    }

    @PostgresTest(representative = 16)
    void aLogicalDecodingMessageFromARoleThatMayNotWriteSignalsASnapshot(PostgresDatabase db) throws Exception {
        String name = "incr-msg-" + db.majorVersion();
        String prefix = "incrm" + db.majorVersion();
        String role = "incr_sender_" + db.majorVersion();
        createTables(db);
        db.execute("DROP ROLE IF EXISTS " + role, "CREATE ROLE " + role + " LOGIN", "GRANT SELECT ON other TO " + role);
        Map<String, String> config = MixedWorkloadIT.connectorConfig(db, prefix, "incr_msg_slot");
        config.put("signal.enabled.channels", "message");
        config.put("message.prefix.exclude.list", "pgoutput-signal");
        startStreaming(db, name, config, "incr_msg_slot");

        // The sender has no privilege to write anything, in a read-only transaction: a non-transactional message.
        try (java.sql.Connection c = java.sql.DriverManager.getConnection(db.jdbcUrl(), role, "");
             java.sql.Statement st = c.createStatement()) {
            c.setAutoCommit(false);
            st.execute("SET TRANSACTION READ ONLY");
            st.execute("SELECT pg_logical_emit_message(false, 'pgoutput-signal', '{\"type\": \"execute-snapshot\","
                    + " \"data\": {\"data-collections\": [\"public.other\"]}}')");
            c.commit();
        }
        try (IntTableReplica other = new IntTableReplica(connect, prefix + ".public.other", 2000)) {
            ConnectWorkerCluster.awaitCondition(WAIT, "other snapshotted on the message", () -> {
                other.catchUp(Duration.ofSeconds(1));
                return other.difference(db, "other") == null;
            });
            assertThat(other.markers("incremental")).isEqualTo(1000);
        }
        assertThat(connect.readAllIfExists(prefix + ".message", Duration.ofSeconds(2)))
                .as("message.prefix.exclude.list keeps the signal off the message topic").isEmpty();
        connect.deleteConnector(name);
    }

    @PostgresTest(representative = 17)
    void validationNamesASignalTableThatIsMissingOrOutsideThePublication(PostgresDatabase db) {
        createTables(db);
        db.execute("CREATE PUBLICATION incr_val_pub FOR TABLE big");
        Map<String, String> config = MixedWorkloadIT.connectorConfig(db, "incrv" + db.majorVersion(), "incr_val_slot");
        config.put("publication.name", "incr_val_pub");
        config.put("publication.autocreate.mode", "disabled");
        config.put("signal.data.collection", "public.dbz_signal");
        assertThat(connect.validationErrors(PgOutputSourceConnector.class.getName(), config).get("signal.data.collection"))
                .singleElement().asString().contains("not in publication 'incr_val_pub'").contains("ALTER PUBLICATION incr_val_pub ADD TABLE");

        config.put("signal.data.collection", "public.no_such_signals");
        assertThat(connect.validationErrors(PgOutputSourceConnector.class.getName(), config).get("signal.data.collection"))
                .singleElement().asString().contains("does not exist").contains("CREATE TABLE");

        db.execute("ALTER PUBLICATION incr_val_pub ADD TABLE dbz_signal");
        config.put("signal.data.collection", "public.dbz_signal");
        assertThat(connect.validationErrors(PgOutputSourceConnector.class.getName(), config).get("signal.data.collection"))
                .isNullOrEmpty();
        db.execute("DROP PUBLICATION incr_val_pub");
    }

    @Nightly
    @PostgresTest(representative = 17)
    void stopSnapshotEndsTheSnapshotAndStreamingGoesOn(PostgresDatabase db) throws Exception {
        String name = "incr-stop-" + db.majorVersion();
        String prefix = "incrs" + db.majorVersion();
        createTables(db);
        Map<String, String> config = MixedWorkloadIT.connectorConfig(db, prefix, "incr_stop_slot");
        config.put("signal.data.collection", "public.dbz_signal");
        config.put("incremental.snapshot.chunk.size", "100");
        ObjectName mbean = IncrementalSnapshotMetrics.objectName(name, 0);
        startStreaming(db, name, config, "incr_stop_slot");

        db.execute("INSERT INTO dbz_signal VALUES ('s1', 'execute-snapshot', '{\"data-collections\": [\"public.big\", \"public.other\"],"
                + " \"additional-conditions\": [{\"data-collection\": \"public.other\", \"filter\": \"id <= 10\"}]}')");
        ConnectWorkerCluster.awaitCondition(WAIT, "snapshot running", () -> SERVER.isRegistered(mbean) && (long) attribute(mbean, "RowsDone") > 500);
        db.execute("INSERT INTO dbz_signal VALUES ('s2', 'stop-snapshot', '{\"data-collections\": [\"public.big\"]}')");
        ConnectWorkerCluster.awaitCondition(WAIT, "snapshot over", () -> !(boolean) attribute(mbean, "Running"));
        db.execute("UPDATE other SET v = -1 WHERE id = 500");

        try (IntTableReplica big = new IntTableReplica(connect, prefix + ".public.big", ROWS + 1);
             IntTableReplica other = new IntTableReplica(connect, prefix + ".public.other", 2000, 500)) {
            ConnectWorkerCluster.awaitCondition(WAIT, "the update after the stop streamed", () -> {
                other.catchUp(Duration.ofSeconds(1));
                return other.history(500).contains("u:-1");
            });
            big.catchUp(Duration.ofSeconds(2));
            assertThat(big.ops("r")).as("stopped part-way").isPositive().isLessThan(ROWS);
            assertThat(other.ops("r")).as("the other table, under its additional condition").isEqualTo(10);
        }
        connect.deleteConnector(name);
    }

    /** Configures the connector and waits until its task streams (its slot active), so that a signal sent now is read. */
    private static void startStreaming(PostgresDatabase db, String name, Map<String, String> config, String slot) {
        connect.configureConnector(name, config);
        connect.awaitRunning(name, 1, WAIT);
        ConnectWorkerCluster.awaitCondition(WAIT, "slot " + slot + " active", () ->
                !db.query("SELECT 1 FROM pg_replication_slots WHERE slot_name = '" + slot + "' AND active").isEmpty());
    }
}
