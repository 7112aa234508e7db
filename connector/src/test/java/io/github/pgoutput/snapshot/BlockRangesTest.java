package io.github.pgoutput.snapshot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class BlockRangesTest {

    @Test
    void aTableBelowTwoRangesWorthOfBlocksIsReadInOnePiece() {
        assertThat(BlockRanges.conditions(0, 4)).isEmpty();
        assertThat(BlockRanges.conditions(2 * BlockRanges.MIN_BLOCKS_PER_RANGE - 1, 4)).isEmpty();
        assertThat(BlockRanges.conditions(1_000_000, 1)).as("one thread").isEmpty();
    }

    @Test
    void rangesAreContiguousOpenAtBothEndsAndAtMostTheThreadCount() {
        assertThat(BlockRanges.conditions(3000, 4)).as("only two ranges of 1024 blocks fit").containsExactly(
                "ctid < '(1500,0)'::tid",
                "ctid >= '(1500,0)'::tid");
        assertThat(BlockRanges.conditions(100_000, 3)).containsExactly(
                "ctid < '(33333,0)'::tid",
                "ctid >= '(33333,0)'::tid AND ctid < '(66666,0)'::tid",
                "ctid >= '(66666,0)'::tid");
    }

    @Test
    void aThreadCountBelowOneIsRefused() {
        assertThatThrownBy(() -> BlockRanges.conditions(10_000, 0)).isInstanceOf(IllegalArgumentException.class);
    }
}
