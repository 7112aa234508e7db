package io.github.pgoutput.snapshot;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;

import io.github.pgoutput.pgoutput.Lsn;
import io.github.pgoutput.replication.SlotInfo;
import org.junit.jupiter.api.Test;

/** How {@link InitialSnapshot#plan} hands the slot read from {@code pg_replication_slots} to the planner. */
class InitialSnapshotTest {

    private static SlotInfo slot(int activePid, String walStatus) {
        return new SlotInfo("s", "pgoutput", "logical", "db", activePid, false, Lsn.parse("0/9000"), Lsn.parse("0/8000"), walStatus);
    }

    @Test
    void noSlotOfThatNameIsMissing() {
        assertThat(InitialSnapshot.slotState(Optional.empty(), new StoredOffset.Absent())).isInstanceOf(SlotState.Missing.class);
    }

    @Test
    void anInvalidatedSlotIsLostWhoeverHoldsIt() {
        assertThat(InitialSnapshot.slotState(Optional.of(slot(42, "lost")), new StoredOffset.Absent()))
                .isInstanceOf(SlotState.Lost.class);
    }

    @Test
    void aUsableSlotCarriesItsPositionsAndWhetherAWalsenderHoldsIt() {
        assertThat(InitialSnapshot.slotState(Optional.of(slot(42, "reserved")), new StoredOffset.Absent()))
                .isEqualTo(new SlotState.Usable(Lsn.parse("0/9000"), Lsn.parse("0/8000"), true));
        assertThat(InitialSnapshot.slotState(Optional.of(slot(0, "extended")), new StoredOffset.Absent()))
                .isEqualTo(new SlotState.Usable(Lsn.parse("0/9000"), Lsn.parse("0/8000"), false));
    }

    @Test
    void positionsPastTheStoredStreamingPositionAreReportedAtIt() {
        assertThat(InitialSnapshot.slotState(Optional.of(slot(0, "reserved")), new StoredOffset.At(Lsn.parse("0/5000"))))
                .isEqualTo(new SlotState.Usable(Lsn.parse("0/5000"), Lsn.parse("0/5000"), false));
    }
}
