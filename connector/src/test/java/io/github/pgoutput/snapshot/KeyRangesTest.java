package io.github.pgoutput.snapshot;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.pgoutput.snapshot.ResumableProgress.KeyRange;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** Where a resumable snapshot splits a big table into key ranges read at once. */
class KeyRangesTest {

    private static List<List<String>> keys(int from, int to) {
        return IntStream.rangeClosed(from, to).mapToObj(i -> List.of(String.valueOf(i))).toList();
    }

    @Test
    void aSampleIsSplitIntoRangesOfAsManySampledKeysThatJoinUpIntoTheWholeTable() {
        List<KeyRange> ranges = KeyRanges.split(KeyRange.ALL, keys(1, 12), 3);

        assertThat(ranges).containsExactly(new KeyRange(List.of(), List.of("4")), new KeyRange(List.of("4"), List.of("8")),
                new KeyRange(List.of("8"), List.of()));
        assertThat(new ResumableProgress.Position(0, ranges).atTableStart()).as("together, every key").isTrue();
    }

    @Test
    void aRangeBeingSplitKeepsItsOwnBounds() {
        KeyRange rest = new KeyRange(List.of("100"), List.of("200"));

        assertThat(KeyRanges.split(rest, keys(101, 104), 2))
                .containsExactly(new KeyRange(List.of("100"), List.of("102")), new KeyRange(List.of("102"), List.of("200")));
    }

    @Test
    void aSampleTooSmallToSplitLeavesFewerRangesOrTheRangeItself() {
        assertThat(KeyRanges.split(KeyRange.ALL, List.of(), 4)).containsExactly(KeyRange.ALL);
        assertThat(KeyRanges.split(KeyRange.ALL, keys(7, 7), 4)).containsExactly(KeyRange.ALL);
        assertThat(KeyRanges.split(KeyRange.ALL, keys(1, 2), 4))
                .containsExactly(new KeyRange(List.of(), List.of("1")), new KeyRange(List.of("1"), List.of()));
        assertThat(KeyRanges.split(KeyRange.ALL, keys(1, 100), 1)).containsExactly(KeyRange.ALL);
    }

    @Test
    void aTableIsSplitAsForBlockRangesAndItsSampleStaysSmall() {
        assertThat(KeyRanges.count(2047, 4)).as("under two ranges' worth of blocks").isEqualTo(1);
        assertThat(KeyRanges.count(2048, 4)).isEqualTo(2);
        assertThat(KeyRanges.count(1_000_000, 4)).isEqualTo(4);
        assertThat(KeyRanges.count(1_000_000, 1)).isEqualTo(1);
        assertThat(KeyRanges.samplePercent(100)).isEqualTo(100);
        assertThat(KeyRanges.samplePercent(2560)).isEqualTo(10);
        assertThat(KeyRanges.samplePercent(300_000_000)).as("a 2 TB table: still a sample, never 0").isEqualTo(0.0001);
    }
}
