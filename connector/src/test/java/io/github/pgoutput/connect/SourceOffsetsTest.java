package io.github.pgoutput.connect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.Map;

import org.apache.kafka.connect.errors.ConnectException;
import org.junit.jupiter.api.Test;

import io.github.pgoutput.connect.SourceOffsets.Position;
import io.github.pgoutput.pgoutput.Lsn;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.LongRange;

class SourceOffsetsTest {

    @Test
    void partitionNamesTheDatabaseAndTheSlot() {
        assertThat(SourceOffsets.partition("shop", "shop_slot"))
                .containsExactlyInAnyOrderEntriesOf(Map.of("database", "shop", "slot", "shop_slot"));
    }

    @Test
    void encodesAPositionBetweenDeliveriesAsTheLastEndLsnAlone() {
        assertThat(SourceOffsets.encode(Position.afterDelivery(Lsn.parse("16/B374D848"))))
                .containsExactlyInAnyOrderEntriesOf(Map.of("lsn", "16/B374D848"));
    }

    @Test
    void encodesAPositionInsideADeliveryWithItsEndLsnAndTheLastEmittedRecord() {
        Position position = Position.insideDelivery(Lsn.parse("0/1000"), Lsn.parse("0/2000"), 17);

        assertThat(SourceOffsets.encode(position)).containsExactlyInAnyOrderEntriesOf(
                Map.of("lsn", "0/1000", "tx_lsn", "0/2000", "tx_order", 17L));
    }

    @Test
    void acceptsTxOrderReadBackAsAnInteger() {
        Position decoded = SourceOffsets.decode(Map.of("lsn", "0/1000", "tx_lsn", "0/2000", "tx_order", 3));

        assertThat(decoded).isEqualTo(Position.insideDelivery(Lsn.parse("0/1000"), Lsn.parse("0/2000"), 3));
    }

    @Test
    void marksASnapshotInProgressWhichDecodesAsThePositionBeforeEverything() {
        Map<String, Object> offset = SourceOffsets.snapshotInProgress();

        assertThat(offset).containsExactlyInAnyOrderEntriesOf(Map.of("lsn", "0/0", "snapshot", "in_progress"));
        assertThat(SourceOffsets.isSnapshotInProgress(offset)).isTrue();
        assertThat(SourceOffsets.decode(offset)).isEqualTo(Position.afterDelivery(Lsn.INVALID));
        assertThat(SourceOffsets.isSnapshotInProgress(Map.of("lsn", "0/1000"))).isFalse();
        assertThat(SourceOffsets.isSnapshotInProgress(null)).isFalse();
    }

    @Test
    void recordsTheConsistentPointOfTheSlotCreatedForTheSnapshotInProgress() {
        Map<String, Object> offset = SourceOffsets.snapshotInProgress(Lsn.parse("1/2A"));

        assertThat(offset).containsExactlyInAnyOrderEntriesOf(Map.of("lsn", "0/0", "snapshot", "in_progress", "snapshot_lsn", "1/2A"));
        assertThat(SourceOffsets.isSnapshotInProgress(offset)).isTrue();
        assertThat(SourceOffsets.snapshotLsn(offset)).isEqualTo(Lsn.parse("1/2A"));
        assertThat(SourceOffsets.decode(offset)).isEqualTo(Position.afterDelivery(Lsn.INVALID));
    }

    @Test
    void readsAnInProgressOffsetOfAnEarlierVersionAsWithoutConsistentPoint() {
        Map<String, Object> earlier = Map.of("lsn", "0/0", "snapshot", "in_progress");

        assertThat(SourceOffsets.snapshotLsn(earlier)).isEqualTo(Lsn.INVALID);
        assertThat(SourceOffsets.decode(earlier)).isEqualTo(Position.afterDelivery(Lsn.INVALID));
    }

    @Test
    void rejectsASnapshotLsnThatIsNotAnLsnOrStandsWithoutTheSnapshotMark() {
        assertRejected(Map.of("lsn", "0/0", "snapshot", "in_progress", "snapshot_lsn", "soon"), "snapshot_lsn", "expected an LSN");
        assertRejected(Map.of("lsn", "0/1000", "snapshot_lsn", "0/900"), "snapshot_lsn", "without snapshot = 'in_progress'");
        assertThatThrownBy(() -> SourceOffsets.snapshotInProgress(Lsn.INVALID)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void rejectsAnUnknownSnapshotValue() {
        assertThatThrownBy(() -> SourceOffsets.isSnapshotInProgress(Map.of("lsn", "0/0", "snapshot", "done")))
                .isInstanceOf(ConnectException.class).hasMessageContaining("'snapshot'").hasMessageContaining("in_progress");
    }

    @Property
    void decodesWhatItEncodes(@ForAll("positions") Position position) {
        assertThat(SourceOffsets.decode(SourceOffsets.encode(position))).isEqualTo(position);
    }

    @Provide
    Arbitrary<Position> positions() {
        Arbitrary<Long> lsns = Arbitraries.longs().between(0, Long.MAX_VALUE - 1);
        Arbitrary<Position> between = lsns.map(v -> Position.afterDelivery(Lsn.of(v)));
        Arbitrary<Position> inside = lsns.flatMap(v -> Arbitraries.longs().between(1, Long.MAX_VALUE - v)
                .flatMap(gap -> Arbitraries.longs().between(1, Long.MAX_VALUE)
                        .map(order -> Position.insideDelivery(Lsn.of(v), Lsn.of(v + gap), order))));
        return Arbitraries.oneOf(between, inside);
    }

    @Property
    void comparesLsnsUnsignedSoPositionsPastTheSignBitSurvive(@ForAll @LongRange(min = 1) long tail) {
        Lsn high = Lsn.of(Long.MIN_VALUE + tail - 1);
        Position position = Position.insideDelivery(high, Lsn.of(high.value() + 1), 1);

        assertThat(SourceOffsets.decode(SourceOffsets.encode(position))).isEqualTo(position);
    }

    @Test
    void rejectsAMissingOffset() {
        assertThatThrownBy(() -> SourceOffsets.decode(null))
                .isInstanceOf(ConnectException.class)
                .hasMessageContaining("'lsn'");
    }

    @Test
    void rejectsAnOffsetWithoutLsn() {
        assertRejected(Map.of("tx_lsn", "0/2000", "tx_order", 1L), "lsn", "is missing");
    }

    @Test
    void rejectsAnLsnThatIsNotPostgresText() {
        assertRejected(Map.of("lsn", "12345"), "lsn", "is '12345'; expected an LSN");
        assertRejected(Map.of("lsn", 12345L), "lsn", "is Long '12345'");
    }

    @Test
    void rejectsHalfOfAnInsideDeliveryPosition() {
        assertRejected(Map.of("lsn", "0/1000", "tx_lsn", "0/2000"), "tx_order", "is missing");
        assertRejected(Map.of("lsn", "0/1000", "tx_order", 2L), "tx_lsn", "is missing");
    }

    @Test
    void rejectsATxOrderThatIsNotAPositiveWholeNumber() {
        assertRejected(Map.of("lsn", "0/1000", "tx_lsn", "0/2000", "tx_order", 0L), "tx_order",
                "expected 1 or more");
        assertRejected(Map.of("lsn", "0/1000", "tx_lsn", "0/2000", "tx_order", "7"), "tx_order",
                "expected a whole number");
        assertRejected(Map.of("lsn", "0/1000", "tx_lsn", "0/2000", "tx_order", 1.5), "tx_order",
                "expected a whole number");
    }

    @Test
    void rejectsADeliveryInProgressCommittedBeforeTheLastCompletedOne() {
        assertRejected(Map.of("lsn", "0/2000", "tx_lsn", "0/1FFF", "tx_order", 1L), "tx_lsn",
                "before lsn 0/2000");
    }

    @Test
    void rejectsFieldsItDoesNotKnow() {
        Map<String, Object> offset = new HashMap<>(Map.of("lsn", "0/1000"));
        offset.put("snapshot_table", "public.orders");

        assertRejected(offset, "snapshot_table", "not a field this connector version knows");
    }

    private static void assertRejected(Map<String, ?> offset, String field, String problem) {
        assertThatThrownBy(() -> SourceOffsets.decode(offset))
                .isInstanceOf(ConnectException.class)
                .hasMessageStartingWith("stored source offset field '" + field + "' ")
                .hasMessageContaining(problem)
                .hasMessageContaining("/offsets");
    }
}
