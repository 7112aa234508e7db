package io.github.pgoutput.replication;

import io.github.pgoutput.pgoutput.Lsn;

/**
 * One row of {@code pg_replication_slots}, as far as this package needs it. Immutable.
 *
 * @param slotName          the slot's name
 * @param plugin            output plugin, null for a physical slot
 * @param slotType          {@code logical} or {@code physical}
 * @param database          database of a logical slot, null for a physical one
 * @param activePid         PID of the walsender using the slot, 0 when inactive
 * @param twoPhase          whether prepared transactions are decoded at PREPARE time (a slot property, docs/pgoutput-protocol.md §6.5)
 * @param confirmedFlushLsn the slot's confirmed_flush_lsn; {@link Lsn#INVALID} for a physical slot
 * @param restartLsn        the slot's restart_lsn; {@link Lsn#INVALID} when none is reserved
 * @param walStatus         the slot's wal_status ({@code reserved}, {@code extended}, {@code unreserved} or
 *                          {@code lost}); null when the slot reserves no WAL
 */
public record SlotInfo(String slotName, String plugin, String slotType, String database, int activePid, boolean twoPhase,
                       Lsn confirmedFlushLsn, Lsn restartLsn, String walStatus) {

    public boolean isActive() {
        return activePid != 0;
    }

    /** Whether the slot was invalidated ({@code wal_status = 'lost'}): it can never stream again. */
    public boolean isLost() {
        return "lost".equals(walStatus);
    }
}
