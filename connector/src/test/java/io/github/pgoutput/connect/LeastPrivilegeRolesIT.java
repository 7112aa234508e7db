package io.github.pgoutput.connect;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.pgoutput.connect.DocumentedRoles.Names;
import io.github.pgoutput.connect.DocumentedRoles.Role;
import io.github.pgoutput.connect.config.DatabaseKeys;
import io.github.pgoutput.connect.config.PgOutputSourceConnectorConfig;
import io.github.pgoutput.connect.config.ReplicationKeys;
import io.github.pgoutput.connect.config.SnapshotKeys;
import io.github.pgoutput.testing.Nightly;
import io.github.pgoutput.testing.PostgresDatabase;
import io.github.pgoutput.testing.PostgresTest;
import io.github.pgoutput.testing.kafka.ConnectWorkerCluster;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.errors.RetriableException;
import org.apache.kafka.connect.source.SourceRecord;
import org.apache.kafka.connect.source.SourceTaskContext;
import org.apache.kafka.connect.storage.OffsetStorageReader;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Validation predicts the start, for every least-privilege role of docs/setup-postgresql.md, created with exactly the
 * page's SQL ({@link DocumentedRoles}) on a hardened database (CONNECT and the public schema's USAGE revoked from
 * PUBLIC, the tables owned by an application role): with the whole block the worker's validation accepts the
 * page's configuration and the connector streams (or snapshots); without one of its GRANTs validation refuses it on
 * the key that decides, with that GRANT in the message, and the task, started anyway, fails too (or, for an
 * incremental snapshot, leaves the table out: the reason validation refuses it). Every build runs each role once and
 * one GRANT dropped per role; the nightly tier drops every GRANT of every role in turn.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class LeastPrivilegeRolesIT {

    private static final Duration WAIT = Duration.ofSeconds(90);
    private static final AtomicInteger VARIANTS = new AtomicInteger();

    @RegisterExtension
    static final ConnectWorkerCluster connect = ConnectWorkerCluster.shared();

    // ---- every build -------------------------------------------------------------------------------------------

    @PostgresTest(representative = 17)
    void theStreamingRoleValidatesAndStreamsFromTheAdministratorsPublication(PostgresDatabase db) {
        try (Deployment run = Deployment.of(db, DocumentedRoles.role("streaming"), null)) {
            assertThat(run.validationErrors()).isEmpty();
            run.deploy();
            run.awaitSlotActive();
            db.execute("INSERT INTO public.orders VALUES (3, 1, 9.99)");
            assertThat(connect.awaitRecords(run.topic("public.orders"), 1, WAIT)).map(ConnectWorkerCluster::valueText)
                    .last().asString().contains("\"id\":3").contains("\"op\":\"c\"");
        }
    }

    @PostgresTest(representative = 17)
    void theStreamingRoleWithoutReplicationIsRefusedOnTheUserAndItsTaskFails(PostgresDatabase db) {
        refusedLikeTheTask(db, "streaming", "ALTER ROLE");
    }

    @PostgresTest(representative = 17)
    void theSnapshotRoleValidatesSnapshotsAndStreams(PostgresDatabase db) {
        try (Deployment run = Deployment.of(db, DocumentedRoles.role("snapshot"), null)) {
            assertThat(run.validationErrors()).isEmpty();
            run.deploy();
            assertThat(connect.awaitRecords(run.topic("public.customers"), 2, WAIT)).hasSize(2);
            assertThat(connect.awaitRecords(run.topic("public.orders"), 2, WAIT)).hasSize(2);
        }
    }

    @PostgresTest(representative = 17)
    void theSnapshotRoleWithoutSelectIsRefusedOnTheSnapshotModeAndItsTaskFails(PostgresDatabase db) {
        refusedLikeTheTask(db, "snapshot", "GRANT SELECT");
    }

    @PostgresTest(representative = 17)
    void theFilteredRoleValidatesCreatesThePublicationAndSnapshots(PostgresDatabase db) {
        try (Deployment run = Deployment.of(db, DocumentedRoles.role("filtered"), null)) {
            assertThat(run.validationErrors()).isEmpty();
            run.deploy();
            assertThat(connect.awaitRecords(run.topic("public.orders"), 2, WAIT)).hasSize(2);
            assertThat(db.queryValue("SELECT count(*) FROM pg_publication_tables WHERE pubname = 'dbz_publication'")).isEqualTo("2");
        }
    }

    @PostgresTest(representative = 17)
    void theFilteredRoleWithoutOwnershipIsRefusedOnTheAutocreateModeAndItsTaskFails(PostgresDatabase db) {
        refusedLikeTheTask(db, "filtered", "GRANT shop_owner");
    }

    @PostgresTest(representative = 17)
    void theReadOnlyRoleTakesAnIncrementalSnapshotAskedForByAMessage(PostgresDatabase db) {
        try (Deployment run = Deployment.of(db, DocumentedRoles.role("readonly"), null)) {
            assertThat(run.validationErrors()).isEmpty();
            run.deploy();
            run.awaitSlotActive();
            run.signalSnapshotOfOrders();
            assertThat(connect.awaitRecords(run.topic("public.orders"), 2, WAIT)).map(ConnectWorkerCluster::valueText)
                    .allSatisfy(value -> assertThat(value).contains("\"op\":\"r\""));
        }
    }

    @PostgresTest(representative = 17)
    void theReadOnlyRoleWithoutSelectIsRefusedBecauseItsSnapshotWouldLeaveTheTableOut(PostgresDatabase db) {
        refusedLikeTheTask(db, "readonly", "GRANT SELECT");
    }

    // ---- nightly -----------------------------------------------------------------------------------------------

    @Nightly
    @PostgresTest
    void theSignalTableRoleValidatesAndTakesAnIncrementalSnapshotAskedForByARow(PostgresDatabase db) {
        try (Deployment run = Deployment.of(db, DocumentedRoles.role("signals"), null)) {
            assertThat(run.validationErrors()).isEmpty();
            run.deploy();
            run.awaitSlotActive();
            db.execute("INSERT INTO public.debezium_signal VALUES ('1', 'execute-snapshot', '{\"data-collections\":[\"public.orders\"]}')");
            assertThat(connect.awaitRecords(run.topic("public.orders"), 2, WAIT)).map(ConnectWorkerCluster::valueText)
                    .allSatisfy(value -> assertThat(value).contains("\"op\":\"r\""));
        }
    }

    /** Every GRANT of every role, dropped in turn, each on a database of its own. */
    @Nightly
    @PostgresTest
    void everyGrantOfEveryRoleIsNeededAndItsAbsenceIsRefusedLikeTheTaskWouldFail(PostgresDatabase db) {
        for (Role role : DocumentedRoles.all().values()) {
            for (String grant : role.grants()) {
                String name = db.name() + "_" + VARIANTS.incrementAndGet();
                db.cluster().createDatabase(name);
                try {
                    refusedLikeTheTask(new PostgresDatabase(db.cluster(), name), role.name(), grant);
                } finally {
                    db.cluster().dropDatabase(name);
                }
            }
        }
    }

    // ---- the comparison ----------------------------------------------------------------------------------------

    /**
     * Creates the role without the one GRANT (or ALTER ROLE) of its block that starts with {@code dropped}, and shows
     * that validation refuses the page's configuration on the key that decides, quoting that statement, and that the
     * task started with it anyway fails at start (or, when the key turns incremental snapshots on, takes no row of a
     * table a signal asks for).
     */
    private static void refusedLikeTheTask(PostgresDatabase db, String roleName, String dropped) {
        Role role = DocumentedRoles.role(roleName);
        String grant = role.grants().stream().filter(g -> g.startsWith(dropped)).findFirst()
                .orElseThrow(() -> new IllegalStateException("no statement of role " + roleName + " starts with " + dropped));
        try (Deployment run = Deployment.of(db, role, grant)) {
            String key = run.keyThatDecides(grant);

            Map<String, List<String>> errors = run.validationErrors();

            assertThat(errors).as("validation without: %s", grant).containsKey(key);
            assertThat(errors.get(key)).as("the error on %s", key).anySatisfy(message ->
                    assertThat(DocumentedRoles.normalized(message)).contains(DocumentedRoles.normalized(run.sql(grant))));
            if (key.startsWith("signal.")) {
                assertThat(run.incrementalSnapshotRowsInProcess()).as("rows of public.orders an incremental snapshot emits").isZero();
            } else {
                Throwable failure = run.taskFailureInProcess();
                assertThat(failure).as("the task's failure at start without: %s", grant).isNotNull()
                        .isInstanceOf(ConnectException.class).isNotInstanceOf(RetriableException.class);
                // The task says what validation says: the same statement (the CONNECT refusal names no role, so the
                // task can only write <database.user> in its place).
                String expected = DocumentedRoles.normalized(run.sql(grant))
                        .replace(DocumentedRoles.normalized(run.sql(role.roleName())), "<database.user>");
                assertThat(DocumentedRoles.normalized(failure.getMessage())).as("the task's failure")
                        .satisfiesAnyOf(m -> assertThat(m).contains(DocumentedRoles.normalized(run.sql(grant))), m -> assertThat(m).contains(expected));
            }
        }
    }

    /** One role on one database, with the connector configuration of its block; drops what it made when closed. */
    private static final class Deployment implements AutoCloseable {

        private final PostgresDatabase db;
        private final Role role;
        private final Names names;
        private final Map<String, String> config = new HashMap<>();
        private final String connector;
        private boolean deployed;

        private Deployment(PostgresDatabase db, Role role, Names names) {
            this.db = db;
            this.role = role;
            this.names = names;
            int variant = VARIANTS.incrementAndGet();
            this.connector = "least-" + role.name() + "-" + variant;
            config.put("name", connector);
            config.put("connector.class", PgOutputSourceConnector.class.getName());
            config.put("tasks.max", "1");
            config.put("database.hostname", db.host());
            config.put("database.port", Integer.toString(db.port()));
            config.put("database.dbname", db.name());
            config.put("database.password", "change-me");
            config.put("slot.name", "least_" + role.name() + "_" + variant);
            config.put("topic.prefix", "least" + variant);
            config.put("key.converter", "org.apache.kafka.connect.json.JsonConverter");
            config.put("key.converter.schemas.enable", "false");
            config.put("value.converter", "org.apache.kafka.connect.json.JsonConverter");
            config.put("value.converter.schemas.enable", "false");
            config.put("topic.creation.default.replication.factor", "1");
            config.put("topic.creation.default.partitions", "1");
            role.properties().forEach((key, value) -> config.put(key, sql(value)));
        }

        /** The page's block on a hardened database, all of it or without {@code dropped}. */
        static Deployment of(PostgresDatabase db, Role role, String dropped) {
            Names names = new Names(db.name(), "owner_" + db.name(), "_" + db.name().replace("test_", "") + "_" + VARIANTS.incrementAndGet());
            db.execute("CREATE ROLE " + names.owner() + " NOLOGIN",
                    "REVOKE ALL ON DATABASE " + db.name() + " FROM PUBLIC",
                    "REVOKE ALL ON SCHEMA public FROM PUBLIC",
                    "GRANT USAGE, CREATE ON SCHEMA public TO " + names.owner(),
                    "CREATE TABLE public.customers (id bigint PRIMARY KEY, name text NOT NULL)",
                    "CREATE TABLE public.orders (id bigint PRIMARY KEY, customer_id bigint NOT NULL, total numeric(12,2) NOT NULL)",
                    "ALTER TABLE public.customers OWNER TO " + names.owner(),
                    "ALTER TABLE public.orders OWNER TO " + names.owner(),
                    "INSERT INTO public.customers VALUES (1, 'Ada'), (2, 'Edgar')",
                    "INSERT INTO public.orders VALUES (1, 1, 42.50), (2, 2, 7.00)");
            for (String statement : role.statements()) {
                if (!statement.equals(dropped)) {
                    db.execute(DocumentedRoles.Role.sql(statement, names));
                }
            }
            return new Deployment(db, role, names);
        }

        String sql(String pageText) {
            return DocumentedRoles.Role.sql(pageText, names);
        }

        String topic(String table) {
            return config.get("topic.prefix") + "." + table;
        }

        Map<String, List<String>> validationErrors() {
            return connect.validationErrors(PgOutputSourceConnector.class.getName(), config);
        }

        void deploy() {
            connect.configureConnector(connector, config);
            deployed = true;
            connect.awaitRunning(connector, 1, WAIT);
        }

        void awaitSlotActive() {
            ConnectWorkerCluster.awaitCondition(WAIT, "slot " + config.get("slot.name") + " streaming", () -> !db.query(
                    "SELECT 1 FROM pg_replication_slots WHERE slot_name = '" + config.get("slot.name") + "' AND active").isEmpty());
        }

        void signalSnapshotOfOrders() {
            db.execute("SELECT pg_logical_emit_message(false, 'pgoutput-signal', '{\"type\":\"execute-snapshot\","
                    + "\"data\":{\"data-collections\":[\"public.orders\"]}}')");
        }

        /**
         * The key validation must refuse {@code grant}'s absence on: the user for REPLICATION and CONNECT, the autocreate
         * mode for what creating the publication needs, and for reading the tables the snapshot mode when it snapshots,
         * else the key that turns incremental snapshots on.
         */
        String keyThatDecides(String grant) {
            String upper = grant.toUpperCase(java.util.Locale.ROOT);
            if (upper.startsWith("ALTER ROLE") || upper.startsWith("GRANT CONNECT")) {
                return DatabaseKeys.DATABASE_USER_CONFIG;
            }
            if (upper.startsWith("GRANT CREATE ON DATABASE") || upper.startsWith("GRANT SHOP_OWNER")) {
                return ReplicationKeys.PUBLICATION_AUTOCREATE_MODE_CONFIG;
            }
            if (!"no_data".equals(config.get(SnapshotKeys.SNAPSHOT_MODE_CONFIG))) {
                return SnapshotKeys.SNAPSHOT_MODE_CONFIG;
            }
            return config.containsKey(SnapshotKeys.SIGNAL_DATA_COLLECTION_CONFIG)
                    ? SnapshotKeys.SIGNAL_DATA_COLLECTION_CONFIG : SnapshotKeys.SIGNAL_ENABLED_CHANNELS_CONFIG;
        }

        /** Starts the task in this JVM, as a worker would, and polls it: its permanent failure, or null within 60 s. */
        Throwable taskFailureInProcess() {
            PgOutputSourceTask task = new PgOutputSourceTask();
            task.initialize(new FirstStart(config));
            try {
                task.start(config);
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                while (System.nanoTime() < deadline) {
                    try {
                        task.poll();
                    } catch (RetriableException e) {
                        // Connect calls poll() again.
                    }
                }
                return null;
            } catch (ConnectException e) {
                return e;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            } finally {
                task.stop();
            }
        }

        /**
         * Starts the task in this JVM, waits until it streams, asks for an incremental snapshot of public.orders with a
         * message, and counts the rows of that table it emits within 20 s.
         */
        int incrementalSnapshotRowsInProcess() {
            PgOutputSourceTask task = new PgOutputSourceTask();
            task.initialize(new FirstStart(config));
            int rows = 0;
            try {
                task.start(config);
                boolean signalled = false;
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                long counting = Long.MAX_VALUE;
                while (System.nanoTime() < Math.min(deadline, counting)) {
                    List<SourceRecord> records = task.poll();
                    if (records != null) {
                        rows += (int) records.stream().filter(r -> r.topic().equals(topic("public.orders"))).count();
                    }
                    if (!signalled && !db.query("SELECT 1 FROM pg_replication_slots WHERE slot_name = '" + config.get("slot.name")
                            + "' AND active").isEmpty()) {
                        if (config.containsKey(SnapshotKeys.SIGNAL_DATA_COLLECTION_CONFIG)) {
                            db.execute(sql("INSERT INTO public.debezium_signal VALUES ('1', 'execute-snapshot',"
                                    + " '{\"data-collections\":[\"public.orders\"]}')"));
                        } else {
                            signalSnapshotOfOrders();
                        }
                        signalled = true;
                        counting = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
                    }
                }
                assertThat(signalled).as("the task streamed within 60 s").isTrue();
                return rows;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            } finally {
                task.stop();
            }
        }

        @Override
        public void close() {
            if (deployed) {
                connect.deleteConnector(connector);
                ConnectWorkerCluster.awaitCondition(WAIT, "slot released", () -> db.query("SELECT 1 FROM pg_replication_slots"
                        + " WHERE slot_name = '" + config.get("slot.name") + "' AND active").isEmpty());
            }
            List<String> roles = new ArrayList<>(List.of(names.owner()));
            String user = config.get(DatabaseKeys.DATABASE_USER_CONFIG);
            roles.add(user);
            db.execute("DROP OWNED BY " + String.join(", ", roles) + " CASCADE");
            for (String r : roles) {
                db.execute("DROP ROLE " + r);
            }
        }
    }

    /** A task context as Connect gives a connector's first task: no stored offset. */
    private record FirstStart(Map<String, String> configs) implements SourceTaskContext {

        @Override
        public OffsetStorageReader offsetStorageReader() {
            return new OffsetStorageReader() {
                @Override
                public <T> Map<String, Object> offset(Map<String, T> partition) {
                    return null;
                }

                @Override
                public <T> Map<Map<String, T>, Map<String, Object>> offsets(Collection<Map<String, T>> partitions) {
                    return new HashMap<>();
                }
            };
        }

        /** No plugin metrics outside a worker (the simulation's context gives none either). */
        @Override
        public org.apache.kafka.common.metrics.PluginMetrics pluginMetrics() {
            return null;
        }
    }
}
