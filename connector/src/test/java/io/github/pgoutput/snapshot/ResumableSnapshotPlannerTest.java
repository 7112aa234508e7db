package io.github.pgoutput.snapshot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;

import io.github.pgoutput.pgoutput.Lsn;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/**
 * The start-up decision for an interrupted exactly-once (resumable) snapshot: it is resumed, keeping its slot, when
 * the slot is still the one it created and never streamed from; otherwise {@code when_needed} takes it afresh and
 * the other modes refuse, because the changes since it began cannot reach the rows it emitted. Slots as in
 * {@link SnapshotPlannerTest}: "unadvanced" confirmed at the recorded consistent point 0/100.
 */
class ResumableSnapshotPlannerTest {

    private static final Lsn CONSISTENT_POINT = Lsn.parse("0/100");
    private static final StoredOffset.SnapshotInProgress INTERRUPTED = new StoredOffset.SnapshotInProgress(CONSISTENT_POINT,
            new StoredOffset.Progress("3-abc", ResumableProgress.Position.after(1, List.of("k42")), List.of()));

    @ParameterizedTest(name = "{0}, slot {1} -> {2}")
    @CsvSource(delimiter = '|', textBlock = """
            INITIAL      | unadvanced | resume SNAPSHOT_THEN_STREAM
            INITIAL      | advanced   | refuse
            INITIAL      | missing    | refuse
            INITIAL      | lost       | refuse
            INITIAL      | active     | wait
            WHEN_NEEDED  | unadvanced | resume SNAPSHOT_THEN_STREAM
            WHEN_NEEDED  | missing    | SNAPSHOT_THEN_STREAM
            WHEN_NEEDED  | lost       | SNAPSHOT_THEN_STREAM drop
            WHEN_NEEDED  | active     | wait
            ALWAYS       | unadvanced | resume SNAPSHOT_THEN_STREAM
            ALWAYS       | missing    | SNAPSHOT_THEN_STREAM
            ALWAYS       | lost       | SNAPSHOT_THEN_STREAM drop
            ALWAYS       | active     | wait
            INITIAL_ONLY | missing    | resume SNAPSHOT_ONLY
            INITIAL_ONLY | unadvanced | resume SNAPSHOT_ONLY
            NO_DATA      | unadvanced | STREAM
            """)
    void decides(SnapshotMode mode, String slot, String expected) {
        SlotState state = switch (slot) {
            case "unadvanced" -> new SlotState.Usable(CONSISTENT_POINT, CONSISTENT_POINT, false);
            case "advanced" -> new SlotState.Usable(Lsn.parse("0/200"), CONSISTENT_POINT, false);
            case "active" -> new SlotState.Usable(CONSISTENT_POINT, CONSISTENT_POINT, true);
            case "lost" -> new SlotState.Lost();
            default -> new SlotState.Missing();
        };
        switch (expected) {
            case "refuse" -> assertThatThrownBy(() -> SnapshotPlanner.decide(mode, INTERRUPTED, state, "s1", true))
                    .isInstanceOfSatisfying(SnapshotException.class, e -> assertThat(e.reason()).isEqualTo(SnapshotException.Reason.NOT_RESUMABLE))
                    .hasMessageContaining("cannot be resumed")
                    .hasMessageContaining("'s1'")
                    .hasMessageContaining("snapshot.mode=when_needed");
            case "wait" -> assertThatThrownBy(() -> SnapshotPlanner.decide(mode, INTERRUPTED, state, "s1", true))
                    .isInstanceOfSatisfying(SnapshotException.class, e -> assertThat(e.reason()).isEqualTo(SnapshotException.Reason.SLOT_ACTIVE));
            default -> {
                SnapshotPlan plan = SnapshotPlanner.decide(mode, INTERRUPTED, state, "s1", true);
                List<String> parts = List.of(expected.split(" "));
                boolean resumed = parts.get(0).equals("resume");
                assertThat(plan.action().name()).isEqualTo(parts.get(resumed ? 1 : 0));
                assertThat(plan.resumeFrom()).isEqualTo(resumed ? INTERRUPTED : null);
                assertThat(plan.dropExistingSlot()).isEqualTo(parts.contains("drop"));
                if (resumed) {
                    assertThat(plan.reason()).contains("resume the interrupted snapshot after row 1:k42");
                }
            }
        }
    }

    @Test
    void withoutExactlyOnceTheInterruptedSnapshotIsTakenAgainAsBefore() {
        SnapshotPlan plan = SnapshotPlanner.decide(SnapshotMode.INITIAL, INTERRUPTED,
                new SlotState.Usable(CONSISTENT_POINT, CONSISTENT_POINT, false), "s1", false);
        assertThat(plan.resumeFrom()).isNull();
        assertThat(plan.dropExistingSlot()).isTrue();
    }

    @Test
    void anInterruptedSnapshotReadInCopyOrderIsTakenAgainEvenUnderExactlyOnce() {
        SnapshotPlan plan = SnapshotPlanner.decide(SnapshotMode.INITIAL, new StoredOffset.SnapshotInProgress(CONSISTENT_POINT),
                new SlotState.Usable(CONSISTENT_POINT, CONSISTENT_POINT, false), "s1", true);
        assertThat(plan.resumeFrom()).isNull();
        assertThat(plan.dropExistingSlot()).isTrue();
    }
}
