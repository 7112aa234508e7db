package io.github.pgoutput.snapshot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.pgoutput.pgoutput.RelationColumn;
import io.github.pgoutput.replication.TableName;
import java.util.List;
import org.junit.jupiter.api.Test;

class TablePartsTest {

    private static final SnapshotTable TABLE = new SnapshotTable(new TableName("public", "big"), 1,
            List.of(new RelationColumn(true, "id", 23, -1)), 3, false, null);

    private static SnapshotRow row(String id) {
        return new SnapshotRow(TABLE, List.of(id), false, false, SnapshotRow.Marker.TRUE);
    }

    private static TableParts.PartRows group(int part, String... ids) {
        return new TableParts.PartRows(part, java.util.Arrays.stream(ids).map(TablePartsTest::row).toList(), List.of(ids[0]));
    }

    @Test
    void aWholeTableQueuesItsLastRowMarkedLastWhenItEnds() {
        TableParts parts = new TableParts(1);
        assertThat(parts.partEnded(group(0, "9"))).singleElement().satisfies(r -> {
            assertThat(r.part()).isZero();
            assertThat(r.rows()).singleElement().satisfies(last -> {
                assertThat(last.values()).containsExactly("9");
                assertThat(last.lastInTable()).isTrue();
            });
        });
        assertThat(parts.done()).isTrue();
    }

    @Test
    void theLastRowOfTheLastPartWithRowsIsTheTablesLastEvenWhenAnEmptyPartEndsAfterIt() {
        TableParts parts = new TableParts(3);
        assertThat(parts.partEnded(group(4, "1"))).as("held: a later part may end with a row").isEmpty();
        assertThat(parts.partEnded(group(5, "2"))).as("the earlier part's row goes, unmarked, with the part it was read in")
                .singleElement().satisfies(r -> assertThat(r.rows()).singleElement().satisfies(first -> {
                    assertThat(first.values()).containsExactly("1");
                    assertThat(first.lastInTable()).isFalse();
                }))
                .satisfies(r -> assertThat(r.part()).isEqualTo(4));
        assertThat(parts.done()).isFalse();
        assertThat(parts.partEnded(null)).as("an empty last part releases the held row as the table's last, of its own part")
                .singleElement().satisfies(r -> {
                    assertThat(r.part()).isEqualTo(5);
                    assertThat(r.rows()).singleElement().satisfies(last -> {
                        assertThat(last.values()).containsExactly("2");
                        assertThat(last.lastInTable()).isTrue();
                    });
                });
        assertThat(parts.done()).isTrue();
    }

    @Test
    void aPartsLastGroupOfIdenticalRowsIsQueuedWholeWithOnlyItsLastRowMarkedTheTablesLast() {
        TableParts parts = new TableParts(2);
        assertThat(parts.partEnded(group(0, "7", "7", "7"))).isEmpty();
        assertThat(parts.partEnded(group(1, "8", "8"))).satisfiesExactly(r -> {
            assertThat(r.part()).isZero();
            assertThat(r.key()).containsExactly("7");
            assertThat(r.rows()).hasSize(3).noneMatch(SnapshotRow::lastInTable);
        }, r -> {
            assertThat(r.part()).isOne();
            assertThat(r.rows()).extracting(SnapshotRow::lastInTable).containsExactly(false, true);
        });
        assertThat(parts.done()).isTrue();
        TableParts whole = new TableParts(1);
        assertThat(whole.partEnded(group(3, "5", "5"))).singleElement().satisfies(r -> {
            assertThat(r.key()).containsExactly("5");
            assertThat(r.rows()).extracting(SnapshotRow::lastInTable).containsExactly(false, true);
        });
    }

    @Test
    void aTableWhosePartsAreAllEmptyQueuesNothingAndEndsOnce() {
        TableParts parts = new TableParts(2);
        assertThat(parts.partEnded(null)).isEmpty();
        assertThat(parts.partEnded(null)).isEmpty();
        assertThat(parts.done()).isTrue();
        assertThatThrownBy(() -> parts.partEnded(null)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> new TableParts(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new TableParts.PartRows(0, List.of(), null)).isInstanceOf(IllegalArgumentException.class);
    }
}
