package io.github.pgoutput.toast;

import static io.github.pgoutput.toast.ToastScript.U;
import static io.github.pgoutput.toast.ToastScript.big;
import static io.github.pgoutput.toast.ToastScript.delete;
import static io.github.pgoutput.toast.ToastScript.insert;
import static io.github.pgoutput.toast.ToastScript.tx;
import static io.github.pgoutput.toast.ToastScript.update;
import static io.github.pgoutput.toast.ToastScript.updateKey;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.pgoutput.connect.Deliveries;
import io.github.pgoutput.pgoutput.PgOutputMessage;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The reselect's side: values the store lacks are taken from the current row only when it is proven to be the change's. */
class ReselectBatchTest {

    @TempDir
    Path directory;

    private ToastStore store;
    private final ToastStats stats = new ToastStats();
    private final ToastScript.Rows rows = new ToastScript.Rows();

    @BeforeEach
    void openStore() {
        store = ToastStore.open(new ToastStore.Settings(directory.resolve("store"), 64L << 20, 8L << 20), "test");
    }

    @AfterEach
    void closeStore() {
        store.close();
    }

    private ReselectBatch batch(int window) {
        return new ReselectBatch(new ToastResolver(store, (schema, table) -> true, ToastResolver.ColumnSelection.ALL, 100, stats),
                rows, window, 1L << 20);
    }

    private List<ToastScript.Out> run(ReselectBatch batch, PgOutputMessage[]... transactions) {
        return ToastScript.run(directory.resolve("spill"), batch, Deliveries.concat(transactions));
    }

    @Test
    void takesTheCurrentValueWhenTheRowWasLastWrittenByTheChangesTransaction() {
        rows.row("1", 701, big("current"), "m");

        List<ToastScript.Out> out = run(batch(100), tx(701, 0x2000, update("1", U, "m")));

        assertThat(out.get(0).values()).containsExactly("1", big("current"), "m");
        assertThat(out.get(0).unresolved()).isEmpty();
        assertThat(stats.reselectHits()).isEqualTo(1);
    }

    @Test
    void leavesThePlaceholderWhenALaterTransactionWroteTheRow() {
        rows.row("1", 999, big("newer"), "q");

        List<ToastScript.Out> out = run(batch(100), tx(701, 0x2000, update("1", U, "m")));

        assertThat(out.get(0).values()).containsExactly("1", U, "m");
        assertThat(out.get(0).unresolved()).containsExactly("body");
        assertThat(stats.unresolved()).isEqualTo(1);
    }

    @Test
    void leavesThePlaceholderWhenTheRowIsGone() {
        List<ToastScript.Out> out = run(batch(100), tx(701, 0x2000, update("1", U, "m")));

        assertThat(out.get(0).unresolved()).containsExactly("body");
    }

    @Test
    void leavesThePlaceholderWhenALaterChangeOfTheTransactionSetTheColumn() {
        rows.row("1", 701, big("b"), "y");

        List<ToastScript.Out> out = run(batch(100), tx(701, 0x2000, update("1", U, "x"), update("1", big("b"), "y")));

        assertThat(out.get(0).values()).as("b is the later change's value, not this one's").containsExactly("1", U, "x");
        assertThat(out.get(0).unresolved()).containsExactly("body");
    }

    @Test
    void takesTheValueWhenLaterChangesOfTheTransactionLeftTheColumnUnchanged() {
        rows.row("1", 701, big("c"), "z");

        List<ToastScript.Out> out = run(batch(100), tx(701, 0x2000, update("1", U, "x"), update("1", U, "z")));

        assertThat(out).extracting(ToastScript.Out::values)
                .containsExactly(List.of("1", big("c"), "x"), List.of("1", big("c"), "z"));
    }

    @Test
    void leavesThePlaceholderWhenALaterChangeOfTheTransactionDeletedOrMovedTheRow() {
        rows.row("1", 701, big("other"), "n");

        List<ToastScript.Out> deleted = run(batch(100), tx(701, 0x2000, update("1", U, "x"), delete("1"), insert("1", big("other"), "n")));
        List<ToastScript.Out> moved = run(batch(100), tx(702, 0x3000, update("5", U, "x"), updateKey("5", "6", U, "x")));

        assertThat(deleted.get(0).unresolved()).containsExactly("body");
        assertThat(moved.get(0).unresolved()).containsExactly("body");
    }

    @Test
    void leavesThePlaceholderWhenTheTransactionGoesOnPastTheWindow() {
        rows.row("1", 701, big("c"), "x");

        List<ToastScript.Out> out = run(batch(2), tx(701, 0x2000, update("1", U, "x"), insert("2", "a", "b"), insert("3", "a", "b")));

        assertThat(out.get(0).unresolved()).containsExactly("body");
        assertThat(rows.queries).isEmpty();
    }

    @Test
    void readsTheRowsOfATransactionWithOneQuery() {
        rows.row("1", 701, big("x1"), "a").row("2", 701, big("x2"), "a").row("3", 701, big("x3"), "a");

        List<ToastScript.Out> out = run(batch(100), tx(701, 0x2000, update("1", U, "a"), update("2", U, "a"), update("3", U, "a")));

        assertThat(out).allSatisfy(o -> assertThat(o.unresolved()).isEmpty());
        assertThat(rows.queries).hasSize(1);
        assertThat(rows.queries.get(0)).hasSize(3);
        assertThat(stats.reselectQueries()).isEqualTo(1);
    }

    @Test
    void sendsNoQueryForADeliveryAlreadyInKafka() {
        rows.row("1", 701, big("x"), "a");

        List<ToastScript.Out> out = ToastScript.run(directory.resolve("spill"), batch(100), false, tx(701, 0x2000, update("1", U, "a")));

        assertThat(rows.queries).isEmpty();
        assertThat(out.get(0).unresolved()).containsExactly("body");
    }

    @Test
    void aProvenValueJoinsTheStoreSoTheNextChangeNeedsNoQuery() {
        rows.row("1", 701, big("x"), "a");
        ReselectBatch batch = batch(100);

        run(batch, tx(701, 0x2000, update("1", U, "a")));
        rows.rows.clear();
        List<ToastScript.Out> out = run(batch, tx(702, 0x3000, update("1", U, "b")));

        assertThat(out.get(0).values()).containsExactly("1", big("x"), "b");
        assertThat(rows.queries).hasSize(1);
    }

    @Test
    void aFailedQueryLeavesThePlaceholderAndTellsWhy() {
        rows.failure = new SQLException("connection lost", "08006");
        ReselectBatch batch = batch(100);
        List<ToastScript.Out> out = run(batch, tx(701, 0x2000, update("1", U, "a")));

        assertThat(out.get(0).unresolved()).containsExactly("body");
    }

    @Test
    void changesWithNothingToProveAreHandedOutAsTheyCome() {
        List<ToastScript.Out> out = run(batch(1), tx(701, 0x2000, insert("1", big("a"), "n"), update("1", U, "m"), update("1", "s", "t")));

        assertThat(out).extracting(ToastScript.Out::values).containsExactly(List.of("1", big("a"), "n"), List.of("1", big("a"), "m"),
                List.of("1", "s", "t"));
        assertThat(rows.queries).isEmpty();
    }
}
