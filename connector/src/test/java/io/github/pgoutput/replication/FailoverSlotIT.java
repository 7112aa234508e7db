package io.github.pgoutput.replication;

import io.github.pgoutput.pgoutput.Lsn;
import io.github.pgoutput.snapshot.ExportedSnapshot;
import io.github.pgoutput.testing.PostgresCluster;
import io.github.pgoutput.testing.PostgresDatabase;
import io.github.pgoutput.testing.PostgresTest;
import org.junit.jupiter.api.Timeout;
import org.postgresql.PGConnection;
import org.postgresql.replication.LogSequenceNumber;
import org.postgresql.replication.PGReplicationStream;

import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@code slot.failover} on real servers: PostgreSQL 17+ creates the slot as a failover slot, on the streaming path and
 * with an exported snapshot, and turns the option on for an existing slot; older servers refuse it on the failover
 * setting before any slot is made; and the primary's figures name what a safe failover still lacks.
 */
class FailoverSlotIT {

    @PostgresTest(minVersion = 17)
    @Timeout(60)
    void aNewSlotOfTheStreamingPathIsAFailoverSlot(PostgresDatabase db) {
        db.execute("CREATE PUBLICATION pub FOR ALL TABLES");

        try (ReplicationSession session = ReplicationSession.open(LiveStreams.settings(db, "fo_new", "pub").failover(true).build(),
                Lsn.INVALID)) {
            assertThat(failoverOf(db, "fo_new")).isEqualTo("t");
            assertThat(session.failoverReadiness()).hasValueSatisfying(r -> assertThat(r.failoverSlot()).isTrue());
        }
    }

    @PostgresTest(minVersion = 17)
    @Timeout(60)
    void withoutFailoverANewSlotIsNoFailoverSlot(PostgresDatabase db) {
        db.execute("CREATE PUBLICATION pub FOR ALL TABLES");

        try (ReplicationSession session = ReplicationSession.open(LiveStreams.settings(db, "fo_off", "pub").build(), Lsn.INVALID)) {
            assertThat(failoverOf(db, "fo_off")).isEqualTo("f");
            assertThat(session.failoverReadiness()).hasValueSatisfying(r -> assertThat(r.failoverSlot()).isFalse());
        }
    }

    @PostgresTest(minVersion = 17)
    @Timeout(60)
    void aSlotCreatedWithAnExportedSnapshotIsAFailoverSlotUnlessItIsTemporary(PostgresDatabase db) throws Exception {
        db.execute("CREATE PUBLICATION pub FOR ALL TABLES");
        ReplicationSettings settings = LiveStreams.settings(db, "fo_snap", "pub").failover(true).build();

        try (ExportedSnapshot exported = ExportedSnapshot.create(settings, false, Duration.ofSeconds(30))) {
            assertThat(exported.snapshotName()).isNotBlank();
            assertThat(failoverOf(db, "fo_snap")).isEqualTo("t");
        }
        // PostgreSQL refuses failover for a temporary slot; such a slot ends with its connection, so it is made without.
        try (ExportedSnapshot exported = ExportedSnapshot.create(settings.toBuilder().slotName("fo_temp").build(), true,
                Duration.ofSeconds(30))) {
            assertThat(failoverOf(db, "fo_temp")).isEqualTo("f");
        }
    }

    @PostgresTest(minVersion = 17)
    @Timeout(60)
    void anExistingSlotIsMadeAFailoverSlot(PostgresDatabase db) {
        db.execute("CREATE PUBLICATION pub FOR ALL TABLES", "SELECT pg_create_logical_replication_slot('fo_old', 'pgoutput')");
        assertThat(failoverOf(db, "fo_old")).isEqualTo("f");

        try (ReplicationSession session = ReplicationSession.open(LiveStreams.settings(db, "fo_old", "pub").failover(true).build(),
                Lsn.INVALID)) {
            assertThat(failoverOf(db, "fo_old")).isEqualTo("t");
        }
    }

    @PostgresTest(maxVersion = 16)
    @Timeout(60)
    void olderServersRefuseFailoverOnTheFailoverSettingBeforeMakingASlot(PostgresDatabase db) {
        db.execute("CREATE PUBLICATION pub FOR ALL TABLES");
        ReplicationSettings settings = LiveStreams.settings(db, "fo_refused", "pub").failover(true).build();
        String version = "PostgreSQL " + db.majorVersion();

        assertThat(PreflightChecks.check(settings)).singleElement().satisfies(p -> {
            assertThat(p.setting()).isEqualTo(Setting.SLOT_FAILOVER);
            assertThat(p.message()).contains(version).contains("PostgreSQL 17").contains("slot.failover=false");
        });
        assertThatThrownBy(() -> ReplicationSession.open(settings, Lsn.INVALID))
                .isInstanceOfSatisfying(ReplicationSetupException.class, e -> assertThat(e.setting()).isEqualTo(Setting.SLOT_FAILOVER))
                .hasMessageContaining(version);
        assertThatThrownBy(() -> ExportedSnapshot.create(settings, false, Duration.ofSeconds(30)))
                .isInstanceOfSatisfying(ReplicationSetupException.class, e -> assertThat(e.setting()).isEqualTo(Setting.SLOT_FAILOVER))
                .hasMessageContaining(version);
        assertThat(db.queryValue("SELECT count(*) FROM pg_replication_slots WHERE slot_name = 'fo_refused'")).as("no slot made")
                .isEqualTo("0");
    }

    @PostgresTest(minVersion = 17)
    @Timeout(60)
    void withoutSynchronizedStandbySlotsTheWarningsNameItAndTheMissingStandby(PostgresDatabase db) {
        db.execute("CREATE PUBLICATION pub FOR ALL TABLES");

        try (ReplicationSession session = ReplicationSession.open(LiveStreams.settings(db, "fo_warn", "pub").failover(true).build(),
                Lsn.INVALID)) {
            FailoverSlots.Readiness readiness = session.failoverReadiness().orElseThrow();

            assertThat(readiness.synchronizedStandbySlots()).isEmpty();
            assertThat(readiness.physicalStandbys()).as("this connector's own walsender is a logical one, no standby").isZero();
            assertThat(FailoverSlots.warnings("fo_warn", true, readiness))
                    .anySatisfy(w -> assertThat(w).contains("synchronized_standby_slots is empty"))
                    .anySatisfy(w -> assertThat(w).contains("no standby streams from this server"))
                    .hasSize(2);
        }
    }

    /**
     * A physical replication stream stands in for a standby: it shows in pg_stat_replication as a walsender without a
     * database, on the physical slot that synchronized_standby_slots lists.
     */
    @PostgresTest(minVersion = 17)
    @Timeout(60)
    void aStreamingStandbyOnAListedSlotLeavesNothingToWarnAbout(PostgresDatabase db) throws Exception {
        db.execute("CREATE PUBLICATION pub FOR ALL TABLES", "SELECT pg_create_physical_replication_slot('fo_standby', true)");
        PostgresCluster cluster = db.cluster();
        try (Connection physical = physicalReplication(db);
             PGReplicationStream standby = physical.unwrap(PGConnection.class).getReplicationAPI().replicationStream().physical()
                     .withSlotName("fo_standby").withStartPosition(LogSequenceNumber.valueOf(db.queryValue("SELECT pg_current_wal_lsn()")))
                     .start();
             AutoCloseable listed = cluster.withSystemSetting("synchronized_standby_slots", "fo_standby");
             Connection sql = db.connect()) {
            db.execute("SELECT pg_create_logical_replication_slot('fo_ready', 'pgoutput', false, false, true)");

            FailoverSlots.Readiness readiness = FailoverSlots.inspect(sql, "fo_ready", db.majorVersion());

            assertThat(standby.isClosed()).isFalse();
            assertThat(readiness.failoverSlot()).isTrue();
            assertThat(readiness.physicalStandbys()).isEqualTo(1);
            assertThat(readiness.synchronizedStandbySlots()).isEqualTo("fo_standby");
            assertThat(readiness.standbySlots()).containsExactly(new FailoverSlots.StandbySlot("fo_standby", true, true));
            assertThat(FailoverSlots.warnings("fo_ready", true, readiness)).isEmpty();
        } finally {
            LiveStreams.awaitSlotInactive(db, "fo_standby");
            db.execute("SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots WHERE slot_name IN ('fo_ready', 'fo_standby')");
        }
    }

    private static String failoverOf(PostgresDatabase db, String slot) {
        return db.queryValue("SELECT failover FROM pg_replication_slots WHERE slot_name = '" + slot + "'");
    }

    private static Connection physicalReplication(PostgresDatabase db) throws Exception {
        Properties properties = new Properties();
        properties.setProperty("user", db.user());
        properties.setProperty("replication", "true");
        properties.setProperty("preferQueryMode", "simple");
        properties.setProperty("assumeMinServerVersion", "10");
        return DriverManager.getConnection(db.jdbcUrl(), properties);
    }
}
