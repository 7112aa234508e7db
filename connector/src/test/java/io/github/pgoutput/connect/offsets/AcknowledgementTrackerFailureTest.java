package io.github.pgoutput.connect.offsets;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import io.github.pgoutput.pgoutput.Lsn;
import org.junit.jupiter.api.Test;

/** What a failure of the stream does to the units the tracker holds: nothing after a lost record is ever confirmed. */
class AcknowledgementTrackerFailureTest {

    @Test
    void aDeliveryWithoutRecordsAfterAnAbandonedOneConfirmsNothing() {
        // Loss path 1: delivery A put records into the batch, delivery B (only uncaptured tables) produced none, then
        // the connection dropped in the same poll. Confirming B's end would let START_REPLICATION pass A.
        AcknowledgementTracker tracker = new AcknowledgementTracker();
        AcknowledgementTracker.Unit a = tracker.open();
        Object aRecord = new Object();
        tracker.emitted(a, aRecord);
        tracker.ended(a, Lsn.of(0x100));
        AcknowledgementTracker.Unit b = tracker.open();
        tracker.ended(b, Lsn.of(0x200));

        tracker.abandon(List.of(aRecord));

        assertThat(tracker.durableThrough(Lsn.of(0x200))).isEqualTo(Lsn.INVALID);
        assertThat(tracker.pendingUnits()).as("durable but confirming nothing").isZero();
    }

    @Test
    void anIdlePointAfterAnAbandonedDeliveryConfirmsNothing() {
        AcknowledgementTracker tracker = new AcknowledgementTracker();
        AcknowledgementTracker.Unit a = tracker.open();
        Object aRecord = new Object();
        tracker.emitted(a, aRecord);
        tracker.ended(a, Lsn.of(0x100));
        tracker.idleAt(Lsn.of(0x900));

        tracker.abandon(List.of(aRecord));

        assertThat(tracker.durableThrough(Lsn.of(0x900))).isEqualTo(Lsn.INVALID);
    }

    @Test
    void unitsBeforeTheFirstAbandonedOneStillConfirm() {
        AcknowledgementTracker tracker = new AcknowledgementTracker();
        AcknowledgementTracker.Unit handedOver = tracker.open();
        Object inKafka = new Object();
        tracker.emitted(handedOver, inKafka);
        tracker.ended(handedOver, Lsn.of(0x100));
        AcknowledgementTracker.Unit lost = tracker.open();
        Object notHandedOver = new Object();
        tracker.emitted(lost, notHandedOver);
        tracker.ended(lost, Lsn.of(0x200));
        tracker.idleAt(Lsn.of(0x300));

        tracker.abandon(List.of(notHandedOver));
        tracker.acknowledged(inKafka);

        assertThat(tracker.durableThrough(Lsn.of(0x100))).isEqualTo(Lsn.of(0x100));
        assertThat(tracker.durableThrough(Lsn.of(0x300))).as("nothing after the lost unit").isEqualTo(Lsn.of(0x100));
    }

    @Test
    void anAbandonedUnitStillWaitsForItsRecordsInFlightBeforeLaterUnitsMayConfirm() {
        AcknowledgementTracker tracker = new AcknowledgementTracker();
        AcknowledgementTracker.Unit partly = tracker.open();
        Object inFlight = new Object();
        Object notHandedOver = new Object();
        tracker.emitted(partly, inFlight);
        tracker.emitted(partly, notHandedOver);
        tracker.abandon(List.of(notHandedOver));
        AcknowledgementTracker.Unit replayed = tracker.open();
        Object again = new Object();
        tracker.emitted(replayed, again);
        tracker.ended(replayed, Lsn.of(0x200));
        tracker.acknowledged(again);

        assertThat(tracker.durableThrough(Lsn.of(0x200))).isEqualTo(Lsn.INVALID);
        tracker.acknowledged(inFlight);
        assertThat(tracker.durableThrough(Lsn.of(0x200))).isEqualTo(Lsn.of(0x200));
    }
}
