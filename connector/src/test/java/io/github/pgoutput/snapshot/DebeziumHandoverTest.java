package io.github.pgoutput.snapshot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Optional;

import io.github.pgoutput.pgoutput.Lsn;
import io.github.pgoutput.replication.SlotInfo;
import io.github.pgoutput.snapshot.SnapshotException.Reason;
import io.github.pgoutput.snapshot.SnapshotPlan.Action;
import io.github.pgoutput.snapshot.StoredOffset.DebeziumSnapshot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The start-up decision after an in-place switch from Debezium: Debezium's offset (its last completed transaction
 * ended at 0/5000) against the slot Debezium streamed from, in every mode.
 */
class DebeziumHandoverTest {

    private static final Lsn DEBEZIUM_AT = Lsn.parse("0/5000");
    private static final String SLOT = "debezium";
    private static final String DATABASE = "inventory";

    private static StoredOffset.Debezium offset(DebeziumSnapshot snapshot) {
        return new StoredOffset.Debezium(snapshot == DebeziumSnapshot.IN_PROGRESS ? Lsn.INVALID : DEBEZIUM_AT, snapshot,
                "{lsn_commit=20480, lsn=20560, txId=771, messageType=INSERT}");
    }

    private static Optional<SlotInfo> slot(String plugin, Lsn confirmed, boolean active) {
        return Optional.of(new SlotInfo(SLOT, plugin, "logical", DATABASE, active ? 4242 : 0, false, confirmed,
                Lsn.parse("0/4F00"), "reserved"));
    }

    private static Optional<SlotInfo> pgoutputSlot(Lsn confirmed) {
        return slot("pgoutput", confirmed, false);
    }

    private static SnapshotPlan decide(SnapshotMode mode, DebeziumSnapshot snapshot, Optional<SlotInfo> slot) {
        return DebeziumHandover.decide(mode, offset(snapshot), slot, SLOT, DATABASE);
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = SnapshotMode.class, names = {"INITIAL", "WHEN_NEEDED", "NO_DATA"})
    void afterACleanStopStreamsOnFromDebeziumsPositionWhateverTheMode(SnapshotMode mode) {
        SnapshotPlan plan = decide(mode, DebeziumSnapshot.NONE, pgoutputSlot(DEBEZIUM_AT));

        assertThat(plan.action()).isEqualTo(Action.STREAM);
        assertThat(plan.dropExistingSlot()).isFalse();
        assertThat(plan.reason()).contains("Debezium's stored offset {lsn_commit=20480", "streaming continues after the transaction"
                + " that ended at 0/5000 without a snapshot", "Debezium stopped cleanly");
    }

    @Test
    void aSlotStillHeldByDebeziumsWalsenderIsNoReasonToDecideOtherwise() {
        // The session waits for it to let go (slot.max.retries), and fails if it is someone else's.
        assertThat(decide(SnapshotMode.INITIAL, DebeziumSnapshot.NONE, slot("pgoutput", DEBEZIUM_AT, true)).action())
                .isEqualTo(Action.STREAM);
    }

    @Test
    void afterACrashBetweenStoringAnOffsetAndConfirmingItTheSlotIsBehindAndStreamsFromThere() {
        SnapshotPlan plan = decide(SnapshotMode.INITIAL, DebeziumSnapshot.NONE, pgoutputSlot(Lsn.parse("0/4000")));

        assertThat(plan.action()).isEqualTo(Action.STREAM);
        assertThat(plan.reason()).contains("confirmed at 0/4000, before Debezium's offset: PostgreSQL sends the transactions in"
                + " between again, and what Debezium's offset shows in Kafka is skipped");
    }

    @Test
    void afterACrashWithAcknowledgedRecordsNotYetInAStoredOffsetTheSlotIsAheadAndStreamsFromThere() {
        SnapshotPlan plan = decide(SnapshotMode.INITIAL, DebeziumSnapshot.NONE, pgoutputSlot(Lsn.parse("0/6000")));

        assertThat(plan.action()).isEqualTo(Action.STREAM);
        assertThat(plan.reason()).contains("confirmed at 0/6000, past Debezium's offset", "in Kafka already");
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(SnapshotMode.class)
    void aSlotOfAnotherOutputPluginIsRefusedInEveryMode(SnapshotMode mode) {
        assertThatThrownBy(() -> decide(mode, DebeziumSnapshot.NONE, slot("decoderbufs", DEBEZIUM_AT, false)))
                .isInstanceOfSatisfying(SnapshotException.class, e -> assertThat(e.reason()).isEqualTo(Reason.DEBEZIUM_OFFSET))
                .hasMessageContaining("replication slot 'debezium', but it decodes with the output plugin 'decoderbufs'"
                        + " (Debezium's plugin.name), and this connector reads pgoutput only")
                .hasMessageContaining("set slot.name to a new name and snapshot.mode=initial");
    }

    @Test
    void aSlotOfAnotherDatabaseOrAPhysicalSlotIsRefused() {
        Optional<SlotInfo> otherDatabase = Optional.of(new SlotInfo(SLOT, "pgoutput", "logical", "postgres", 0, false, DEBEZIUM_AT,
                DEBEZIUM_AT, "reserved"));
        assertThatThrownBy(() -> DebeziumHandover.decide(SnapshotMode.INITIAL, offset(DebeziumSnapshot.NONE), otherDatabase, SLOT, DATABASE))
                .hasMessageContaining("it belongs to database 'postgres', not 'inventory'");
        Optional<SlotInfo> physical = Optional.of(new SlotInfo(SLOT, null, "physical", null, 0, false, Lsn.INVALID, DEBEZIUM_AT,
                "reserved"));
        assertThatThrownBy(() -> DebeziumHandover.decide(SnapshotMode.INITIAL, offset(DebeziumSnapshot.NONE), physical, SLOT, DATABASE))
                .hasMessageContaining("it is a physical slot");
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = SnapshotMode.class, names = {"INITIAL", "WHEN_NEEDED", "INITIAL_ONLY"})
    void anUnfinishedDebeziumSnapshotIsRefusedWithTheChoices(SnapshotMode mode) {
        assertThatThrownBy(() -> decide(mode, DebeziumSnapshot.IN_PROGRESS, pgoutputSlot(Lsn.parse("0/4000"))))
                .isInstanceOfSatisfying(SnapshotException.class, e -> assertThat(e.reason()).isEqualTo(Reason.DEBEZIUM_OFFSET))
                .hasMessageContaining("says its snapshot did not finish")
                .hasMessageContaining("put Debezium back (connector.class io.debezium.connector.postgresql.PostgresConnector) until its"
                        + " snapshot has finished")
                .hasMessageContaining("snapshot.mode=no_data")
                .hasMessageContaining("DELETE /connectors/<name>/offsets");
    }

    @Test
    void noDataAbandonsAnUnfinishedDebeziumSnapshotAndStreamsFromTheSlot() {
        SnapshotPlan plan = decide(SnapshotMode.NO_DATA, DebeziumSnapshot.IN_PROGRESS, pgoutputSlot(Lsn.parse("0/4000")));

        assertThat(plan.action()).isEqualTo(Action.STREAM);
        assertThat(plan.reason()).contains("the unfinished snapshot is abandoned, streaming starts where replication slot 'debezium' stands");
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(SnapshotMode.class)
    void anIncrementalSnapshotUnderWayIsRefusedInEveryMode(SnapshotMode mode) {
        assertThatThrownBy(() -> decide(mode, DebeziumSnapshot.INCREMENTAL_IN_PROGRESS, pgoutputSlot(DEBEZIUM_AT)))
                .isInstanceOfSatisfying(SnapshotException.class, e -> assertThat(e.reason()).isEqualTo(Reason.DEBEZIUM_OFFSET))
                .hasMessageContaining("says an incremental snapshot is under way")
                .hasMessageContaining("execute-snapshot signal");
    }

    @Test
    void aMissingSlotLosesTheChangesSoOnlyWhenNeededSnapshotsAgain() {
        assertThatThrownBy(() -> decide(SnapshotMode.INITIAL, DebeziumSnapshot.NONE, Optional.empty()))
                .isInstanceOfSatisfying(SnapshotException.class, e -> assertThat(e.reason()).isEqualTo(Reason.MODE_CONFLICT))
                .hasMessageContaining("replication slot 'debezium' does not exist (Debezium drops its slot when its task stops with"
                        + " slot.drop.on.stop=true")
                .hasMessageContaining("Set snapshot.mode=when_needed");

        SnapshotPlan plan = decide(SnapshotMode.WHEN_NEEDED, DebeziumSnapshot.NONE, Optional.empty());
        assertThat(plan.action()).isEqualTo(Action.SNAPSHOT_THEN_STREAM);
        assertThat(plan.dropExistingSlot()).isFalse();
    }

    @Test
    void anInvalidatedSlotIsDroppedOnlyForTheSnapshotOfWhenNeeded() {
        Optional<SlotInfo> lost = Optional.of(new SlotInfo(SLOT, "pgoutput", "logical", DATABASE, 0, false, DEBEZIUM_AT, Lsn.INVALID,
                "lost"));
        SnapshotPlan plan = DebeziumHandover.decide(SnapshotMode.WHEN_NEEDED, offset(DebeziumSnapshot.NONE), lost, SLOT, DATABASE);
        assertThat(plan.action()).isEqualTo(Action.SNAPSHOT_THEN_STREAM);
        assertThat(plan.dropExistingSlot()).isTrue();

        assertThatThrownBy(() -> DebeziumHandover.decide(SnapshotMode.NO_DATA, offset(DebeziumSnapshot.NONE), lost, SLOT, DATABASE))
                .hasMessageContaining("was invalidated (wal_status = lost)");
    }

    @Test
    void initialOnlyAfterDebeziumsFinishedSnapshotStaysIdle() {
        assertThat(decide(SnapshotMode.INITIAL_ONLY, DebeziumSnapshot.NONE, pgoutputSlot(DEBEZIUM_AT)).action()).isEqualTo(Action.IDLE);
    }

    @Test
    void theOwnOffsetPlannerDoesNotTakeDebeziumsOffset() {
        assertThatThrownBy(() -> SnapshotPlanner.decide(SnapshotMode.INITIAL, offset(DebeziumSnapshot.NONE), new SlotState.Missing(), SLOT))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
