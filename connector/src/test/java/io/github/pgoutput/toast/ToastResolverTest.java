package io.github.pgoutput.toast;

import static io.github.pgoutput.toast.ToastScript.DOCS;
import static io.github.pgoutput.toast.ToastScript.U;
import static io.github.pgoutput.toast.ToastScript.big;
import static io.github.pgoutput.toast.ToastScript.commitPrepared;
import static io.github.pgoutput.toast.ToastScript.delete;
import static io.github.pgoutput.toast.ToastScript.insert;
import static io.github.pgoutput.toast.ToastScript.prepared;
import static io.github.pgoutput.toast.ToastScript.rollbackPrepared;
import static io.github.pgoutput.toast.ToastScript.truncate;
import static io.github.pgoutput.toast.ToastScript.tx;
import static io.github.pgoutput.toast.ToastScript.update;
import static io.github.pgoutput.toast.ToastScript.updateKey;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.pgoutput.assembly.Delivery;
import io.github.pgoutput.connect.Deliveries;
import io.github.pgoutput.pgoutput.Lsn;
import io.github.pgoutput.pgoutput.PgOutputMessage;
import io.github.pgoutput.pgoutput.RelationColumn;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The store's side: which values it puts in, in commit order, and which it must not. No reselect here. */
class ToastResolverTest {

    @TempDir
    Path directory;

    private ToastStore store;
    private ToastStats stats;

    @BeforeEach
    void openStore() {
        store = ToastStore.open(new ToastStore.Settings(directory.resolve("store"), 64L << 20, 8L << 20), "test");
        stats = new ToastStats();
    }

    @AfterEach
    void closeStore() {
        store.close();
    }

    private ReselectBatch batch() {
        return batch(ToastResolver.ColumnSelection.ALL);
    }

    private ReselectBatch batch(ToastResolver.ColumnSelection selection) {
        return new ReselectBatch(new ToastResolver(store, (schema, table) -> true, selection, 100, stats), null, 100, 1L << 20);
    }

    private List<ToastScript.Out> run(ReselectBatch batch, PgOutputMessage[]... transactions) {
        return ToastScript.run(directory.resolve("spill"), batch, Deliveries.concat(transactions));
    }

    private static ToastScript.Out last(List<ToastScript.Out> out) {
        return out.get(out.size() - 1);
    }

    @Test
    void anUnchangedValueIsTheOneTheRowWasInsertedWith() {
        List<ToastScript.Out> out = run(batch(), tx(700, 0x1000, insert("1", big("a"), "n")), tx(701, 0x2000, update("1", U, "m")));

        assertThat(last(out).values()).containsExactly("1", big("a"), "m");
        assertThat(last(out).unresolved()).isEmpty();
        assertThat(stats.storeHits()).isEqualTo(1);
    }

    @Test
    void anUnchangedValueIsTheOneTheSnapshotRead() {
        new ToastResolver(store, (s, t) -> true, ToastResolver.ColumnSelection.ALL, 100, stats)
                .snapshotRow(ToastScript.TABLE, "public", "docs", DOCS.columns(), java.util.Arrays.asList("1", big("s"), null), Lsn.of(0x800));

        List<ToastScript.Out> out = run(batch(), tx(701, 0x2000, update("1", U, "m")));

        assertThat(last(out).values()).containsExactly("1", big("s"), "m");
    }

    @Test
    void anUpdateThatChangesTheValueIsWhatLaterUnchangedValuesGet() {
        List<ToastScript.Out> out = run(batch(), tx(700, 0x1000, insert("1", big("a"), "n")),
                tx(701, 0x2000, update("1", U, "x"), update("1", big("b"), "y")),
                tx(702, 0x3000, update("1", U, "z")));

        assertThat(out.get(1).values()).as("before the column changed").containsExactly("1", big("a"), "x");
        assertThat(last(out).values()).as("after").containsExactly("1", big("b"), "z");
    }

    @Test
    void aDeletedRowHasNoStoredValueWhenItsKeyComesBack() {
        List<ToastScript.Out> out = run(batch(), tx(700, 0x1000, insert("1", big("a"), "n")), tx(701, 0x2000, delete("1")),
                tx(702, 0x3000, insert("1", "short", "n")), tx(703, 0x4000, update("1", U, "m")));

        assertThat(last(out).values()).containsExactly("1", U, "m");
        assertThat(last(out).unresolved()).containsExactly("body");
    }

    @Test
    void aTruncateForgetsTheTablesRows() {
        List<ToastScript.Out> out = run(batch(), tx(700, 0x1000, insert("1", big("a"), "n")), tx(701, 0x2000, truncate()),
                tx(703, 0x4000, update("1", U, "m")));

        assertThat(last(out).unresolved()).containsExactly("body");
    }

    @Test
    void aValueTooShortToStoreForgetsTheOlderLongOne() {
        List<ToastScript.Out> out = run(batch(), tx(700, 0x1000, insert("1", big("a"), "n")), tx(701, 0x2000, update("1", "short", "n")),
                tx(702, 0x3000, update("1", U, "m")));

        assertThat(last(out).values()).containsExactly("1", U, "m");
    }

    @Test
    void aKeyChangeTakesTheValueOfTheOldKeyAndMovesItToTheNewOne() {
        List<ToastScript.Out> out = run(batch(), tx(700, 0x1000, insert("1", big("a"), "n")),
                tx(701, 0x2000, updateKey("1", "2", U, "n")), tx(702, 0x3000, update("2", U, "m")),
                tx(703, 0x4000, insert("1", "short", null), update("1", U, null)));

        assertThat(out.get(1).values()).containsExactly("2", big("a"), "n");
        assertThat(out.get(2).values()).containsExactly("2", big("a"), "m");
        assertThat(last(out).unresolved()).as("the old key's value moved away").containsExactly("body");
    }

    @Test
    void aChangedTableDefinitionForgetsTheTablesRows() {
        PgOutputMessage altered = ToastScript.relation(List.of(new RelationColumn(true, "id", 23, -1),
                new RelationColumn(false, "body", 3802, -1), new RelationColumn(false, "note", 25, -1)));

        List<ToastScript.Out> out = run(batch(), tx(700, 0x1000, insert("1", big("a"), "n")),
                new PgOutputMessage[] {altered}, tx(701, 0x2000, update("1", U, "m")));

        assertThat(last(out).unresolved()).as("body is jsonb now: the text stored is not its value").containsExactly("body");
    }

    @Test
    void aValueStoredAtOrAfterTheChangeIsNotUsedWhenDeliveriesComeAgain() {
        PgOutputMessage[] first = tx(700, 0x1000, insert("1", big("a"), "n"));
        PgOutputMessage[] unchanged = tx(701, 0x2000, update("1", U, "x"));
        PgOutputMessage[] changed = tx(702, 0x3000, update("1", big("b"), "y"));
        run(batch(), first, unchanged, changed);

        // After a crash PostgreSQL sends 701 and 702 again; the store already holds 702's value.
        List<ToastScript.Out> replay = run(batch(), unchanged, changed);

        assertThat(replay.get(0).values()).as("702's value is newer than 701").containsExactly("1", U, "x");
        assertThat(replay.get(0).unresolved()).containsExactly("body");
    }

    @Test
    void aPreparedTransactionGetsTheCommittedValueAndItsOwnValuesCountOnlyOnceCommitted() {
        List<ToastScript.Out> out = run(batch(), tx(700, 0x1000, insert("1", big("a"), "n")),
                prepared(701, 0x2000, "g1", update("1", U, "x"), update("1", big("b"), "y"), update("1", U, "z")),
                tx(702, 0x2100, insert("9", "short", null)),
                commitPrepared(701, 0x3000, "g1"), tx(703, 0x4000, update("1", U, "w")));

        assertThat(out.get(1).kind()).isEqualTo(Delivery.Kind.PREPARED);
        assertThat(out.get(1).values()).containsExactly("1", big("a"), "x");
        assertThat(out.get(3).values()).as("its own earlier change").containsExactly("1", big("b"), "z");
        assertThat(last(out).values()).as("after COMMIT PREPARED").containsExactly("1", big("b"), "w");
    }

    @Test
    void aRolledBackPreparedTransactionLeavesTheCommittedValue() {
        List<ToastScript.Out> out = run(batch(), tx(700, 0x1000, insert("1", big("a"), "n")),
                prepared(701, 0x2000, "g1", update("1", big("b"), "y")),
                rollbackPrepared(701, 0x2020, 0x3000, "g1"), tx(703, 0x4000, update("1", U, "w")));

        assertThat(last(out).values()).containsExactly("1", big("a"), "w");
    }

    @Test
    void columnsLeftOutOfTheSelectionStayThePlaceholderAndAreNotNamed() {
        List<ToastScript.Out> out = run(batch((schema, table, column) -> !column.equals("body")),
                tx(700, 0x1000, insert("1", big("a"), big("n"))), tx(701, 0x2000, update("1", U, U)));

        assertThat(last(out).values()).containsExactly("1", U, big("n"));
        assertThat(last(out).unresolved()).isEmpty();
    }

    @Test
    void tablesNoLongerCapturedAreForgottenAtStart() {
        run(batch(), tx(700, 0x1000, insert("1", big("a"), "n")));

        new ToastResolver(store, (schema, table) -> !table.equals("docs"), ToastResolver.ColumnSelection.ALL, 100, stats)
                .forgetTablesNotCaptured();

        assertThat(store.get(new RowKey(ToastScript.TABLE, List.of("1")))).isEmpty();
    }

    @Test
    void theWatermarkFollowsEachDeliverysEnd() {
        run(batch(), tx(700, 0x1000, insert("1", big("a"), "n")), tx(701, 0x2000, update("1", "x", "y")));

        assertThat(store.watermark()).isEqualTo(Lsn.of(0x2020));
    }
}
