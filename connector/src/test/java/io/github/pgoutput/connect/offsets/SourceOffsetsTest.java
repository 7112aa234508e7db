package io.github.pgoutput.connect.offsets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import org.apache.kafka.connect.errors.ConnectException;
import org.junit.jupiter.api.Test;

import io.github.pgoutput.connect.offsets.SourceOffsets.Position;
import io.github.pgoutput.pgoutput.Lsn;
import io.github.pgoutput.snapshot.ResumableProgress;
import io.github.pgoutput.snapshot.StoredOffset;
import io.github.pgoutput.testing.RandomValues;
import io.github.pgoutput.testing.SeededProperty;

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
    void aResumableSnapshotInProgressRecordsItsTablesItsLastRowAndItsResumptions() {
        ResumableProgress.Position at = ResumableProgress.Position.after(2, List.of("a,b", "7"));
        List<ResumableProgress.Resume> resumes = List.of(new ResumableProgress.Resume(ResumableProgress.Position.after(1, List.of("x")),
                Lsn.parse("0/300")));
        Map<String, Object> first = SourceOffsets.snapshotInProgress(Lsn.parse("0/100"), new StoredOffset.Progress("3-ff", at, List.of()));
        Map<String, Object> resumed = SourceOffsets.snapshotInProgress(Lsn.parse("0/100"), new StoredOffset.Progress("3-ff", at, resumes));

        assertThat(first).containsOnlyKeys("lsn", "snapshot", "snapshot_lsn", "snapshot_tables", "snapshot_at");
        assertThat(SourceOffsets.snapshotProgress(first)).isEqualTo(new StoredOffset.Progress("3-ff", at, List.of()));
        assertThat(SourceOffsets.snapshotProgress(resumed)).isEqualTo(new StoredOffset.Progress("3-ff", at, resumes));
        assertThat(SourceOffsets.decode(resumed)).isEqualTo(Position.afterDelivery(Lsn.INVALID));
        assertThat(SourceOffsets.snapshotProgress(SourceOffsets.snapshotInProgress(Lsn.parse("0/100")))).as("read in COPY order").isNull();
        assertThat(SourceOffsets.resumed(resumed)).as("not a streaming offset").isNull();
    }

    @Test
    void identicalRowsThatShareTheirPositionGetOffsetsThatTellThemApartAndReadBackTheSame() {
        StoredOffset.Progress progress = new StoredOffset.Progress("2-ab", new ResumableProgress.Position(0,
                List.of(new ResumableProgress.KeyRange(List.of("0".repeat(64)), List.of())), "h1-0123456789abcdef"), List.of());

        Map<String, Object> firstCopy = SourceOffsets.snapshotInProgress(Lsn.parse("0/100"), progress, 1);
        Map<String, Object> secondCopy = SourceOffsets.snapshotInProgress(Lsn.parse("0/100"), progress, 2);
        Map<String, Object> thirdCopy = SourceOffsets.snapshotInProgress(Lsn.parse("0/100"), progress, 3);

        assertThat(firstCopy).isEqualTo(SourceOffsets.snapshotInProgress(Lsn.parse("0/100"), progress)).doesNotContainKey("snapshot_copy");
        assertThat(List.of(firstCopy, secondCopy, thirdCopy)).as("Connect tells records apart by equality").doesNotHaveDuplicates();
        assertThat(secondCopy).containsEntry("snapshot_copy", 2);
        assertThat(SourceOffsets.snapshotProgress(thirdCopy)).as("the place among the copies is never read back").isEqualTo(progress);
        assertThat(SourceOffsets.decode(thirdCopy)).isEqualTo(Position.afterDelivery(Lsn.INVALID));
    }

    @Test
    void streamingOffsetsCarryTheResumptionsOnlyBeforeTheLastOnesPoint() {
        SourceOffsets.Resumed resumed = new SourceOffsets.Resumed("3-ff", List.of(new ResumableProgress.Resume(
                ResumableProgress.Position.after(1, List.of("x")), Lsn.parse("0/300"))));

        Map<String, Object> before = SourceOffsets.encode(Position.afterDelivery(Lsn.parse("0/2FF")), resumed);
        Map<String, Object> at = SourceOffsets.encode(Position.afterDelivery(Lsn.parse("0/300")), resumed);

        assertThat(before).containsOnlyKeys("lsn", "snapshot_tables", "snapshot_resumed");
        assertThat(SourceOffsets.resumed(before)).isEqualTo(resumed);
        assertThat(SourceOffsets.decode(before)).isEqualTo(Position.afterDelivery(Lsn.parse("0/2FF")));
        assertThat(at).containsOnlyKeys("lsn");
        assertThat(SourceOffsets.resumed(at)).isNull();
        assertThat(SourceOffsets.encode(Position.afterDelivery(Lsn.parse("0/2FF")), null)).containsOnlyKeys("lsn");
    }

    @Test
    void rejectsMalformedResumableSnapshotFields() {
        assertRejected(Map.of("lsn", "0/0", "snapshot", "in_progress", "snapshot_lsn", "0/1", "snapshot_tables", "1-a",
                "snapshot_at", "x"), "snapshot_at", "table:key");
        assertRejected(Map.of("lsn", "0/0", "snapshot", "in_progress", "snapshot_lsn", "0/1", "snapshot_at", "0:1"),
                "snapshot_tables", "expected text");
        assertRejected(Map.of("lsn", "0/5", "snapshot_at", "0:1"), "snapshot_at", "without snapshot");
        assertRejected(Map.of("lsn", "0/5", "snapshot_resumed", "0:1@0/9"), "snapshot_tables", "expected text");
        assertRejected(Map.of("lsn", "0/5", "snapshot_tables", "1-a", "snapshot_resumed", "0:1"), "snapshot_resumed", "position@lsn");
    }

    @Test
    void rejectsAnUnknownSnapshotValue() {
        assertThatThrownBy(() -> SourceOffsets.isSnapshotInProgress(Map.of("lsn", "0/0", "snapshot", "done")))
                .isInstanceOf(ConnectException.class).hasMessageContaining("'snapshot'").hasMessageContaining("in_progress");
    }

    @Test
    void decodesWhatItEncodes() {
        long max = Long.MAX_VALUE;
        List<Position> edges = List.of(Position.afterDelivery(Lsn.INVALID), Position.afterDelivery(Lsn.of(max - 1)),
                Position.insideDelivery(Lsn.INVALID, Lsn.of(1), 1), Position.insideDelivery(Lsn.INVALID, Lsn.of(max), max),
                Position.insideDelivery(Lsn.of(max - 1), Lsn.of(max), 1),
                Position.insideDelivery(Lsn.of(0xFFFFFFFFL), Lsn.of(0x1_00000000L), max));
        edges.forEach(SourceOffsetsTest::assertRoundTrips);
        SeededProperty.check(1000, random -> assertRoundTrips(position(random)));
    }

    @Test
    void theEncoderOfAStreamWritesWhatEncodeWritesWhileItKeepsTheTextsOfRecentLsns() {
        // Positions drawn from a few LSNs, so that kept texts are used, replaced and used again.
        SeededProperty.check(200, random -> {
            SourceOffsets.Encoder encoder = new SourceOffsets.Encoder();
            long[] lsns = new long[2 + random.nextInt(8)];
            for (int i = 0; i < lsns.length; i++) {
                lsns[i] = RandomValues.between(random, 1, Long.MAX_VALUE - 1);
            }
            for (int i = 0; i < 50; i++) {
                Lsn last = Lsn.of(lsns[random.nextInt(lsns.length)]);
                Lsn begin = Lsn.of(lsns[random.nextInt(lsns.length)]);
                Lsn end = Lsn.of(lsns[random.nextInt(lsns.length)]);
                Position position = random.nextBoolean() ? Position.afterDelivery(last)
                        : Position.insideDelivery(last, begin, end, 1 + random.nextInt(1000), "n1");
                assertThat(encoder.encode(position)).containsExactlyEntriesOf(SourceOffsets.encode(position));
            }
        });
    }

    /** Between deliveries or inside one, every LSN below Long.MAX_VALUE, the end LSN above it, tx_order 1 or more. */
    private static Position position(Random random) {
        long lsn = RandomValues.between(random, 0, Long.MAX_VALUE - 1);
        if (random.nextBoolean()) {
            return Position.afterDelivery(Lsn.of(lsn));
        }
        long gap = RandomValues.between(random, 1, Long.MAX_VALUE - lsn);
        long order = RandomValues.between(random, 1, Long.MAX_VALUE);
        return Position.insideDelivery(Lsn.of(lsn), Lsn.of(lsn + gap), order);
    }

    @Test
    void comparesLsnsUnsignedSoPositionsPastTheSignBitSurvive() {
        assertRoundTripsPastTheSignBit(1);
        assertRoundTripsPastTheSignBit(Long.MAX_VALUE);
        SeededProperty.check(1000, random -> assertRoundTripsPastTheSignBit(RandomValues.between(random, 1, Long.MAX_VALUE)));
    }

    /** {@code tail} 1 puts the LSN at the sign bit, Long.MAX_VALUE puts its end at FFFFFFFF/FFFFFFFF. */
    private static void assertRoundTripsPastTheSignBit(long tail) {
        Lsn high = Lsn.of(Long.MIN_VALUE + tail - 1);
        assertRoundTrips(Position.insideDelivery(high, Lsn.of(high.value() + 1), 1));
    }

    private static void assertRoundTrips(Position position) {
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

    /**
     * A transaction prepared before the slot decoded two-phase arrives at COMMIT PREPARED with its original prepare
     * LSN (docs/pgoutput-protocol.md §6.5), so a position inside it lies before the last completed delivery's end: loss path 2, where this
     * offset used to fail the task for good.
     */
    @Test
    void readsADeliveryInProgressWhosePrepareLsnLiesBeforeTheLastCompletedOne() {
        Position decoded = SourceOffsets.decode(Map.of("lsn", "0/2000", "tx_lsn", "0/1FFF", "tx_end_lsn", "0/2010", "tx_order", 1L,
                "tx_numbering", "abc"));

        assertThat(decoded).isEqualTo(Position.insideDelivery(Lsn.parse("0/2000"), Lsn.parse("0/1FFF"), Lsn.parse("0/2010"), 1, "abc"));
    }

    @Test
    void rejectsDeliveryFieldsWithoutTheDeliveryLsn() {
        assertRejected(Map.of("lsn", "0/2000", "tx_end_lsn", "0/2010"), "tx_end_lsn", "without tx_lsn");
        assertRejected(Map.of("lsn", "0/2000", "tx_numbering", "abc"), "tx_numbering", "without tx_lsn");
    }

    @Test
    void encodesTheEndLsnAndNumberingOfTheDeliveryInProgress() {
        Position position = Position.insideDelivery(Lsn.parse("0/1000"), Lsn.parse("0/2000"), Lsn.parse("0/2040"), 3, "f00d");

        assertThat(SourceOffsets.encode(position)).containsEntry("tx_end_lsn", "0/2040").containsEntry("tx_numbering", "f00d");
        assertThat(SourceOffsets.decode(SourceOffsets.encode(position))).isEqualTo(position);
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
