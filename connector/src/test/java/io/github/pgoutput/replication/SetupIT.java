package io.github.pgoutput.replication;

import io.github.pgoutput.pgoutput.Lsn;
import io.github.pgoutput.testing.PostgresDatabase;
import io.github.pgoutput.testing.PostgresTest;
import org.junit.jupiter.api.Timeout;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The session creates a missing publication and slot when allowed. */
class SetupIT {

    @PostgresTest
    @Timeout(60)
    void createsAnAllTablesPublicationAndATwoPhaseSlot(PostgresDatabase db) {
        ReplicationSettings settings = LiveStreams.settings(db, "made_tp", "all_pub")
                .publication(PublicationMode.ALL_TABLES, List.of()).twoPhase(true).build();

        try (ReplicationSession session = ReplicationSession.open(settings, Lsn.INVALID)) {
            assertThat(session.preparedTransactionsDecoded()).isTrue();
        }

        assertThat(db.queryValue("SELECT puballtables FROM pg_publication WHERE pubname = 'all_pub'")).isEqualTo("t");
        assertThat(db.queryValue("SELECT plugin || ' ' || two_phase || ' ' || database FROM pg_replication_slots WHERE slot_name = 'made_tp'"))
                .isEqualTo("pgoutput true " + db.name());
    }

    @PostgresTest
    @Timeout(60)
    void createsAFilteredPublicationQuotingEveryName(PostgresDatabase db) {
        db.execute("CREATE SCHEMA \"Mixed Case\"", "CREATE TABLE \"Mixed Case\".\"Odd\"\"Name\" (id int PRIMARY KEY)",
                "CREATE TABLE plain (id int PRIMARY KEY)", "CREATE TABLE not_listed (id int PRIMARY KEY)");
        ReplicationSettings settings = LiveStreams.settings(db, "filtered", "My Pub")
                .publication(PublicationMode.FILTERED, List.of(TableName.parse("Mixed Case.Odd\"Name"), TableName.parse("plain"))).build();

        ReplicationSession.open(settings, Lsn.INVALID).close();

        assertThat(db.query("SELECT schemaname || '.' || tablename FROM pg_publication_tables WHERE pubname = 'My Pub' ORDER BY 1"))
                .containsExactly(List.of("Mixed Case.Odd\"Name"), List.of("public.plain"));
    }

    @PostgresTest
    @Timeout(60)
    void anExistingSlotWithoutTwoPhaseGetsItWhenTwoPhaseIsAskedFor(PostgresDatabase db) {
        db.execute("CREATE PUBLICATION pub FOR ALL TABLES", "SELECT pg_create_logical_replication_slot('late_tp', 'pgoutput')");

        ReplicationSession.open(LiveStreams.settings(db, "late_tp", "pub").twoPhase(true).build(), Lsn.INVALID).close();

        assertThat(db.queryValue("SELECT two_phase FROM pg_replication_slots WHERE slot_name = 'late_tp'")).isEqualTo("t");
    }
}
