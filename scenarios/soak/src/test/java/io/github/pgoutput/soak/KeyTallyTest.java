package io.github.pgoutput.soak;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class KeyTallyTest {

    @Test
    void isCompleteAtTheRecordThatBringsTheLastMissingId() {
        KeyTally tally = new KeyTally(3);
        tally.add(1, 10);
        tally.add(3, 20);
        assertThat(tally.complete()).isFalse();
        assertThat(tally.missing()).isEqualTo(1);

        tally.add(2, 30);
        tally.add(2, 40);

        assertThat(tally.complete()).isTrue();
        assertThat(tally.completeNanos()).isEqualTo(30);
        assertThat(tally.missing()).isZero();
    }

    @Test
    void countsEveryRecordOfAnIdSeenBeforeAsADuplicate() {
        KeyTally tally = new KeyTally(2);
        tally.add(1, 1);
        tally.add(1, 2);
        tally.add(1, 3);
        tally.add(2, 4);

        assertThat(tally.duplicates()).isEqualTo(2);
        assertThat(tally.records()).isEqualTo(4);
        assertThat(tally.distinct()).isEqualTo(2);
    }

    @Test
    void countsIdsOutsideTheRangeAsStraysNotAsRows() {
        KeyTally tally = new KeyTally(2);
        tally.add(0, 1);
        tally.add(3, 2);
        tally.add(2, 3);

        assertThat(tally.strays()).isEqualTo(2);
        assertThat(tally.distinct()).isEqualTo(1);
        assertThat(tally.complete()).isFalse();
    }

    @Test
    void refusesAnEmptyRange() {
        assertThatThrownBy(() -> new KeyTally(0)).isInstanceOf(IllegalArgumentException.class);
    }
}
