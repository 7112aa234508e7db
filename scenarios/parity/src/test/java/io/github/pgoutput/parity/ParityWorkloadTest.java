package io.github.pgoutput.parity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ParityWorkloadTest {

    @Test
    void splitsEachSectionIntoStatementsAtLinesEndingWithASemicolon() {
        ParityWorkload workload = ParityWorkload.parse("""
                -- about
                -- @setup
                CREATE TABLE t (a int,
                    b text);
                INSERT INTO t VALUES (1, 'x;y');
                -- @stream
                -- a comment
                BEGIN;
                UPDATE t SET b = 'z';
                COMMIT;
                """);

        assertThat(workload.setup()).containsExactly("CREATE TABLE t (a int,\n    b text)", "INSERT INTO t VALUES (1, 'x;y')");
        assertThat(workload.stream()).containsExactly("BEGIN", "UPDATE t SET b = 'z'", "COMMIT");
    }

    @Test
    void aStatementWithoutItsSemicolonOrOutsideASectionIsRefused() {
        assertThatThrownBy(() -> ParityWorkload.parse("-- @setup\nSELECT 1\n"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("SELECT 1");
        assertThatThrownBy(() -> ParityWorkload.parse("SELECT 1;\n"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("before the first section");
    }

    @Test
    void theShippedWorkloadSetsUpBeforeItStreamsAndEndsWithTheEndMarker() {
        ParityWorkload workload = ParityWorkload.load();

        assertThat(workload.setup()).isNotEmpty().allMatch(s -> !s.startsWith("-- @"));
        assertThat(workload.stream()).last().isEqualTo("INSERT INTO pt_end VALUES (1)");
    }
}
