package io.github.pgoutput.snapshot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/**
 * The slot-creation command per server version. PostgreSQL 15 introduced the option list {@code (SNAPSHOT 'export',
 * TWO_PHASE)}; PostgreSQL 14, which protocol negotiation accepts, only parses {@code ... LOGICAL pgoutput
 * EXPORT_SNAPSHOT}. (No PostgreSQL 14 server is available to the integration tests, hence this pure test.)
 */
class ExportedSnapshotTest {

    @Test
    void usesTheOlderSyntaxOnPostgres14() {
        assertThat(ExportedSnapshot.createSlotCommand("s1", false, false, 14))
                .isEqualTo("CREATE_REPLICATION_SLOT s1 LOGICAL pgoutput EXPORT_SNAPSHOT");
        assertThat(ExportedSnapshot.createSlotCommand("s1", true, false, 14))
                .isEqualTo("CREATE_REPLICATION_SLOT s1 TEMPORARY LOGICAL pgoutput EXPORT_SNAPSHOT");
    }

    @Test
    void usesTheOptionListFromPostgres15On() {
        for (int major = 15; major <= 18; major++) {
            assertThat(ExportedSnapshot.createSlotCommand("s1", false, false, major))
                    .isEqualTo("CREATE_REPLICATION_SLOT s1 LOGICAL pgoutput (SNAPSHOT 'export')");
        }
        assertThat(ExportedSnapshot.createSlotCommand("s1", true, true, 15))
                .isEqualTo("CREATE_REPLICATION_SLOT s1 TEMPORARY LOGICAL pgoutput (SNAPSHOT 'export', TWO_PHASE)");
    }

    @Test
    void refusesATwoPhaseSlotOnPostgres14() {
        assertThatThrownBy(() -> ExportedSnapshot.createSlotCommand("s1", false, true, 14))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("PostgreSQL 15");
    }

    @Test
    void asksForAFailoverSlotWithTheFailoverOptionFromPostgres17On() {
        for (int major = 17; major <= 18; major++) {
            assertThat(ExportedSnapshot.createSlotCommand("s1", false, false, true, major))
                    .isEqualTo("CREATE_REPLICATION_SLOT s1 LOGICAL pgoutput (SNAPSHOT 'export', FAILOVER)");
        }
        assertThat(ExportedSnapshot.createSlotCommand("s1", false, true, true, 17))
                .isEqualTo("CREATE_REPLICATION_SLOT s1 LOGICAL pgoutput (SNAPSHOT 'export', TWO_PHASE, FAILOVER)");
    }

    @Test
    void withoutFailoverTheCommandIsTheOneOfEarlierReleases() {
        for (int major = 14; major <= 18; major++) {
            assertThat(ExportedSnapshot.createSlotCommand("s1", false, false, false, major))
                    .isEqualTo(ExportedSnapshot.createSlotCommand("s1", false, false, major));
        }
    }

    @Test
    void refusesAFailoverSlotBeforePostgres17() {
        assertThatThrownBy(() -> ExportedSnapshot.createSlotCommand("s1", false, false, true, 16))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("PostgreSQL 17").hasMessageContaining("PostgreSQL 16");
    }
}
