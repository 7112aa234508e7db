package io.github.pgoutput.snapshot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.pgoutput.pgoutput.Lsn;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Every cell of the start-up decision: snapshot mode x stored offset x slot state.
 *
 * <p>Offsets: "at" is the streaming position 0/100; "in_progress" an unfinished snapshot on a slot created at 0/100;
 * "in_progress_old" one written before the offset recorded the slot's consistent point. Slots: "unadvanced" is
 * confirmed at 0/100 (for "in_progress": never streamed from since its creation), "advanced" confirmed at 0/200,
 * "active" like "unadvanced" but held by a walsender, "restart_past" one whose restart_lsn is 0/150.
 *
 * <p>ALWAYS is WHEN_NEEDED, except that a stored position the slot serves is streamed from while every captured table is
 * read again (STREAM_AND_SNAPSHOT).
 *
 * <p>"drop" means the existing slot is dropped first; "error" a {@code MODE_CONFLICT} naming when_needed; "refuse" a
 * {@code SLOT_NOT_OWNED} naming the slot and the choices; "wait" a {@code SLOT_ACTIVE} (retried by the task).
 */
class SnapshotPlannerTest {

    private static final Lsn STORED = Lsn.parse("0/100");

    @ParameterizedTest(name = "{0}, offset {1}, slot {2} -> {3}")
    @CsvSource(delimiter = '|', textBlock = """
            INITIAL      | absent          | missing      | SNAPSHOT_THEN_STREAM
            INITIAL      | absent          | lost         | refuse
            INITIAL      | absent          | unadvanced   | refuse
            INITIAL      | absent          | advanced     | refuse
            INITIAL      | absent          | active       | refuse
            INITIAL      | absent          | restart_past | refuse
            INITIAL      | in_progress     | missing      | SNAPSHOT_THEN_STREAM
            INITIAL      | in_progress     | lost         | SNAPSHOT_THEN_STREAM drop
            INITIAL      | in_progress     | unadvanced   | SNAPSHOT_THEN_STREAM drop
            INITIAL      | in_progress     | advanced     | refuse
            INITIAL      | in_progress     | active       | wait
            INITIAL      | in_progress     | restart_past | SNAPSHOT_THEN_STREAM drop
            INITIAL      | in_progress_old | missing      | SNAPSHOT_THEN_STREAM
            INITIAL      | in_progress_old | lost         | SNAPSHOT_THEN_STREAM drop
            INITIAL      | in_progress_old | unadvanced   | refuse
            INITIAL      | in_progress_old | advanced     | refuse
            INITIAL      | in_progress_old | active       | refuse
            INITIAL      | in_progress_old | restart_past | refuse
            INITIAL      | at              | missing      | error
            INITIAL      | at              | lost         | error
            INITIAL      | at              | unadvanced   | STREAM
            INITIAL      | at              | advanced     | error
            INITIAL      | at              | active       | STREAM
            INITIAL      | at              | restart_past | error
            WHEN_NEEDED  | absent          | missing      | SNAPSHOT_THEN_STREAM
            WHEN_NEEDED  | absent          | lost         | refuse
            WHEN_NEEDED  | absent          | unadvanced   | refuse
            WHEN_NEEDED  | absent          | advanced     | refuse
            WHEN_NEEDED  | absent          | active       | refuse
            WHEN_NEEDED  | absent          | restart_past | refuse
            WHEN_NEEDED  | in_progress     | missing      | SNAPSHOT_THEN_STREAM
            WHEN_NEEDED  | in_progress     | lost         | SNAPSHOT_THEN_STREAM drop
            WHEN_NEEDED  | in_progress     | unadvanced   | SNAPSHOT_THEN_STREAM drop
            WHEN_NEEDED  | in_progress     | advanced     | refuse
            WHEN_NEEDED  | in_progress     | active       | wait
            WHEN_NEEDED  | in_progress     | restart_past | SNAPSHOT_THEN_STREAM drop
            WHEN_NEEDED  | in_progress_old | missing      | SNAPSHOT_THEN_STREAM
            WHEN_NEEDED  | in_progress_old | lost         | SNAPSHOT_THEN_STREAM drop
            WHEN_NEEDED  | in_progress_old | unadvanced   | refuse
            WHEN_NEEDED  | in_progress_old | advanced     | refuse
            WHEN_NEEDED  | in_progress_old | active       | refuse
            WHEN_NEEDED  | in_progress_old | restart_past | refuse
            WHEN_NEEDED  | at              | missing      | SNAPSHOT_THEN_STREAM
            WHEN_NEEDED  | at              | lost         | SNAPSHOT_THEN_STREAM drop
            WHEN_NEEDED  | at              | unadvanced   | STREAM
            WHEN_NEEDED  | at              | advanced     | SNAPSHOT_THEN_STREAM drop
            WHEN_NEEDED  | at              | active       | STREAM
            WHEN_NEEDED  | at              | restart_past | SNAPSHOT_THEN_STREAM drop
            INITIAL_ONLY | absent          | missing      | SNAPSHOT_ONLY
            INITIAL_ONLY | absent          | lost         | refuse
            INITIAL_ONLY | absent          | unadvanced   | refuse
            INITIAL_ONLY | absent          | advanced     | refuse
            INITIAL_ONLY | absent          | active       | refuse
            INITIAL_ONLY | absent          | restart_past | refuse
            INITIAL_ONLY | in_progress     | missing      | SNAPSHOT_ONLY
            INITIAL_ONLY | in_progress     | lost         | SNAPSHOT_ONLY drop
            INITIAL_ONLY | in_progress     | unadvanced   | SNAPSHOT_ONLY drop
            INITIAL_ONLY | in_progress     | advanced     | refuse
            INITIAL_ONLY | in_progress     | active       | wait
            INITIAL_ONLY | in_progress     | restart_past | SNAPSHOT_ONLY drop
            INITIAL_ONLY | in_progress_old | missing      | SNAPSHOT_ONLY
            INITIAL_ONLY | in_progress_old | lost         | SNAPSHOT_ONLY drop
            INITIAL_ONLY | in_progress_old | unadvanced   | refuse
            INITIAL_ONLY | in_progress_old | advanced     | refuse
            INITIAL_ONLY | in_progress_old | active       | refuse
            INITIAL_ONLY | in_progress_old | restart_past | refuse
            INITIAL_ONLY | at              | missing      | IDLE
            INITIAL_ONLY | at              | lost         | IDLE
            INITIAL_ONLY | at              | unadvanced   | IDLE
            INITIAL_ONLY | at              | advanced     | IDLE
            INITIAL_ONLY | at              | active       | IDLE
            INITIAL_ONLY | at              | restart_past | IDLE
            NO_DATA      | absent          | missing      | STREAM
            NO_DATA      | absent          | lost         | refuse
            NO_DATA      | absent          | unadvanced   | STREAM
            NO_DATA      | absent          | advanced     | STREAM
            NO_DATA      | absent          | active       | STREAM
            NO_DATA      | absent          | restart_past | STREAM
            NO_DATA      | in_progress     | missing      | STREAM
            NO_DATA      | in_progress     | lost         | STREAM drop
            NO_DATA      | in_progress     | unadvanced   | STREAM
            NO_DATA      | in_progress     | advanced     | STREAM
            NO_DATA      | in_progress     | active       | STREAM
            NO_DATA      | in_progress     | restart_past | STREAM
            NO_DATA      | in_progress_old | missing      | STREAM
            NO_DATA      | in_progress_old | lost         | STREAM drop
            NO_DATA      | in_progress_old | unadvanced   | STREAM
            NO_DATA      | in_progress_old | advanced     | STREAM
            NO_DATA      | in_progress_old | active       | STREAM
            NO_DATA      | in_progress_old | restart_past | STREAM
            NO_DATA      | at              | missing      | error
            NO_DATA      | at              | lost         | error
            NO_DATA      | at              | unadvanced   | STREAM
            NO_DATA      | at              | advanced     | error
            NO_DATA      | at              | active       | STREAM
            NO_DATA      | at              | restart_past | error
            ALWAYS       | absent          | missing      | SNAPSHOT_THEN_STREAM
            ALWAYS       | absent          | lost         | refuse
            ALWAYS       | absent          | unadvanced   | refuse
            ALWAYS       | absent          | advanced     | refuse
            ALWAYS       | absent          | active       | refuse
            ALWAYS       | absent          | restart_past | refuse
            ALWAYS       | in_progress     | missing      | SNAPSHOT_THEN_STREAM
            ALWAYS       | in_progress     | lost         | SNAPSHOT_THEN_STREAM drop
            ALWAYS       | in_progress     | unadvanced   | SNAPSHOT_THEN_STREAM drop
            ALWAYS       | in_progress     | advanced     | refuse
            ALWAYS       | in_progress     | active       | wait
            ALWAYS       | in_progress     | restart_past | SNAPSHOT_THEN_STREAM drop
            ALWAYS       | in_progress_old | missing      | SNAPSHOT_THEN_STREAM
            ALWAYS       | in_progress_old | lost         | SNAPSHOT_THEN_STREAM drop
            ALWAYS       | in_progress_old | unadvanced   | refuse
            ALWAYS       | in_progress_old | advanced     | refuse
            ALWAYS       | in_progress_old | active       | refuse
            ALWAYS       | in_progress_old | restart_past | refuse
            ALWAYS       | at              | missing      | SNAPSHOT_THEN_STREAM
            ALWAYS       | at              | lost         | SNAPSHOT_THEN_STREAM drop
            ALWAYS       | at              | unadvanced   | STREAM_AND_SNAPSHOT
            ALWAYS       | at              | advanced     | SNAPSHOT_THEN_STREAM drop
            ALWAYS       | at              | active       | STREAM_AND_SNAPSHOT
            ALWAYS       | at              | restart_past | SNAPSHOT_THEN_STREAM drop
            """)
    void decidesEveryCell(SnapshotMode mode, String offset, String slot, String expected) {
        StoredOffset storedOffset = offset(offset);
        SlotState slotState = slot(slot);
        switch (expected) {
            case "error" -> assertThatThrownBy(() -> SnapshotPlanner.decide(mode, storedOffset, slotState, "s1"))
                    .isInstanceOfSatisfying(SnapshotException.class, e -> assertThat(e.reason()).isEqualTo(SnapshotException.Reason.MODE_CONFLICT))
                    .hasMessageContaining("snapshot.mode=when_needed")
                    .hasMessageContaining("'s1'")
                    .hasMessageContaining("0/100");
            case "refuse" -> assertThatThrownBy(() -> SnapshotPlanner.decide(mode, storedOffset, slotState, "s1"))
                    .isInstanceOfSatisfying(SnapshotException.class, e -> assertThat(e.reason()).isEqualTo(SnapshotException.Reason.SLOT_NOT_OWNED))
                    .hasMessageContaining("replication slot 's1' already exists")
                    .hasMessageContaining("it is not dropped")
                    .hasMessageContaining("SELECT pg_drop_replication_slot('s1')")
                    .hasMessageContaining("offset.flush.interval.ms");
            case "wait" -> assertThatThrownBy(() -> SnapshotPlanner.decide(mode, storedOffset, slotState, "s1"))
                    .isInstanceOfSatisfying(SnapshotException.class, e -> assertThat(e.reason()).isEqualTo(SnapshotException.Reason.SLOT_ACTIVE))
                    .hasMessageContaining("'s1'")
                    .hasMessageContaining("is active");
            default -> {
                SnapshotPlan plan = SnapshotPlanner.decide(mode, storedOffset, slotState, "s1");
                String[] parts = expected.split(" ");
                assertThat(plan.action()).isEqualTo(SnapshotPlan.Action.valueOf(parts[0]));
                assertThat(plan.dropExistingSlot()).isEqualTo(parts.length > 1);
                assertThat(plan.reason()).isNotBlank();
            }
        }
    }

    @Test
    void neverDropsAnExistingUsableSlotWithoutAStoredOffset() {
        // The A/B case: connector B (no offsets yet) is given the slot.name of stopped connector A.
        for (SnapshotMode mode : new SnapshotMode[] {SnapshotMode.INITIAL, SnapshotMode.WHEN_NEEDED, SnapshotMode.INITIAL_ONLY}) {
            assertThatThrownBy(() -> SnapshotPlanner.decide(mode, new StoredOffset.Absent(),
                    new SlotState.Usable(Lsn.parse("0/5000"), Lsn.parse("0/4000"), false), "shared"))
                    .as(mode.name())
                    .isInstanceOfSatisfying(SnapshotException.class, e -> assertThat(e.reason()).isEqualTo(SnapshotException.Reason.SLOT_NOT_OWNED))
                    .hasMessageContaining("there is no stored offset")
                    .hasMessageContaining("another consumer's position");
        }
    }

    @Test
    void refusalOffersTheDropStatementAndNoDataForStreamingModes() {
        assertThatThrownBy(() -> SnapshotPlanner.decide(SnapshotMode.INITIAL, new StoredOffset.Absent(),
                new SlotState.Usable(STORED, STORED, false), "orders"))
                .hasMessageContaining("(confirmed_flush_lsn 0/100)")
                .hasMessageContaining("drop it yourself (SELECT pg_drop_replication_slot('orders'))")
                .hasMessageContaining("snapshot.mode=no_data")
                .hasMessageContaining("snapshot.mode is initial");
    }

    @Test
    void refusalOfInitialOnlySaysItsTemporarySlotNeedsTheName() {
        assertThatThrownBy(() -> SnapshotPlanner.decide(SnapshotMode.INITIAL_ONLY, new StoredOffset.Absent(),
                new SlotState.Usable(STORED, STORED, false), "orders"))
                .hasMessageContaining("temporary slot of that name")
                .hasMessageNotContaining("snapshot.mode=no_data");
    }

    @Test
    void refusalOfAnInvalidatedSlotOffersOnlyTheDrop() {
        assertThatThrownBy(() -> SnapshotPlanner.decide(SnapshotMode.NO_DATA, new StoredOffset.Absent(), new SlotState.Lost(), "orders"))
                .hasMessageContaining("invalidated (wal_status = lost)")
                .hasMessageContaining("SELECT pg_drop_replication_slot('orders')")
                .hasMessageNotContaining("snapshot.mode=no_data");
    }

    @Test
    void ownershipNeedsTheSlotExactlyAtItsConsistentPoint() {
        // A slot confirmed before the recorded point is not the one created there (every creation writes WAL).
        assertThatThrownBy(() -> SnapshotPlanner.decide(SnapshotMode.INITIAL, new StoredOffset.SnapshotInProgress(STORED),
                new SlotState.Usable(Lsn.parse("0/50"), Lsn.parse("0/40"), false), "orders"))
                .isInstanceOfSatisfying(SnapshotException.class, e -> assertThat(e.reason()).isEqualTo(SnapshotException.Reason.SLOT_NOT_OWNED))
                .hasMessageContaining("created at consistent point 0/100, but the slot's confirmed_flush_lsn is 0/50");
    }

    @Test
    void refusalNamesAnOffsetWithoutTheSlotsConsistentPoint() {
        assertThatThrownBy(() -> SnapshotPlanner.decide(SnapshotMode.WHEN_NEEDED, new StoredOffset.SnapshotInProgress(Lsn.INVALID),
                new SlotState.Usable(STORED, STORED, false), "orders"))
                .hasMessageContaining("earlier connector version");
    }

    @Test
    void errorSaysWhatWasSeen() {
        assertThatThrownBy(() -> SnapshotPlanner.decide(SnapshotMode.INITIAL, new StoredOffset.At(STORED), new SlotState.Lost(), "orders"))
                .hasMessageContaining("wal_status = lost")
                .hasMessageContaining("snapshot.mode is initial");
        assertThatThrownBy(() -> SnapshotPlanner.decide(SnapshotMode.NO_DATA, new StoredOffset.At(STORED),
                new SlotState.Usable(Lsn.parse("0/200"), Lsn.parse("0/90"), false), "orders"))
                .hasMessageContaining("confirmed_flush_lsn 0/200, past the stored offset 0/100");
    }

    private static StoredOffset offset(String name) {
        return switch (name) {
            case "absent" -> new StoredOffset.Absent();
            case "in_progress" -> new StoredOffset.SnapshotInProgress(STORED);
            case "in_progress_old" -> new StoredOffset.SnapshotInProgress(Lsn.INVALID);
            case "at" -> new StoredOffset.At(STORED);
            default -> throw new IllegalArgumentException(name);
        };
    }

    private static SlotState slot(String name) {
        return switch (name) {
            case "missing" -> new SlotState.Missing();
            case "lost" -> new SlotState.Lost();
            case "unadvanced" -> new SlotState.Usable(STORED, Lsn.parse("0/90"), false);
            case "advanced" -> new SlotState.Usable(Lsn.parse("0/200"), Lsn.parse("0/90"), false);
            case "active" -> new SlotState.Usable(STORED, Lsn.parse("0/90"), true);
            case "restart_past" -> new SlotState.Usable(STORED, Lsn.parse("0/150"), false);
            default -> throw new IllegalArgumentException(name);
        };
    }
}
