package io.github.pgoutput.parity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Set;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import org.junit.jupiter.api.Test;

class SwitchTallyTest {

    private static TopicCollector.Seen record(String topic, long offset, boolean ours, String op, String event) {
        return new TopicCollector.Seen(topic, offset, ours, op, event, JsonNodeFactory.instance.objectNode(), 0);
    }

    @Test
    void aCleanSwitchHasTwoRunsNothingMissingAndNoDuplicate() {
        SwitchTally tally = SwitchTally.of(List.of(
                record("p.s.orders", 0, false, "r", "orders:r:0"),
                record("p.s.orders", 1, false, "c", "orders:1"),
                record("p.s.orders", 2, true, "c", "orders:2"),
                record("p.s.categories", 0, false, "u", "categories:1"),
                record("p.s.categories", 1, true, "u", "categories:2")), Set.of("orders:1", "orders:2", "categories:1", "categories:2"));

        assertThat(tally.missing()).isEmpty();
        assertThat(tally.allDuplicates()).isZero();
        assertThat(tally.runs()).containsEntry(0, "debezium (3 records)").containsEntry(1, "ours (2 records)");
        assertThat(tally.ourSnapshotRows()).isZero();
    }

    @Test
    void countsADuplicateByTheRunsItCrossedAndAMissingEvent() {
        SwitchTally tally = SwitchTally.of(List.of(
                record("p.s.orders", 0, false, "c", "orders:1"),
                record("p.s.orders", 1, false, "c", "orders:2"),
                record("p.s.orders", 2, true, "c", "orders:2"),
                record("p.s.orders", 3, true, "c", "orders:3"),
                record("p.s.orders", 4, false, "c", "orders:3")), Set.of("orders:1", "orders:2", "orders:3", "orders:4"));

        assertThat(tally.missing()).containsExactly("orders:4");
        assertThat(tally.duplicates(0, 1)).isEqualTo(1);
        assertThat(tally.duplicates(1, 2)).isEqualTo(1);
        assertThat(tally.allDuplicates()).isEqualTo(2);
    }

    @Test
    void runsAreNumberedInOffsetOrderWhateverTheOrderTheyWereReadIn() {
        SwitchTally tally = SwitchTally.of(List.of(
                record("p.s.orders", 1, true, "c", "orders:2"),
                record("p.s.orders", 0, false, "c", "orders:1")), Set.of("orders:1", "orders:2"));

        assertThat(tally.runs()).containsEntry(0, "debezium (1 records)").containsEntry(1, "ours (1 records)");
    }

    @Test
    void aSnapshotRowOfOursAndAnEventNeverCommittedAreCounted() {
        SwitchTally tally = SwitchTally.of(List.of(
                record("p.s.orders", 0, false, "c", "orders:1"),
                record("p.s.orders", 1, true, "r", "orders:r:0"),
                record("p.s.orders", 2, true, "c", "orders:9")), Set.of("orders:1"));

        assertThat(tally.ourSnapshotRows()).isEqualTo(1);
        assertThat(tally.unexpected()).containsExactly("orders:9");
    }

    @Test
    void runsThatDoNotLineUpAcrossTopicsAreAnError() {
        assertThatThrownBy(() -> SwitchTally.of(List.of(
                record("p.s.orders", 0, false, "c", "orders:1"),
                record("p.s.categories", 0, true, "u", "categories:1")), Set.of()))
                .hasMessageContaining("run 0 is");
    }
}
