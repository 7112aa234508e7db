package io.github.pgoutput.connect;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import io.github.pgoutput.pgoutput.Lsn;
import io.github.pgoutput.snapshot.InitialSnapshot;
import io.github.pgoutput.snapshot.SlotState;
import io.github.pgoutput.snapshot.SnapshotMode;
import io.github.pgoutput.snapshot.SnapshotPlan;
import io.github.pgoutput.snapshot.SnapshotPlanner;
import io.github.pgoutput.snapshot.StoredOffset;
import org.junit.jupiter.api.Test;

/** How the task hands the stored offset and the slot to the planner (the pure part of {@link SnapshotPhase#plan}). */
class SnapshotPhaseTest {

    @Test
    void aSlotConfirmedPastTheStoredPositionByTheTasksOwnIdleConfirmationsIsServable() {
        StoredOffset stored = SnapshotPhase.storedOffset(Map.of("lsn", "0/5000"));
        SlotState slot = InitialSnapshot.usableSlot(Lsn.parse("0/9000"), Lsn.parse("0/8000"), false, stored);

        assertThat(slot).isEqualTo(new SlotState.Usable(Lsn.parse("0/5000"), Lsn.parse("0/5000"), false));
        assertThat(SnapshotPlanner.decide(SnapshotMode.NO_DATA, stored, slot, "s").action()).isEqualTo(SnapshotPlan.Action.STREAM);
    }

    /**
     * Earlier versions stored lsn 0/0 inside the first delivery of a connector without snapshot, while the task
     * confirmed idle positions: that offset resumes instead of failing the task for good (the simulation's seeds 431,
     * 1991, 1670; the soak saw it too).
     */
    @Test
    void aStoredPositionInsideTheFirstDeliveryAt00IsServableToo() {
        StoredOffset stored = SnapshotPhase.storedOffset(Map.of("lsn", "0/0", "tx_lsn", "0/1000128", "tx_order", 3L));
        SlotState slot = InitialSnapshot.usableSlot(Lsn.parse("0/1000128"), Lsn.parse("0/1000100"), false, stored);

        assertThat(SnapshotPlanner.decide(SnapshotMode.INITIAL, stored, slot, "s").action()).isEqualTo(SnapshotPlan.Action.STREAM);
    }

    @Test
    void anInProgressSnapshotOffsetIsNotAStreamingPosition() {
        StoredOffset stored = SnapshotPhase.storedOffset(Map.of("lsn", "0/0", "snapshot", "in_progress"));

        assertThat(stored).isInstanceOf(StoredOffset.SnapshotInProgress.class);
        assertThat(InitialSnapshot.usableSlot(Lsn.parse("0/9000"), Lsn.parse("0/8000"), false, stored))
                .isEqualTo(new SlotState.Usable(Lsn.parse("0/9000"), Lsn.parse("0/8000"), false));
    }
}
