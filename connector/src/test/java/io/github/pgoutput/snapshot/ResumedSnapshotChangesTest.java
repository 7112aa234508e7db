package io.github.pgoutput.snapshot;

import static io.github.pgoutput.connect.Deliveries.transaction;
import static io.github.pgoutput.connect.Deliveries.tuple;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.pgoutput.assembly.ChangeEvent;
import io.github.pgoutput.connect.Deliveries;
import io.github.pgoutput.pgoutput.Lsn;
import io.github.pgoutput.pgoutput.OldTuple;
import io.github.pgoutput.pgoutput.PgOutputMessage.Relation;
import io.github.pgoutput.pgoutput.PgOutputMessage;
import io.github.pgoutput.pgoutput.RelationColumn;
import io.github.pgoutput.pgoutput.ReplicaIdentity;
import io.github.pgoutput.pgoutput.Xid;
import io.github.pgoutput.replication.TableName;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What streaming delivers of a change committed while an exactly-once snapshot was interrupted: each side of a change
 * (the row an Insert adds, the row a Delete removes, the old and the new row of an Update) is delivered only when the
 * snapshot read its row before the change, so that a consumer of a table without a key, counting identical rows, ends
 * with each row as often as the table holds it.
 */
class ResumedSnapshotChangesTest {

    /** The resumption read its rows at 0/9000; the changes below are committed at 0/5000, inside the gap. */
    private static final Lsn READ_AT = Lsn.of(0x9000);
    private static final long GAP_COMMIT = 0x5000;
    private static final Relation LOG = new Relation(Xid.INVALID, 16500, "public", "log", ReplicaIdentity.FULL,
            List.of(new RelationColumn(true, "v", 25, -1), new RelationColumn(true, "body", 25, -1)));
    private static final Relation KEYED = new Relation(Xid.INVALID, 16501, "public", "keyed", ReplicaIdentity.DEFAULT,
            List.of(new RelationColumn(true, "id", 23, -1), new RelationColumn(false, "note", 25, -1)));

    @TempDir
    Path spill;

    /**
     * A placement whose rows with a {@code v} (or {@code id}) starting with "late" were read at {@link #READ_AT}, the
     * others before the gap; it notes every row it is asked about.
     */
    private static final class ReadLateRows implements RowPlacement {
        final List<ChangedRow> asked = new ArrayList<>();
        boolean truncateConflict;

        @Override
        public boolean contains(Lsn commitLsn, TableName table, ChangedRow row) {
            asked.add(row);
            String v = row.texts().containsKey("v") ? row.texts().get("v") : row.texts().get("id");
            return v != null && v.startsWith("late") && commitLsn.isBefore(READ_AT);
        }

        @Override
        public boolean truncateConflicts(Lsn commitLsn, TableName table) {
            return truncateConflict;
        }

        @Override
        public void close() {
        }
    }

    private final ReadLateRows placement = new ReadLateRows();
    private final ResumedSnapshotChanges filter = new ResumedSnapshotChanges(READ_AT, placement);

    /** What the filter makes of the one change of a transaction committed at {@code commitLsn}. */
    private ChangeEvent lacking(long commitLsn, Relation relation, PgOutputMessage change) {
        List<Deliveries.Read> reads = Deliveries.assemble(spill, Deliveries.concat(new PgOutputMessage[] {relation},
                transaction(700, commitLsn, change)));
        Deliveries.Read read = reads.get(0);
        return filter.lacking(read.changes().get(0), read.delivery());
    }

    private static PgOutputMessage.Update update(String oldV, String newV, String newBody) {
        return new PgOutputMessage.Update(Xid.INVALID, LOG.relationId(), Optional.of(new OldTuple(OldTuple.Kind.FULL,
                tuple(oldV, "old body"))), tuple(newV, newBody));
    }

    @Test
    void anInsertOrDeleteIsSkippedExactlyWhenItsRowWasReadAfterIt() {
        assertThat(lacking(GAP_COMMIT, LOG, new PgOutputMessage.Insert(Xid.INVALID, LOG.relationId(), tuple("late 1", "b"))))
                .as("the row read after holds the insert").isNull();
        ChangeEvent early = lacking(GAP_COMMIT, LOG, new PgOutputMessage.Insert(Xid.INVALID, LOG.relationId(), tuple("early 1", "b")));
        assertThat(early).as("the part read before lacks it").isNotNull();
        assertThat(early.message()).isInstanceOf(PgOutputMessage.Insert.class);
        assertThat(lacking(GAP_COMMIT, LOG, new PgOutputMessage.Delete(Xid.INVALID, LOG.relationId(),
                new OldTuple(OldTuple.Kind.FULL, tuple("late 2", "b"))))).isNull();
        assertThat(lacking(GAP_COMMIT, LOG, new PgOutputMessage.Delete(Xid.INVALID, LOG.relationId(),
                new OldTuple(OldTuple.Kind.FULL, tuple("early 2", "b"))))).isNotNull();
    }

    @Test
    void anUpdateFromARowReadBeforeToARowReadAfterDeliversOnlyTheRemovalOfTheOldRow() {
        ChangeEvent side = lacking(GAP_COMMIT, LOG, update("early", "late", "new body"));

        assertThat(side.message()).isInstanceOfSatisfying(PgOutputMessage.Delete.class, delete -> {
            assertThat(delete.oldTuple().tuple()).isEqualTo(tuple("early", "old body"));
            assertThat(delete.relationId()).isEqualTo(LOG.relationId());
        });
        assertThat(side.relations()).containsExactly(LOG);
    }

    @Test
    void anUpdateFromARowReadAfterToARowReadBeforeDeliversOnlyTheNewRowWithItsUnchangedToastValuesFromTheOldRow() {
        ChangeEvent side = lacking(GAP_COMMIT, LOG, update("late", "early", "\u0000u"));

        assertThat(side.message()).isInstanceOfSatisfying(PgOutputMessage.Insert.class,
                insert -> assertThat(insert.newTuple()).as("the unchanged TOAST value, from the whole old row")
                        .isEqualTo(tuple("early", "old body")));
        assertThat(placement.asked).as("the new row was placed with the value it really has")
                .anySatisfy(row -> assertThat(row.texts()).containsEntry("v", "early").containsEntry("body", "old body"));
    }

    @Test
    void anUpdateWithinOnePartIsDeliveredWholeOrSkippedWhole() {
        assertThat(lacking(GAP_COMMIT, LOG, update("late a", "late b", "x"))).isNull();
        ChangeEvent whole = lacking(GAP_COMMIT, LOG, update("early a", "early b", "x"));
        assertThat(whole.message()).isInstanceOf(PgOutputMessage.Update.class);
        PgOutputMessage.Update sameKey = new PgOutputMessage.Update(Xid.INVALID, KEYED.relationId(), Optional.empty(),
                tuple("late 7", "note"));
        assertThat(lacking(GAP_COMMIT, KEYED, sameKey)).as("no old row: the key did not change, one place").isNull();
    }

    @Test
    void aChangeCommittedAtOrAfterTheLastResumptionsPointIsDeliveredWholeWithoutPlacingIt() {
        assertThat(lacking(READ_AT.value(), LOG, update("early", "late", "x")).message())
                .isInstanceOf(PgOutputMessage.Update.class);
        assertThat(placement.asked).as("nothing to place past the last resumption").isEmpty();
    }

    @Test
    void aKeyOnlyOldRowIsPlacedByItsKeyColumnsAloneNotByTheNullsSentForTheOthers() {
        PgOutputMessage.Update keyChange = new PgOutputMessage.Update(Xid.INVALID, KEYED.relationId(),
                Optional.of(new OldTuple(OldTuple.Kind.KEY, tuple("early 3", null))), tuple("late 3", "n"));

        ChangeEvent side = lacking(GAP_COMMIT, KEYED, keyChange);

        assertThat(side.message()).isInstanceOf(PgOutputMessage.Delete.class);
        assertThat(placement.asked).anySatisfy(row -> assertThat(row.texts()).isEqualTo(Map.of("id", "early 3")));
    }

    @Test
    void aTruncateOfATablePartlyReadAfterItFailsNamingTheWayOut() {
        placement.truncateConflict = true;
        PgOutputMessage.Truncate truncate = new PgOutputMessage.Truncate(Xid.INVALID, 0, List.of(LOG.relationId()));
        assertThatThrownBy(() -> lacking(GAP_COMMIT, LOG, truncate)).isInstanceOfSatisfying(SnapshotException.class,
                e -> assertThat(e.reason()).isEqualTo(SnapshotException.Reason.NOT_RESUMABLE))
                .hasMessageContaining("public.log was truncated").hasMessageContaining("DELETE /connectors/<name>/offsets");
        placement.truncateConflict = false;
        assertThat(lacking(GAP_COMMIT, LOG, truncate)).isNotNull();
    }
}
