package io.github.pgoutput.snapshot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.pgoutput.pgoutput.RelationColumn;
import io.github.pgoutput.replication.TableName;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The consumer side of the snapshot reader: groups of equal keys are released whole, once the row after them (or the
 * end) shows whether their last row is the snapshot's last, and then handed out without waiting.
 */
class GroupedHandOutTest {

    private static final SnapshotTable TABLE = new SnapshotTable(new TableName("public", "log"), 1,
            List.of(new RelationColumn(false, "v", 25, -1)), -1, false, null);

    private static SnapshotRow row(String v) {
        return new SnapshotRow(TABLE, List.of(v), false, false, SnapshotRow.Marker.TRUE);
    }

    private static List<SnapshotRow> rows(String... values) {
        return java.util.Arrays.stream(values).map(GroupedHandOutTest::row).toList();
    }

    private static List<List<String>> keys(String... keys) {
        return java.util.Arrays.stream(keys).map(List::of).toList();
    }

    /**
     * Everything {@link GroupedHandOut#next()} hands out now: each row's value, {@code .} when it ends its group (else
     * {@code +}), {@code !} when it is the snapshot's last, and {@code |} when the caller may stop after it.
     */
    private static List<String> drain(GroupedHandOut handOut) {
        List<String> out = new ArrayList<>();
        GroupedHandOut.Item item;
        while ((item = handOut.next()) != null) {
            out.add(item.row().values().get(0) + (item.endsGroup() ? "." : "+") + (item.last() ? "!" : "")
                    + (handOut.groupContinues() ? "" : "|"));
        }
        return out;
    }

    @Test
    void identicalRowsAreHandedOutAsOneGroupOnlyOnceTheRowAfterThemHasArrived() {
        GroupedHandOut handOut = new GroupedHandOut();
        handOut.batch(0, rows("a", "b", "b", "b"), keys("ka", "kb", "kb", "kb"));

        assertThat(drain(handOut)).as("a is released when b arrives; the b group waits for what follows it")
                .containsExactly("a.|");
        assertThat(handOut.waiting()).isTrue();
        handOut.batch(0, rows("c"), keys("kc"));
        List<Integer> places = new ArrayList<>();
        GroupedHandOut.Item item;
        while ((item = handOut.next()) != null) {
            assertThat(item.row().values()).containsExactly("b");
            assertThat(item.endsGroup()).as("only the group's last row ends it").isEqualTo(!handOut.groupContinues());
            places.add(item.rowInGroup());
        }
        assertThat(places).as("all of b at once, each with its place in the group").containsExactly(1, 2, 3);
        handOut.end();
        assertThat(drain(handOut)).containsExactly("c.!|");
        assertThat(handOut.finished()).isTrue();
        assertThat(handOut.next()).isNull();
    }

    @Test
    void theSnapshotsLastGroupIsMarkedLastOnItsLastRowOnlyAtTheEnd() {
        GroupedHandOut handOut = new GroupedHandOut();
        handOut.batch(2, rows("x", "x"), keys("k", "k"));
        assertThat(drain(handOut)).as("whether x is the last group is not known yet").isEmpty();
        assertThat(handOut.finished()).isFalse();
        handOut.end();
        assertThat(drain(handOut)).containsExactly("x+", "x.!|");
        assertThat(handOut.finished()).isTrue();
    }

    @Test
    void equalKeysOfDifferentPartsAreDifferentGroups() {
        GroupedHandOut handOut = new GroupedHandOut();
        handOut.batch(0, rows("p"), keys("k"));
        handOut.next();
        handOut.batch(1, rows("q"), keys("k"));
        assertThat(drain(handOut)).as("p ends its group when a row of another part follows").containsExactly("p.|");
        handOut.end();
        assertThat(drain(handOut)).containsExactly("q.!|");
    }

    @Test
    void rowsWithoutKeysAreEachTheirOwnGroup() {
        GroupedHandOut handOut = new GroupedHandOut();
        handOut.batch(0, rows("1", "1", "2"), null);
        assertThat(drain(handOut)).containsExactly("1.|", "1.|");
        handOut.end();
        assertThat(drain(handOut)).containsExactly("2.!|");
    }

    @Test
    void aBatchMustFollowTheWholeOfTheOneBeforeAndNothingFollowsTheEnd() {
        GroupedHandOut handOut = new GroupedHandOut();
        handOut.batch(0, rows("a", "b"), keys("a", "b"));
        assertThatThrownBy(() -> handOut.batch(0, rows("c"), keys("c"))).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(handOut::end).isInstanceOf(IllegalStateException.class);
        drain(handOut);
        assertThatThrownBy(() -> handOut.batch(0, rows("c"), keys("c", "d"))).isInstanceOf(IllegalArgumentException.class);
        handOut.end();
        assertThatThrownBy(() -> handOut.batch(0, rows("c"), keys("c"))).isInstanceOf(IllegalStateException.class);
        GroupedHandOut empty = new GroupedHandOut();
        empty.end();
        assertThat(empty.next()).isNull();
        assertThat(empty.finished()).isTrue();
    }
}
