package io.github.pgoutput.connect.offsets;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

import io.github.pgoutput.pgoutput.Lsn;
import io.github.pgoutput.testing.SeededProperty;
import org.junit.jupiter.api.Test;

class AcknowledgementTrackerTest {

    @Test
    void confirmsADeliveryOnlyWhenAllItsRecordsAreAcknowledgedAndTheOffsetIsCommitted() {
        AcknowledgementTracker tracker = new AcknowledgementTracker();
        AcknowledgementTracker.Unit unit = tracker.open();
        Object first = new Object();
        Object second = new Object();
        tracker.emitted(unit, first);
        tracker.emitted(unit, second);
        tracker.ended(unit, Lsn.of(0x100));

        tracker.acknowledged(first);
        assertThat(tracker.durableThrough(Lsn.of(0x100))).isEqualTo(Lsn.INVALID);
        tracker.acknowledged(second);
        assertThat(tracker.durableThrough(Lsn.of(0x80))).as("offset not yet committed").isEqualTo(Lsn.INVALID);
        assertThat(tracker.durableThrough(Lsn.of(0x100))).isEqualTo(Lsn.of(0x100));
    }

    @Test
    void neverConfirmsPastAnUnacknowledgedDeliveryEvenWhenLaterOnesAreDone() {
        AcknowledgementTracker tracker = new AcknowledgementTracker();
        AcknowledgementTracker.Unit slow = tracker.open();
        Object pending = new Object();
        tracker.emitted(slow, pending);
        tracker.ended(slow, Lsn.of(0x100));
        AcknowledgementTracker.Unit fast = tracker.open();
        Object done = new Object();
        tracker.emitted(fast, done);
        tracker.ended(fast, Lsn.of(0x200));
        tracker.acknowledged(done);

        assertThat(tracker.durableThrough(Lsn.of(0x200))).isEqualTo(Lsn.INVALID);
        tracker.acknowledged(pending);
        assertThat(tracker.durableThrough(Lsn.of(0x200))).isEqualTo(Lsn.of(0x200));
    }

    @Test
    void anIdlePointIsConfirmedOnlyAfterEverythingBeforeIt() {
        AcknowledgementTracker tracker = new AcknowledgementTracker();
        AcknowledgementTracker.Unit unit = tracker.open();
        Object record = new Object();
        tracker.emitted(unit, record);
        tracker.ended(unit, Lsn.of(0x100));
        tracker.idleAt(Lsn.of(0x900));

        assertThat(tracker.durableThrough(Lsn.of(0x100))).isEqualTo(Lsn.INVALID);
        tracker.acknowledged(record);
        assertThat(tracker.durableThrough(Lsn.of(0x100))).isEqualTo(Lsn.of(0x900));
    }

    @Test
    void aDeliveryWithoutRecordsThatAppliedASignalIsConfirmedOnlyOnceTheCommittedOffsetReachesItsEnd() {
        AcknowledgementTracker tracker = new AcknowledgementTracker();
        AcknowledgementTracker.Unit plain = tracker.open();
        tracker.ended(plain, Lsn.of(0x100));
        AcknowledgementTracker.Unit signal = tracker.open();
        tracker.carriesOffsetState(signal);
        tracker.ended(signal, Lsn.of(0x200));
        tracker.idleAt(Lsn.of(0x300));

        assertThat(tracker.durableThrough(Lsn.INVALID)).as("a reconnect now starts before the signal, which comes again")
                .isEqualTo(Lsn.of(0x100));
        assertThat(tracker.durableThrough(Lsn.of(0x1F0))).isEqualTo(Lsn.of(0x100));
        assertThat(tracker.durableThrough(Lsn.of(0x200))).as("an offset saying what the signal did is stored").isEqualTo(Lsn.of(0x300));
    }

    @Test
    void aDeliveryWhoseEndIsNotKnownYetHoldsEverythingAfterIt() {
        AcknowledgementTracker tracker = new AcknowledgementTracker();
        AcknowledgementTracker.Unit open = tracker.open();
        tracker.idleAt(Lsn.of(0x900));
        assertThat(tracker.durableThrough(Lsn.of(0x1000))).isEqualTo(Lsn.INVALID);
        tracker.ended(open, Lsn.of(0x100));
        assertThat(tracker.durableThrough(Lsn.INVALID)).isEqualTo(Lsn.of(0x900));
    }

    @Test
    void afterAFailureRecordsNeverHandedOverConfirmNothingAndTheReplayedDeliveryDoes() {
        AcknowledgementTracker tracker = new AcknowledgementTracker();
        AcknowledgementTracker.Unit partial = tracker.open();
        Object handedOver = new Object();
        Object lost = new Object();
        tracker.emitted(partial, handedOver);
        tracker.emitted(partial, lost);
        AcknowledgementTracker.Unit builtInFailedPoll = tracker.open();
        Object alsoLost = new Object();
        tracker.emitted(builtInFailedPoll, alsoLost);
        tracker.ended(builtInFailedPoll, Lsn.of(0x300));

        tracker.abandon(java.util.List.of(lost, alsoLost));
        assertThat(tracker.durableThrough(Lsn.of(0x300))).as("the handed-over record is still in flight").isEqualTo(Lsn.INVALID);
        tracker.acknowledged(handedOver);
        assertThat(tracker.durableThrough(Lsn.of(0x300))).as("abandoned units confirm nothing").isEqualTo(Lsn.INVALID);

        AcknowledgementTracker.Unit replayed = tracker.open();
        Object again = new Object();
        tracker.emitted(replayed, again);
        tracker.ended(replayed, Lsn.of(0x300));
        tracker.acknowledged(again);
        assertThat(tracker.durableThrough(Lsn.of(0x300))).isEqualTo(Lsn.of(0x300));
        assertThat(tracker.unacknowledged()).isZero();
    }

    /**
     * Random deliveries (some without records), acknowledged in a random order with the offset committer asking in
     * between: the confirmed LSN never covers a delivery with an unacknowledged record or beyond the committed
     * offset, never goes back, and reaches the last end once everything is acknowledged and committed.
     */
    @Test
    void confirmedLsnNeverPassesAnUnacknowledgedRecord() {
        SeededProperty.check(300, random -> {
            List<Integer> recordsPerDelivery = new ArrayList<>();
            int deliveries = 1 + random.nextInt(12);
            for (int d = 0; d < deliveries; d++) {
                recordsPerDelivery.add(random.nextInt(5));
            }
            assertConfirmedLsnNeverPassesAnUnacknowledgedRecord(recordsPerDelivery, random);
        });
    }

    @Test
    void confirmedLsnNeverPassesAnUnacknowledgedRecordWithTheFewestAndTheMostDeliveriesAndRecords() {
        List<List<Integer>> edges = List.of(List.of(0), List.of(4), Collections.nCopies(12, 0), Collections.nCopies(12, 4),
                List.of(0, 4, 0, 4, 0, 4, 0, 4, 0, 4, 0, 4));
        SeededProperty.check(20, random -> {
            for (List<Integer> recordsPerDelivery : edges) {
                assertConfirmedLsnNeverPassesAnUnacknowledgedRecord(recordsPerDelivery, random);
            }
        });
    }

    /** {@code random} orders the acknowledgements and decides whether Connect has committed the offset yet. */
    private static void assertConfirmedLsnNeverPassesAnUnacknowledgedRecord(List<Integer> recordsPerDelivery, Random random) {
        AcknowledgementTracker tracker = new AcknowledgementTracker();
        List<Object> records = new ArrayList<>();
        List<Integer> deliveryOf = new ArrayList<>();
        List<Lsn> ends = new ArrayList<>();
        for (int d = 0; d < recordsPerDelivery.size(); d++) {
            AcknowledgementTracker.Unit unit = tracker.open();
            for (int r = 0; r < recordsPerDelivery.get(d); r++) {
                Object record = new Object();
                tracker.emitted(unit, record);
                records.add(record);
                deliveryOf.add(d);
            }
            Lsn end = Lsn.of(0x1000L * (d + 1));
            tracker.ended(unit, end);
            ends.add(end);
        }
        List<Integer> ackOrder = new ArrayList<>();
        for (int i = 0; i < records.size(); i++) {
            ackOrder.add(i);
        }
        Collections.shuffle(ackOrder, random);
        boolean[] acked = new boolean[records.size()];
        Lsn previous = Lsn.INVALID;
        for (int i : ackOrder) {
            tracker.acknowledged(records.get(i));
            acked[i] = true;
            // Connect commits the offset of the longest acknowledged prefix of records (possibly lagging).
            int prefix = 0;
            while (prefix < records.size() && acked[prefix]) {
                prefix++;
            }
            Lsn committed = prefix == 0 ? Lsn.INVALID
                    : random.nextBoolean() ? ends.get(deliveryOf.get(prefix - 1)) : Lsn.INVALID;
            Lsn durable = tracker.durableThrough(committed);
            assertThat(durable).isGreaterThanOrEqualTo(previous);
            previous = durable;
            for (int r = 0; r < records.size(); r++) {
                if (!acked[r]) {
                    assertThat(durable).as("confirmed past unacknowledged record %d", r).isLessThan(ends.get(deliveryOf.get(r)));
                }
            }
        }
        assertThat(tracker.unacknowledged()).isZero();
        assertThat(tracker.durableThrough(ends.get(ends.size() - 1))).isEqualTo(ends.get(ends.size() - 1));
    }
}
