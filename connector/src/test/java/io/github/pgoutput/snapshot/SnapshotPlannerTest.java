package io.github.pgoutput.snapshot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.pgoutput.pgoutput.Lsn;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Every cell of the start-up decision: snapshot mode x stored offset x slot state. The stored offset is 0/100 when
 * there is one; "confirmed_past" is a slot confirmed at 0/200, "restart_past" one whose restart_lsn is 0/150.
 * "drop" means the existing slot is dropped first; "error" means a {@code MODE_CONFLICT} naming when_needed.
 */
class SnapshotPlannerTest {

    private static final Lsn STORED = Lsn.parse("0/100");

    @ParameterizedTest(name = "{0}, offset {1}, slot {2} -> {3}")
    @CsvSource(delimiter = '|', textBlock = """
            INITIAL      | absent      | missing        | SNAPSHOT_THEN_STREAM
            INITIAL      | absent      | lost           | SNAPSHOT_THEN_STREAM drop
            INITIAL      | absent      | usable         | SNAPSHOT_THEN_STREAM drop
            INITIAL      | absent      | confirmed_past | SNAPSHOT_THEN_STREAM drop
            INITIAL      | absent      | restart_past   | SNAPSHOT_THEN_STREAM drop
            INITIAL      | in_progress | missing        | SNAPSHOT_THEN_STREAM
            INITIAL      | in_progress | lost           | SNAPSHOT_THEN_STREAM drop
            INITIAL      | in_progress | usable         | SNAPSHOT_THEN_STREAM drop
            INITIAL      | in_progress | confirmed_past | SNAPSHOT_THEN_STREAM drop
            INITIAL      | in_progress | restart_past   | SNAPSHOT_THEN_STREAM drop
            INITIAL      | at          | missing        | error
            INITIAL      | at          | lost           | error
            INITIAL      | at          | usable         | STREAM
            INITIAL      | at          | confirmed_past | error
            INITIAL      | at          | restart_past   | error
            NO_DATA      | absent      | missing        | STREAM
            NO_DATA      | absent      | lost           | STREAM drop
            NO_DATA      | absent      | usable         | STREAM
            NO_DATA      | absent      | confirmed_past | STREAM
            NO_DATA      | absent      | restart_past   | STREAM
            NO_DATA      | in_progress | missing        | STREAM
            NO_DATA      | in_progress | lost           | STREAM drop
            NO_DATA      | in_progress | usable         | STREAM
            NO_DATA      | in_progress | confirmed_past | STREAM
            NO_DATA      | in_progress | restart_past   | STREAM
            NO_DATA      | at          | missing        | error
            NO_DATA      | at          | lost           | error
            NO_DATA      | at          | usable         | STREAM
            NO_DATA      | at          | confirmed_past | error
            NO_DATA      | at          | restart_past   | error
            INITIAL_ONLY | absent      | missing        | SNAPSHOT_ONLY
            INITIAL_ONLY | absent      | lost           | SNAPSHOT_ONLY drop
            INITIAL_ONLY | absent      | usable         | SNAPSHOT_ONLY drop
            INITIAL_ONLY | absent      | confirmed_past | SNAPSHOT_ONLY drop
            INITIAL_ONLY | absent      | restart_past   | SNAPSHOT_ONLY drop
            INITIAL_ONLY | in_progress | missing        | SNAPSHOT_ONLY
            INITIAL_ONLY | in_progress | lost           | SNAPSHOT_ONLY drop
            INITIAL_ONLY | in_progress | usable         | SNAPSHOT_ONLY drop
            INITIAL_ONLY | in_progress | confirmed_past | SNAPSHOT_ONLY drop
            INITIAL_ONLY | in_progress | restart_past   | SNAPSHOT_ONLY drop
            INITIAL_ONLY | at          | missing        | IDLE
            INITIAL_ONLY | at          | lost           | IDLE
            INITIAL_ONLY | at          | usable         | IDLE
            INITIAL_ONLY | at          | confirmed_past | IDLE
            INITIAL_ONLY | at          | restart_past   | IDLE
            WHEN_NEEDED  | absent      | missing        | SNAPSHOT_THEN_STREAM
            WHEN_NEEDED  | absent      | lost           | SNAPSHOT_THEN_STREAM drop
            WHEN_NEEDED  | absent      | usable         | SNAPSHOT_THEN_STREAM drop
            WHEN_NEEDED  | absent      | confirmed_past | SNAPSHOT_THEN_STREAM drop
            WHEN_NEEDED  | absent      | restart_past   | SNAPSHOT_THEN_STREAM drop
            WHEN_NEEDED  | in_progress | missing        | SNAPSHOT_THEN_STREAM
            WHEN_NEEDED  | in_progress | lost           | SNAPSHOT_THEN_STREAM drop
            WHEN_NEEDED  | in_progress | usable         | SNAPSHOT_THEN_STREAM drop
            WHEN_NEEDED  | in_progress | confirmed_past | SNAPSHOT_THEN_STREAM drop
            WHEN_NEEDED  | in_progress | restart_past   | SNAPSHOT_THEN_STREAM drop
            WHEN_NEEDED  | at          | missing        | SNAPSHOT_THEN_STREAM
            WHEN_NEEDED  | at          | lost           | SNAPSHOT_THEN_STREAM drop
            WHEN_NEEDED  | at          | usable         | STREAM
            WHEN_NEEDED  | at          | confirmed_past | SNAPSHOT_THEN_STREAM drop
            WHEN_NEEDED  | at          | restart_past   | SNAPSHOT_THEN_STREAM drop
            """)
    void decidesEveryCell(SnapshotMode mode, String offset, String slot, String expected) {
        StoredOffset storedOffset = switch (offset) {
            case "absent" -> new StoredOffset.Absent();
            case "in_progress" -> new StoredOffset.SnapshotInProgress();
            default -> new StoredOffset.At(STORED);
        };
        SlotState slotState = switch (slot) {
            case "missing" -> new SlotState.Missing();
            case "lost" -> new SlotState.Lost();
            case "usable" -> new SlotState.Usable(STORED, Lsn.parse("0/90"));
            case "confirmed_past" -> new SlotState.Usable(Lsn.parse("0/200"), Lsn.parse("0/90"));
            default -> new SlotState.Usable(STORED, Lsn.parse("0/150"));
        };
        if (expected.equals("error")) {
            assertThatThrownBy(() -> SnapshotPlanner.decide(mode, storedOffset, slotState, "s1"))
                    .isInstanceOfSatisfying(SnapshotException.class, e -> assertThat(e.reason()).isEqualTo(SnapshotException.Reason.MODE_CONFLICT))
                    .hasMessageContaining("snapshot.mode=when_needed")
                    .hasMessageContaining("'s1'")
                    .hasMessageContaining("0/100");
            return;
        }
        SnapshotPlan plan = SnapshotPlanner.decide(mode, storedOffset, slotState, "s1");
        String[] parts = expected.split(" ");
        assertThat(plan.action()).isEqualTo(SnapshotPlan.Action.valueOf(parts[0]));
        assertThat(plan.dropExistingSlot()).isEqualTo(parts.length > 1);
        assertThat(plan.reason()).isNotBlank();
    }

    @Test
    void errorSaysWhatWasSeen() {
        assertThatThrownBy(() -> SnapshotPlanner.decide(SnapshotMode.INITIAL, new StoredOffset.At(STORED), new SlotState.Lost(), "orders"))
                .hasMessageContaining("wal_status = lost")
                .hasMessageContaining("snapshot.mode is initial");
        assertThatThrownBy(() -> SnapshotPlanner.decide(SnapshotMode.NO_DATA, new StoredOffset.At(STORED),
                new SlotState.Usable(Lsn.parse("0/200"), Lsn.parse("0/90")), "orders"))
                .hasMessageContaining("confirmed_flush_lsn 0/200, past the stored offset 0/100");
    }
}
