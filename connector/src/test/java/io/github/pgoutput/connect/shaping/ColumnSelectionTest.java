package io.github.pgoutput.connect.shaping;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ColumnSelectionTest {

    @Test
    void anIncludeListKeepsOnlyTheColumnsItMatches() {
        ColumnSelection selection = ColumnSelection.including(RegexList.parse("public\\.orders\\.(id|total)"));

        assertThat(selection.includes("public", "orders", "id")).isTrue();
        assertThat(selection.includes("public", "orders", "TOTAL")).as("case-insensitive, as Debezium").isTrue();
        assertThat(selection.includes("public", "orders", "card")).isFalse();
        assertThat(selection.includes("other", "orders", "id")).isFalse();
        assertThat(selection.filters()).isTrue();
    }

    @Test
    void anExcludeListLeavesOutTheColumnsItMatches() {
        ColumnSelection selection = ColumnSelection.excluding(RegexList.parse("public\\.orders\\.card,.*\\.ssn"));

        assertThat(selection.includes("public", "orders", "card")).isFalse();
        assertThat(selection.includes("hr", "people", "ssn")).isFalse();
        assertThat(selection.includes("public", "orders", "id")).isTrue();
    }

    @Test
    void anEmptyExcludeListKeepsEveryColumn() {
        assertThat(ColumnSelection.excluding(RegexList.parse(""))).isSameAs(ColumnSelection.ALL);
        assertThat(ColumnSelection.ALL.filters()).isFalse();
        assertThat(ColumnSelection.ALL.includes("a", "b", "c")).isTrue();
    }
}
