package io.github.pgoutput.replication;

import io.github.pgoutput.pgoutput.Lsn;
import io.github.pgoutput.pgoutput.StreamingMode;
import io.github.pgoutput.replication.PreflightChecks.Problem;
import io.github.pgoutput.testing.PostgresCluster;
import io.github.pgoutput.testing.PostgresDatabase;
import io.github.pgoutput.testing.PostgresTest;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Each pre-condition is reported against the setting to change, with what to do. */
class PreflightChecksIT {

    @PostgresTest
    @Timeout(60)
    void aCorrectSetupHasNoProblems(PostgresDatabase db) {
        db.execute("CREATE TABLE t (id int PRIMARY KEY)", "CREATE PUBLICATION pub FOR TABLE t");

        assertThat(PreflightChecks.check(LiveStreams.settings(db, "fine", "pub").twoPhase(true).build())).isEmpty();
    }

    @PostgresTest
    @Timeout(60)
    void aMissingPublicationIsBlamedOnThePublicationName(PostgresDatabase db) {
        ReplicationSettings settings = LiveStreams.settings(db, "nopub", "nosuchpub").build();

        assertThat(PreflightChecks.check(settings)).singleElement().satisfies(p -> {
            assertThat(p.setting()).isEqualTo(Setting.PUBLICATION_NAME);
            assertThat(p.message()).contains("publication 'nosuchpub' does not exist").contains("CREATE PUBLICATION")
                    .contains("publication.autocreate.mode=all_tables").contains("or filtered");
        });
        assertThatThrownBy(() -> ReplicationSession.open(settings, Lsn.INVALID))
                .isInstanceOfSatisfying(ReplicationSetupException.class, e -> assertThat(e.setting()).isEqualTo(Setting.PUBLICATION_NAME));
        assertThat(db.queryValue("SELECT count(*) FROM pg_replication_slots WHERE slot_name = 'nopub'")).as("no slot made").isEqualTo("0");
    }

    @PostgresTest
    @Timeout(60)
    void aSlotOfAnotherPluginIsRefused(PostgresDatabase db) {
        db.execute("CREATE PUBLICATION pub FOR ALL TABLES", "SELECT pg_create_logical_replication_slot('other_plugin', 'test_decoding')");

        assertThat(problems(db, "other_plugin")).singleElement().satisfies(p -> {
            assertThat(p.setting()).isEqualTo(Setting.SLOT_NAME);
            assertThat(p.message()).contains("uses the output plugin 'test_decoding', not 'pgoutput'");
        });
    }

    @PostgresTest
    @Timeout(60)
    void aSlotOfAnotherDatabaseIsRefused(PostgresDatabase db) {
        db.execute("CREATE PUBLICATION pub FOR ALL TABLES");
        String other = db.name() + "_other";
        db.cluster().createDatabase(other);
        try {
            db.cluster().execute(other, "SELECT pg_create_logical_replication_slot('elsewhere', 'pgoutput')");

            assertThat(problems(db, "elsewhere")).singleElement().satisfies(p -> {
                assertThat(p.setting()).isEqualTo(Setting.SLOT_NAME);
                assertThat(p.message()).contains("belongs to database '" + other + "', not '" + db.name() + "'");
            });
        } finally {
            db.cluster().dropDatabase(other);
        }
    }

    @PostgresTest
    @Timeout(60)
    void aSlotActiveForAnotherPidIsARetriableProblemNamingTheHolderWithoutAdvisingToTerminateIt(PostgresDatabase db) {
        db.execute("CREATE PUBLICATION pub FOR ALL TABLES");
        try (ReplicationSession holder = ReplicationSession.open(LiveStreams.settings(db, "held", "pub")
                .applicationName("another-consumer").build(), Lsn.INVALID)) {
            String pid = db.queryValue("SELECT active_pid FROM pg_replication_slots WHERE slot_name = 'held'");

            assertThat(problems(db, "held")).singleElement().satisfies(p -> {
                assertThat(p.setting()).isEqualTo(Setting.SLOT_NAME);
                assertThat(p.retriable()).isTrue();
                assertThat(p.message()).contains("in use by another consumer (walsender PID " + pid
                                + ", application_name 'another-consumer', client 127.0.0.1)")
                        .contains("slot.name").doesNotContain("pg_terminate_backend");
            });
        }
    }

    @PostgresTest
    @Timeout(60)
    void aSlotHeldByThisClientsOwnSessionIsNoProblemForValidation(PostgresDatabase db) {
        db.execute("CREATE PUBLICATION pub FOR ALL TABLES");
        ReplicationSettings settings = LiveStreams.settings(db, "own", "pub").applicationName("kafka-connect-pgoutput:orders").build();
        try (ReplicationSession running = ReplicationSession.open(settings, Lsn.INVALID)) {
            assertThat(PreflightChecks.check(settings)).as("the connector's own running task").isEmpty();
            assertThat(PreflightChecks.check(settings.toBuilder().applicationName("kafka-connect-pgoutput:other").build()))
                    .singleElement().satisfies(p -> assertThat(p.message()).contains("in use by another consumer"));
        }
    }

    /**
     * The in-place switch of a Debezium connector's connector.class: Connect validates the new configuration while
     * Debezium's task still streams from the slot, and stops that task before it starts the new one. At session start
     * the same holder is a problem (retried by slot.max.retries), so nothing is taken from it.
     */
    @PostgresTest
    @Timeout(60)
    void aSlotHeldByDebeziumsReplicationConnectionIsNoProblemForValidationButIsForASession(PostgresDatabase db) throws Exception {
        db.execute("CREATE PUBLICATION pub FOR ALL TABLES");
        ReplicationSettings debezium = LiveStreams.settings(db, "switched", "pub")
                .applicationName(PreflightChecks.DEBEZIUM_STREAMING_APPLICATION_NAME).build();
        ReplicationSettings ours = debezium.toBuilder().applicationName("kafka-connect-pgoutput:inventory-connector").build();
        try (ReplicationSession running = ReplicationSession.open(debezium, Lsn.INVALID)) {
            assertThat(PreflightChecks.check(ours)).as("validation of the switched configuration").isEmpty();
            try (java.sql.Connection sql = PgConnections.openSql(ours)) {
                assertThat(PreflightChecks.check(sql, ours)).singleElement().satisfies(p -> {
                    assertThat(p.retriable()).isTrue();
                    assertThat(p.message()).contains("application_name 'Debezium Streaming'");
                });
            }
        }
    }

    @PostgresTest
    @Timeout(60)
    void aRoleWithoutReplicationIsBlamedOnTheUser(PostgresDatabase db) {
        String role = db.name() + "_plain";
        db.execute("CREATE PUBLICATION pub FOR ALL TABLES", "CREATE ROLE " + role + " LOGIN");
        try {
            ReplicationSettings settings = ReplicationSettings.builder(db.host(), db.port(), db.name(), role, "plain", "pub").build();

            assertThat(PreflightChecks.check(settings)).singleElement().satisfies(p -> {
                assertThat(p.setting()).isEqualTo(Setting.USER);
                assertThat(p.message()).contains("neither the REPLICATION attribute nor superuser").contains("WITH REPLICATION");
            });
        } finally {
            db.execute("DROP ROLE " + role);
        }
    }

    /**
     * Amazon RDS gives no REPLICATION attribute: its rds_replication role lets members use slots, so membership counts;
     * and whether a managed service's administrator may create FOR ALL TABLES is the service's rule, left to the
     * start. Simulated with roles of those names, which a plain server gives no such power (only the checks are shown).
     */
    @PostgresTest(representative = 17)
    @Timeout(60)
    void membersOfTheManagedServicesRolesAreNotRefusedWhatTheServiceAllowsThem(PostgresDatabase db) {
        String role = db.name() + "_rds";
        db.execute("CREATE ROLE rds_replication NOLOGIN", "CREATE ROLE rds_superuser NOLOGIN", "CREATE ROLE " + role + " LOGIN",
                "GRANT rds_replication TO rds_superuser", "GRANT rds_superuser TO " + role);
        try {
            ReplicationSettings settings = ReplicationSettings.builder(db.host(), db.port(), db.name(), role, "rds", "rds_pub")
                    .publication(PublicationMode.ALL_TABLES, List.of()).build();

            assertThat(PreflightChecks.check(settings)).isEmpty();
        } finally {
            db.execute("DROP ROLE " + role, "DROP ROLE rds_superuser", "DROP ROLE rds_replication");
        }
    }

    @PostgresTest
    @Timeout(60)
    void aTwoPhaseSlotIsRefusedForProtocolsThatCannotCarryPreparedTransactions(PostgresDatabase db) {
        // Spec 6.5 / section 9 item 2: the slot would send b/P/K/r even on protocol 1.
        db.execute("CREATE PUBLICATION pub FOR ALL TABLES", "SELECT pg_create_logical_replication_slot('tp', 'pgoutput', false, true)");
        ReplicationSettings settings = LiveStreams.settings(db, "tp", "pub").protocolVersion(1).streaming(StreamingMode.OFF).build();

        assertThat(PreflightChecks.check(settings)).singleElement().satisfies(p -> {
            assertThat(p.setting()).isEqualTo(Setting.PROTOCOL_VERSION);
            assertThat(p.message()).contains("has two_phase enabled").contains("use protocol version 3 or higher");
        });
        assertThatThrownBy(() -> ReplicationSession.open(settings, Lsn.INVALID)).isInstanceOf(ReplicationSetupException.class);
    }

    @PostgresTest
    @Timeout(60)
    void anUnreachableServerIsBlamedOnTheHostAsRetriable(PostgresDatabase db) {
        ReplicationSettings settings = ReplicationSettings.builder(db.host(), 1, db.name(), db.user(), "s", "pub").build();

        assertThat(PreflightChecks.check(settings)).singleElement().satisfies(p -> {
            assertThat(p.setting()).isEqualTo(Setting.HOSTNAME);
            assertThat(p.retriable()).isTrue();
        });
    }

    @PostgresTest
    @Timeout(120)
    void aServerNotSetUpForLogicalReplicationGetsOneProblemPerSetting(PostgresDatabase db) {
        Map<String, String> misconfigured = Map.of("wal_level", "replica", "max_prepared_transactions", "0",
                "max_replication_slots", "1", "max_wal_senders", "0");
        try (PostgresCluster cluster = PostgresCluster.start(db.majorVersion(), misconfigured)) {
            cluster.execute("postgres", "SELECT pg_create_physical_replication_slot('fills_the_only_place')");
            ReplicationSettings settings = ReplicationSettings.builder(cluster.host(), cluster.port(), "postgres", PostgresCluster.SUPERUSER,
                    "wanted", "pub").publication(PublicationMode.ALL_TABLES, List.of()).twoPhase(true).build();

            List<Problem> problems = PreflightChecks.check(settings);

            assertThat(problems).extracting(Problem::message).anySatisfy(m -> assertThat(m).contains("wal_level is 'replica'")
                    .contains("set wal_level = logical"));
            assertThat(problems).anySatisfy(p -> {
                assertThat(p.setting()).isEqualTo(Setting.TWO_PHASE);
                assertThat(p.message()).contains("max_prepared_transactions is 0");
            });
            assertThat(problems).anySatisfy(p -> {
                assertThat(p.setting()).isEqualTo(Setting.SLOT_NAME);
                assertThat(p.message()).contains("all 1 replication slots (max_replication_slots) are in use");
            });
            assertThat(problems).anySatisfy(p -> {
                assertThat(p.setting()).isEqualTo(Setting.HOSTNAME);
                assertThat(p.message()).contains("all 0 walsenders (max_wal_senders) are in use");
            });
            assertThat(problems).hasSize(4);
        }
    }

    private static List<Problem> problems(PostgresDatabase db, String slot) {
        return PreflightChecks.check(LiveStreams.settings(db, slot, "pub").build());
    }
}
