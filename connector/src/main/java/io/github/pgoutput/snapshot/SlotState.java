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

    /**
     * A usable slot with its positions.
     *
     * @param confirmedFlushLsn {@code confirmed_flush_lsn}; a slot nobody has confirmed anything to since its creation
     *                          still shows its consistent point here
     * @param restartLsn        {@code restart_lsn}
     * @param active            true while a walsender (or a backend) holds the slot
     */
    record Usable(Lsn confirmedFlushLsn, Lsn restartLsn, boolean active) implements SlotState {
        public Usable {
            Objects.requireNonNull(confirmedFlushLsn, "confirmedFlushLsn");
            Objects.requireNonNull(restartLsn, "restartLsn");
        }
    }
}
