package io.github.pgoutput.snapshot;

import io.github.pgoutput.pgoutput.Lsn;

import java.util.Objects;

/** The replication slot as seen in {@code pg_replication_slots}, reduced to what the snapshot decision needs. */
public sealed interface SlotState {

    /** No slot of that name. */
    record Missing() implements SlotState {
    }

    /** The slot exists but was invalidated ({@code wal_status = 'lost'}): it can never stream again. */
    record Lost() implements SlotState {
    }

    /** A usable slot with its positions. */
    record Usable(Lsn confirmedFlushLsn, Lsn restartLsn) implements SlotState {
        public Usable {
            Objects.requireNonNull(confirmedFlushLsn, "confirmedFlushLsn");
            Objects.requireNonNull(restartLsn, "restartLsn");
        }
    }
}
