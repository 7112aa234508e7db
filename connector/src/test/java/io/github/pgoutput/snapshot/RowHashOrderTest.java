package io.github.pgoutput.snapshot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.pgoutput.pgoutput.RelationColumn;
import io.github.pgoutput.replication.TableName;
import io.github.pgoutput.snapshot.ResumableProgress.KeyRange;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The order of a table without a unique key: what it reads, how it names its column list, how hashes are placed. */
class RowHashOrderTest {

    private static final TableName LOG = new TableName("public", "log");
    /** A column named like the hash's alias, and one that needs quoting. */
    private static final List<RelationColumn> COLUMNS = List.of(new RelationColumn(true, "h", 23, -1),
            new RelationColumn(true, "Say \"hi\"", 1043, 14), new RelationColumn(true, "acl", 1033, -1));
    private static final RowHashOrder ORDER = new RowHashOrder(LOG, List.of(new RowHashOrder.Hashed("h", "integer", false),
            new RowHashOrder.Hashed("Say \"hi\"", "character varying(10)", false), new RowHashOrder.Hashed("acl", "aclitem", true)),
            RowHashOrder.fingerprint(COLUMNS));
    private static final SnapshotTable TABLE = new SnapshotTable(LOG, 1, COLUMNS, -1, false, "(h > 0)");
    private static final String LOW = "0".repeat(63) + "1";
    private static final String HIGH = "f".repeat(64);

    @Test
    void theFingerprintNamesTheColumnListSoThatAnyChangeToItIsSeen() {
        String fingerprint = RowHashOrder.fingerprint(COLUMNS);
        assertThat(fingerprint).matches("h1-[0-9a-f]{16}").isEqualTo(RowHashOrder.fingerprint(new ArrayList<>(COLUMNS)));
        assertThat(RowHashOrder.fingerprint(List.of(COLUMNS.get(0), COLUMNS.get(1)))).as("a column dropped").isNotEqualTo(fingerprint);
        List<RelationColumn> added = new ArrayList<>(COLUMNS);
        added.add(new RelationColumn(true, "note", 25, -1));
        assertThat(RowHashOrder.fingerprint(added)).as("a column added").isNotEqualTo(fingerprint);
        assertThat(RowHashOrder.fingerprint(List.of(new RelationColumn(true, "h", 20, -1), COLUMNS.get(1), COLUMNS.get(2))))
                .as("another type").isNotEqualTo(fingerprint);
        assertThat(RowHashOrder.fingerprint(List.of(COLUMNS.get(0), new RelationColumn(true, "Say \"hi\"", 1043, 24), COLUMNS.get(2))))
                .as("another length").isNotEqualTo(fingerprint);
        assertThat(RowHashOrder.fingerprint(List.of(new RelationColumn(false, "h", 23, -1), COLUMNS.get(1), COLUMNS.get(2))))
                .as("the key flag is not part of the hash").isEqualTo(fingerprint);
        assertThat(ResumableProgress.decodePosition(ResumableProgress.encode(new ResumableProgress.Position(0,
                List.of(new KeyRange(List.of(LOW), List.of())), fingerprint))).rowOrder()).isEqualTo(fingerprint);
    }

    @Test
    void aRangeIsReadInHashOrderWithTheHashAfterTheColumnsWhateverTheColumnsAreCalled() {
        String copy = ORDER.orderedCopy(TABLE, new KeyRange(List.of(LOW), List.of(HIGH)));

        assertThat(copy).isEqualTo("COPY (SELECT c1, c2, c3, h FROM (SELECT encode(sha256(record_send(ROW(\"h\", \"Say \"\"hi\"\"\","
                + " (\"acl\")::text))), 'hex'), \"h\", \"Say \"\"hi\"\"\", \"acl\" FROM ONLY \"public\".\"log\" WHERE (h > 0))"
                + " AS s(h, c1, c2, c3) WHERE h COLLATE \"C\" > '" + LOW + "' AND h COLLATE \"C\" <= '" + HIGH + "'"
                + " ORDER BY h COLLATE \"C\") TO STDOUT");
        assertThat(ORDER.orderedCopy(TABLE, KeyRange.ALL)).doesNotContain(" > '").doesNotContain(" <= '")
                .endsWith(" AS s(h, c1, c2, c3) ORDER BY h COLLATE \"C\") TO STDOUT");
        assertThat(ORDER.sampledKeysCopy(TABLE, 1.5)).isEqualTo("COPY (SELECT DISTINCT h COLLATE \"C\" FROM (SELECT"
                + " encode(sha256(record_send(ROW(\"h\", \"Say \"\"hi\"\"\", (\"acl\")::text))), 'hex'), \"h\", \"Say \"\"hi\"\"\","
                + " \"acl\" FROM ONLY \"public\".\"log\" TABLESAMPLE SYSTEM (1.5) WHERE (h > 0)) AS s(h, c1, c2, c3) ORDER BY 1) TO STDOUT");
        assertThat(ORDER.keyWidth()).isEqualTo(1);
        assertThat(ORDER.extraColumns()).isEqualTo(1);
        assertThat(ORDER.rowOrder()).isEqualTo(RowHashOrder.fingerprint(COLUMNS));
    }

    @Test
    void aChangedRowIsHashedFromItsValuesCastToTheColumnsTypes() {
        assertThat(ORDER.streamHashQuery()).isEqualTo("SELECT encode(sha256(record_send(ROW(CAST(? AS integer),"
                + " CAST(? AS character varying(10)), (CAST(? AS aclitem))::text))), 'hex')");
        assertThat(ORDER.columnNames()).containsExactly("h", "Say \"hi\"", "acl");
    }

    @Test
    void theHashOfACopiedRowIsTakenOffItsValues() {
        List<String> copied = new ArrayList<>(java.util.Arrays.asList("1", null, "x", LOW));
        assertThat(ORDER.takeKey(copied)).containsExactly(LOW);
        assertThat(copied).containsExactly("1", null, "x");
    }

    @Test
    void aBoundFromTheOffsetThatIsNotAHashIsRefusedNotWrittenIntoTheQuery() {
        assertThatThrownBy(() -> ORDER.orderedCopy(TABLE, new KeyRange(List.of("' OR true --"), List.of())))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not a row hash");
        assertThatThrownBy(() -> ORDER.orderedCopy(TABLE, new KeyRange(List.of(LOW, LOW), List.of())))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theOrderReadsOnlyTheColumnListItWasMadeFor() {
        SnapshotTable widened = new SnapshotTable(LOG, 1, List.of(COLUMNS.get(0)), -1, false, null);
        assertThatThrownBy(() -> ORDER.orderedCopy(widened, KeyRange.ALL)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("does not fit");
    }

    @Test
    void aHashLiesInARangeByTheOrderOfItsBytes() {
        String mid = "8" + "0".repeat(63);
        KeyRange range = new KeyRange(List.of(mid), List.of(HIGH));
        assertThat(RowHashOrder.inRange(mid, range)).as("the lower bound was read").isFalse();
        assertThat(RowHashOrder.inRange("8" + "0".repeat(62) + "1", range)).isTrue();
        assertThat(RowHashOrder.inRange("a" + "0".repeat(63), range)).as("letters after digits").isTrue();
        assertThat(RowHashOrder.inRange(HIGH, range)).as("the upper bound is in").isTrue();
        assertThat(RowHashOrder.inRange("7" + "f".repeat(63), range)).isFalse();
        assertThat(RowHashOrder.inRange(LOW, KeyRange.ALL)).isTrue();
        assertThat(RowHashOrder.inRange(LOW, new KeyRange(List.of(), List.of(mid)))).isTrue();
    }
}
