package io.github.pgoutput.snapshot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.pgoutput.replication.TableName;
import io.github.pgoutput.snapshot.IncrementalSnapshotState.Table;
import java.util.List;
import org.junit.jupiter.api.Test;

class IncrementalSnapshotStateTest {

    private static final Table ORDERS = new Table(new TableName("public", "orders"), null);
    private static final Table ODD = new Table(new TableName("Sales:2026", "a,b|c"), "note = 'x|y,z' AND id > 3");

    @Test
    void roundTripsTablesKeysAndConditionsWhateverCharactersTheyHold() {
        IncrementalSnapshotState state = new IncrementalSnapshotState(List.of(ODD, ORDERS), List.of("", "a,b", "100%|:x", "é"), true);

        assertThat(IncrementalSnapshotState.decode(state.encode())).isEqualTo(state);
        assertThat(IncrementalSnapshotState.decode(IncrementalSnapshotState.NONE.encode())).isEqualTo(IncrementalSnapshotState.NONE);
        IncrementalSnapshotState oneEmptyKey = new IncrementalSnapshotState(List.of(ORDERS), List.of(""), false);
        assertThat(IncrementalSnapshotState.decode(oneEmptyKey.encode()).after()).containsExactly("");
    }

    @Test
    void queuesEachTableOnceAndMovesOnTableByTable() {
        IncrementalSnapshotState state = IncrementalSnapshotState.NONE.with(List.of(ORDERS)).with(List.of(ORDERS, ODD));
        assertThat(state.tables()).containsExactly(ORDERS, ODD);

        state = state.readThrough(List.of("7"));
        assertThat(state.current()).isEqualTo(ORDERS);
        assertThat(state.after()).containsExactly("7");
        state = state.tableDone();
        assertThat(state.current()).isEqualTo(ODD);
        assertThat(state.after()).isEmpty();
        assertThat(state.tableDone().active()).isFalse();
    }

    @Test
    void stopDropsTheNamedTablesAndThePauseEndsWithTheLastTable() {
        IncrementalSnapshotState state = IncrementalSnapshotState.NONE.with(List.of(ORDERS, ODD)).readThrough(List.of("7")).paused(true);

        IncrementalSnapshotState stopped = state.without(t -> t.equals(ORDERS.name()));
        assertThat(stopped.tables()).containsExactly(ODD);
        assertThat(stopped.after()).as("the next table starts at its first row").isEmpty();
        assertThat(stopped.paused()).isTrue();
        IncrementalSnapshotState none = state.without(t -> true);
        assertThat(none.active()).isFalse();
        assertThat(none.paused()).isFalse();
        assertThat(state.without(t -> t.equals(ODD.name())).after()).containsExactly("7");
    }

    @Test
    void refusesTextItDidNotWrite() {
        assertThatThrownBy(() -> IncrementalSnapshotState.decode("running|7|public:orders:")).hasMessageContaining("not an incremental snapshot position");
        assertThatThrownBy(() -> IncrementalSnapshotState.decode("going|v7|public:orders:")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> IncrementalSnapshotState.decode("running|v7|public.orders")).isInstanceOf(IllegalArgumentException.class);
    }
}
