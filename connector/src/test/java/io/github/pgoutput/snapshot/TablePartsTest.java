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

    @Test
    void aWholeTableQueuesItsLastRowMarkedLastWhenItEnds() {
        TableParts parts = new TableParts(1);
        assertThat(parts.partEnded(0, row("9"))).singleElement().satisfies(r -> {
            assertThat(r.part()).isZero();
            assertThat(r.row().values()).containsExactly("9");
            assertThat(r.row().lastInTable()).isTrue();
        });
        assertThat(parts.done()).isTrue();
    }

    @Test
    void theLastRowOfTheLastPartWithRowsIsTheTablesLastEvenWhenAnEmptyPartEndsAfterIt() {
        TableParts parts = new TableParts(3);
        assertThat(parts.partEnded(4, row("1"))).as("held: a later part may end with a row").isEmpty();
        assertThat(parts.partEnded(5, row("2"))).as("the earlier part's row goes, unmarked, with the part it was read in")
                .singleElement().satisfies(r -> assertThat(r.row().values()).containsExactly("1"))
                .satisfies(r -> assertThat(r.part()).isEqualTo(4))
                .satisfies(r -> assertThat(r.row().lastInTable()).isFalse());
        assertThat(parts.done()).isFalse();
        assertThat(parts.partEnded(6, null)).as("an empty last part releases the held row as the table's last, of its own part")
                .singleElement().satisfies(r -> {
                    assertThat(r.part()).isEqualTo(5);
                    assertThat(r.row().values()).containsExactly("2");
                    assertThat(r.row().lastInTable()).isTrue();
                });
        assertThat(parts.done()).isTrue();
    }

    @Test
    void aTableWhosePartsAreAllEmptyQueuesNothingAndEndsOnce() {
        TableParts parts = new TableParts(2);
        assertThat(parts.partEnded(0, null)).isEmpty();
        assertThat(parts.partEnded(1, null)).isEmpty();
        assertThat(parts.done()).isTrue();
        assertThatThrownBy(() -> parts.partEnded(2, null)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> new TableParts(0)).isInstanceOf(IllegalArgumentException.class);
    }
}
