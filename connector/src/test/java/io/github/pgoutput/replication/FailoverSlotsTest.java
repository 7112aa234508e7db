package io.github.pgoutput.replication;

import io.github.pgoutput.replication.FailoverSlots.Readiness;
import io.github.pgoutput.replication.FailoverSlots.StandbySlot;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The commands of failover slots and the warnings drawn from what the primary shows, without a server. */
class FailoverSlotsTest {

    private static final StandbySlot STREAMING_STANDBY = new StandbySlot("sb1", true, true);

    @Test
    void turnsFailoverOnWithTheReplicationCommand() {
        assertThat(FailoverSlots.enableCommand("s1")).isEqualTo("ALTER_REPLICATION_SLOT s1 (FAILOVER true)");
    }

    @Test
    void refusesASlotNameThatWouldBePastedUnsafelyIntoTheCommand() {
        assertThatThrownBy(() -> FailoverSlots.enableCommand("s1 (FAILOVER false); x")).isInstanceOf(RuntimeException.class);
    }

    @Test
    void createsAFailoverSlotWithTheFifthFunctionArgumentAndOtherwiseWithTheFourArgumentCall() {
        assertThat(SlotManager.createSlotQuery(true))
                .isEqualTo("SELECT lsn::text FROM pg_create_logical_replication_slot(?, 'pgoutput', false, ?, true)");
        assertThat(SlotManager.createSlotQuery(false))
                .isEqualTo("SELECT lsn::text FROM pg_create_logical_replication_slot(?, 'pgoutput', false, ?)");
    }

    @Test
    void refusesFailoverBelowPostgres17OnTheFailoverSettingNamingVersionAndFix() {
        ReplicationSettings asked = settings(true);

        assertThatThrownBy(() -> FailoverSlots.requireSupported(asked, 16))
                .isInstanceOfSatisfying(ReplicationSetupException.class, e -> assertThat(e.setting()).isEqualTo(Setting.SLOT_FAILOVER))
                .hasMessageContaining("PostgreSQL 16").hasMessageContaining("PostgreSQL 17")
                .hasMessageContaining("set slot.failover=false");
        assertThatCode(() -> FailoverSlots.requireSupported(asked, 17)).doesNotThrowAnyException();
        assertThatCode(() -> FailoverSlots.requireSupported(settings(false), 15)).doesNotThrowAnyException();
    }

    @Test
    void readsTheSlotNamesOfSynchronizedStandbySlots() {
        assertThat(FailoverSlots.slotNames("")).isEmpty();
        assertThat(FailoverSlots.slotNames(null)).isEmpty();
        assertThat(FailoverSlots.slotNames("sb1")).containsExactly("sb1");
        assertThat(FailoverSlots.slotNames(" sb1, \"sb2\" ,")).containsExactly("sb1", "sb2");
    }

    @Test
    void aSafeSetupHasNoWarnings() {
        assertThat(FailoverSlots.warnings("s1", true, new Readiness(17, true, 1, "sb1", List.of(STREAMING_STANDBY)))).isEmpty();
    }

    @Test
    void namesASlotThatIsNoFailoverSlotWhileStandbysStreamEvenWhenFailoverWasNotAskedFor() {
        assertThat(FailoverSlots.warnings("s1", false, new Readiness(17, false, 2, "", List.of())))
                .singleElement().asString().contains("slot 's1' is not a failover slot").contains("2 standby(s)")
                .contains("slot.failover=true");
    }

    @Test
    void saysNothingWithoutFailoverAskedForWhenNoStandbyStreamsOrTheServerHasNoFailoverSlots() {
        assertThat(FailoverSlots.warnings("s1", false, new Readiness(17, false, 0, "", List.of()))).isEmpty();
        assertThat(FailoverSlots.warnings("s1", false, new Readiness(16, false, 3, "", List.of()))).isEmpty();
    }

    @Test
    void namesAnEmptySynchronizedStandbySlotsAndWhatItCanCost() {
        assertThat(FailoverSlots.warnings("s1", true, new Readiness(17, true, 1, "", List.of())))
                .singleElement().asString().contains("synchronized_standby_slots is empty")
                .contains("Kafka may hold changes the promoted standby never had").contains("ALTER SYSTEM SET synchronized_standby_slots");
    }

    @Test
    void namesAFailoverSlotThatNoStandbyCanHaveSynchronized() {
        assertThat(FailoverSlots.warnings("s1", true, new Readiness(17, true, 0, "sb1", List.of(new StandbySlot("sb1", true, false)))))
                .anySatisfy(w -> assertThat(w).contains("no standby streams from this server").contains("sync_replication_slots=on")
                        .contains("dbname in primary_conninfo"))
                .anySatisfy(w -> assertThat(w).contains("physical slot 'sb1'").contains("not in use").contains("streaming stalls"))
                .hasSize(2);
    }

    @Test
    void namesAListedStandbySlotThatDoesNotExist() {
        assertThat(FailoverSlots.warnings("s1", true, new Readiness(17, true, 1, "sb1, gone",
                List.of(STREAMING_STANDBY, new StandbySlot("gone", false, false)))))
                .singleElement().asString().contains("lists 'gone'").contains("pg_create_physical_replication_slot('gone')");
    }

    @Test
    void aSlotNotYetMadeAFailoverSlotIsCheckedAsOneWhenFailoverIsAskedFor() {
        // The task turns failover on after the check; the other preconditions are named all the same.
        assertThat(FailoverSlots.warnings("s1", true, new Readiness(17, false, 0, "", List.of()))).hasSize(2);
    }

    @Test
    void warnsOnPostgres17WhenTwoPhaseIsTurnedOnWhileTransactionsArePreparedNamingThemAndWhatIsAtRisk() {
        assertThat(FailoverSlots.twoPhaseSwitchWarning("s1", 17, List.of("g1", "g2"))).hasValueSatisfying(w -> assertThat(w)
                .contains("slot 's1'").contains("2 transaction(s)").contains("GIDs g1, g2")
                .contains("does not copy two_phase_at").contains("never reach Kafka").contains("commit or roll them back"));
    }

    @Test
    void saysNothingOfTheTwoPhaseSwitchWithoutPreparedTransactionsOrOnPostgres18() {
        assertThat(FailoverSlots.twoPhaseSwitchWarning("s1", 17, List.of())).isEmpty();
        assertThat(FailoverSlots.twoPhaseSwitchWarning("s1", 18, List.of("g1"))).isEmpty();
    }

    private static ReplicationSettings settings(boolean failover) {
        return ReplicationSettings.builder("localhost", 5432, "db", "user", "s1", "pub").failover(failover).build();
    }
}
