package io.github.pgoutput.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link PostgresCluster#startStandby}: a hot standby made by a low-level base backup of a running primary replays
 * what the primary commits, holds the primary's failover slot once synchronised (PostgreSQL 17+), refuses writes
 * until promoted and accepts them after; closing it stops it and deletes its files.
 */
@Timeout(180)
class PhysicalStandbyIT {

    static Stream<Integer> versions() {
        return PostgresExtension.selectedVersions().stream();
    }

    @ParameterizedTest(name = "PostgreSQL {0}")
    @MethodSource("versions")
    void replaysTheFailoverSlotAndRowsAndIsWritableOncePromoted(int version) {
        Path standbyFiles;
        try (PostgresCluster primary = PostgresCluster.start(version, Map.of());
             PostgresCluster standby = startedStandby(primary)) {
            standbyFiles = standby.baseDirectory();
            assertThat(standby.inRecovery()).isTrue();
            assertThat(standby.port()).isNotEqualTo(primary.port());

            primary.execute("postgres", "CREATE TABLE t (id int PRIMARY KEY, v text)", "INSERT INTO t VALUES (1, 'before')");
            if (version >= 17) {
                primary.execute("postgres", "SELECT pg_create_logical_replication_slot('fo', 'pgoutput', false, false, true)");
            }
            primary.execute("postgres", "INSERT INTO t VALUES (2, 'after the slot')");
            if (version >= 17) {
                moveOnTheSlot(primary, "fo");
            }
            standby.awaitReplayed(primary.currentWalLsn(), Duration.ofSeconds(60));

            assertThat(standby.queryValue("postgres", "SELECT string_agg(v, ',' ORDER BY id) FROM t")).isEqualTo("before,after the slot");
            assertThat(primary.queryValue("postgres", "SELECT active FROM pg_replication_slots WHERE slot_name = 'standby_1'"))
                    .as("the standby streams on its physical slot").isEqualTo("t");
            assertThatThrownBy(() -> standby.execute("postgres", "INSERT INTO t VALUES (3, 'on the standby')"))
                    .hasMessageContaining("read-only");
            if (version >= 17) {
                standby.awaitSyncedSlot("fo", Duration.ofSeconds(90));
                assertThat(standby.queryValue("postgres", "SELECT failover FROM pg_replication_slots WHERE slot_name = 'fo'")).isEqualTo("t");
                assertThatThrownBy(() -> standby.execute("postgres", "SELECT pg_replication_slot_advance('fo', pg_last_wal_replay_lsn())"))
                        .as("a synced slot cannot be used before the promotion")
                        .hasRootCauseInstanceOf(java.sql.SQLException.class)
                        .satisfies(e -> assertThat(((java.sql.SQLException) e.getCause()).getSQLState())
                                .as("object_not_in_prerequisite_state").isEqualTo("55000"))
                        .hasMessageContaining("being synchronized from the primary server");
            }

            primary.stop("immediate");
            standby.promote();

            assertThat(standby.inRecovery()).isFalse();
            standby.execute("postgres", "INSERT INTO t VALUES (3, 'on the new primary')");
            assertThat(standby.queryValue("postgres", "SELECT count(*) FROM t")).isEqualTo("3");
            if (version >= 17) {
                assertThat(standby.queryValue("postgres", "SELECT pg_replication_slot_advance('fo', pg_current_wal_lsn()) IS NOT NULL"))
                        .as("the synced slot is usable once promoted").isEqualTo("t");
            }
        }
        assertThat(standbyFiles).as("closing the standby deletes its files").doesNotExist();
    }

    /**
     * A synced slot stays temporary while the primary's slot needs an older catalog xmin than the standby can keep (the
     * standby's own horizon, the next transaction id). A slot's catalog xmin moves only when decoding passes a
     * running-transactions record; each round logs one (pg_log_standby_snapshot) without taking a transaction id,
     * waits for the WAL writer to flush it (advancing stops at the flushed WAL) and decodes past it.
     */
    private static void moveOnTheSlot(PostgresCluster primary, String slot) {
        for (int round = 0; round < 2; round++) {
            primary.execute("postgres", "SELECT pg_log_standby_snapshot()", "SELECT pg_sleep(0.3)",
                    "SELECT pg_replication_slot_advance('" + slot + "', pg_current_wal_lsn())");
        }
    }

    private static PostgresCluster startedStandby(PostgresCluster primary) {
        return primary.startStandby("standby_1", Map.of());
    }
}
