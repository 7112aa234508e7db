package io.github.pgoutput.replication;

import io.github.pgoutput.pgoutput.Lsn;
import io.github.pgoutput.pgoutput.StreamingMode;
import io.github.pgoutput.testing.PostgresDatabase;
import io.github.pgoutput.testing.PostgresTest;
import org.junit.jupiter.api.Timeout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Features a server version lacks are refused before START_REPLICATION, naming the setting (docs/pgoutput-protocol.md §5.1). */
class NegotiationRefusalIT {

    @PostgresTest(maxVersion = 15)
    @Timeout(60)
    void postgres15RefusesProtocol4ParallelStreamingAndTheOriginFilter(PostgresDatabase db) {
        db.execute("CREATE PUBLICATION pub FOR ALL TABLES");

        assertThatThrownBy(() -> open(LiveStreams.settings(db, "v4", "pub").protocolVersion(4).build()))
                .isInstanceOfSatisfying(ReplicationSetupException.class, e -> assertThat(e.setting()).isEqualTo(Setting.PROTOCOL_VERSION))
                .hasMessageContaining("PostgreSQL 15 speaks at most version 3");
        assertThatThrownBy(() -> open(LiveStreams.settings(db, "par", "pub").streaming(StreamingMode.PARALLEL).build()))
                .isInstanceOfSatisfying(ReplicationSetupException.class, e -> assertThat(e.setting()).isEqualTo(Setting.STREAMING))
                .hasMessageContaining("streaming PARALLEL needs PostgreSQL 16+");
        assertThatThrownBy(() -> open(LiveStreams.settings(db, "orig", "pub").origin(OriginFilter.NONE).build()))
                .isInstanceOfSatisfying(ReplicationSetupException.class, e -> assertThat(e.setting()).isEqualTo(Setting.ORIGIN));
        assertThat(db.queryValue("SELECT count(*) FROM pg_replication_slots")).as("nothing was created").isEqualTo("0");
    }

    @PostgresTest
    @Timeout(60)
    void autoNegotiatesTheHighestProtocolOfEachVersion(PostgresDatabase db) {
        db.execute("CREATE PUBLICATION pub FOR ALL TABLES");
        try (ReplicationSession session = open(LiveStreams.settings(db, "auto", "pub").build())) {
            assertThat(session.protocol().protocolVersion()).isEqualTo(db.majorVersion() == 15 ? 3 : 4);
            assertThat(session.serverMajorVersion()).isEqualTo(db.majorVersion());
        }
    }

    @PostgresTest
    @Timeout(60)
    void twoPhaseAndProtocol2AreRefusedOnEveryVersion(PostgresDatabase db) {
        db.execute("CREATE PUBLICATION pub FOR ALL TABLES");

        assertThatThrownBy(() -> open(LiveStreams.settings(db, "tp2", "pub").protocolVersion(2).twoPhase(true).build()))
                .isInstanceOfSatisfying(ReplicationSetupException.class, e -> assertThat(e.setting()).isEqualTo(Setting.TWO_PHASE))
                .hasMessageContaining("protocol version 3 or higher");
    }

    private static ReplicationSession open(ReplicationSettings settings) {
        return ReplicationSession.open(settings, Lsn.INVALID);
    }
}
