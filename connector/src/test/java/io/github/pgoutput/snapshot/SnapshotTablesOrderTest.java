package io.github.pgoutput.snapshot;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.regex.Pattern;

import io.github.pgoutput.replication.TableName;
import org.junit.jupiter.api.Test;

class SnapshotTablesOrderTest {

    private static final TableName UIDX = new TableName("public", "pt_uidx");
    private static final TableName TRUNC = new TableName("public", "pt_trunc");
    private static final TableName ARRAYS = new TableName("public", "pt_arrays");
    private static final TableName AUDIT = new TableName("audit", "log");

    @Test
    void withoutIncludeListTablesAreSortedByQualifiedName() {
        assertThat(SnapshotTables.inCaptureOrder(List.of(UIDX, TRUNC, AUDIT, ARRAYS), List.of()))
                .containsExactly(AUDIT, ARRAYS, TRUNC, UIDX);
    }

    @Test
    void tablesFollowTheIncludeListsExpressionsThenTheirNames() {
        List<Pattern> include = List.of(Pattern.compile("public\\.pt_u.*"), Pattern.compile("audit\\..*"),
                Pattern.compile("public\\..*"));

        assertThat(SnapshotTables.inCaptureOrder(List.of(ARRAYS, TRUNC, AUDIT, UIDX), include))
                .containsExactly(UIDX, AUDIT, ARRAYS, TRUNC);
    }

    @Test
    void aTableListedTwiceIsReadOnceAtItsFirstPlace() {
        List<Pattern> include = List.of(Pattern.compile("public\\.pt_trunc"), Pattern.compile("public\\..*"));

        assertThat(SnapshotTables.inCaptureOrder(List.of(UIDX, TRUNC, TRUNC, ARRAYS), include))
                .containsExactly(TRUNC, ARRAYS, UIDX);
    }
}
